// A video monitor built on GstCudaHistogramMeta: runs a file (or videotestsrc)
// through cudahistogram, reads the meta of every buffer on the element's src
// pad and prints one JSON line per event on stdout:
//
//   {"event":"black","frame":20,"pts":0.666667,"fraction":1}
//   {"event":"clipping","frame":7,"pts":0.233333,"low":0,"high":0.12}
//   {"event":"frozen","frame":3,"pts":0.1}
//   {"event":"cut","frame":30,"pts":1,"distance":0.93}
//
// (--summary adds a "frame" line per frame.) The detectors live in
// monitor_analysis.{h,cc}; this file only runs the pipeline.
//
// --signalstats prints FFmpeg signalstats' figures per frame instead (JSON
// lines, or CSV with --format csv), read from the element's messages
// (signalstats=true); see signalstats_output.h.
// monitor_analysis.{h,cc}; this file only runs the pipeline. With --scope
// and --scope-png it also writes one picture of a video scope (cudavideoscope)
// of frame --frame as a PNG (scope_snapshot.h).
#include <gst/gst.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpu_probe.h"
#include "gstcudahistogrammeta.h"
#include "monitor_analysis.h"
#include "pipeline.h"
#include "signalstats_output.h"
#include "scope_snapshot.h"

namespace {

constexpr char kUsage[] =
    "usage: monitor [options] [FILE]\n"
    "  FILE                  a video file (decoded on the GPU when nvh264dec & co. can);\n"
    "                        without it: videotestsrc\n"
    "  --pattern NAME        videotestsrc pattern (default smpte)\n"
    "  --frames N            videotestsrc frames (default 300)\n"
    "  --cpu                 keep frames in system memory (the element's CPU backend)\n"
    "  --black-amount F      black frame: at least this fraction of luma... (default 0.98)\n"
    "  --black-threshold N   ...below this 8-bit code value (default 32)\n"
    "  --clip-amount F       clipping: this fraction of luma at the lowest or highest bin (default 0.05)\n"
    "  --cut-threshold F     scene cut: normalised L1 luma distance to the last frame above F (default 0.5)\n"
    "  --summary             also print a \"frame\" line for every frame\n"
    "  --signalstats         print FFmpeg signalstats' figures (YMIN ... BRNG) per frame\n"
    "                        instead of events (YUV formats), with TOUT and VREP in JSON lines\n"
    "  --qc                  with --signalstats: cropdetect's and the field PSNR's figures too\n"
    "                        (the rest of QCTools' graph; JSON lines)\n"
    "  --format json|csv     --signalstats output: JSON lines (default) or CSV\n"
    "  --scope STYLE         with --scope-png: draw a cudavideoscope of STYLE (waveform, parade,\n"
    "                        histogram, vectorscope)...\n"
    "  --scope-png FILE      ...of one frame into this PNG file\n"
    "  --frame N             ...that frame, counted from 0 (default 0)\n"
    "  --quiet               no progress line on stderr\n";

struct Options {
  examples::Input input;
  monitor::DetectorOptions detectors;
  bool cpu = false;
  bool summary = false;
  bool progress = true;
  bool signalstats = false;
  bool qc = false;  // with --signalstats: cropdetect and the field PSNR too
  examples::SignalStatsFormat format = examples::SignalStatsFormat::kJsonLines;
  std::string scope;      // cudavideoscope style, "" = no scope
  std::string scope_png;  // where its picture goes
  unsigned long scope_frame = 0;
};

constexpr const char* kScopeStyles[] = {"waveform", "parade", "histogram", "vectorscope"};

// "" or what is wrong with the scope options.
std::string ValidateScope(const Options& o) {
  if (o.scope.empty() != o.scope_png.empty()) return "--scope and --scope-png go together";
  if (o.scope.empty()) return "";
  for (const char* style : kScopeStyles) {
    if (o.scope == style) return "";
  }
  return "--scope wants waveform, parade, histogram or vectorscope, got '" + o.scope + "'";
}

bool ParseNumber(const char* text, double* value) {
  char* end = nullptr;
  *value = std::strtod(text, &end);
  return end != text && *end == '\0';
}

// Returns "" or the problem with the arguments.
std::string ParseArguments(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--cpu") { o->cpu = true; continue; }
    if (arg == "--summary") { o->summary = true; continue; }
    if (arg == "--quiet") { o->progress = false; continue; }
    if (arg == "--signalstats") { o->signalstats = true; continue; }
    if (arg == "--qc") { o->qc = true; continue; }
    if (arg.rfind("--", 0) != 0) {
      if (!o->input.file.empty()) return "one input file only (got '" + o->input.file + "' and '" + arg + "')";
      o->input.file = arg;
      continue;
    }
    if (i + 1 >= argc) return "unknown option or missing value: " + arg;
    const char* text = argv[++i];
    if (arg == "--pattern") { o->input.pattern = text; continue; }
    if (arg == "--format") {
      if (!examples::ParseSignalStatsFormat(text, &o->format)) return "--format wants json or csv, got '" + std::string(text) + "'";
      continue;
    }
    if (arg == "--scope") { o->scope = text; continue; }
    if (arg == "--scope-png") { o->scope_png = text; continue; }
    double value = 0;
    if (!ParseNumber(text, &value)) return arg + " wants a number, got '" + text + "'";
    if (arg == "--frames") {
      if (value < 1 || value > 1e7 || value != double(int(value))) return "--frames wants a count from 1 to 10000000";
      o->input.frames = int(value);
    } else if (arg == "--frame") {
      if (value < 0 || value > 1e9 || value != double((unsigned long)value)) return "--frame wants a frame number from 0";
      o->scope_frame = (unsigned long)value;
    } else if (arg == "--black-amount") {
      o->detectors.black_amount = value;
    } else if (arg == "--black-threshold") {
      if (value < 0 || value != double(unsigned(value))) return "--black-threshold wants a whole code value";
      o->detectors.black_threshold = unsigned(value);
    } else if (arg == "--clip-amount") {
      o->detectors.clip_amount = value;
    } else if (arg == "--cut-threshold") {
      o->detectors.cut_threshold = value;
    } else {
      return "unknown option: " + arg;
    }
  }
  if (o->qc && !o->signalstats) return "--qc goes with --signalstats";
  const std::string scope = ValidateScope(*o);
  return scope.empty() ? monitor::ValidateOptions(o->detectors) : scope;
}

// Luma when the format has it; for RGB formats green stands in (it carries
// most of the luma weight), else the first component.
int LumaComponent(const GstCudaHistogramMeta* meta) {
  for (const char* name : {"Y", "G"}) {
    const gint index = gst_cuda_histogram_meta_find_component(meta, name);
    if (index >= 0) return index;
  }
  return 0;
}

class Monitor {
 public:
  explicit Monitor(const Options& options)
      : options_(options), analyzer_(options.detectors), start_(Clock::now()), last_progress_(start_) {}

  void OnBuffer(GstBuffer* buffer) {
    GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(buffer);
    if (!meta) {
      ++without_meta_;
      return;
    }
    const int luma = LumaComponent(meta);
    const monitor::HistogramRef h{gst_cuda_histogram_meta_get_counts(meta, luma), meta->bins,
                                  meta->component_depth[luma]};
    const GstClockTime pts = GST_BUFFER_PTS(buffer);
    const double seconds = GST_CLOCK_TIME_IS_VALID(pts) ? double(pts) / GST_SECOND : -1.0;
    for (const std::string& line : monitor::EventLines(analyzer_.Analyze(h), seconds, options_.summary))
      std::printf("%s\n", line.c_str());
    ++frames_;
    ReportProgress(false);
  }

  // --signalstats: one line per "cudahistogram" message.
  void OnMessage(GstMessage* message) {
    const GstStructure* s = examples::HistogramMessage(message);
    if (!s) return;
    std::vector<double> figures;
    const std::string problem = examples::ReadSignalStats(s, &figures);
    if (!problem.empty()) {
      if (without_figures_++ == 0) std::fprintf(stderr, "monitor: frame %lu: %s\n", frames_, problem.c_str());
    } else {
      guint64 timestamp = GST_CLOCK_TIME_NONE;
      gst_structure_get_uint64(s, "timestamp", &timestamp);
      const double seconds = GST_CLOCK_TIME_IS_VALID(timestamp) ? double(timestamp) / GST_SECOND : -1.0;
      std::printf("%s\n", examples::SignalStatsLine(options_.format, frames_, seconds, figures,
                                                    examples::ReadQcFigures(s))
                               .c_str());
    }
    ++frames_;
    ReportProgress(false);
  }

  void ReportProgress(bool final) {
    const Clock::time_point now = Clock::now();
    if (!options_.progress || (!final && now - last_progress_ < std::chrono::seconds(2))) return;
    last_progress_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "monitor: %lu frames, %.1f fps%s\n", (unsigned long)frames_,
                 elapsed > 0 ? double(frames_) / elapsed : 0.0, final ? " (done)" : "");
  }

  unsigned long frames() const { return frames_; }
  unsigned long without_meta() const { return without_meta_; }
  unsigned long without_figures() const { return without_figures_; }

 private:
  using Clock = std::chrono::steady_clock;
  const Options& options_;
  monitor::FrameAnalyzer analyzer_;
  Clock::time_point start_, last_progress_;
  unsigned long frames_ = 0, without_meta_ = 0, without_figures_ = 0;
};

GstPadProbeReturn OnBufferProbe(GstPad*, GstPadProbeInfo* info, gpointer monitor) {
  static_cast<Monitor*>(monitor)->OnBuffer(GST_PAD_PROBE_INFO_BUFFER(info));
  return GST_PAD_PROBE_OK;
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  Options options;
  options.input.frames = 300;
  options.input.width = 320;
  options.input.height = 240;
  const std::string problem = ParseArguments(argc, argv, &options);
  if (!problem.empty()) {
    std::fprintf(stderr, "monitor: %s\n%s", problem.c_str(), kUsage);
    return 2;
  }

  const examples::GpuProbe probe = examples::ProbeGpu();
  const bool gpu = probe.usable && !options.cpu;
  std::fprintf(stderr, "monitor: %s\n", examples::DescribeBackend(probe, options.cpu).c_str());

  // The monitor reads the meta only; messages would be work for nobody.
  // signalstats' figures come in the messages.
  const std::string scope_properties = options.scope.empty() ? "" : "style=" + options.scope;
  const std::string description = examples::DescribePipeline(
      options.input, gpu,
      !options.signalstats ? "post-messages=false"
      : options.qc         ? "signalstats=true cropdetect=true field-psnr=true"
                           : "signalstats=true",
      scope_properties);
  std::string build_problem;
  GstElement* pipeline = examples::BuildPipeline(description, &build_problem);
  if (!pipeline) {
    std::fprintf(stderr, "monitor: %s\n", build_problem.c_str());
    return 1;
  }

  Monitor monitor(options);
  if (options.signalstats) {
    const std::string header = examples::SignalStatsHeader(options.format);
    if (!header.empty()) std::printf("%s\n", header.c_str());
  } else {
    GstElement* histogram = gst_bin_get_by_name(GST_BIN(pipeline), "histogram");
    GstPad* src = gst_element_get_static_pad(histogram, "src");
    gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, OnBufferProbe, &monitor, nullptr);
    gst_object_unref(src);
    gst_object_unref(histogram);
  }

  examples::ScopeSnapshot snapshot(options.scope_png, options.scope_frame);
  if (!options.scope.empty() && !snapshot.Attach(pipeline, &build_problem)) {
    std::fprintf(stderr, "monitor: %s\n", build_problem.c_str());
    gst_object_unref(pipeline);
    return 1;
  }

  examples::ReportDecoders(pipeline, "monitor");
  const std::string failure = examples::RunToEnd(pipeline, [&](GstMessage* message) {
    if (options.signalstats) monitor.OnMessage(message);
  });
  gst_object_unref(pipeline);
  std::fflush(stdout);
  monitor.ReportProgress(true);
  if (!failure.empty()) {
    std::fprintf(stderr, "monitor: %s\n", failure.c_str());
    return 1;
  }
  if (monitor.without_figures() > 0) {
    std::fprintf(stderr, "monitor: %lu of %lu messages carried no signalstats figures\n", monitor.without_figures(),
                 monitor.frames());
    return 1;
  }
  if (!options.scope.empty()) {
    const std::string outcome = snapshot.Outcome();
    if (!outcome.empty()) {
      std::fprintf(stderr, "monitor: %s\n", outcome.c_str());
      return 1;
    }
    std::fprintf(stderr, "monitor: %s of frame %lu written to %s\n", options.scope.c_str(), options.scope_frame,
                 options.scope_png.c_str());
  }
  if (monitor.without_meta() > 0) {
    std::fprintf(stderr, "monitor: %lu buffers carried no GstCudaHistogramMeta\n", monitor.without_meta());
    return 1;
  }
  return 0;
}
