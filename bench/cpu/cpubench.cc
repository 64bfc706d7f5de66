// bench/cpu/cpubench.cc: the CPU backend on one core, beside GStreamer's
// videoanalyse (gst-plugins-bad videosignal) on the same machine, same run.
//
// The process pins itself to one CPU (sched_setaffinity, inherited by every
// thread) before anything starts. Frames: kFrames pre-made 1080p frames per
// distribution (more bytes than a CPU cache holds), rotated. Rows, each timed
// for kSecondsPerRow as per-frame wall time over batches, median reported:
//   CpuHistogrammer Y,U,V      the library called directly on NV12
//   CpuHistogrammer Y          Y alone: the bytes videoanalyse reads
//   CpuSignalStats             signalstats' counts of I420 against the previous
//                              frame, the element's CPU path with signalstats=true
//   CpuSignalStats + QC        the same with the QC counts (TOUT, VREP, line
//                              sums, field SSE): cudahist-qc's CPU path
//   identity                   the pad-push harness's own cost (pad_push.h)
//   cudahistogram (sysmem)     the element's CPU path, NV12, meta on, no messages
//   videoanalyse               luma mean/variance per frame; it takes no NV12, so it
//                              gets I420 frames with the same Y plane (it reads only Y)
//
//   cpubench [--json PATH] [--seconds S] [--cpu N]       (cudahistogram row needs GST_PLUGIN_PATH)
#include <gst/gst.h>
#include <gst/video/video.h>
#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <functional>
#include <string>
#include <vector>

#include <cudahist/cpu.h>
#include <cudahist/signalstats.h>

#include "bench_args.h"
#include "bench_stats.h"
#include "pad_push.h"

namespace {

constexpr int kWidth = 1920, kHeight = 1080;
constexpr int kFrames = 32;        // 32 x 3.1 MB: well past any L2/L3 slice of one core
constexpr int kBatch = 8;          // frames per timed batch
constexpr double kDefaultSecondsPerRow = 2.0;
constexpr uint32_t kBins = 256;

struct Row {
  std::string distribution, name, note;
  double us_per_frame = 0;
  bool ok = true;
};

// Frames in system memory as GstBuffers of `format` (NV12 or I420); the Y
// plane of frame f is the same for both formats.
std::vector<GstBuffer*> MakeFrames(GstVideoFormat format, bool uniform) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, kWidth, kHeight);
  std::vector<GstBuffer*> frames;
  uint32_t state = 12345;
  for (int f = 0; f < kFrames; ++f) {
    GstBuffer* b = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
    gst_buffer_add_video_meta_full(b, GST_VIDEO_FRAME_FLAG_NONE, format, kWidth, kHeight,
                                   GST_VIDEO_INFO_N_PLANES(&info), info.offset, info.stride);
    GstMapInfo map;
    gst_buffer_map(b, &map, GST_MAP_WRITE);
    for (gsize i = 0; i < map.size; ++i) {
      state = state * 1664525u + 1013904223u;  // an LCG: cheap, uniform enough for counting
      map.data[i] = uniform ? uint8_t(state >> 24) : uint8_t(0x5A);
    }
    gst_buffer_unmap(b, &map);
    frames.push_back(b);
  }
  return frames;
}

std::vector<cudahist::PlaneView> Nv12Views(const uint8_t* data, bool y_only) {
  std::vector<cudahist::PlaneView> v(y_only ? 1 : 3);
  for (size_t c = 0; c < v.size(); ++c) {
    v[c].data = c == 0 ? data : data + size_t(kWidth) * kHeight;
    v[c].width = c == 0 ? kWidth : kWidth / 2;
    v[c].height = c == 0 ? kHeight : kHeight / 2;
    v[c].pitch = kWidth;
    v[c].pixel_stride = c == 0 ? 1 : 2;
    v[c].offset = c == 2 ? 1 : 0;
  }
  return v;
}

// Median per-frame microseconds of batches of `one(frame index)` for `seconds`.
double TimeBatches(const std::function<bool(int)>& one, double seconds, bool* ok) {
  std::vector<double> per_frame_us;
  const int64_t start = bench::NowNs();
  int frame = 0;
  while (*ok && (per_frame_us.size() < 5 || bench::NowNs() - start < int64_t(seconds * 1e9))) {
    const int64_t t0 = bench::NowNs();
    for (int i = 0; i < kBatch && *ok; ++i) *ok = one(frame++ % kFrames);
    per_frame_us.push_back(double(bench::NowNs() - t0) * 1e-3 / kBatch);
  }
  return bench::Median(per_frame_us);
}

Row LibraryRow(const std::string& dist, const std::vector<GstBuffer*>& frames, bool y_only, double seconds) {
  Row r{dist, y_only ? "CpuHistogrammer Y" : "CpuHistogrammer Y,U,V", "library call"};
  cudahist::CpuHistogrammer h(kBins);
  std::vector<uint32_t> counts(3 * kBins), reference(3 * kBins);
  std::vector<GstMapInfo> maps(frames.size());
  for (size_t f = 0; f < frames.size(); ++f) gst_buffer_map(frames[f], &maps[f], GST_MAP_READ);
  // Checked against the reference before timing.
  const auto views0 = Nv12Views(maps[0].data, y_only);
  cudahist::HistogramSpec spec;
  spec.bins = kBins;
  r.ok = h.Compute(views0.data(), int(views0.size()), counts.data()).ok() &&
         cudahist::ReferenceHistogram(spec, views0.data(), int(views0.size()), reference.data()).ok() &&
         counts == reference;
  if (!r.ok) r.note = "COUNTS DIFFER FROM THE CPU REFERENCE";
  r.us_per_frame = TimeBatches([&](int f) {
    const auto v = Nv12Views(maps[f].data, y_only);
    return h.Compute(v.data(), int(v.size()), counts.data()).ok();
  }, seconds, &r.ok);
  for (size_t f = 0; f < frames.size(); ++f) gst_buffer_unmap(frames[f], &maps[f]);
  return r;
}

cudahist::PlaneView I420View(const uint8_t* data, int component) {
  cudahist::PlaneView v;
  const size_t luma = size_t(kWidth) * kHeight;
  v.data = component == 0 ? data : data + luma + (component == 2 ? luma / 4 : 0);
  v.width = component == 0 ? kWidth : kWidth / 2;
  v.height = component == 0 ? kHeight : kHeight / 2;
  v.pitch = component == 0 ? kWidth : kWidth / 2;
  v.pixel_stride = 1;
  return v;
}

cudahist::YuvPlanes I420Planes(const uint8_t* data) {
  cudahist::YuvPlanes p;
  p.y = I420View(data, 0);
  p.u = I420View(data, 1);
  p.v = I420View(data, 2);
  p.log2_hsub = p.log2_vsub = 1;
  return p;
}

bool SameCounts(const cudahist::SignalStatsCounts& a, const cudahist::SignalStatsCounts& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

bool SameQcCounts(const cudahist::QcCounts& a, const cudahist::QcCounts& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Each frame against the one before it in the rotation, as the element
// counts a stream; checked against the references before timing.
Row SignalStatsRow(const std::string& dist, const std::vector<GstBuffer*>& i420, bool with_qc, double seconds) {
  Row r{dist, with_qc ? "CpuSignalStats + QC" : "CpuSignalStats", "library call, I420, DIF to the previous"};
  std::vector<GstMapInfo> maps(i420.size());
  for (size_t f = 0; f < i420.size(); ++f) gst_buffer_map(i420[f], &maps[f], GST_MAP_READ);
  auto planes = [&](int f) { return I420Planes(maps[(f + kFrames) % kFrames].data); };
  cudahist::CpuSignalStats stats;
  auto counts = std::make_unique<cudahist::SignalStatsCounts>();
  auto want = std::make_unique<cudahist::SignalStatsCounts>();
  auto qc = std::make_unique<cudahist::QcCounts>();
  auto qc_want = std::make_unique<cudahist::QcCounts>();
  const cudahist::YuvPlanes frame = planes(1), previous = planes(0);
  r.ok = stats.Compute(frame, &previous, counts.get(), with_qc ? qc.get() : nullptr).ok() &&
         cudahist::ReferenceSignalStats(frame, &previous, want.get()).ok() && SameCounts(*counts, *want) &&
         (!with_qc || (cudahist::ReferenceQcCounts(frame, qc_want.get()).ok() && SameQcCounts(*qc, *qc_want)));
  if (!r.ok) r.note = "COUNTS DIFFER FROM THE CPU REFERENCE";
  r.us_per_frame = TimeBatches([&](int f) {
    const cudahist::YuvPlanes now = planes(f), before = planes(f - 1);
    return stats.Compute(now, &before, counts.get(), with_qc ? qc.get() : nullptr).ok();
  }, seconds, &r.ok);
  for (size_t f = 0; f < i420.size(); ++f) gst_buffer_unmap(i420[f], &maps[f]);
  return r;
}

Row ElementRow(const std::string& dist, const std::string& name, GstElement* element, const char* format,
               const std::vector<GstBuffer*>& frames, double seconds) {
  Row r{dist, name, "pad push, meta/messages as noted"};
  if (element == nullptr) {
    r.ok = false;
    r.note = "element not found";
    return r;
  }
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, format, "width", G_TYPE_INT, kWidth,
                                      "height", G_TYPE_INT, kHeight, "framerate", GST_TYPE_FRACTION, 30, 1, nullptr);
  std::string why;
  auto p = bench::PadPushPipeline::Create(element, caps, &why);
  if (!p) {
    r.ok = false;
    r.note = why;
    return r;
  }
  p->StartBusDrain();
  uint64_t index = 0;
  double latency = 0;
  // A ref per push keeps the pre-made frame; the in-place element then gets
  // a non-writable buffer and GstBaseTransform makes it writable (a shallow
  // copy, no pixel copy) where it must add a meta, as in a real pipeline with tee.
  auto push = [&](int f) { return p->Push(gst_buffer_ref(frames[f]), index++, &latency) == GST_FLOW_OK; };
  for (int f = 0; f < kFrames && r.ok; ++f) r.ok = push(f);  // warm-up
  r.us_per_frame = TimeBatches(push, seconds, &r.ok);
  std::string bus_error;
  p->StopBusDrain(&bus_error);
  if (!r.ok || !bus_error.empty()) {
    r.ok = false;
    r.note = "push failed: " + bus_error;
  }
  return r;
}

GstElement* MakeCudaHistogramSysmem() {
  GstElement* e = gst_element_factory_make("cudahistogram", nullptr);
  if (e != nullptr) g_object_set(e, "bins", kBins, "attach-meta", TRUE, "post-messages", FALSE, nullptr);
  return e;
}

GstElement* MakeVideoAnalyse() {
  GstElement* e = gst_element_factory_make("videoanalyse", nullptr);
  if (e != nullptr) g_object_set(e, "message", FALSE, nullptr);  // compute only, as cudahistogram above
  return e;
}

int PinToOneCpu(int cpu) {
  cpu_set_t set;
  if (cpu < 0) {
    sched_getaffinity(0, sizeof set, &set);
    for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); ++cpu) {
    }
  }
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? cpu : -1;
}

}  // namespace

int main(int argc, char** argv) {
  bench::CommonArgs args;
  args.seconds = kDefaultSecondsPerRow;
  int cpu = -1;
  const bool args_ok = bench::ParseCommonArgs(argc, argv, "cpubench [--json PATH] [--seconds S] [--cpu N]", &args,
                                              [&cpu](const std::string& flag, const char* value) {
                                                char* end = nullptr;
                                                cpu = int(std::strtol(value, &end, 10));
                                                return flag == "--cpu" && end != value && *end == '\0' && cpu >= 0;
                                              });
  if (!args_ok) return 2;
  const std::string& json_path = args.json_path;
  const double seconds = args.seconds;
  cpu = PinToOneCpu(cpu);  // before gst_init: every thread after this inherits it
  if (cpu < 0) {
    std::fprintf(stderr, "cannot pin to one CPU\n");
    return 1;
  }
  gst_init(nullptr, nullptr);
  std::printf("pinned to CPU %d; 1080p frames, %d per rotation, %.1f s per row\n", cpu, kFrames, seconds);
  std::vector<Row> rows;
  for (bool uniform : {true, false}) {
    const std::string dist = uniform ? "uniform" : "one-value";
    std::vector<GstBuffer*> nv12 = MakeFrames(GST_VIDEO_FORMAT_NV12, uniform);
    std::vector<GstBuffer*> i420 = MakeFrames(GST_VIDEO_FORMAT_I420, uniform);
    rows.push_back(LibraryRow(dist, nv12, false, seconds));
    rows.push_back(LibraryRow(dist, nv12, true, seconds));
    rows.push_back(SignalStatsRow(dist, i420, false, seconds));
    rows.push_back(SignalStatsRow(dist, i420, true, seconds));
    rows.push_back(ElementRow(dist, "identity (harness)", gst_element_factory_make("identity", nullptr), "NV12", nv12, seconds));
    rows.push_back(ElementRow(dist, "cudahistogram (sysmem)", MakeCudaHistogramSysmem(), "NV12", nv12, seconds));
    rows.push_back(ElementRow(dist, "videoanalyse (I420, Y)", MakeVideoAnalyse(), "I420", i420, seconds));
    for (GstBuffer* b : nv12) gst_buffer_unref(b);
    for (GstBuffer* b : i420) gst_buffer_unref(b);
  }
  bool ok = true;
  std::printf("\n%-10s %-26s %12s %12s  %s\n", "frames", "what", "us/frame", "frames/s", "note");
  for (const Row& r : rows) {
    ok = ok && r.ok;
    std::printf("%-10s %-26s %12.1f %12.0f  %s\n", r.distribution.c_str(), r.name.c_str(), r.us_per_frame,
                r.us_per_frame > 0 ? 1e6 / r.us_per_frame : 0.0, r.ok ? r.note.c_str() : ("FAILED: " + r.note).c_str());
  }
  if (!json_path.empty()) {
    FILE* f = std::fopen(json_path.c_str(), "w");
    if (f == nullptr) {
      std::fprintf(stderr, "cannot write %s\n", json_path.c_str());
      return 1;
    }
    std::fprintf(f, "{\"cpu\": %d, \"width\": %d, \"height\": %d, \"rows\": [\n", cpu, kWidth, kHeight);
    for (size_t i = 0; i < rows.size(); ++i) {
      std::fprintf(f, "  {\"frames\": \"%s\", \"what\": \"%s\", \"us_per_frame\": %.3f, \"ok\": %s}%s\n",
                   rows[i].distribution.c_str(), rows[i].name.c_str(), rows[i].us_per_frame,
                   rows[i].ok ? "true" : "false", i + 1 < rows.size() ? "," : "");
    }
    std::fprintf(f, "]}\n");
    std::fclose(f);
  }
  std::printf("%s\n", ok ? "all checks: OK" : "*** FAILURES above ***");
  return ok ? 0 : 1;
}
