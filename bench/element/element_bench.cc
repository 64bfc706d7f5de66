// bench/element/element_bench.cc: the cudahistogram element on pre-made CUDA buffers.
//
// A pool of kPoolFrames 1080p NV12 frames is allocated once in CUDA memory
// and filled with a known pattern (cuda_frame_pool.h). Each run
// pushes frames taken from that pool through
//   [our src pad] ! <element> ! fakesink      (see pad_push.h)
// for kMeasureSeconds, with <element> = identity (the harness's own cost),
// cudahistogram with the meta on and messages off, and cudahistogram with a
// message per frame (a thread drains the bus meanwhile). Built against
// GStreamer 1.24+, one more run takes its frames from a second pool whose
// frames carry a producer CUDA stream with work marked pending
// (GST_CUDA_MEMORY_TRANSFER_NEED_SYNC, as every frame of a 1.24+ decoder or
// uploader): there the element orders each count after that stream, and the
// run shows what the ordering costs.
//
// What one push measures: a frame acquired from the pool (refcount 1) is
// handed to the pipeline; the element gets it exclusively, hence writable,
// and adds its meta in place, as behind a decoder's own pool; fakesink's
// unref returns it to the pool, which strips that meta. So no push copies a
// frame or a buffer: the time is the element's work (a GPU count of 3 MB
// already in device memory, the meta, the message) plus the harness's.
// Reported: frames/s (pushes over wall time, pool acquisition included for
// every run alike) and the push-to-handoff latency per frame, median and p99,
// and those minus identity's ("added").
//
// Checked: the element answers a context query with the bench's own
// GstCudaContext (shared with gst_element_set_context); during warm-up every
// pool frame reaches the sink (the same buffer: no copy on the way) and, with
// the meta on, its counts equal the CPU reference of its pattern; during
// timing every buffer is a pool frame, carries the meta where it should, and
// every frame posts one message where it should.
//
//   GST_PLUGIN_PATH=<dir of libgstcudahistogram.so> element_bench [--json PATH] [--seconds S]
//
// Exit: 0 OK, 1 a check or a step failed (the reason is printed), 2 bad
// command line, 77 no CUDA device (skipped).
#include <cudahist/cpu.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/video/video.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench_args.h"
#include "bench_stats.h"
#include "cuda_frame_pool.h"
#include "gstcudahistogrammeta.h"
#include "pad_push.h"

namespace {

using bench::kExitSkip;
using bench::CudaNv12Caps;
using bench::kHeight;
using bench::kPoolFrames;
using bench::kWidth;

constexpr guint kBins = 256;
constexpr double kDefaultMeasureSeconds = 6.0;
constexpr size_t kMaxPushes = 4000000;  // latency samples kept per run
const char kUsage[] = "element_bench [--json PATH] [--seconds S]";

struct Frames : bench::CudaFramePool {
  std::map<GstBuffer*, std::vector<uint32_t>> expected;  // counts per pool buffer (Y, U, V)
};

// The pool of `frames`, with each frame's counts by the CPU reference.
std::string MakeFrames(Frames* frames) {
  return bench::MakeFrames(frames, [frames](GstBuffer* b, const std::vector<cudahist::PlaneView>& yuv) {
    cudahist::HistogramSpec spec;
    spec.bins = kBins;
    std::vector<uint32_t>& expected = frames->expected[b];
    expected.assign(3 * kBins, 0);
    return cudahist::ReferenceHistogram(spec, yuv.data(), 3, expected.data()).ok()
               ? std::string()
               : std::string("the CPU reference refuses the pattern's views");
  });
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
  bool producer_stream = false;  // frames from the pool whose frames carry a stream (1.24+)
  bool is_cudahistogram() const { return std::string(factory) == "cudahistogram"; }
};

// The element of `rc`, given the frames' context (nullptr when it cannot be made).
GstElement* MakeElement(const RunConfig& rc, GstCudaContext* context) {
  GstElement* e = gst_element_factory_make(rc.factory, nullptr);
  if (e == nullptr || !rc.is_cudahistogram()) return e;
  g_object_set(e, "bins", kBins, "attach-meta", gboolean(rc.attach_meta), "post-messages",
               gboolean(rc.post_messages), "interval", guint64(0), nullptr);
  GstContext* ctx = gst_context_new_cuda_context(context);  // what a neighbour would share
  gst_element_set_context(e, ctx);
  gst_context_unref(ctx);
  return e;
}

// "" when `element` answers a CUDA context query on its sink pad with
// `context`: it counts in the frames' context, not in one of its own.
std::string CheckSharedContext(GstElement* element, GstCudaContext* context) {
  GstPad* pad = gst_element_get_static_pad(element, "sink");
  GstQuery* query = gst_query_new_context(GST_CUDA_CONTEXT_TYPE);
  GstCudaContext* answered = nullptr;
  if (gst_pad_query(pad, query)) {
    GstContext* c = nullptr;
    gst_query_parse_context(query, &c);
    if (c != nullptr) {
      gst_structure_get(gst_context_get_structure(c), GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &answered, nullptr);
    }
  }
  gst_query_unref(query);
  gst_object_unref(pad);
  const bool same = answered != nullptr && answered == context;
  if (answered != nullptr) gst_object_unref(answered);
  if (same) return "";
  return answered != nullptr ? "the element counts in another CUDA context than the frames'"
                             : "the element answers no CUDA context query (has it no context?)";
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

// One frame from the pool through the pipeline, stamped `index`. "" or what went wrong.
std::string PushFrame(bench::PadPushPipeline* p, GstBufferPool* pool, uint64_t index, double* latency_ns) {
  GstBuffer* b = nullptr;
  if (gst_buffer_pool_acquire_buffer(pool, &b, nullptr) != GST_FLOW_OK) return "cannot acquire a frame from the pool";
  const GstFlowReturn flow = p->Push(b, index, latency_ns);  // our ref goes with it: see the top of the file
  if (flow != GST_FLOW_OK) return std::string("a push returned ") + gst_flow_get_name(flow);
  return *latency_ns < 0 ? "a pushed frame never reached the sink" : "";
}

// Warm-up: every pool frame twice (builds the element's state); "" when
// each reached the sink unchanged in identity and, with the meta on, counted
// as the CPU reference says.
std::string WarmUp(const RunConfig& rc, bench::PadPushPipeline* p, Frames* frames, uint64_t* pushed) {
  std::string bad;
  std::set<GstBuffer*> seen;
  p->SetSinkCheck([&](GstBuffer* b) {
    if (!bad.empty()) return;
    auto it = frames->expected.find(b);
    if (it == frames->expected.end()) {
      bad = "a buffer that is not a pool frame reached the sink (copied on the way?)";
      return;
    }
    seen.insert(b);
    if (rc.attach_meta) bad = CheckMeta(b, it->second);
  });
  double latency = 0;
  std::string why;
  for (; *pushed < 2 * kPoolFrames && why.empty() && bad.empty(); ++*pushed) {
    why = PushFrame(p, frames->pool, *pushed, &latency);
  }
  p->SetSinkCheck(nullptr);
  if (!why.empty()) return "warm-up: " + why;
  if (!bad.empty()) return "warm-up: " + bad;
  if (seen.size() != frames->expected.size()) {
    return "warm-up reached " + std::to_string(seen.size()) + " of the " + std::to_string(frames->expected.size()) +
           " pool frames";
  }
  return rc.is_cudahistogram() ? CheckSharedContext(p->element(), frames->context) : "";
}

RunResult Run(const RunConfig& rc, Frames* frames, double seconds) {
  RunResult r;
  r.name = rc.name;
  GstElement* element = MakeElement(rc, frames->context);
  if (element == nullptr) {
    r.failure = std::string("cannot make a ") + rc.factory + " element";
    return r;
  }
  std::string why;
  auto p = bench::PadPushPipeline::Create(element, CudaNv12Caps(), &why);
  if (!p) {
    r.failure = why;
    return r;
  }
  p->StartBusDrain();
  uint64_t pushed = 0;
  r.failure = WarmUp(rc, p.get(), frames, &pushed);
  // Timed: per buffer only pool membership and the meta's presence (a map
  // lookup among kPoolFrames and a pointer walk, in every run alike).
  uint64_t metas = 0, foreign = 0;
  p->SetSinkCheck([&](GstBuffer* b) {
    metas += gst_buffer_get_cuda_histogram_meta(b) != nullptr;
    foreign += frames->expected.count(b) == 0;
  });
  std::vector<double> latencies;
  latencies.reserve(kMaxPushes);
  double latency = 0;
  const int64_t start = bench::NowNs(), limit = int64_t(seconds * 1e9);
  for (uint64_t i = 0; r.failure.empty() && latencies.size() < kMaxPushes; ++i) {
    r.failure = PushFrame(p.get(), frames->pool, pushed + i, &latency);
    if (r.failure.empty()) latencies.push_back(latency);
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
  if (r.failure.empty() && foreign != 0) r.failure = std::to_string(foreign) + " timed buffers were not pool frames";
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
  bench::CommonArgs args;
  args.seconds = kDefaultMeasureSeconds;
  if (!bench::ParseCommonArgs(argc, argv, kUsage, &args)) return 2;
  const std::string& json_path = args.json_path;
  const double seconds = args.seconds;
  gst_init(nullptr, nullptr);
  bool skip = false;
  GstCudaContext* context = bench::OpenCuda(&skip);
  if (context == nullptr && skip) {
    std::printf("SKIP: no CUDA device (gst-cuda finds no CUDA driver or device)\n");
    return kExitSkip;
  }
  if (context == nullptr) {
    std::fprintf(stderr, "a CUDA device exists but gst-cuda cannot create a context on device 0\n");
    return 1;
  }
  // Registers gst-cuda's allocator, which its buffer pool looks up by name;
  // nvcodec does it in its plugin_init, but no plugin is loaded yet here.
  gst_cuda_memory_init_once();
  GstElementFactory* factory = gst_element_factory_find("cudahistogram");
  if (factory == nullptr) {
    std::fprintf(stderr, "cudahistogram element not found: set GST_PLUGIN_PATH to the folder of libgstcudahistogram.so\n");
    gst_object_unref(context);
    return 1;
  }
  gst_object_unref(factory);
  Frames plain_frames, stream_frames;
  plain_frames.context = stream_frames.context = context;
  stream_frames.on_producer_stream = true;
  std::vector<Frames*> pools = {&plain_frames};
  std::vector<RunConfig> configs = {
      {"identity (harness)", "identity", false, false},
      {"cudahistogram meta, no messages", "cudahistogram", true, false},
      {"cudahistogram meta + message/frame", "cudahistogram", true, true},
  };
#if GST_CHECK_VERSION(1, 24, 0)
  pools.push_back(&stream_frames);
  configs.push_back({"cudahistogram meta, producer stream", "cudahistogram", true, false, true});
#endif
  for (Frames* frames : pools) {
    const std::string why = MakeFrames(frames);
    if (!why.empty()) {
      std::fprintf(stderr, "cannot make the frames: %s\n", why.c_str());
      return 1;
    }
  }
  std::printf("GStreamer %s (built against %d.%d)\n", gst_version_string(), GST_VERSION_MAJOR, GST_VERSION_MINOR);
  std::vector<RunResult> results;
  for (const RunConfig& rc : configs) {
    std::printf("run: %s ...\n", rc.name.c_str());
    std::fflush(stdout);
    results.push_back(Run(rc, rc.producer_stream ? &stream_frames : &plain_frames, seconds));
  }
  for (Frames* frames : pools) bench::DropFrames(frames);
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
    if (f == nullptr) {
      std::fprintf(stderr, "cannot write %s\n", json_path.c_str());
      return 1;
    }
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
