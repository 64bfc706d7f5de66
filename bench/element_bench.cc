// bench/element_bench.cc: the cudahistogram element on pre-made CUDA buffers.
//
// A pool of kPoolFrames 1080p NV12 frames is allocated once in CUDA memory
// (gst-cuda's buffer pool, the way a decoder hands frames on) and filled with
// a known pattern. Each run pushes buffers taken from that pool through
//   [our src pad] ! <element> ! fakesink      (see pad_push.h)
// for kMeasureSeconds, with <element> = identity (the harness's own cost),
// cudahistogram with the meta on and messages off, and cudahistogram with a
// message per frame (a thread drains the bus meanwhile). Reported: frames/s
// (pushes over wall time, pool acquisition included for every run alike) and
// the push-to-handoff latency per frame, median and p99, and those minus
// identity's ("added"). Before timing, the counts in the meta are checked
// against the CPU reference for every frame of the pool; during timing every
// buffer must carry the meta and every frame must post one message.
//
//   GST_PLUGIN_PATH=<dir of libgstcudahistogram.so> element_bench [--json PATH] [--seconds S]
//
// Exit: 0 OK, 1 a check failed, 77 no CUDA device (skipped).
#include <cudahist/cpu.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/video/video.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "gstcudahistogrammeta.h"
#include "pad_push.h"

namespace {

constexpr int kExitSkip = 77;
constexpr int kPoolFrames = 32;  // 32 x 3.1 MB: more than any GPU's L2
constexpr int kWidth = 1920, kHeight = 1080;
constexpr guint kBins = 256;
constexpr double kDefaultMeasureSeconds = 6.0;
constexpr size_t kMaxPushes = 4000000;  // latency samples kept per run

struct Frames {
  GstBufferPool* pool = nullptr;
  std::map<GstBuffer*, std::vector<uint32_t>> expected;  // counts per pool buffer (Y, U, V)
};

// The pattern of frame f: every code value appears, differently per frame.
uint8_t PatternSample(int component, int f, int x, int y) {
  switch (component) {
    case 0: return uint8_t(x + 3 * y + 7 * f);
    case 1: return uint8_t(5 * x + y + f);
    default: return uint8_t(255 - x - 7 * y - f);
  }
}

// Y, U, V views of a mapped NV12 frame (host memory).
std::vector<cudahist::PlaneView> Nv12Views(const GstVideoFrame& frame) {
  std::vector<cudahist::PlaneView> v(3);
  for (int c = 0; c < 3; ++c) {
    const int plane = c == 0 ? 0 : 1;
    v[c].data = GST_VIDEO_FRAME_PLANE_DATA(&frame, plane);
    v[c].width = c == 0 ? kWidth : kWidth / 2;
    v[c].height = c == 0 ? kHeight : kHeight / 2;
    v[c].pitch = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, plane);
    v[c].pixel_stride = c == 0 ? 1 : 2;
    v[c].offset = c == 2 ? 1 : 0;
  }
  return v;
}

bool FillFrame(GstBuffer* buffer, const GstVideoInfo& info, int f, std::vector<uint32_t>* expected) {
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, buffer, GST_MAP_WRITE)) return false;
  const std::vector<cudahist::PlaneView> views = Nv12Views(frame);
  for (int c = 0; c < 3; ++c) {
    uint8_t* base = static_cast<uint8_t*>(const_cast<void*>(views[c].data));
    for (uint32_t y = 0; y < views[c].height; ++y) {
      for (uint32_t x = 0; x < views[c].width; ++x) {
        base[y * views[c].pitch + x * views[c].pixel_stride + views[c].offset] = PatternSample(c, f, x, y);
      }
    }
  }
  cudahist::HistogramSpec spec;
  spec.bins = kBins;
  expected->assign(3 * kBins, 0);
  const bool ok = cudahist::ReferenceHistogram(spec, views.data(), 3, expected->data()).ok();
  gst_video_frame_unmap(&frame);  // GstCudaMemory uploads at the next CUDA map
  return ok;
}

GstCaps* CudaNv12Caps() {
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "NV12", "width", G_TYPE_INT, kWidth,
                                      "height", G_TYPE_INT, kHeight, "framerate", GST_TYPE_FRACTION, 30, 1, nullptr);
  gst_caps_set_features(caps, 0, gst_caps_features_new(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, nullptr));
  return caps;
}

bool MakeFrames(GstCudaContext* context, Frames* frames, std::string* why) {
  GstCaps* caps = CudaNv12Caps();
  GstVideoInfo info;
  gst_video_info_from_caps(&info, caps);
  frames->pool = gst_cuda_buffer_pool_new(context);
  GstStructure* config = gst_buffer_pool_get_config(frames->pool);
  gst_buffer_pool_config_set_params(config, caps, guint(GST_VIDEO_INFO_SIZE(&info)), kPoolFrames, kPoolFrames);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_caps_unref(caps);
  if (!gst_buffer_pool_set_config(frames->pool, config) || !gst_buffer_pool_set_active(frames->pool, TRUE)) {
    *why = "the CUDA buffer pool does not take its configuration";
    return false;
  }
  std::vector<GstBuffer*> held;
  bool ok = true;
  for (int f = 0; f < kPoolFrames && ok; ++f) {
    GstBuffer* b = nullptr;
    ok = gst_buffer_pool_acquire_buffer(frames->pool, &b, nullptr) == GST_FLOW_OK;
    if (ok) {
      held.push_back(b);
      ok = FillFrame(b, info, f, &frames->expected[b]);
    }
  }
  for (GstBuffer* b : held) gst_buffer_unref(b);  // back to the pool, filled
  if (!ok) *why = "cannot acquire or fill the pool's frames";
  return ok;
}

struct RunResult {
  std::string name;
  double frames_per_second = 0, median_latency_us = 0, p99_latency_us = 0;
  uint64_t frames = 0, messages = 0;
  std::string failure;  // empty when every check passed
};

struct RunConfig {
  std::string name;
  const char* factory;
  bool attach_meta, post_messages;
};

GstElement* MakeElement(const RunConfig& rc, GstCudaContext* context) {
  GstElement* e = gst_element_factory_make(rc.factory, nullptr);
  if (e == nullptr || std::string(rc.factory) != "cudahistogram") return e;
  g_object_set(e, "bins", kBins, "attach-meta", gboolean(rc.attach_meta), "post-messages",
               gboolean(rc.post_messages), "interval", guint64(0), nullptr);
  GstContext* ctx = gst_context_new_cuda_context(context);  // share the frames' context
  gst_element_set_context(e, ctx);
  gst_context_unref(ctx);
  return e;
}

// "" when the meta on `buffer` holds the expected counts.
std::string CheckMeta(GstBuffer* buffer, const std::vector<uint32_t>& expected) {
  GstCudaHistogramMeta* m = gst_buffer_get_cuda_histogram_meta(buffer);
  if (m == nullptr) return "a buffer reached the sink without GstCudaHistogramMeta";
  if (m->n_components != 3 || m->bins != kBins) return "the meta has the wrong shape";
  for (guint c = 0; c < 3; ++c) {
    const guint32* counts = gst_cuda_histogram_meta_get_counts(m, c);
    for (guint b = 0; b < kBins; ++b) {
      if (counts[b] != expected[c * kBins + b]) {
        return "component " + std::to_string(c) + " bin " + std::to_string(b) + ": " + std::to_string(counts[b]) +
               " instead of " + std::to_string(expected[c * kBins + b]);
      }
    }
  }
  return "";
}

RunResult Run(const RunConfig& rc, GstCudaContext* context, Frames* frames, double seconds) {
  RunResult r;
  r.name = rc.name;
  std::string why;
  auto p = bench::PadPushPipeline::Create(MakeElement(rc, context), CudaNv12Caps(), &why);
  if (!p) {
    r.failure = why;
    return r;
  }
  // Warm-up: every pool frame once (uploads it, builds the element's state),
  // each counted against the CPU reference when the meta is on.
  std::string bad_meta;
  uint64_t metas = 0;
  p->SetSinkCheck([&](GstBuffer* b) {
    if (!rc.attach_meta || !bad_meta.empty()) return;
    auto it = frames->expected.find(b);
    bad_meta = it == frames->expected.end() ? "a buffer that is not from the pool" : CheckMeta(b, it->second);
  });
  p->StartBusDrain();
  double latency = 0;
  uint64_t pushed = 0;
  for (; pushed < 2 * kPoolFrames && bad_meta.empty(); ++pushed) {
    GstBuffer* b = nullptr;
    gst_buffer_pool_acquire_buffer(frames->pool, &b, nullptr);
    if (p->Push(b, pushed, &latency) != GST_FLOW_OK) r.failure = "a push failed during warm-up";
    if (!r.failure.empty()) break;
  }
  if (!bad_meta.empty()) r.failure = "counts in the meta are wrong: " + bad_meta;
  // Timed: only the meta's presence is checked per buffer (a pointer walk).
  p->SetSinkCheck([&](GstBuffer* b) { metas += gst_buffer_get_cuda_histogram_meta(b) != nullptr; });
  std::vector<double> latencies;
  latencies.reserve(kMaxPushes);
  const int64_t start = bench::NowNs(), limit = int64_t(seconds * 1e9);
  for (uint64_t i = 0; r.failure.empty() && latencies.size() < kMaxPushes; ++i) {
    GstBuffer* b = nullptr;
    gst_buffer_pool_acquire_buffer(frames->pool, &b, nullptr);
    if (p->Push(b, pushed + i, &latency) != GST_FLOW_OK || latency < 0) r.failure = "a push failed or never reached the sink";
    latencies.push_back(latency);
    if ((i & 63) == 0 && bench::NowNs() - start > limit) break;
  }
  const double elapsed = double(bench::NowNs() - start) * 1e-9;
  std::string bus_error;
  r.messages = p->StopBusDrain(&bus_error);
  r.frames = latencies.size();
  r.frames_per_second = double(r.frames) / elapsed;
  r.median_latency_us = bench::Median(latencies) * 1e-3;
  r.p99_latency_us = bench::Quantile(latencies, 0.99) * 1e-3;
  const uint64_t total = pushed + r.frames;
  if (r.failure.empty() && !bus_error.empty()) r.failure = "error on the bus: " + bus_error;
  if (r.failure.empty() && rc.attach_meta && metas != r.frames) {
    r.failure = std::to_string(r.frames - metas) + " timed buffers lacked the meta";
  }
  if (r.failure.empty() && rc.post_messages && r.messages != total) {
    r.failure = std::to_string(r.messages) + " messages for " + std::to_string(total) + " frames";
  }
  if (r.failure.empty() && !rc.post_messages && r.messages != 0) r.failure = "messages posted with post-messages=false";
  return r;
}

int Main(int argc, char** argv) {
  std::string json_path;
  double seconds = kDefaultMeasureSeconds;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else if (a == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: element_bench [--json PATH] [--seconds S]\n");
      return 2;
    }
  }
  gst_init(nullptr, nullptr);
  GstCudaContext* context = gst_cuda_load_library() ? gst_cuda_context_new(0) : nullptr;
  if (context == nullptr) {
    std::printf("SKIP: no CUDA device (gst-cuda cannot create a context on device 0)\n");
    return kExitSkip;
  }
  GstElementFactory* factory = gst_element_factory_find("cudahistogram");
  if (factory == nullptr) {
    std::fprintf(stderr, "cudahistogram element not found: set GST_PLUGIN_PATH to the folder of libgstcudahistogram.so\n");
    return 1;
  }
  gst_object_unref(factory);
  Frames frames;
  std::string why;
  if (!MakeFrames(context, &frames, &why)) {
    std::fprintf(stderr, "%s\n", why.c_str());
    return 1;
  }
  const std::vector<RunConfig> configs = {
      {"identity (harness)", "identity", false, false},
      {"cudahistogram meta, no messages", "cudahistogram", true, false},
      {"cudahistogram meta + message/frame", "cudahistogram", true, true},
  };
  std::vector<RunResult> results;
  for (const RunConfig& rc : configs) {
    std::printf("run: %s ...\n", rc.name.c_str());
    std::fflush(stdout);
    results.push_back(Run(rc, context, &frames, seconds));
  }
  gst_buffer_pool_set_active(frames.pool, FALSE);
  gst_object_unref(frames.pool);
  gst_object_unref(context);

  bool ok = true;
  const RunResult& base = results[0];
  std::printf("\n1080p NV12, %d-frame CUDA pool, %u bins, pushed for %.1f s each\n", kPoolFrames, kBins, seconds);
  std::printf("%-38s %12s %12s %12s %14s %14s  %s\n", "run", "frames/s", "median us", "p99 us", "added median",
              "added p99", "check");
  for (const RunResult& r : results) {
    ok = ok && r.failure.empty();
    std::printf("%-38s %12.0f %12.2f %12.2f %14.2f %14.2f  %s\n", r.name.c_str(), r.frames_per_second,
                r.median_latency_us, r.p99_latency_us, r.median_latency_us - base.median_latency_us,
                r.p99_latency_us - base.p99_latency_us, r.failure.empty() ? "OK" : ("FAILED: " + r.failure).c_str());
  }
  std::printf("added: this run's latency quantile minus identity's (same harness, same run).\n");
  if (!json_path.empty()) {
    FILE* f = std::fopen(json_path.c_str(), "w");
    if (f == nullptr) return 1;
    std::fprintf(f, "{\"width\": %d, \"height\": %d, \"format\": \"NV12\", \"pool_frames\": %d, \"seconds\": %.1f, \"runs\": [\n",
                 kWidth, kHeight, kPoolFrames, seconds);
    for (size_t i = 0; i < results.size(); ++i) {
      const RunResult& r = results[i];
      std::fprintf(f, "  {\"run\": \"%s\", \"frames\": %llu, \"frames_per_second\": %.1f, \"median_latency_us\": %.3f, "
                      "\"p99_latency_us\": %.3f, \"added_median_us\": %.3f, \"added_p99_us\": %.3f, \"messages\": %llu, \"ok\": %s}%s\n",
                   r.name.c_str(), (unsigned long long)r.frames, r.frames_per_second, r.median_latency_us, r.p99_latency_us,
                   r.median_latency_us - base.median_latency_us, r.p99_latency_us - base.p99_latency_us,
                   (unsigned long long)r.messages, r.failure.empty() ? "true" : "false", i + 1 < results.size() ? "," : "");
    }
    std::fprintf(f, "]}\n");
    std::fclose(f);
  }
  std::printf("%s\n", ok ? "all checks: OK" : "*** FAILURES above ***");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }
