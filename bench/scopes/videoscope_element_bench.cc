// bench/scopes/videoscope_element_bench.cc: the cudavideoscope element on pre-made CUDA buffers
// (the target: 1080p NV12 CUDA frames to a 1024x512 waveform, at least 20,000
// frames/s on the H100, the drawing's share of the time reported).
//
// Frames: cuda_frame_pool.h (kPoolFrames 1080p NV12 frames in gst-cuda's
// buffer pool, each with its own pattern). Each run pushes pool frames through
//   [our src pad] ! <element> ! fakesink      (pad_push.h)
// for --seconds: identity (the harness's own cost); cudavideoscope
// style=waveform (its default 1024x512 picture, luma, in a CUDA buffer pool
// of the element's own); the same with the drawing skipped
// (CUDAVIDEOSCOPE_SKIP_DRAW: counts, synchronisation and buffers as before);
// and, for information, parade and vectorscope. The drawing's share of a
// frame's time is 1 - (frames/s drawing) / (frames/s not drawing).
// Beside the element, CUDA events time the two launches alone, back to back
// on one stream: ColumnHistogrammer::Compute of a frame's luma (1024 groups
// x 256 bins) and DrawColumnScope of the 1024x512 waveform.
//
// Checked: during warm-up every picture is in CUDA memory, 1024x512 RGBA
// (512x512 for the vectorscope), and, read back, equal byte for byte to the
// picture the element draws on the CPU from the same frame in system memory.
//
//   GST_PLUGIN_PATH=<dir of libgstcudahistogram.so> videoscope_element_bench [--json PATH] [--seconds S]
//
// Exit: 0 OK (checks passed; the target is reported, not enforced), 1 a
// check or a step failed, 2 bad command line, 77 no CUDA device (skipped).
#include <cuda_runtime_api.h>
#include <cudahist/scope_render.h>
#include <cudahist/scopes.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/video/video.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_args.h"
#include "bench_stats.h"
#include "cuda_frame_pool.h"
#include "pad_push.h"

namespace {

using bench::kExitSkip;
constexpr double kDefaultMeasureSeconds = 5.0;
constexpr double kTargetFramesPerSecond = 20000;
constexpr int kKernelRepeats = 500;
constexpr size_t kMaxPushes = 4000000;
const char kUsage[] = "videoscope_element_bench [--json PATH] [--seconds S]";
const char kSkipDrawEnv[] = "CUDAVIDEOSCOPE_SKIP_DRAW";

using Picture = std::vector<uint8_t>;  // RGBA rows without padding

struct Frames : bench::CudaFramePool {
  std::map<GstBuffer*, GstBuffer*> host;  // each pool frame's image in system memory (standard layout)
};

// The frame's image as a system-memory NV12 buffer laid out as GStreamer lays it out by default.
GstBuffer* HostFrame(const std::vector<cudahist::PlaneView>& yuv) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, bench::kWidth, bench::kHeight);
  GstBuffer* b = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame frame;
  gst_video_frame_map(&frame, &info, b, GST_MAP_WRITE);
  for (guint plane = 0; plane < 2; ++plane) {
    const cudahist::PlaneView& v = yuv[plane];  // Y, then U (which starts the UV plane)
    for (uint32_t y = 0; y < v.height; ++y) {
      std::memcpy(static_cast<uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, plane)) +
                      size_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, plane),
                  static_cast<const uint8_t*>(v.data) + y * v.pitch, bench::kWidth);
    }
  }
  gst_video_frame_unmap(&frame);
  return b;
}

GstCaps* SystemNv12Caps() {
  GstCaps* caps = bench::CudaNv12Caps();
  gst_caps_set_features(caps, 0, nullptr);
  return caps;
}

// The RGBA picture in `buffer` (CUDA memory is read back by gst-cuda's map).
std::string ReadPicture(GstBuffer* buffer, GstCaps* caps, Picture* out, int* width, int* height) {
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, caps) || GST_VIDEO_INFO_FORMAT(&info) != GST_VIDEO_FORMAT_RGBA) {
    return "the picture's caps are not RGBA video";
  }
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ)) return "cannot map a picture for reading";
  *width = GST_VIDEO_FRAME_WIDTH(&frame);
  *height = GST_VIDEO_FRAME_HEIGHT(&frame);
  out->resize(size_t(*width) * *height * 4);
  for (int y = 0; y < *height; ++y) {
    std::memcpy(out->data() + size_t(y) * *width * 4,
                static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)) +
                    size_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0),
                size_t(*width) * 4);
  }
  gst_video_frame_unmap(&frame);
  return "";
}

struct RunConfig {
  std::string name;
  const char* factory;
  const char* style;  // cudavideoscope's, or nullptr
  bool draw = true;
};

GstElement* MakeElement(const RunConfig& rc, GstCudaContext* context) {
  GstElement* e = gst_element_factory_make(rc.factory, nullptr);
  if (e == nullptr || rc.style == nullptr) return e;
  gst_util_set_object_arg(G_OBJECT(e), "style", rc.style);
  if (context != nullptr) {
    GstContext* ctx = gst_context_new_cuda_context(context);  // what a neighbour would share
    gst_element_set_context(e, ctx);
    gst_context_unref(ctx);
  }
  return e;
}

// A pipeline of `rc`'s element on `caps`; the skip switch is read when the element starts.
std::unique_ptr<bench::PadPushPipeline> MakePipeline(const RunConfig& rc, GstCudaContext* context, GstCaps* caps,
                                                     std::string* why) {
  GstElement* element = MakeElement(rc, context);
  if (element == nullptr) {
    *why = std::string("cannot make a ") + rc.factory + " element (GST_PLUGIN_PATH?)";
    gst_caps_unref(caps);
    return nullptr;
  }
  if (!rc.draw) g_setenv(kSkipDrawEnv, "1", TRUE);
  auto p = bench::PadPushPipeline::Create(element, caps, why);
  g_unsetenv(kSkipDrawEnv);
  return p;
}

// The pictures the element draws on the CPU of every pool frame's host image.
std::string CpuPictures(const RunConfig& rc, Frames* frames, std::map<GstBuffer*, Picture>* pictures) {
  std::string why;
  auto p = MakePipeline(rc, nullptr, SystemNv12Caps(), &why);
  if (!p) return "CPU pipeline: " + why;
  GstPad* srcpad = gst_element_get_static_pad(p->element(), "src");
  Picture* target = nullptr;
  p->SetSinkCheck([&](GstBuffer* b) {
    GstCaps* caps = gst_pad_get_current_caps(srcpad);
    int w = 0, h = 0;
    if (why.empty() && caps) why = ReadPicture(b, caps, target, &w, &h);
    if (caps) gst_caps_unref(caps);
  });
  uint64_t index = 0;
  for (auto& [pool_frame, host] : frames->host) {
    target = &(*pictures)[pool_frame];
    double latency = 0;
    if (p->Push(gst_buffer_ref(host), index++, &latency) != GST_FLOW_OK) why = "a CPU push failed";
    if (!why.empty()) break;
  }
  gst_object_unref(srcpad);
  return why;
}

struct RunResult {
  std::string name;
  double frames_per_second = 0, median_latency_us = 0, p99_latency_us = 0;
  uint64_t frames = 0;
  std::string failure;
};

std::string PushPoolFrame(bench::PadPushPipeline* p, GstBufferPool* pool, uint64_t index, GstBuffer** pushed,
                          double* latency_ns) {
  GstBuffer* b = nullptr;
  if (gst_buffer_pool_acquire_buffer(pool, &b, nullptr) != GST_FLOW_OK) return "cannot acquire a frame from the pool";
  *pushed = b;
  const GstFlowReturn flow = p->Push(b, index, latency_ns);
  if (flow != GST_FLOW_OK) return std::string("a push returned ") + gst_flow_get_name(flow);
  return *latency_ns < 0 ? "a pushed frame never reached the sink" : "";
}

// Warm-up: every pool frame twice; each picture of a scope run checked against the CPU's.
std::string WarmUp(const RunConfig& rc, bench::PadPushPipeline* p, Frames* frames,
                   const std::map<GstBuffer*, Picture>& expected, uint64_t* pushed) {
  const bool check = rc.style != nullptr && rc.draw;
  const int want_width = rc.style && std::string(rc.style) == "vectorscope" ? 512 : 1024;
  GstPad* srcpad = gst_element_get_static_pad(p->element(), "src");
  GstBuffer* input = nullptr;
  std::string bad;
  p->SetSinkCheck([&](GstBuffer* b) {
    if (!bad.empty() || rc.style == nullptr) return;
    if (!gst_is_cuda_memory(gst_buffer_peek_memory(b, 0))) {
      bad = "a picture is not in CUDA memory";
      return;
    }
    GstCaps* caps = gst_pad_get_current_caps(srcpad);
    Picture got;
    int w = 0, h = 0;
    bad = ReadPicture(b, caps, &got, &w, &h);
    gst_caps_unref(caps);
    if (bad.empty() && (w != want_width || h != 512)) {
      bad = "a picture is " + std::to_string(w) + "x" + std::to_string(h);
    }
    if (bad.empty() && check) {
      auto it = expected.find(input);
      if (it == expected.end()) bad = "a pushed frame is not a pool frame";
      else if (it->second != got) bad = "a GPU picture differs from the CPU's picture of the same frame";
    }
  });
  double latency = 0;
  std::string why;
  for (; *pushed < 2 * bench::kPoolFrames && why.empty() && bad.empty(); ++*pushed) {
    why = PushPoolFrame(p, frames->pool, *pushed, &input, &latency);
  }
  p->SetSinkCheck(nullptr);
  gst_object_unref(srcpad);
  if (!why.empty()) return "warm-up: " + why;
  return bad.empty() ? "" : "warm-up: " + bad;
}

RunResult Run(const RunConfig& rc, Frames* frames, const std::map<GstBuffer*, Picture>& expected, double seconds) {
  RunResult r;
  r.name = rc.name;
  std::string why;
  auto p = MakePipeline(rc, frames->context, bench::CudaNv12Caps(), &why);
  if (!p) {
    r.failure = why;
    return r;
  }
  p->StartBusDrain();
  uint64_t pushed = 0;
  r.failure = WarmUp(rc, p.get(), frames, expected, &pushed);
  std::vector<double> latencies;
  latencies.reserve(kMaxPushes);
  double latency = 0;
  GstBuffer* input = nullptr;
  const int64_t start = bench::NowNs(), limit = int64_t(seconds * 1e9);
  for (uint64_t i = 0; r.failure.empty() && latencies.size() < kMaxPushes; ++i) {
    r.failure = PushPoolFrame(p.get(), frames->pool, pushed + i, &input, &latency);
    if (r.failure.empty()) latencies.push_back(latency);
    if ((i & 63) == 0 && bench::NowNs() - start > limit) break;
  }
  const double elapsed = double(bench::NowNs() - start) * 1e-9;
  std::string bus_error;
  p->StopBusDrain(&bus_error);
  r.frames = latencies.size();
  r.frames_per_second = double(r.frames) / elapsed;
  r.median_latency_us = bench::Median(latencies) * 1e-3;
  r.p99_latency_us = bench::Quantile(latencies, 0.99) * 1e-3;
  if (r.failure.empty() && !bus_error.empty()) r.failure = "error on the bus: " + bus_error;
  return r;
}

// --- the two launches alone ----------------------------------------------------------

struct KernelTimes {
  double count_us = 0, draw_us = 0;
  std::string failure;
};

std::string Cuda(cudaError_t e, const char* what) {
  return e == cudaSuccess ? "" : std::string(what) + ": " + cudaGetErrorString(e);
}

// Mean GPU time of `launch`, run kKernelRepeats times back to back on `stream`.
template <typename Launch>
std::string TimeLaunches(cudaStream_t stream, Launch launch, double* us) {
  cudaEvent_t begin, end;
  std::string why = Cuda(cudaEventCreate(&begin), "cudaEventCreate");
  if (!why.empty()) return why;
  cudaEventCreate(&end);
  for (int i = 0; i < 10 && why.empty(); ++i) why = launch();  // warm
  cudaEventRecord(begin, stream);
  for (int i = 0; i < kKernelRepeats && why.empty(); ++i) why = launch();
  cudaEventRecord(end, stream);
  if (why.empty()) why = Cuda(cudaEventSynchronize(end), "cudaEventSynchronize");
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  *us = double(ms) * 1e3 / kKernelRepeats;
  cudaEventDestroy(begin);
  cudaEventDestroy(end);
  return why;
}

KernelTimes TimeKernels(Frames* frames) {
  KernelTimes t;
  GstBuffer* b = nullptr;
  if (gst_buffer_pool_acquire_buffer(frames->pool, &b, nullptr) != GST_FLOW_OK) {
    t.failure = "cannot acquire a frame";
    return t;
  }
  const GstVideoMeta* meta = gst_buffer_get_video_meta(b);
  GstMapInfo map;
  if (!gst_buffer_map(b, &map, GstMapFlags(GST_MAP_READ | GST_MAP_CUDA))) {
    gst_buffer_unref(b);
    t.failure = "cannot map a frame on the GPU";
    return t;
  }
  gst_cuda_context_push(frames->context);
  cudahist::PlaneView luma;
  luma.data = map.data + meta->offset[0];
  luma.width = bench::kWidth;
  luma.height = bench::kHeight;
  luma.pitch = size_t(meta->stride[0]);
  const cudahist::ColumnHistogramSpec spec{1024, 256};
  std::unique_ptr<cudahist::ColumnHistogrammer> histogrammer;
  cudaStream_t stream = nullptr;
  uint32_t* counts = nullptr;
  void* image = nullptr;
  size_t pitch = 0;
  std::string why = Cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  if (why.empty()) why = Cuda(cudaMalloc(reinterpret_cast<void**>(&counts), 1024 * 256 * 4), "cudaMalloc");
  if (why.empty()) why = Cuda(cudaMallocPitch(&image, &pitch, 1024 * 4, 512), "cudaMallocPitch");
  if (why.empty()) {
    const cudahist::Status s = cudahist::ColumnHistogrammer::Create(&histogrammer);
    if (!s.ok()) why = s.message();
  }
  if (why.empty()) {
    why = TimeLaunches(stream, [&] {
      const cudahist::Status s = histogrammer->Compute(spec, luma, stream, counts);
      return s.ok() ? std::string() : s.message();
    }, &t.count_us);
  }
  cudahist::ColumnScope scope;  // as the element draws its default waveform
  scope.num_traces = 1;
  scope.traces[0] = {counts, 1024, 256, bench::kWidth, bench::kHeight, 8, {255, 255, 255}};
  scope.num_levels = 2;
  scope.levels[0] = 16;
  scope.levels[1] = 235;
  const cudahist::ScopeImage target{image, 1024, 512, pitch};
  if (why.empty()) {
    why = TimeLaunches(stream, [&] {
      const cudahist::Status s = cudahist::DrawColumnScope(scope, target, stream);
      return s.ok() ? std::string() : s.message();
    }, &t.draw_us);
  }
  histogrammer.reset();
  if (counts) cudaFree(counts);
  if (image) cudaFree(image);
  if (stream) cudaStreamDestroy(stream);
  gst_cuda_context_pop(nullptr);
  gst_buffer_unmap(b, &map);
  gst_buffer_unref(b);
  t.failure = why;
  return t;
}

int Main(int argc, char** argv) {
  bench::CommonArgs args;
  args.seconds = kDefaultMeasureSeconds;
  if (!bench::ParseCommonArgs(argc, argv, kUsage, &args)) return 2;
  gst_init(nullptr, nullptr);
  bool skip = false;
  GstCudaContext* context = bench::OpenCuda(&skip);
  if (context == nullptr) {
    std::printf(skip ? "SKIP: no CUDA device (gst-cuda finds no CUDA driver or device)\n"
                     : "a CUDA device exists but gst-cuda cannot create a context on device 0\n");
    return skip ? kExitSkip : 1;
  }
  gst_cuda_memory_init_once();  // gst-cuda's pool finds its allocator by name
  Frames frames;
  frames.context = context;
  std::string why = bench::MakeFrames(&frames, [&frames](GstBuffer* b, const std::vector<cudahist::PlaneView>& yuv) {
    frames.host[b] = HostFrame(yuv);
    return std::string();
  });
  if (!why.empty()) {
    std::fprintf(stderr, "cannot make the frames: %s\n", why.c_str());
    return 1;
  }
  const std::vector<RunConfig> configs = {
      {"identity (harness)", "identity", nullptr},
      {"cudavideoscope waveform 1024x512", "cudavideoscope", "waveform"},
      {"cudavideoscope waveform, drawing skipped", "cudavideoscope", "waveform", false},
      {"cudavideoscope parade 1024x512", "cudavideoscope", "parade"},
      {"cudavideoscope vectorscope 512x512", "cudavideoscope", "vectorscope"},
  };
  std::printf("GStreamer %s (built against %d.%d)\n", gst_version_string(), GST_VERSION_MAJOR, GST_VERSION_MINOR);
  std::vector<RunResult> results;
  for (const RunConfig& rc : configs) {
    std::printf("run: %s ...\n", rc.name.c_str());
    std::fflush(stdout);
    std::map<GstBuffer*, Picture> expected;
    RunResult r;
    if (rc.style != nullptr && rc.draw) r.failure = CpuPictures(rc, &frames, &expected);
    if (r.failure.empty()) r = Run(rc, &frames, expected, args.seconds);
    else r.name = rc.name;
    results.push_back(r);
  }
  const KernelTimes kernels = TimeKernels(&frames);
  for (auto& [pool_frame, host] : frames.host) gst_buffer_unref(host);
  bench::DropFrames(&frames);
  gst_object_unref(context);

  bool ok = kernels.failure.empty();
  std::printf("\n1080p NV12, %d-frame CUDA pool, pushed for %.1f s each\n", bench::kPoolFrames, args.seconds);
  std::printf("%-42s %12s %12s %12s  %s\n", "run", "frames/s", "median us", "p99 us", "check");
  for (const RunResult& r : results) {
    ok = ok && r.failure.empty();
    std::printf("%-42s %12.0f %12.2f %12.2f  %s\n", r.name.c_str(), r.frames_per_second, r.median_latency_us,
                r.p99_latency_us, r.failure.empty() ? "OK" : ("FAILED: " + r.failure).c_str());
  }
  const double drawing = results[1].frames_per_second, skipped = results[2].frames_per_second;
  const double share = skipped > 0 ? 1.0 - drawing / skipped : 0;
  std::printf("waveform: %.0f frames/s, target %.0f: %s\n", drawing, kTargetFramesPerSecond,
              drawing >= kTargetFramesPerSecond ? "met" : "NOT met");
  std::printf("the drawing's share of a frame's time: %.1f%% (1 - %.0f / %.0f frames/s)\n", 100 * share, drawing,
              skipped);
  if (kernels.failure.empty()) {
    std::printf("launches alone (CUDA events, %d back to back): count %.2f us, draw %.2f us (draw %.1f%%)\n",
                kKernelRepeats, kernels.count_us, kernels.draw_us,
                100 * kernels.draw_us / (kernels.count_us + kernels.draw_us));
  } else {
    std::printf("launches alone: FAILED: %s\n", kernels.failure.c_str());
  }
  if (!args.json_path.empty()) {
    FILE* f = std::fopen(args.json_path.c_str(), "w");
    if (f == nullptr) {
      std::fprintf(stderr, "cannot write %s\n", args.json_path.c_str());
      return 1;
    }
    std::fprintf(f, "{\"width\": %d, \"height\": %d, \"format\": \"NV12\", \"seconds\": %.1f, \"runs\": [\n",
                 bench::kWidth, bench::kHeight, args.seconds);
    for (size_t i = 0; i < results.size(); ++i) {
      const RunResult& r = results[i];
      std::fprintf(f,
                   "  {\"run\": \"%s\", \"frames\": %llu, \"frames_per_second\": %.1f, \"median_latency_us\": %.3f, "
                   "\"p99_latency_us\": %.3f, \"ok\": %s}%s\n",
                   r.name.c_str(), (unsigned long long)r.frames, r.frames_per_second, r.median_latency_us,
                   r.p99_latency_us, r.failure.empty() ? "true" : "false", i + 1 < results.size() ? "," : "");
    }
    std::fprintf(f,
                 "], \"waveform_target_fps\": %.0f, \"waveform_target_met\": %s, \"drawing_share\": %.4f, "
                 "\"count_launch_us\": %.3f, \"draw_launch_us\": %.3f}\n",
                 kTargetFramesPerSecond, drawing >= kTargetFramesPerSecond ? "true" : "false", share,
                 kernels.count_us, kernels.draw_us);
    std::fclose(f);
  }
  std::printf("%s\n", ok ? "all checks: OK" : "*** FAILURES above ***");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }
