// The Quick start's main job (scripts/run.sh): runs frames through
// cudahistogram and prints, per frame and per component, the mean, min, max
// and a one-line sketch of the histogram, read from the element's bus messages.
//
//   quickstart [--cpu] [--frames N] [--pattern NAME] [FILE]
//
// Without FILE the input is videotestsrc (default: 60 frames of `smpte`).
// On the GPU the frames go through cudaupload into CUDA memory; with --cpu,
// or when there is no CUDA device, they stay in system memory and the element
// counts them with its CPU backend. The first line says which.
#include <gst/gst.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gpu_probe.h"
#include "monitor_analysis.h"
#include "pipeline.h"

namespace {

constexpr uint32_t kSketchColumns = 32;

struct Options {
  examples::Input input;
  bool cpu = false;
};

int Usage(const char* problem) {
  std::fprintf(stderr, "quickstart: %s\nusage: quickstart [--cpu] [--frames N] [--pattern NAME] [FILE]\n",
               problem);
  return 2;
}

// Returns "" or the problem with the arguments.
std::string ParseArguments(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--cpu") {
      options->cpu = true;
    } else if (arg == "--frames" && has_value) {
      char* end = nullptr;
      const long frames = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || frames < 1 || frames > 1000000) return "--frames wants a count from 1 to 1000000";
      options->input.frames = int(frames);
    } else if (arg == "--pattern" && has_value) {
      options->input.pattern = argv[++i];
    } else if (arg.rfind("--", 0) == 0) {
      return "unknown option or missing value: " + arg;
    } else if (options->input.file.empty()) {
      options->input.file = arg;
    } else {
      return "one input file only (got '" + options->input.file + "' and '" + arg + "')";
    }
  }
  return "";
}

void PrintFrame(const GstStructure* s, guint64 frame_number) {
  guint64 timestamp = GST_CLOCK_TIME_NONE;
  gst_structure_get_uint64(s, "timestamp", &timestamp);
  guint width = 0, height = 0, bins = 0;
  gst_structure_get_uint(s, "width", &width);
  gst_structure_get_uint(s, "height", &height);
  gst_structure_get_uint(s, "bins", &bins);
  const gchar* format = gst_structure_get_string(s, "format");
  std::printf("frame %4" G_GUINT64_FORMAT "  t=%8.3fs  %s %ux%u  %u bins\n", frame_number,
              GST_CLOCK_TIME_IS_VALID(timestamp) ? double(timestamp) / GST_SECOND : -1.0,
              format ? format : "?", width, height, bins);
  const auto names = examples::StringsField(s, "components");
  const auto histograms = examples::HistogramsField(s);
  const auto mean = examples::DoublesField(s, "mean");
  const auto min = examples::DoublesField(s, "min");
  const auto max = examples::DoublesField(s, "max");
  for (size_t c = 0; c < names.size() && c < histograms.size() && c < mean.size() && c < min.size() &&
                     c < max.size();
       ++c) {
    std::printf("  %-2s mean %7.2f  min %5.0f  max %5.0f  |%s|\n", names[c].c_str(), mean[c], min[c], max[c],
                monitor::Sketch(histograms[c].data(), uint32_t(histograms[c].size()), kSketchColumns).c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  Options options;
  const std::string problem = ParseArguments(argc, argv, &options);
  if (!problem.empty()) return Usage(problem.c_str());

  const examples::GpuProbe probe = examples::ProbeGpu();
  const bool gpu = probe.usable && !options.cpu;
  std::printf("%s\n", examples::DescribeBackend(probe, options.cpu).c_str());

  const std::string description = examples::DescribePipeline(options.input, gpu, "");
  std::printf("pipeline: %s\n", description.c_str());
  std::string build_problem;
  GstElement* pipeline = examples::BuildPipeline(description, &build_problem);
  if (!pipeline) {
    std::fprintf(stderr, "quickstart: %s\n", build_problem.c_str());
    return 1;
  }

  guint64 messages = 0;
  examples::ReportDecoders(pipeline, "quickstart");
  const std::string failure = examples::RunToEnd(pipeline, [&](GstMessage* message) {
    if (const GstStructure* s = examples::HistogramMessage(message)) PrintFrame(s, messages++);
  });
  gst_object_unref(pipeline);
  if (!failure.empty()) {
    std::fprintf(stderr, "quickstart: %s\n", failure.c_str());
    return 1;
  }
  std::printf("%" G_GUINT64_FORMAT " frames counted on the %s\n", messages, gpu ? "GPU" : "CPU backend");
  return messages > 0 ? 0 : 1;
}
