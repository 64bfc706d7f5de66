// analytics_bench: the speed target of the region counts (issue 36). On
// 1080p NV12 frames counted back to back (one call per frame, frames rotating
// over four times the L2 so that each comes from device memory, as a
// decoder's output does), with 1, 16, 100 and 1000 boxes of mixed sizes
// (10x10 to 600x400, overlapping, anywhere), it times with CUDA events
// (warm-up, then the median of repeats, bench/common/event_timing.h):
//   whole-frame      Histogrammer::Compute of Y, U and V (256 bins): the baseline
//   regions          RegionHistogrammer::Compute of every box's Y, U and V, one launch
//   regions-y        the same of Y alone
//   npp-per-box-y    NPP's nppiHistogramEven_8u_C1R once per box, on Y (NPP has no
//                    two-channel histogram for NV12's UV)
//   cub-per-box      CUB's DeviceHistogram once per box and plane: HistogramEven of
//                    Y, MultiHistogramEven<2,2> of UV (bench/kernels/cub_baseline.cu)
//   cub-per-box-y    CUB's HistogramEven once per box, on Y
// and prints per box count each time per frame and the ratios the targets
// name: regions / whole-frame (at most 1.5 at 100 boxes) and npp-per-box-y /
// regions-y (at least 10), with cub-per-box / regions beside them, and one
// JSON object for bench/RESULTS.md. Before timing, every method's counts of
// the distinct frames equal the CPU reference's (ReferenceRegionHistograms).
//
//   analytics_bench [--json FILE] [--repeats N] [--quick] [--boxes N,...] [--methods M,...]
//                   [--frames mixed|flat]
// --frames flat: every sample of a frame one value (a black border, a sky, a
// blank screen), where the lanes of a warp all count into one bin: the case
// that decides how many lane copies the segmented kernel keeps
// (regions_tuning.h's max_copies). mixed, the default: peaked and uniform
// frames.
// --boxes: these box counts only (the same boxes as in the full run: the seed
// is the count's). --methods: these methods only, among the five above after
// whole-frame (the ratios' denominator, always timed) and
//   regions+graph    the regions arm's Computes captured once as a CUDA graph and
//                    replayed back to back: the device's time without the host's
//                    work per call (only where the regions travel in the launch's
//                    parameters: a copied region table cannot be captured); the
//                    whole frame's Computes are then timed as a graph too
//                    (whole-frame+graph), the ratio's denominator without the host
//   regions+alone    each frame's Compute (table copy and launch) timed by itself,
//                    the stream held by a host function until the host has
//                    enqueued it: one frame's device time, launch latency
//                    included, at any box count
// and every regions row then also says how long the host spent in each Compute
// call: where that is about the time per frame, the host sets the pace.
// bench/tuning/tune_segmented.sh times the variants of the segmented kernel
// with --boxes 16,100,1000 --methods regions,regions+graph,regions+alone.
// Exit status: 0, 1 on a wrong count or a CUDA error, 77 without a CUDA device.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cub_baseline.h"
#include "cudahist/histogrammer.h"
#include "cudahist/regions.h"
#include "bench_args.h"
#include "event_timing.h"
#include "frames.h"
#include "npp_baseline.h"
#include "region_cases.h"
#include "regions/regions_tuning.h"
#include "yuv_frames.h"

#ifndef CUDAHIST_BENCH_VARIANT
#define CUDAHIST_BENCH_VARIANT "default"
#endif

namespace bench {
namespace {

constexpr char kVariant[] = CUDAHIST_BENCH_VARIANT;  // NAME=FLAGS of the segmented kernel's tuning

// The methods a run times besides whole-frame; the first kDefaultMethods by default.
const std::vector<std::string> kMethods = {"regions", "regions-y", "cub-per-box", "cub-per-box-y", "npp-per-box-y",
                                           "regions+graph", "regions+alone"};
constexpr int kDefaultMethods = 5;  // the first five

struct Options : KernelBenchArgs {
  std::vector<uint32_t> boxes;  // empty: 1, 16, 100, 1000 (--quick: 1, 16, 100)
  bool flat_frames = false;     // --frames flat
  std::set<std::string> methods;
  bool chosen_methods = false;  // --methods given: the regions rows add the host's time
  bool Runs(const std::string& method) const { return methods.count(method) != 0; }
};

// "a,b,c" as its parts ("" gives none).
std::vector<std::string> SplitCommas(const std::string& list) {
  std::vector<std::string> parts;
  std::stringstream in(list);
  for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
  return parts;
}

bool ParseOptions(int argc, char** argv, Options* o) {
  std::string boxes, methods, frames = "mixed";
  const bool parsed = bench::ParseKernelBenchArgs(
      argc, argv, o, " [--boxes N,...] [--methods M,...] [--frames mixed|flat]",
      [&](const std::string& flag, const char* value) {
        if (flag == "--boxes") boxes = value;
        if (flag == "--methods") {
          methods = value;
          o->chosen_methods = true;
        }
        if (flag == "--frames") frames = value;
        return flag == "--boxes" || flag == "--methods" || flag == "--frames";
      });
  if (!parsed) return false;
  if (frames != "mixed" && frames != "flat") {
    std::fprintf(stderr, "--frames: '%s' is neither mixed nor flat\n", frames.c_str());
    return false;
  }
  o->flat_frames = frames == "flat";
  for (const std::string& b : SplitCommas(boxes)) {
    char* end = nullptr;
    const unsigned long n = std::strtoul(b.c_str(), &end, 10);
    if (b.empty() || *end != '\0' || n < 1 || n > 10000) {
      std::fprintf(stderr, "--boxes: '%s' is not a box count (1 to 10000)\n", b.c_str());
      return false;
    }
    o->boxes.push_back(uint32_t(n));
  }
  for (const std::string& m : SplitCommas(methods)) {
    if (std::find(kMethods.begin(), kMethods.end(), m) == kMethods.end()) {
      std::fprintf(stderr, "--methods: no method '%s' (whole-frame is always timed)\n", m.c_str());
      return false;
    }
    o->methods.insert(m);
  }
  if (!o->chosen_methods) o->methods = {kMethods.begin(), kMethods.begin() + kDefaultMethods};
  return true;
}

// `count` boxes of widths 10 to 600 and heights 10 to 400 (clipped to the
// frame), anywhere inside it: the mix. Fixed seed: every run times the same boxes.
std::vector<cudahist::Roi> MixedBoxes(uint32_t width, uint32_t height, uint32_t count) {
  std::mt19937_64 rng(36 + count);
  std::vector<cudahist::Roi> boxes;
  for (uint32_t i = 0; i < count; ++i) {
    cudahist::Roi r;
    r.width = std::min<uint32_t>(width, 10 + uint32_t(rng() % 591));
    r.height = std::min<uint32_t>(height, 10 + uint32_t(rng() % 391));
    r.x = uint32_t(rng() % (width - r.width + 1));
    r.y = uint32_t(rng() % (height - r.height + 1));
    boxes.push_back(r);
  }
  return boxes;
}

// The views of a frame's Y, U and V cut to `box` (no ROI: the data starts at
// the box), as a per-box call of NPP or CUB takes them.
std::vector<cudahist::PlaneView> BoxViews(const cudahist::RegionFrame& frame, const cudahist::Roi& box, int planes) {
  std::vector<cudahist::PlaneView> views;
  for (int c = 0; c < planes; ++c) {
    const cudahist::Roi on = cudahist::RegionOnPlane(box, frame.log2_hsub[c], frame.log2_vsub[c]);
    cudahist::PlaneView v = frame.planes[c];
    v.data = static_cast<const uint8_t*>(v.data) + size_t(on.y) * v.pitch + size_t(on.x) * v.pixel_stride;
    v.width = on.width;
    v.height = on.height;
    views.push_back(v);
  }
  return views;
}

struct Row {
  uint32_t boxes;
  std::string method;
  Timing timing;
  std::string note;
  uint32_t tiles = 0;    // regions arms: the tiles of a frame
  double host_us = 0;    // regions: the host's own time a Compute call (HostMicroseconds)
};

class Benchmark {
 public:
  Benchmark(const Options& o, cudaStream_t stream) : o_(o), stream_(stream) {}

  // The frames: four distinct ones, repeated over four times the L2.
  std::string MakeFrames(uint32_t width, uint32_t height) {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::mt19937_64 rng(1);
    for (const cudahist_test::YuvFrameSpec& spec : DistinctFrameSpecs(width, height)) {
      distinct_.push_back(cudahist_test::MakeYuvFrame(spec, rng));
    }
    const size_t frame_bytes = size_t(width) * height * 3 / 2;
    const int slots = int(std::min<size_t>(64, std::max<size_t>(8, 4 * size_t(prop.l2CacheSize) / frame_bytes + 1)));
    for (int i = 0; i < slots; ++i) {
      const cudahist_test::YuvFrame& host = distinct_[size_t(i) % distinct_.size()];
      device_.push_back(std::make_unique<cudahist_test::DeviceFrame>());
      const cudaError_t e = device_.back()->Upload(host.planes, {host.view.y, host.view.u, host.view.v}, 16);
      if (e != cudaSuccess) return cudaGetErrorString(e);
      cudahist::RegionFrame f = cudahist_test::RegionFrameOf(host.view);
      for (int c = 0; c < 3; ++c) f.planes[c] = device_.back()->views()[size_t(c)];
      frames_.push_back(f);
    }
    return ErrorText(cudaDeviceSynchronize());
  }

  int frames() const { return int(frames_.size()); }
  const char* frames_name() const { return o_.flat_frames ? "flat" : "mixed"; }

  void Add(uint32_t boxes, const std::string& method, const Timing& t, const std::string& note = "",
           uint32_t tiles = 0, double host_us = 0) {
    rows_.push_back(Row{boxes, method, t, note, tiles, host_us});
    if (!t.error.empty()) {
      std::printf("  %-14s %s\n", method.c_str(), t.error.c_str());
    } else {
      std::printf("  %-14s %10.2f us/frame  (%d repeats)%s%s\n", method.c_str(), t.microseconds, t.repeats,
                  note.empty() ? "" : "  ", note.c_str());
    }
  }

  Timing Time(const Launch& launch) { return TimePasses(launch, frames(), frames(), o_.repeats, stream_); }

  // The host's own time in one call of `launch`: each call timed on a drained
  // stream, so that a full launch queue (back to back, the host waits in the
  // launch for the device) does not count. The median over every frame of
  // `passes` passes, after one pass of warm-up; 0 on an error.
  double HostMicroseconds(const Launch& launch, int passes) {
    std::vector<double> us;
    for (int pass = 0; pass <= passes; ++pass) {
      for (int f = 0; f < frames(); ++f) {
        if (cudaStreamSynchronize(stream_) != cudaSuccess) return 0;
        const auto start = std::chrono::steady_clock::now();
        if (!launch(f).empty()) return 0;
        const double elapsed = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        if (pass > 0) us.push_back(elapsed);
      }
    }
    return cudaStreamSynchronize(stream_) == cudaSuccess ? Median(us) : 0;
  }

  // Each frame's launch timed on its own: before it, a host function holds the
  // stream for `hold_us` (more than the host takes to enqueue the frame), so
  // that the events bracket the device's work alone. Medians over `passes`
  // passes of every frame, after one pass of warm-up.
  Timing TimeAlone(const Launch& launch, double hold_us, int passes) {
    Timing t;
    const int n = frames();
    std::vector<cudaEvent_t> start(static_cast<size_t>(n)), stop(static_cast<size_t>(n));
    for (int f = 0; f < n; ++f) {
      cudaEventCreate(&start[size_t(f)]);
      cudaEventCreate(&stop[size_t(f)]);
    }
    const auto hold = [](void* us) {
      std::this_thread::sleep_for(std::chrono::duration<double, std::micro>(*static_cast<double*>(us)));
    };
    std::vector<double> per_frame_us;
    for (int pass = 0; pass <= passes && t.error.empty(); ++pass) {
      for (int f = 0; f < n && t.error.empty(); ++f) {
        t.error = ErrorText(cudaLaunchHostFunc(stream_, hold, &hold_us));
        if (t.error.empty()) t.error = ErrorText(cudaEventRecord(start[size_t(f)], stream_));
        if (t.error.empty()) t.error = launch(f);
        if (t.error.empty()) t.error = ErrorText(cudaEventRecord(stop[size_t(f)], stream_));
      }
      const std::string synced = ErrorText(cudaStreamSynchronize(stream_));
      if (t.error.empty()) t.error = synced;
      for (int f = 0; f < n && t.error.empty() && pass > 0; ++f) {
        float ms = 0;
        cudaEventElapsedTime(&ms, start[size_t(f)], stop[size_t(f)]);
        per_frame_us.push_back(double(ms) * 1e3);
      }
    }
    for (int f = 0; f < n; ++f) {
      cudaEventDestroy(start[size_t(f)]);
      cudaEventDestroy(stop[size_t(f)]);
    }
    t.microseconds = Median(per_frame_us);
    t.repeats = passes;
    return t;
  }

  // One pass over the frames captured as a CUDA graph, its replays timed.
  Timing TimeGraph(const Launch& launch) { return bench::TimeGraph(launch, frames(), o_.repeats, stream_); }

  // The CPU reference of `boxes` on distinct frame i, components [0, planes).
  std::vector<uint32_t> Reference(int i, const std::vector<cudahist::Roi>& boxes, int planes) const {
    cudahist::RegionFrame f = cudahist_test::RegionFrameOf(distinct_[size_t(i)].view);
    f.num_planes = planes;
    cudahist::HistogramSpec spec;
    std::vector<uint32_t> counts(cudahist::RegionCountsLength(spec, planes, uint32_t(boxes.size())));
    const cudahist::Status s =
        cudahist::ReferenceRegionHistograms(spec, f, boxes.data(), uint32_t(boxes.size()), counts.data());
    if (!s.ok()) std::fprintf(stderr, "reference: %s\n", s.message().c_str());
    return counts;
  }

  const cudahist::RegionFrame& frame(int i) const { return frames_[size_t(i)]; }
  const std::vector<Row>& rows() const { return rows_; }
  int distinct() const { return int(distinct_.size()); }

 private:
  // Peaked and uniform frames, or (--frames flat) frames of one value each,
  // a different one a frame.
  std::vector<cudahist_test::YuvFrameSpec> DistinctFrameSpecs(uint32_t width, uint32_t height) const {
    using cudahist_test::Distribution;
    const Distribution mixed[] = {Distribution::kPeaked, Distribution::kUniform, Distribution::kPeaked,
                                  Distribution::kUniform};
    const uint32_t flat_values[] = {16, 128, 235, 60};
    std::vector<cudahist_test::YuvFrameSpec> specs;
    for (int i = 0; i < 4; ++i) {
      cudahist_test::YuvFrameSpec spec = cudahist_test::YuvSpec(cudahist_test::YuvFormat::kNv12, width, height);
      spec.distribution = o_.flat_frames ? Distribution::kOneValue : mixed[i];
      spec.one_value = flat_values[i];
      spec.pitch_padding = 64;
      specs.push_back(spec);
    }
    return specs;
  }

  const Options& o_;
  cudaStream_t stream_;
  std::vector<cudahist_test::YuvFrame> distinct_;
  std::vector<std::unique_ptr<cudahist_test::DeviceFrame>> device_;
  std::vector<cudahist::RegionFrame> frames_;
  std::vector<Row> rows_;
};

// Device counts read back as uint32 (NPP and CUB count in int).
template <typename T>
std::vector<uint32_t> ReadBack(const T* device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return std::vector<uint32_t>(host.begin(), host.end());
}

// The CPU reference of every distinct frame, per component count (1: Y, 3: Y, U, V).
using References = std::map<int, std::vector<std::vector<uint32_t>>>;

// "" when the method's counts of every distinct frame equal the reference.
std::string Verify(const References& want, int planes,
                   const std::function<std::string(int frame, std::vector<uint32_t>* counts)>& count) {
  const std::vector<std::vector<uint32_t>>& frames = want.at(planes);
  for (size_t i = 0; i < frames.size(); ++i) {
    std::vector<uint32_t> got;
    const std::string error = count(int(i), &got);
    if (!error.empty()) return error;
    if (got != frames[i]) return "counts of frame " + std::to_string(i) + " differ from the reference";
  }
  return "";
}

bool RunBoxes(Benchmark& b, const Options& o, uint32_t n, uint32_t width, uint32_t height, NppHistogram* npp,
              cudaStream_t stream) {
  const std::vector<cudahist::Roi> boxes = MixedBoxes(width, height, n);
  std::printf("%u boxes:\n", n);
  // The CPU reference of every distinct frame, each on a thread of its own
  // (at 1000 boxes one takes about half a second).
  References want;
  const bool all = o.Runs("regions") || o.Runs("regions+graph") || o.Runs("regions+alone") || o.Runs("cub-per-box");
  const bool y = o.Runs("regions-y") || o.Runs("cub-per-box-y") || o.Runs("npp-per-box-y");
  std::map<int, std::vector<std::future<std::vector<uint32_t>>>> references;
  for (int planes : {3, 1}) {
    if (planes == 3 ? !all : !y) continue;
    for (int i = 0; i < b.distinct(); ++i) {
      references[planes].push_back(std::async(std::launch::async, [&b, &boxes, i, planes] {
        return b.Reference(i, boxes, planes);
      }));
    }
  }
  for (auto& [planes, futures] : references) {
    for (auto& f : futures) want[planes].push_back(f.get());
  }
  cudahist::HistogramSpec spec;
  bool ok = true;
  // cudahist, all components and Y alone.
  for (int planes : {3, 1}) {
    const std::string method = planes == 3 ? "regions" : "regions-y";
    const bool graph = planes == 3 && o.Runs("regions+graph");
    const bool alone = planes == 3 && o.Runs("regions+alone");
    if (!o.Runs(method) && !graph && !alone) continue;
    std::unique_ptr<cudahist::RegionHistogrammer> h;
    cudahist::Status s = cudahist::RegionHistogrammer::Create(spec, planes, &h);
    uint32_t* counts = nullptr;
    const size_t length = cudahist::RegionCountsLength(spec, planes, n);
    if (s.ok()) cudaMalloc(reinterpret_cast<void**>(&counts), length * sizeof(uint32_t));
    const auto launch = [&](int f) {
      cudahist::RegionFrame frame = b.frame(f);
      frame.num_planes = planes;
      const cudahist::Status c = h->Compute(frame, boxes.data(), n, stream, counts);
      return c.ok() ? std::string() : c.message();
    };
    std::string wrong = s.ok() ? Verify(want, planes, [&](int f, std::vector<uint32_t>* got) {
      std::string e = launch(f);
      if (e.empty()) e = ErrorText(cudaStreamSynchronize(stream));
      *got = ReadBack(counts, length);
      return e;
    }) : s.message();
    if (!wrong.empty()) {
      std::fprintf(stderr, "%s: %s\n", method.c_str(), wrong.c_str());
      ok = false;
    } else {
      const uint32_t tiles = h->last_tiles();
      const double host_us = b.HostMicroseconds(launch, 3);
      if (o.Runs(method)) {
        const Timing t = b.Time(launch);
        std::ostringstream note;
        note << tiles << " tiles";
        if (o.chosen_methods) {
          note.precision(3);
          note << ", host " << host_us << " us a call";
        }
        b.Add(n, method, t, note.str(), tiles, host_us);
      }
      if (graph && n > cudahist::detail::kSegmentedPolicy.inline_regions) {
        b.Add(n, "regions+graph", Timing{"not timed: the region table is copied before each launch", 0, 0});
      } else if (graph) {
        const Timing t = b.TimeGraph(launch);
        // The replays' counts too: those of the last frame of the rotation.
        std::string replayed = t.error.empty() ? ErrorText(cudaStreamSynchronize(stream)) : t.error;
        if (replayed.empty() && ReadBack(counts, length) != want.at(3)[size_t((b.frames() - 1) % b.distinct())]) {
          replayed = "the graph's counts differ from the reference";
        }
        if (!replayed.empty() && t.error.empty()) {
          std::fprintf(stderr, "regions+graph: %s\n", replayed.c_str());
          ok = false;
        } else {
          b.Add(n, "regions+graph", t, std::to_string(tiles) + " tiles, one CUDA graph per rotation", tiles);
        }
      }
      if (alone) {
        // Twice the host's time a call, and 100 us for the scheduler's slack.
        const double hold_us = 2 * host_us + 100;
        const Timing t = b.TimeAlone(launch, hold_us, std::min(o.repeats, 3));
        std::ostringstream note;
        note.precision(3);
        note << tiles << " tiles, each frame alone (stream held " << hold_us << " us before it)";
        b.Add(n, "regions+alone", t, note.str(), tiles);
      }
    }
    cudaFree(counts);
  }
  // CUB per box and plane group, all components and Y alone.
  for (int groups : {2, 1}) {
    const std::string method = groups == 2 ? "cub-per-box" : "cub-per-box-y";
    if (!o.Runs(method)) continue;
    const int planes = groups == 2 ? 3 : 1;
    size_t temp_bytes = 0;
    std::string why;
    for (const cudahist::Roi& box : boxes) {
      size_t bytes = 0;
      CubHistogramPlanes(nullptr, &bytes, BoxViews(b.frame(0), box, 3).data(), 3, 256, nullptr, stream, &why, groups);
      temp_bytes = std::max(temp_bytes, bytes);
    }
    void* temp = nullptr;
    int* counts = nullptr;
    cudaMalloc(&temp, std::max<size_t>(temp_bytes, 1));
    cudaMalloc(reinterpret_cast<void**>(&counts), size_t(n) * planes * 256 * sizeof(int));
    const auto launch = [&](int f) {
      for (uint32_t r = 0; r < n; ++r) {
        const cudaError_t e = CubHistogramPlanes(temp, &temp_bytes, BoxViews(b.frame(f), boxes[r], 3).data(), 3, 256,
                                                 counts + size_t(r) * planes * 256, stream, &why, groups);
        if (e != cudaSuccess) return why.empty() ? std::string(cudaGetErrorString(e)) : why;
      }
      return std::string();
    };
    const std::string wrong = Verify(want, planes, [&](int f, std::vector<uint32_t>* got) {
      std::string e = launch(f);
      if (e.empty()) e = ErrorText(cudaStreamSynchronize(stream));
      *got = ReadBack(counts, size_t(n) * planes * 256);
      return e;
    });
    if (!wrong.empty()) {
      std::fprintf(stderr, "%s: %s\n", method.c_str(), wrong.c_str());
      ok = false;
    } else {
      b.Add(n, method, b.Time(launch), std::to_string(n * groups) + " calls a frame");
    }
    cudaFree(temp);
    cudaFree(counts);
  }
  // NPP per box, Y.
  if (!o.Runs("npp-per-box-y")) return ok;
  if (npp == nullptr) {
    b.Add(n, "npp-per-box-y", Timing{"NPP not loaded", 0, 0});
    return ok;
  }
  std::string why;
  const cudahist::PlaneView whole_y = b.frame(0).planes[0];
  if (!npp->Prepare(&whole_y, 1, 256, &why)) {  // the scratch of the largest box there can be
    b.Add(n, "npp-per-box-y", Timing{why, 0, 0});
    return ok;
  }
  int* counts = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&counts), size_t(n) * 256 * sizeof(int));
  const auto launch = [&](int f) {
    for (uint32_t r = 0; r < n; ++r) {
      const cudahist::PlaneView y = BoxViews(b.frame(f), boxes[r], 1)[0];
      const int s = npp->Run(&y, 1, 256, counts + size_t(r) * 256, stream);
      if (s != 0) return "NppStatus " + std::to_string(s);
    }
    return std::string();
  };
  const std::string wrong = Verify(want, 1, [&](int f, std::vector<uint32_t>* got) {
    std::string e = launch(f);
    if (e.empty()) e = ErrorText(cudaStreamSynchronize(stream));
    *got = ReadBack(counts, size_t(n) * 256);
    return e;
  });
  if (!wrong.empty()) {
    std::fprintf(stderr, "npp-per-box-y: %s\n", wrong.c_str());
    ok = false;
  } else {
    b.Add(n, "npp-per-box-y", b.Time(launch), std::to_string(n) + " calls a frame");
  }
  cudaFree(counts);
  return ok;
}

const Row* Find(const std::vector<Row>& rows, uint32_t boxes, const std::string& method) {
  for (const Row& r : rows) {
    if (r.boxes == boxes && r.method == method && r.timing.error.empty()) return &r;
  }
  return nullptr;
}

double Us(const std::vector<Row>& rows, uint32_t boxes, const std::string& method) {
  const Row* r = Find(rows, boxes, method);
  return r != nullptr ? r->timing.microseconds : 0;
}

std::string Ratio(double a, double b) {
  if (a <= 0 || b <= 0) return "null";
  std::ostringstream s;
  s.precision(3);
  s << a / b;
  return s.str();
}

int Run(const Options& o) {
  const cudahist::Status device = cudahist::CheckCudaDevice();
  if (!device.ok()) {
    std::printf("analytics_bench: skipped (%s)\n", device.message().c_str());
    return kExitSkip;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const uint32_t width = o.quick ? 640 : 1920, height = o.quick ? 360 : 1080;
  Options timing = o;
  if (o.quick) timing.repeats = 3;
  cudaStream_t stream = nullptr;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  Benchmark b(timing, stream);
  const std::string made = b.MakeFrames(width, height);
  if (!made.empty()) {
    std::fprintf(stderr, "device frames: %s\n", made.c_str());
    return 1;
  }
  std::printf("analytics_bench on %s: %ux%u NV12, %d frames rotating (4 distinct, %s)\n", prop.name, width, height,
              b.frames(), b.frames_name());
  std::string npp_why;
  std::unique_ptr<NppHistogram> npp;
  if (o.Runs("npp-per-box-y")) {  // loading NPP's libraries takes a while
    npp = NppHistogram::Load(&npp_why);
    std::printf("NPP: %s\n", npp ? npp->library().c_str() : ("not loaded, " + npp_why).c_str());
  }

  // The baseline: the whole frame's Y, U and V.
  cudahist::HistogramSpec spec;
  std::unique_ptr<cudahist::Histogrammer> whole;
  cudahist::Status s = cudahist::Histogrammer::Create(spec, 3, &whole);
  uint32_t* whole_counts = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&whole_counts), 3 * 256 * sizeof(uint32_t));
  if (!s.ok()) {
    std::fprintf(stderr, "Histogrammer::Create: %s\n", s.message().c_str());
    return 1;
  }
  std::printf("whole frame:\n");
  const auto whole_launch = [&](int f) {
    const cudahist::Status c = whole->Compute(b.frame(f).planes, 3, stream, whole_counts);
    return c.ok() ? std::string() : c.message();
  };
  b.Add(0, "whole-frame", b.Time(whole_launch));
  // The denominator of regions+graph: the same frames' whole-frame Computes as
  // one CUDA graph, so that both sides of that ratio leave the host out.
  if (o.Runs("regions+graph")) b.Add(0, "whole-frame+graph", b.TimeGraph(whole_launch), "one CUDA graph per rotation");
  bool ok = true;
  std::vector<uint32_t> counts = o.quick ? std::vector<uint32_t>{1, 16, 100} : std::vector<uint32_t>{1, 16, 100, 1000};
  if (!o.boxes.empty()) counts = o.boxes;
  for (uint32_t n : counts) ok = RunBoxes(b, o, n, width, height, npp.get(), stream) && ok;
  cudaFree(whole_counts);

  const double frame_us = Us(b.rows(), 0, "whole-frame");
  std::printf("\nboxes  regions/whole-frame  npp-per-box-y/regions-y  cub-per-box/regions\n");
  std::ostringstream json;
  json << "{\"device\": \"" << prop.name << "\", \"frame\": \"" << width << "x" << height
       << " NV12\", \"frames\": \"" << b.frames_name() << "\", \"variant\": \"" << kVariant
       << "\", \"repeats\": " << timing.repeats
       << ", \"whole_frame_us\": " << frame_us;
  if (o.Runs("regions+graph")) json << ", \"whole_frame_graph_us\": " << Us(b.rows(), 0, "whole-frame+graph");
  json << ", \"boxes\": [";
  for (size_t i = 0; i < counts.size(); ++i) {
    const uint32_t n = counts[i];
    const std::string vs_frame = Ratio(Us(b.rows(), n, "regions"), frame_us);
    const std::string vs_npp = Ratio(Us(b.rows(), n, "npp-per-box-y"), Us(b.rows(), n, "regions-y"));
    const std::string vs_cub = Ratio(Us(b.rows(), n, "cub-per-box"), Us(b.rows(), n, "regions"));
    std::printf("%5u  %19s  %23s  %19s\n", n, vs_frame.c_str(), vs_npp.c_str(), vs_cub.c_str());
    json << (i ? ", " : "") << "{\"boxes\": " << n;
    for (const char* m : {"regions", "regions-y", "npp-per-box-y", "cub-per-box", "cub-per-box-y"}) {
      json << ", \"" << m << "_us\": " << (Us(b.rows(), n, m) > 0 ? std::to_string(Us(b.rows(), n, m)) : "null");
    }
    if (const Row* r = Find(b.rows(), n, "regions")) {
      json << ", \"regions_tiles\": " << r->tiles << ", \"regions_host_us\": " << r->host_us;
    }
    for (const char* m : {"regions+graph", "regions+alone"}) {
      if (!o.Runs(m)) continue;
      const double us = Us(b.rows(), n, m);
      json << ", \"" << (std::string(m) == "regions+graph" ? "regions_graph" : "regions_alone")
           << "_us\": " << (us > 0 ? std::to_string(us) : "null");
    }
    json << ", \"regions_over_whole_frame\": " << vs_frame << ", \"npp_y_over_regions_y\": " << vs_npp
         << ", \"cub_over_regions\": " << vs_cub << "}";
  }
  json << "]}";
  std::printf("targets (100 boxes): regions/whole-frame <= 1.5, npp-per-box-y/regions-y >= 10\n");
  if (!o.json.empty()) std::ofstream(o.json) << json.str() << "\n";
  cudaStreamDestroy(stream);
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  bench::Options o;
  if (!bench::ParseOptions(argc, argv, &o)) return 2;
  return bench::Run(o);
}
