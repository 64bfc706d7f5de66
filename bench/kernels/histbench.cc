// bench/kernels/histbench.cc: the histogram kernels' benchmark (host code; its kernels
// are in ../common/gpu_inputs.cu and cub_baseline.cu).
//
// For each case: the read roofline, CUB, NPP (where libnppist loads) and every
// cudahist algorithm, timed in the same run on the same device buffers, after
// each one's counts were checked (cudahist and NPP against CUB; CUB itself
// against the CPU reference on the per-frame cases). A wrong count is printed
// loudly and makes the exit code 1; no CUDA device: exit 77 (a skipped test).
//
//   histbench [--quick] [--filter SUBSTRING] [--json PATH] [--repeats N]
//             [--photo GRAY_WxHx1.raw] [--photo-rgba RGBA_WxHx4.raw]
//
// Photos are raw 8-bit pixels, the size in the file name: name_512x512x1.raw.
#include <cuda_runtime.h>  // the typed cudaMalloc overloads
#include <cudahist/cudahist.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "bench_report.h"
#include "bench_stats.h"
#include "event_timing.h"
#include "cub_baseline.h"
#include "gpu_inputs.h"
#include "npp_baseline.h"
#include "plane_groups.h"

namespace bench {
namespace {

// Per-frame cases rotate over this many times the L2 size of frames, so that
// every frame comes from device memory, as a decoder's output does.
constexpr size_t kRotationOverL2 = 4;
constexpr int kMinFrames = 4, kMaxFrames = 64;
constexpr size_t kFrameAlignment = 256;

enum class Layout { kGray8, kRgba, kGray16, kP010Luma, kNv12, kP010 };

struct CaseSpec {
  std::string name;
  Layout layout;
  uint32_t width, height;
  uint32_t bins;
  Distribution distribution;
  bool per_frame;  // many frames back to back (us per frame) vs one large plane
};

struct Options {
  bool quick = false;
  std::string filter, json_path, photo_gray, photo_rgba;
  int repeats = kDefaultRepeats;
};

struct Device {
  cudaDeviceProp prop = {};
  int clock_khz = 0, memory_clock_khz = 0, bus_width_bits = 0;
};

#define BENCH_CUDA_OR_RETURN(expr)                                         \
  do {                                                                     \
    const cudaError_t e_ = (expr);                                         \
    if (e_ != cudaSuccess) return std::string(#expr) + ": " + cudaGetErrorString(e_); \
  } while (0)

// ---------------------------------------------------------------- layouts --

cudahist::PlaneView View(const uint8_t* data, uint32_t w, uint32_t h, size_t pitch, uint32_t stride,
                         uint32_t offset, uint32_t size, uint32_t shift, uint32_t depth) {
  return cudahist::PlaneView{data, w, h, pitch, stride, offset, size, shift, depth};
}

// The component views of one frame whose first plane starts at `base`, planes
// packed one after another with no row padding (as the bytes of the read
// roofline count them).
std::vector<cudahist::PlaneView> FramePlanes(Layout layout, uint32_t w, uint32_t h, const uint8_t* base) {
  const uint8_t* chroma8 = base + size_t(w) * h;
  const uint8_t* chroma16 = base + size_t(w) * h * 2;
  switch (layout) {
    case Layout::kGray8: return {View(base, w, h, w, 1, 0, 1, 0, 8)};
    case Layout::kRgba:
      return {View(base, w, h, 4 * size_t(w), 4, 0, 1, 0, 8), View(base, w, h, 4 * size_t(w), 4, 1, 1, 0, 8),
              View(base, w, h, 4 * size_t(w), 4, 2, 1, 0, 8), View(base, w, h, 4 * size_t(w), 4, 3, 1, 0, 8)};
    case Layout::kGray16: return {View(base, w, h, 2 * size_t(w), 2, 0, 2, 0, 16)};
    case Layout::kP010Luma: return {View(base, w, h, 2 * size_t(w), 2, 0, 2, 6, 10)};
    case Layout::kNv12:
      return {View(base, w, h, w, 1, 0, 1, 0, 8), View(chroma8, w / 2, h / 2, w, 2, 0, 1, 0, 8),
              View(chroma8, w / 2, h / 2, w, 2, 1, 1, 0, 8)};
    case Layout::kP010:
      return {View(base, w, h, 2 * size_t(w), 2, 0, 2, 6, 10),
              View(chroma16, w / 2, h / 2, 2 * size_t(w), 4, 0, 2, 6, 10),
              View(chroma16, w / 2, h / 2, 2 * size_t(w), 4, 2, 2, 6, 10)};
  }
  return {};
}

size_t FrameBytes(Layout layout, uint32_t w, uint32_t h) {
  const size_t pixels = size_t(w) * h;
  switch (layout) {
    case Layout::kGray8: return pixels;
    case Layout::kRgba: return 4 * pixels;
    case Layout::kGray16:
    case Layout::kP010Luma: return 2 * pixels;
    case Layout::kNv12: return pixels + pixels / 2;
    case Layout::kP010: return 2 * pixels + pixels;
  }
  return 0;
}

std::vector<CaseSpec> AllCases(bool quick) {
  // 1 GiB planes (16 MiB with --quick): 2^30 8-bit samples, 2^28 RGBA pixels, 2^29 16-bit samples.
  const uint32_t rows = quick ? 512 : 32768;
  const std::vector<Distribution> every = {Distribution::kUniform, Distribution::kOneValue,
                                           Distribution::kPeaked, Distribution::kPhoto};
  const std::vector<Distribution> wide = {Distribution::kUniform, Distribution::kPeaked, Distribution::kPhoto};
  std::vector<CaseSpec> cases;
  for (Distribution d : every) cases.push_back({std::string("gray8-1GiB/") + DistributionName(d), Layout::kGray8, 32768, rows, 256, d, false});
  for (Distribution d : every) cases.push_back({std::string("rgba-1GiB/") + DistributionName(d), Layout::kRgba, 8192, rows, 256, d, false});
  for (Distribution d : wide) cases.push_back({std::string("p010y-1GiB-1024b/") + DistributionName(d), Layout::kP010Luma, 16384, rows, 1024, d, false});
  for (Distribution d : wide) cases.push_back({std::string("gray16-1GiB-4096b/") + DistributionName(d), Layout::kGray16, 16384, rows, 4096, d, false});
  const Distribution u = Distribution::kUniform;
  cases.push_back({"frames/nv12-1080p", Layout::kNv12, 1920, 1080, 256, u, true});
  cases.push_back({"frames/nv12-4k", Layout::kNv12, 3840, 2160, 256, u, true});
  cases.push_back({"frames/rgba-4k", Layout::kRgba, 3840, 2160, 256, u, true});
  cases.push_back({"frames/p010-4k-1024b", Layout::kP010, 3840, 2160, 1024, u, true});
  cases.push_back({"frames/gray16-4k-4096b", Layout::kGray16, 3840, 2160, 4096, u, true});
  cases.push_back({"frames/gray16-4k-65536b", Layout::kGray16, 3840, 2160, 65536, u, true});
  return cases;
}

// ------------------------------------------------------------------ inputs --

struct HostPhoto {
  std::vector<uint8_t> pixels;
  uint32_t width = 0, height = 0, channels = 0;
};

// Reads name_WxHxC.raw; an empty photo and `why` when it cannot.
HostPhoto ReadPhoto(const std::string& path, uint32_t channels, std::string* why) {
  HostPhoto photo;
  if (path.empty()) {
    *why = "no photo given (--photo / --photo-rgba)";
    return photo;
  }
  std::smatch m;
  static const std::regex kSize(R"(_(\d+)x(\d+)x(\d+)\.raw$)");
  if (!std::regex_search(path, m, kSize) || std::stoul(m[3]) != channels) {
    *why = path + ": name must end in _WxHx" + std::to_string(channels) + ".raw";
    return photo;
  }
  const uint32_t w = uint32_t(std::stoul(m[1])), h = uint32_t(std::stoul(m[2]));
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (w == 0 || h == 0 || bytes.size() != size_t(w) * h * channels) {
    *why = path + ": expected " + std::to_string(size_t(w) * h * channels) + " bytes, read " + std::to_string(bytes.size());
    return photo;
  }
  photo.pixels = std::move(bytes);
  photo.width = w;
  photo.height = h;
  photo.channels = channels;
  return photo;
}

// A rotation of frames in one device allocation, every sample written.
struct FramePool {
  uint8_t* base = nullptr;
  size_t frame_bytes = 0, frame_stride = 0;
  int frames = 0;
  std::vector<std::vector<cudahist::PlaneView>> planes;
  const uint8_t* frame(int f) const { return base + size_t(f) * frame_stride; }
  ~FramePool() { if (base != nullptr) cudaFree(base); }
};

std::string MakePool(const CaseSpec& c, const Device& dev, bool quick, const DevicePhoto& photo, FramePool* pool) {
  pool->frame_bytes = FrameBytes(c.layout, c.width, c.height);
  pool->frame_stride = (pool->frame_bytes + kFrameAlignment - 1) / kFrameAlignment * kFrameAlignment;
  pool->frames = 1;
  if (c.per_frame) {
    const size_t want = kRotationOverL2 * size_t(dev.prop.l2CacheSize);
    pool->frames = int(std::clamp<size_t>((want + pool->frame_bytes - 1) / pool->frame_bytes, kMinFrames, kMaxFrames));
    if (quick) pool->frames = 3;
  }
  BENCH_CUDA_OR_RETURN(cudaMalloc(&pool->base, pool->frame_stride * pool->frames));
  BENCH_CUDA_OR_RETURN(cudaMemset(pool->base, 0, pool->frame_stride * pool->frames));
  for (int f = 0; f < pool->frames; ++f) {
    pool->planes.push_back(FramePlanes(c.layout, c.width, c.height, pool->frame(f)));
    const auto& planes = pool->planes.back();
    for (size_t p = 0; p < planes.size(); ++p) {
      FillRecipe recipe;
      recipe.distribution = c.distribution;
      recipe.seed = uint32_t(f * 8 + p + 1);
      recipe.photo = photo;
      recipe.photo_channel = photo.channels == 4 ? uint32_t(p % 4) : 0;
      BENCH_CUDA_OR_RETURN(FillPlane(planes[p], recipe, nullptr));
    }
  }
  BENCH_CUDA_OR_RETURN(cudaDeviceSynchronize());
  return "";
}

// ---------------------------------------------------------- checked counts --

std::string Download(const void* device, size_t words, std::vector<uint32_t>* host, cudaStream_t stream) {
  host->assign(words, 0);
  BENCH_CUDA_OR_RETURN(cudaMemcpyAsync(host->data(), device, words * 4, cudaMemcpyDeviceToHost, stream));
  BENCH_CUDA_OR_RETURN(cudaStreamSynchronize(stream));
  return "";
}

// "" when equal, else where they first differ.
std::string Compare(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, uint32_t bins) {
  if (got.size() != want.size()) return "count arrays differ in length";
  size_t wrong = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i] && wrong++ == 0) first = i;
  }
  if (wrong == 0) return "";
  return std::to_string(wrong) + " bins differ; first: component " + std::to_string(first / bins) + " bin " +
         std::to_string(first % bins) + ": " + std::to_string(got[first]) + " instead of " + std::to_string(want[first]);
}

// The CPU reference for one frame (copied to the host).
std::string CpuReference(const CaseSpec& c, const FramePool& pool, int frame, std::vector<uint32_t>* counts) {
  std::vector<uint8_t> host(pool.frame_bytes);
  BENCH_CUDA_OR_RETURN(cudaMemcpy(host.data(), pool.frame(frame), pool.frame_bytes, cudaMemcpyDeviceToHost));
  const auto planes = FramePlanes(c.layout, c.width, c.height, host.data());
  counts->assign(planes.size() * c.bins, 0);
  cudahist::HistogramSpec spec;
  spec.bins = c.bins;
  const cudahist::Status s = cudahist::ReferenceHistogram(spec, planes.data(), int(planes.size()), counts->data());
  return s.ok() ? "" : "ReferenceHistogram: " + s.message();
}

// --------------------------------------------------------------- the runner --

class CaseRunner {
 public:
  CaseRunner(const CaseSpec& c, const FramePool& pool, NppHistogram* npp, const Options& opt,
             cudaStream_t stream, std::vector<Row>* rows)
      : c_(c), pool_(pool), npp_(npp), opt_(opt), stream_(stream), rows_(rows) {}

  // false on a wrong count or a failure of the harness itself.
  bool Run();

 private:
  size_t words() const { return pool_.planes[0].size() * c_.bins; }
  int num_planes() const { return int(pool_.planes[0].size()); }
  std::vector<int> checked_frames() const {
    return pool_.frames > 1 ? std::vector<int>{0, pool_.frames - 1} : std::vector<int>{0};
  }
  Row NewRow(const std::string& method) const {
    Row r;
    r.case_name = c_.name;
    r.method = method;
    r.bytes = double(pool_.frame_bytes);
    return r;
  }
  void Add(Row r) { rows_->push_back(std::move(r)); }
  // A timing error fails the run unless it is NPP's (a baseline we only compare with).
  void AddTimed(const std::string& method, const Timing& t, const std::string& note = "",
                bool error_fails_run = true) {
    Row r = NewRow(method);
    r.note = note;
    if (!t.error.empty()) {
      r.status = "ERROR";
      r.note = t.error;
      if (error_fails_run) {
        Loud(method + ": " + t.error);
        failed_ = true;
      }
    } else {
      r.microseconds = t.microseconds;
      r.repeats = t.repeats;
    }
    Add(r);
  }
  Timing Time(const Launch& per_frame) const {
    return TimePasses(per_frame, pool_.frames, pool_.frames, opt_.repeats, stream_);
  }
  // Counts that differ from CUB's: loud, a MISMATCH row, and the run fails.
  void AddMismatch(const std::string& method, int frame, const std::string& diff) {
    Loud("MISMATCH of " + method + " vs CUB on frame " + std::to_string(frame) + ": " + diff);
    Row r = NewRow(method);
    r.status = "MISMATCH";
    r.note = diff;
    Add(r);
    failed_ = true;
  }
  void Loud(const std::string& what) { std::fprintf(stderr, "\n*** %s: %s ***\n\n", c_.name.c_str(), what.c_str()); }

  bool BuildReference();
  void RunRoofline();
  void RunCub(const std::string& method, int max_groups);
  void RunNpp(const std::string& method, int planes);
  void RunCudahist(cudahist::Algorithm algorithm);
  void RunCudahistBatch(cudahist::Histogrammer& h, const std::string& method);

  const CaseSpec& c_;
  const FramePool& pool_;
  NppHistogram* npp_;
  const Options& opt_;
  cudaStream_t stream_;
  std::vector<Row>* rows_;
  std::vector<std::vector<uint32_t>> reference_;  // per checked frame
  bool failed_ = false;
};

bool CaseRunner::BuildReference() {
  void* temp = nullptr;
  size_t temp_bytes = 0;
  int* counts = nullptr;
  std::string why, err;
  const auto& planes0 = pool_.planes[0];
  cudaError_t e = CubHistogramPlanes(nullptr, &temp_bytes, planes0.data(), num_planes(), c_.bins, nullptr, stream_, &why);
  if (e == cudaSuccess) e = cudaMalloc(&temp, std::max<size_t>(temp_bytes, 1));
  if (e == cudaSuccess) e = cudaMalloc(&counts, words() * 4);
  for (int f : checked_frames()) {
    if (e != cudaSuccess) break;
    e = CubHistogramPlanes(temp, &temp_bytes, pool_.planes[f].data(), num_planes(), c_.bins, counts, stream_, &why);
    std::vector<uint32_t> host;
    if (e == cudaSuccess) err = Download(counts, words(), &host, stream_);
    reference_.push_back(host);
  }
  cudaFree(temp);
  cudaFree(counts);
  if (e != cudaSuccess || !err.empty()) {
    Loud("CUB reference failed: " + (e != cudaSuccess ? std::string(cudaGetErrorString(e)) + " " + why : err));
    return false;
  }
  if (c_.per_frame) {  // the oracle of the oracle: CUB against the CPU reference on frame 0
    std::vector<uint32_t> cpu;
    err = CpuReference(c_, pool_, 0, &cpu);
    if (err.empty()) err = Compare(reference_[0], cpu, c_.bins);
    if (!err.empty()) {
      Loud("CUB disagrees with the CPU reference: " + err);
      return false;
    }
  }
  return true;
}

void CaseRunner::RunRoofline() {
  uint32_t* sink = nullptr;
  if (cudaMalloc(&sink, RooflineSinkWords() * 4) != cudaSuccess) {
    AddTimed("roofline", Timing{"cudaMalloc failed", 0, 0});
    return;
  }
  AddTimed("roofline", Time([&](int f) {
    return ErrorText(LaunchReadRoofline(pool_.frame(f), pool_.frame_bytes, sink, stream_));
  }), "16-byte loads, read only");
  if (c_.per_frame) {
    AddTimed("roofline+pdl", Time([&](int f) {
      return ErrorText(LaunchReadRoofline(pool_.frame(f), pool_.frame_bytes, sink, stream_, true));
    }), "launched like cudahist's kernels (programmatic dependent launch)");
    // The same bytes read as ComputeBatch groups them: one launch per
    // kMaxFramesPerLaunch consecutive frames of the rotation.
    const int launches = (pool_.frames + cudahist::kMaxFramesPerLaunch - 1) / cudahist::kMaxFramesPerLaunch;
    AddTimed("roofline+batch", TimePasses([&](int i) {
      const int first = i * cudahist::kMaxFramesPerLaunch;
      const int frames = std::min(cudahist::kMaxFramesPerLaunch, pool_.frames - first);
      const size_t bytes = size_t(frames - 1) * pool_.frame_stride + pool_.frame_bytes;
      return ErrorText(LaunchReadRoofline(pool_.frame(first), bytes, sink, stream_));
    }, launches, pool_.frames, opt_.repeats, stream_), "read only, frames as ComputeBatch groups them");
  }
  cudaFree(sink);
}

// ComputeBatch over the whole rotation: checked on the checked frames, then
// timed per frame.
void CaseRunner::RunCudahistBatch(cudahist::Histogrammer& h, const std::string& method) {
  const std::string name = method + "+batch";
  std::vector<cudahist::PlaneView> views;
  for (const auto& frame : pool_.planes) views.insert(views.end(), frame.begin(), frame.end());
  uint32_t* counts = nullptr;
  if (cudaMalloc(&counts, words() * pool_.frames * 4) != cudaSuccess) {
    AddTimed(name, Timing{"cudaMalloc failed", 0, 0});
    return;
  }
  const Launch batch = [&](int) {
    const cudahist::Status st = h.ComputeBatch(views.data(), pool_.frames, stream_, counts);
    return st.ok() ? std::string() : st.message();
  };
  cudaMemsetAsync(counts, 0xA5, words() * pool_.frames * 4, stream_);  // poison: every count must be written
  std::string err = batch(0);
  const auto checked = checked_frames();
  for (size_t i = 0; i < checked.size() && err.empty(); ++i) {
    std::vector<uint32_t> got;
    err = Download(counts + size_t(checked[i]) * words(), words(), &got, stream_);
    const std::string diff = err.empty() ? Compare(got, reference_[i], c_.bins) : "";
    if (!diff.empty()) {
      AddMismatch(name, checked[i], diff);
      cudaFree(counts);
      return;
    }
  }
  if (err.empty()) {
    AddTimed(name, TimePasses(batch, 1, pool_.frames, opt_.repeats, stream_),
             std::to_string(cudahist::kMaxFramesPerLaunch) + " frames a launch, checked vs CUB");
  } else {
    AddTimed(name, Timing{err, 0, 0});
  }
  cudaFree(counts);
}

void CaseRunner::RunCub(const std::string& method, int max_groups) {
  std::string why;
  size_t temp_bytes = 0;
  const auto& planes0 = pool_.planes[0];
  if (CubHistogramPlanes(nullptr, &temp_bytes, planes0.data(), num_planes(), c_.bins, nullptr, stream_, &why,
                         max_groups) != cudaSuccess) {
    Row r = NewRow(method);
    r.status = "n/a";
    r.note = why;
    Add(r);
    return;
  }
  void* temp = nullptr;
  int* counts = nullptr;
  cudaMalloc(&temp, std::max<size_t>(temp_bytes, 1));
  cudaMalloc(&counts, words() * 4);
  const Timing t = Time([&](int f) {
    std::string w;
    const cudaError_t e = CubHistogramPlanes(temp, &temp_bytes, pool_.planes[f].data(), num_planes(), c_.bins,
                                             counts, stream_, &w, max_groups);
    return e == cudaSuccess ? std::string() : std::string(cudaGetErrorString(e)) + " " + w;
  });
  AddTimed(method, t, max_groups == 1 && num_planes() > 1 ? "first plane only (less work)" : "the reference");
  cudaFree(temp);
  cudaFree(counts);
}

void CaseRunner::RunNpp(const std::string& method, int planes) {
  Row r = NewRow(method);
  std::string why;
  if (npp_ == nullptr || !npp_->Prepare(pool_.planes[0].data(), planes, c_.bins, &why)) {
    r.status = "n/a";
    r.note = npp_ == nullptr ? "NPP not loaded" : why;
    Add(r);
    return;
  }
  int* counts = nullptr;
  cudaMalloc(&counts, words() * 4);
  cudaMemsetAsync(counts, 0, words() * 4, stream_);
  auto launch = [&](int f) {
    const int s = npp_->Run(pool_.planes[f].data(), planes, c_.bins, counts, stream_);
    return s == 0 ? std::string() : "NppStatus " + std::to_string(s);
  };
  std::string err = launch(0);
  std::vector<uint32_t> got;
  if (err.empty()) err = Download(counts, words(), &got, stream_);
  if (err.empty()) {  // the planes NPP counted, against CUB's counts of them
    got.resize(size_t(planes) * c_.bins);
    const std::vector<uint32_t> want(reference_[0].begin(), reference_[0].begin() + got.size());
    const std::string diff = Compare(got, want, c_.bins);
    if (!diff.empty()) {  // NPP's own problem: flagged, not a failure of cudahist
      Loud("NPP MISMATCH vs CUB (not timed): " + diff);
      r.status = "MISMATCH";
      r.note = "NPP's counts differ from CUB's: " + diff;
      Add(r);
      cudaFree(counts);
      return;
    }
  }
  if (!err.empty()) {
    r.status = "n/a";
    r.note = err;
    Add(r);
  } else {
    AddTimed(method, Time(launch), planes < num_planes() ? "first plane only (less work)" : "checked vs CUB", false);
  }
  cudaFree(counts);
}

void CaseRunner::RunCudahist(cudahist::Algorithm algorithm) {
  const std::string method = cudahist::AlgorithmName(algorithm);
  Row r = NewRow(method);
  cudahist::HistogramSpec spec;
  spec.bins = c_.bins;
  spec.algorithm = algorithm;
  std::unique_ptr<cudahist::Histogrammer> h;
  cudahist::Status s = cudahist::Histogrammer::Create(spec, num_planes(), &h);
  uint32_t* counts = nullptr;
  if (s.ok() && cudaMalloc(&counts, words() * 4) != cudaSuccess) s = cudahist::Status(cudahist::StatusCode::kCudaError, "cudaMalloc");
  // Check every checked frame before anything is timed.
  const auto checked = checked_frames();
  for (size_t i = 0; i < checked.size() && s.ok(); ++i) {
    cudaMemsetAsync(counts, 0xA5, words() * 4, stream_);  // poison: every count must be written
    s = h->Compute(pool_.planes[checked[i]].data(), num_planes(), stream_, counts);
    std::vector<uint32_t> got;
    if (!s.ok()) break;
    const std::string err = Download(counts, words(), &got, stream_);
    const std::string diff = err.empty() ? Compare(got, reference_[i], c_.bins) : err;
    if (!diff.empty()) {
      AddMismatch(method, checked[i], diff);
      cudaFree(counts);
      return;
    }
  }
  if (!s.ok()) {
    r.status = s.code() == cudahist::StatusCode::kUnsupported ? "n/a" : "ERROR";
    r.note = s.message();
    if (r.status == "ERROR") {
      Loud(method + ": " + s.message());
      failed_ = true;
    }
    Add(r);
    cudaFree(counts);
    return;
  }
  auto launch_into = [&](uint32_t* out) {
    return [&, out](int f) {
      const cudahist::Status st = h->Compute(pool_.planes[f].data(), num_planes(), stream_, out);
      return st.ok() ? std::string() : st.message();
    };
  };
  std::string note = "checked vs CUB";
  if (algorithm == cudahist::Algorithm::kAuto) {
    note = std::string("chose ") + cudahist::AlgorithmName(h->ResolvedAlgorithm(pool_.planes[0].data(), num_planes()));
  }
  AddTimed(method, Time(launch_into(counts)), note);
  if (c_.per_frame && algorithm == cudahist::Algorithm::kAuto) {
    // The element's way: counts written straight into pinned host memory.
    std::unique_ptr<cudahist::Pinned<uint32_t>> pinned;
    const cudahist::Status ps = cudahist::Pinned<uint32_t>::Create(words(), &pinned);
    if (ps.ok()) {
      AddTimed(method + "+pinned", Time(launch_into(pinned->data())), "counts into pinned host memory");
    } else {
      AddTimed(method + "+pinned", Timing{ps.message(), 0, 0});
    }
    // The element's way, latency included: a stream synchronisation after every frame.
    AddTimed(method + "+sync", Time([&](int f) {
      const std::string err = launch_into(pinned ? pinned->data() : counts)(f);
      const std::string synced = ErrorText(cudaStreamSynchronize(stream_));
      return err.empty() ? synced : err;
    }), "counts into pinned host memory, cudaStreamSynchronize after each frame");
    // Launch overhead taken out: the rotation captured as one CUDA graph.
    const Timing g = TimeGraph(launch_into(counts), pool_.frames, opt_.repeats, stream_);
    if (g.error.empty()) {
      AddTimed(method + "+graph", g, "one CUDA graph per rotation");
    } else {
      Row gr = NewRow(method + "+graph");
      gr.status = "n/a";
      gr.note = g.error;
      Add(gr);
    }
    RunCudahistBatch(*h, method);
  }
  cudaFree(counts);
}

bool CaseRunner::Run() {
  if (!BuildReference()) return false;
  RunRoofline();
  RunCub("cub", 1 << 30);
  std::vector<PlaneGroup> groups;
  std::string why;
  if (GroupInterleavedPlanes(pool_.planes[0].data(), num_planes(), &groups, &why) && groups.size() > 1) {
    RunCub("cub-first-plane", 1);
  }
  RunNpp("npp", num_planes());
  if (groups.size() > 1) RunNpp("npp-first-plane", groups[1].first_plane);
  for (cudahist::Algorithm a : {cudahist::Algorithm::kPrivatized, cudahist::Algorithm::kPrivatizedSharedAtomic,
                                cudahist::Algorithm::kPrivatizedPacked, cudahist::Algorithm::kTwoPhase,
                                cudahist::Algorithm::kAuto}) {
    RunCudahist(a);
  }
  return !failed_;
}

// ------------------------------------------------------------------- main --

bool ParseOptions(int argc, char** argv, Options* opt) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string repeats;
    if (a == "--quick") {
      opt->quick = true;
    } else if (a == "--filter" ? !value(&opt->filter) : a == "--json" ? !value(&opt->json_path)
               : a == "--photo" ? !value(&opt->photo_gray) : a == "--photo-rgba" ? !value(&opt->photo_rgba)
               : a == "--repeats" ? !value(&repeats) : true) {
      std::fprintf(stderr, "unknown or incomplete option: %s\n", a.c_str());
      return false;
    }
    if (!repeats.empty()) opt->repeats = std::max(1, std::atoi(repeats.c_str()));
  }
  if (opt->quick && opt->repeats == kDefaultRepeats) opt->repeats = 3;
  return true;
}

std::vector<std::string> DeviceJson(const Device& d, const Options& opt, const std::string& npp) {
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "\"device\": {\"name\": %s, \"sm_count\": %d, \"l2_bytes\": %d, \"clock_khz\": %d, "
                "\"memory_clock_khz\": %d, \"bus_width_bits\": %d, \"global_memory_bytes\": %zu, "
                "\"compute_capability\": \"%d.%d\"}",
                JsonString(d.prop.name).c_str(), d.prop.multiProcessorCount, d.prop.l2CacheSize, d.clock_khz,
                d.memory_clock_khz, d.bus_width_bits, d.prop.totalGlobalMem, d.prop.major, d.prop.minor);
  std::vector<std::string> out = {buf};
  out.push_back("\"quick\": " + std::string(opt.quick ? "true" : "false"));
  out.push_back("\"filter\": " + JsonString(opt.filter));
  out.push_back("\"npp\": " + JsonString(npp));
  return out;
}

void PrintDevice(const Device& d) {
  std::printf("device: %s (compute capability %d.%d)\n", d.prop.name, d.prop.major, d.prop.minor);
  std::printf("  SMs %d, L2 %.1f MiB, SM clock %d MHz, memory clock %d MHz, bus %d bits, memory %.1f GiB\n",
              d.prop.multiProcessorCount, d.prop.l2CacheSize / 1048576.0, d.clock_khz / 1000,
              d.memory_clock_khz / 1000, d.bus_width_bits, d.prop.totalGlobalMem / 1073741824.0);
}

int Main(int argc, char** argv) {
  Options opt;
  if (!ParseOptions(argc, argv, &opt)) return 2;
  int count = 0;
  const cudaError_t probe = cudaGetDeviceCount(&count);
  if (probe != cudaSuccess || count == 0) {
    std::printf("SKIP: no CUDA device (%s)\n", probe != cudaSuccess ? cudaGetErrorString(probe) : "0 devices");
    return kExitSkip;
  }
  Device dev;
  cudaGetDeviceProperties(&dev.prop, 0);
  cudaDeviceGetAttribute(&dev.clock_khz, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&dev.memory_clock_khz, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&dev.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
  PrintDevice(dev);

  std::string npp_why;
  std::unique_ptr<NppHistogram> npp = NppHistogram::Load(&npp_why);
  std::printf("NPP: %s\n", npp ? npp->library().c_str() : ("skipped, " + npp_why).c_str());

  std::string gray_why, rgba_why;
  const HostPhoto gray = ReadPhoto(opt.photo_gray, 1, &gray_why);
  const HostPhoto rgba = ReadPhoto(opt.photo_rgba, 4, &rgba_why);
  uint8_t* photo_pixels[2] = {nullptr, nullptr};
  DevicePhoto device_photos[2];
  const HostPhoto* host_photos[2] = {&gray, &rgba};
  for (int i = 0; i < 2; ++i) {
    const HostPhoto& p = *host_photos[i];
    if (p.pixels.empty()) continue;
    cudaMalloc(&photo_pixels[i], p.pixels.size());
    cudaMemcpy(photo_pixels[i], p.pixels.data(), p.pixels.size(), cudaMemcpyHostToDevice);
    device_photos[i] = DevicePhoto{photo_pixels[i], p.width, p.height, p.channels};
  }
  cudaDeviceSynchronize();  // the pageable copies' DMA landed before the first (non-blocking) count

  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  std::vector<Row> rows;
  bool ok = true;
  for (const CaseSpec& c : AllCases(opt.quick)) {
    if (!opt.filter.empty() && c.name.find(opt.filter) == std::string::npos) continue;
    const bool wants_rgba = c.layout == Layout::kRgba;
    const DevicePhoto photo = wants_rgba ? device_photos[1] : device_photos[0];
    if (c.distribution == Distribution::kPhoto && photo.pixels == nullptr) {
      Row r;
      r.case_name = c.name;
      r.method = "-";
      r.status = "skipped";
      r.note = wants_rgba ? rgba_why : gray_why;
      rows.push_back(r);
      continue;
    }
    std::printf("case %s ...\n", c.name.c_str());
    std::fflush(stdout);
    FramePool pool;
    const std::string err = MakePool(c, dev, opt.quick, photo, &pool);
    if (!err.empty()) {
      std::fprintf(stderr, "\n*** %s: cannot make the input: %s ***\n\n", c.name.c_str(), err.c_str());
      ok = false;
      continue;
    }
    ok = CaseRunner(c, pool, npp.get(), opt, stream, &rows).Run() && ok;
  }
  for (uint8_t* p : photo_pixels) cudaFree(p);
  cudaStreamDestroy(stream);

  Derive(&rows);
  if (!opt.json_path.empty() &&
      !WriteJson(opt.json_path, DeviceJson(dev, opt, npp ? npp->library() : "none: " + npp_why), rows)) {
    std::fprintf(stderr, "cannot write %s\n", opt.json_path.c_str());
    ok = false;
  }
  PrintDevice(dev);
  PrintTable(rows);
  std::printf("\n%s\n", ok ? "all counts checked: OK" : "*** FAILURES: see the messages marked *** above ***");
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) { return bench::Main(argc, argv); }
