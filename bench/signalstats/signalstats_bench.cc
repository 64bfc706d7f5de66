// signalstats_bench: the library half of signalstats' speed target. On 1080p
// NV12 frames counted back to back (one call per frame, frames rotating over
// four times the L2 so that each comes from device memory, as a decoder's
// output does), it times with CUDA events (warm-up, then the median of
// repeats, bench/common/event_timing.h):
//   histogram         Histogrammer::Compute of Y, U and V in 256 bins
//   signalstats+prev  SignalStatsCounter::Compute against the previous frame
//   signalstats       the same without a previous frame
//   signalstats+prev pinned   the element's case: counts into pinned memory
//   signalstats+prev+qc pinned   ... with the QC counts (TOUT, VREP,
//                     cropdetect, field PSNR) from the same launch
// and prints each, the ratio to the histogram (target: at most 1.5 with a
// previous frame) and one JSON object for bench/RESULTS.md. Before timing,
// the GPU's counts of distinct frames must equal ReferenceSignalStats'.
//
//   signalstats_bench [--json FILE] [--repeats N] [--quick]
// Exit status: 0, 1 on a wrong count or a CUDA error, 77 without a CUDA device.
// Built as signalstats_bench-NAME by bench/tuning/tune_signalstats.sh, it runs a
// variant of the kernel's tuning and names it (NAME=FLAGS) in its output.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cudahist/cpu.h"
#include "cudahist/histogrammer.h"
#include "cudahist/signalstats.h"
#include "bench_args.h"
#include "event_timing.h"
#include "yuv_frames.h"
#if CUDAHIST_SIGNALSTATS_TIMELINE
#include "signalstats/signalstats_timeline.h"
#endif

#ifndef CUDAHIST_BENCH_VARIANT
#define CUDAHIST_BENCH_VARIANT "default"
#endif

namespace bench {
namespace {

constexpr char kVariant[] = CUDAHIST_BENCH_VARIANT;  // NAME=FLAGS of the kernel's tuning

using Options = KernelBenchArgs;

// Device copies of `distinct` host frames, repeated into `slots` separate
// allocations (frame i holds distinct frame i % distinct), views rebased.
class DeviceFrames {
 public:
  DeviceFrames(const std::vector<cudahist_test::YuvFrame>& distinct, int slots) {
    for (int i = 0; i < slots; ++i) {
      const cudahist_test::YuvFrame& host = distinct[size_t(i) % distinct.size()];
      std::vector<uint8_t*> buffers;
      for (const cudahist_test::HostPlane& p : host.planes) {
        void* d = nullptr;
        error_ = error_.empty() ? ErrorText(cudaMalloc(&d, p.storage.size())) : error_;
        if (error_.empty()) {
          error_ = ErrorText(cudaMemcpy(d, p.storage.data(), p.storage.size(), cudaMemcpyHostToDevice));
        }
        buffers.push_back(static_cast<uint8_t*>(d));
        allocations_.push_back(d);
      }
      cudahist::YuvPlanes v = host.view;
      for (cudahist::PlaneView* pv : {&v.y, &v.u, &v.v}) {
        const cudahist_test::ViewAnchor a = cudahist_test::AnchorOf(host.planes, *pv);
        pv->data = buffers[a.plane] + a.offset;
      }
      views_.push_back(v);
    }
    // Landed before the first count: a pageable cudaMemcpy may return with
    // its DMA on the way, and the counts run on a non-blocking stream.
    if (error_.empty()) error_ = ErrorText(cudaDeviceSynchronize());
  }
  ~DeviceFrames() {
    for (void* p : allocations_) cudaFree(p);
  }
  const std::string& error() const { return error_; }
  const cudahist::YuvPlanes& operator[](int i) const { return views_[size_t(i)]; }
  int size() const { return int(views_.size()); }

 private:
  std::string error_;
  std::vector<void*> allocations_;
  std::vector<cudahist::YuvPlanes> views_;
};

#if CUDAHIST_SIGNALSTATS_TIMELINE
// The timeline variant (signalstats_timeline.h): where one launch's time
// goes, block by block, printed as the median and the largest value over the
// blocks of each phase (cycles of the SM clock, and us at its peak clock),
// and when the blocks start and end (globaltimer, from the first start).
void PrintTimeline(const char* what) {
  using namespace cudahist::detail;
  std::vector<unsigned long long> m;
  uint32_t blocks = 0;
  const cudahist::Status s = SignalStatsTimeline(&m, &blocks);
  if (!s.ok() || blocks == 0) {
    std::printf("timeline: %s\n", s.ok() ? "no launch" : s.message().c_str());
    return;
  }
  int khz = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  auto at = [&](uint32_t b, uint32_t mark) { return double(m[size_t(b) * kTimelineMarks + mark]); };
  std::printf("timeline, %s (%u blocks; cycles, us at %.2f GHz: median / max over blocks):\n", what, blocks, khz / 1e6);
  const struct {
    const char* name;
    TimelineMark from, to;
  } phases[] = {{"zero shared + wait prior grid", kMarkStart, kMarkZeroed},
                {"count units", kMarkZeroed, kMarkCounted},
                {"(wait +) merge copies", kMarkCounted, kMarkMerged},
                {"fence + ticket", kMarkMerged, kMarkArrived}};
  for (const auto& ph : phases) {
    std::vector<double> v;
    for (uint32_t b = 0; b < blocks; ++b) v.push_back(at(b, ph.to) - at(b, ph.from));
    const double med = bench::Median(v), max = *std::max_element(v.begin(), v.end());
    std::printf("  %-32s %8.0f / %8.0f cycles  %6.2f / %6.2f us\n", ph.name, med, max, med * 1e3 / khz,
                max * 1e3 / khz);
  }
  std::vector<double> start, end;
  uint32_t last = blocks;  // none: a direct launch has no last block
  for (uint32_t b = 0; b < blocks; ++b) {
    start.push_back(at(b, kMarkStartGlobal));
    end.push_back(at(b, kMarkEndGlobal));
    if (at(b, kMarkWritten) != 0) last = b;
  }
  const double t0 = *std::min_element(start.begin(), start.end());
  if (last == blocks) {
    std::printf("  direct launch (no last block): last start %.2f us; blocks end median %.2f, max %.2f us\n",
                (*std::max_element(start.begin(), start.end()) - t0) / 1e3, (bench::Median(end) - t0) / 1e3,
                (*std::max_element(end.begin(), end.end()) - t0) / 1e3);
    return;
  }
  std::vector<double> ends_of_others;
  for (uint32_t b = 0; b < blocks; ++b) {
    if (b != last) ends_of_others.push_back(end[b] - t0);
  }
  std::printf("  last block (%u) writes the counts  %8.0f cycles  %6.2f us\n", last,
              at(last, kMarkWritten) - at(last, kMarkArrived), (at(last, kMarkWritten) - at(last, kMarkArrived)) * 1e3 / khz);
  std::printf("  globaltimer from the first start: last start %.2f us; other blocks end median %.2f, max %.2f us; "
              "last block ends %.2f us\n",
              (*std::max_element(start.begin(), start.end()) - t0) / 1e3, bench::Median(ends_of_others) / 1e3,
              *std::max_element(ends_of_others.begin(), ends_of_others.end()) / 1e3, (end[last] - t0) / 1e3);
}
#endif

// The GPU's counts of every distinct frame (against the one before it),
// and its QC counts, against the references; "" when all are equal.
std::string Verify(cudahist::SignalStatsCounter& counter, const std::vector<cudahist_test::YuvFrame>& distinct,
                   const DeviceFrames& device, cudaStream_t stream) {
  std::unique_ptr<cudahist::Pinned<cudahist::SignalStatsCounts>> pinned;
  std::unique_ptr<cudahist::Pinned<cudahist::QcCounts>> pinned_qc;
  cudahist::Status s = cudahist::Pinned<cudahist::SignalStatsCounts>::Create(&pinned);
  if (s.ok()) s = cudahist::Pinned<cudahist::QcCounts>::Create(&pinned_qc);
  if (!s.ok()) return s.message();
  static cudahist::QcCounts want_qc;
  const int n = int(distinct.size());
  for (int i = 0; i < n; ++i) {
    for (bool with_previous : {false, true}) {
      const int p = (i + n - 1) % n;
      s = counter.Compute(device[i], with_previous ? &device[p] : nullptr, stream, pinned->data(), pinned_qc->data());
      if (!s.ok()) return s.message();
      const std::string synced = ErrorText(cudaStreamSynchronize(stream));
      if (!synced.empty()) return synced;
      cudahist::SignalStatsCounts want;
      s = cudahist::ReferenceSignalStats(distinct[size_t(i)].view, with_previous ? &distinct[size_t(p)].view : nullptr,
                                         &want);
      if (!s.ok()) return s.message();
      s = cudahist::ReferenceQcCounts(distinct[size_t(i)].view, &want_qc);
      if (!s.ok()) return s.message();
      std::string diff = cudahist_test::CountsDifference(*pinned->data(), want);
      if (diff.empty()) diff = cudahist_test::QcCountsDifference(*pinned_qc->data(), want_qc);
      if (!diff.empty()) return "frame " + std::to_string(i) + (with_previous ? " with previous: " : ": ") + diff;
    }
  }
  return "";
}

int Run(const Options& o) {
  const cudahist::Status device = cudahist::CheckCudaDevice();
  if (!device.ok()) {
    std::printf("signalstats_bench: skipped (%s)\n", device.message().c_str());
    return kExitSkip;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const uint32_t width = o.quick ? 320 : 1920, height = o.quick ? 181 : 1080;
  const int repeats = o.quick ? 3 : o.repeats;

  // Four distinct frames: two uniform (every code value, much out of range),
  // two peaked (values near the middle, as natural video mostly is).
  std::mt19937_64 rng(1);
  std::vector<cudahist_test::YuvFrame> distinct;
  for (auto d : {cudahist_test::Distribution::kPeaked, cudahist_test::Distribution::kUniform,
                 cudahist_test::Distribution::kPeaked, cudahist_test::Distribution::kUniform}) {
    cudahist_test::YuvFrameSpec spec;
    spec.format = cudahist_test::YuvFormat::kNv12;
    spec.width = width;
    spec.height = height;
    spec.distribution = d;
    distinct.push_back(cudahist_test::MakeYuvFrame(spec, rng));
  }
  const size_t frame_bytes = size_t(width) * height * 3 / 2;
  const int slots = int(std::min<size_t>(64, std::max<size_t>(8, 4 * size_t(prop.l2CacheSize) / frame_bytes + 1)));
  DeviceFrames frames(distinct, slots);
  if (!frames.error().empty()) {
    std::fprintf(stderr, "device frames: %s\n", frames.error().c_str());
    return 1;
  }

  cudaStream_t stream = nullptr;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  std::unique_ptr<cudahist::SignalStatsCounter> counter;
  cudahist::Status s = cudahist::SignalStatsCounter::Create(&counter);
  if (!s.ok()) {
    std::fprintf(stderr, "SignalStatsCounter::Create: %s\n", s.message().c_str());
    return 1;
  }
  const std::string wrong = Verify(*counter, distinct, frames, stream);
  if (!wrong.empty()) {
    std::fprintf(stderr, "GPU counts differ from the reference: %s\n", wrong.c_str());
    return 1;
  }
  std::printf("verified: GPU counts == ReferenceSignalStats and QC counts == ReferenceQcCounts on %zu distinct "
              "%ux%u NV12 frames, with and without a previous frame\n", distinct.size(), width, height);

  cudahist::HistogramSpec spec;
  spec.bins = 256;
  std::unique_ptr<cudahist::Histogrammer> histogrammer;
  s = cudahist::Histogrammer::Create(spec, 3, &histogrammer);
  if (!s.ok()) {
    std::fprintf(stderr, "Histogrammer::Create: %s\n", s.message().c_str());
    return 1;
  }
  uint32_t* histogram_counts = nullptr;
  cudahist::SignalStatsCounts* device_counts = nullptr;
  std::unique_ptr<cudahist::Pinned<cudahist::SignalStatsCounts>> pinned;
  std::unique_ptr<cudahist::Pinned<cudahist::QcCounts>> pinned_qc;
  if (cudaMalloc(reinterpret_cast<void**>(&histogram_counts), 3 * 256 * sizeof(uint32_t)) != cudaSuccess ||
      cudaMalloc(reinterpret_cast<void**>(&device_counts), sizeof(cudahist::SignalStatsCounts)) != cudaSuccess ||
      !cudahist::Pinned<cudahist::SignalStatsCounts>::Create(&pinned).ok() || !cudahist::Pinned<cudahist::QcCounts>::Create(&pinned_qc).ok()) {
    std::fprintf(stderr, "allocating the counts failed\n");
    return 1;
  }
  const int n = frames.size();
  auto status_text = [](const cudahist::Status& st) { return st.ok() ? std::string() : st.message(); };
  const Launch histogram = [&](int f) {
    const cudahist::PlaneView planes[3] = {frames[f].y, frames[f].u, frames[f].v};
    return status_text(histogrammer->Compute(planes, 3, stream, histogram_counts));
  };
  auto signalstats = [&](bool with_previous, cudahist::SignalStatsCounts* counts,
                         cudahist::QcCounts* qc = nullptr) -> Launch {
    return [&, with_previous, counts, qc](int f) {
      return status_text(
          counter->Compute(frames[f], with_previous ? &frames[(f + n - 1) % n] : nullptr, stream, counts, qc));
    };
  };
  struct Row {
    const char* name;
    Timing t;
  };
  const Row rows[] = {
      {"histogram", TimePasses(histogram, n, n, repeats, stream)},
      {"signalstats+prev", TimePasses(signalstats(true, device_counts), n, n, repeats, stream)},
      {"signalstats", TimePasses(signalstats(false, device_counts), n, n, repeats, stream)},
      {"signalstats+prev pinned", TimePasses(signalstats(true, pinned->data()), n, n, repeats, stream)},
      {"signalstats+prev+qc pinned",
       TimePasses(signalstats(true, pinned->data(), pinned_qc->data()), n, n, repeats, stream)},
  };
  int rc = 0;
  for (const Row& r : rows) {
    if (!r.t.error.empty()) {
      std::fprintf(stderr, "%s: %s\n", r.name, r.t.error.c_str());
      rc = 1;
    }
  }
  const double base = rows[0].t.microseconds;
  std::printf("%s, %ux%u NV12, %d frames rotating, back to back, median of %d passes, variant %s:\n", prop.name,
              width, height, n, repeats, kVariant);
  for (const Row& r : rows) {
    std::printf("  %-27s %8.2f us/frame  %5.2fx the histogram\n", r.name, r.t.microseconds,
                base > 0 ? r.t.microseconds / base : 0.0);
  }
  char json[1536];
  std::snprintf(json, sizeof(json),
                "{\"bench\": \"signalstats\", \"variant\": \"%s\", \"device\": \"%s\", \"frame\": \"%ux%u NV12\", \"frames\": %d, "
                "\"repeats\": %d, \"histogram_us\": %.3f, \"signalstats_prev_us\": %.3f, \"signalstats_us\": %.3f, "
                "\"signalstats_prev_pinned_us\": %.3f, \"signalstats_prev_qc_pinned_us\": %.3f, \"ratio_prev\": %.3f, "
                "\"ratio\": %.3f, \"target_ratio\": 1.5}",
                kVariant, prop.name, width, height, n, repeats, rows[0].t.microseconds, rows[1].t.microseconds,
                rows[2].t.microseconds, rows[3].t.microseconds, rows[4].t.microseconds,
                base > 0 ? rows[1].t.microseconds / base : 0.0, base > 0 ? rows[2].t.microseconds / base : 0.0);
  std::printf("%s\n", json);
  if (!o.json.empty()) std::ofstream(o.json) << json << "\n";
#if CUDAHIST_SIGNALSTATS_TIMELINE
  // One launch on an idle GPU, then the last of a back-to-back pass (whose
  // zeroing overlapped its predecessor's tail through the programmatic launch).
  cudaStreamSynchronize(stream);
  if (signalstats(true, device_counts)(1).empty() && cudaStreamSynchronize(stream) == cudaSuccess) {
    PrintTimeline("one launch alone, with a previous frame");
  }
  for (int f = 0; f < n; ++f) signalstats(true, device_counts)(f);
  if (cudaStreamSynchronize(stream) == cudaSuccess) PrintTimeline("the last of 64 back to back, with a previous frame");
#endif
  cudaFree(histogram_counts);
  cudaFree(device_counts);
  cudaStreamDestroy(stream);
  return rc;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  bench::Options o;
  if (!bench::ParseKernelBenchArgs(argc, argv, &o)) return 2;
  return bench::Run(o);
}
