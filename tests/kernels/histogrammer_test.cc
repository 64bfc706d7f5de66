// The GPU kernels, every algorithm, against the CPU reference, bit for bit.
// Each GPU test skips (with CheckCudaDevice's message) when there is no CUDA
// device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cudahist/cudahist.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "frames.h"
#include "launch_plan.h"
#include "test_planes.h"
#include "tuning.h"

namespace cudahist_test {
namespace {

using cudahist::Algorithm;
using cudahist::Histogrammer;
using cudahist::HistogramSpec;
using cudahist::PlaneView;
using cudahist::Status;
using cudahist::StatusCode;

constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr Algorithm kAlgorithms[] = {Algorithm::kPrivatized, Algorithm::kPrivatizedSharedAtomic,
                                     Algorithm::kPrivatizedPacked, Algorithm::kTwoPhase, Algorithm::kAuto};

#define SKIP_WITHOUT_CUDA_DEVICE()                       \
  do {                                                   \
    const Status cuda_ = cudahist::CheckCudaDevice();    \
    if (!cuda_.ok()) GTEST_SKIP() << cuda_.message();    \
  } while (0)

#define ASSERT_CUDA(call) ASSERT_EQ((call), cudaSuccess) << #call << ": " << cudaGetErrorString(cudaGetLastError())

// Without a device, the library says so instead of failing later.
TEST(CudaDeviceTest, CheckCudaDeviceSaysWhyWhenThereIsNone) {
  const Status s = cudahist::CheckCudaDevice();
  if (s.ok()) {
    int count = 0;
    EXPECT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
    EXPECT_GT(count, 0);
    return;
  }
  EXPECT_EQ(s.code(), StatusCode::kNoDevice);
  EXPECT_EQ(s.message().rfind("no CUDA device: ", 0), 0u) << s.message();
  std::unique_ptr<Histogrammer> h;
  EXPECT_EQ(Histogrammer::Create(HistogramSpec(), 1, &h).code(), StatusCode::kNoDevice);
  EXPECT_EQ(h, nullptr);
}

// Device copies of a frame's allocations (256-byte aligned, as cudaMalloc
// gives them, plus 16 bytes of slack), with the views rebased onto them so
// that every base offset keeps its alignment.
class DeviceFrame {
 public:
  ~DeviceFrame() {
    for (void* p : buffers_) cudaFree(p);
  }
  cudaError_t Upload(const Frame& frame) {
    for (const HostPlane& p : frame.planes) {
      void* d = nullptr;
      cudaError_t e = cudaMalloc(&d, p.storage.size() + 16);
      if (e != cudaSuccess) return e;
      buffers_.push_back(d);
      e = cudaMemcpy(d, p.storage.data(), p.storage.size(), cudaMemcpyHostToDevice);
      if (e != cudaSuccess) return e;
    }
    for (const PlaneView& v : frame.views) {
      const ViewAnchor a = AnchorOf(frame, v);
      PlaneView d = v;
      d.data = static_cast<const uint8_t*>(buffers_[a.plane]) + a.offset;
      views_.push_back(d);
    }
    return cudaSuccess;
  }
  const std::vector<PlaneView>& views() const { return views_; }

 private:
  std::vector<void*> buffers_;
  std::vector<PlaneView> views_;
};

// Whether `algorithm` can hold `counters` counters in one block's shared memory.
bool Supported(Algorithm algorithm, uint32_t counters) {
  int device = 0, max_shared = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  const uint64_t stored = cudahist::detail::StoredCounters(counters);
  switch (algorithm) {
    case Algorithm::kPrivatized:
    case Algorithm::kPrivatizedSharedAtomic:
      return stored * 4 <= uint64_t(max_shared);
    case Algorithm::kPrivatizedPacked:
      return (stored + 3) / 4 * (cudahist::detail::kPackedThreads + 4) * 4 <= uint64_t(max_shared);
    default:
      return true;
  }
}

enum class Output { kDevice, kPinned };

// One Compute into a poisoned output; the counts as the kernel left them.
class GpuRun {
 public:
  GpuRun() { cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking); }
  ~GpuRun() {
    if (device_counts_ != nullptr) cudaFree(device_counts_);
    cudaStreamDestroy(stream_);
  }

  Status Create(Algorithm algorithm, uint32_t bins, int components) {
    HistogramSpec spec;
    spec.bins = bins;
    spec.algorithm = algorithm;
    const size_t n = size_t(bins) * components;
    CUDAHIST_RETURN_IF_ERROR(cudahist::PinnedCounts::Create(n, &pinned_));
    if (cudaMalloc(reinterpret_cast<void**>(&device_counts_), n * 4) != cudaSuccess) {
      return Status(StatusCode::kCudaError, "cudaMalloc(counts)");
    }
    return Histogrammer::Create(spec, components, &h_);
  }

  Status Run(const std::vector<PlaneView>& views, Output output, std::vector<uint32_t>* counts) {
    const size_t n = pinned_->size();
    std::fill(pinned_->data(), pinned_->data() + n, kPoison);
    std::vector<uint32_t> poison(n, kPoison);
    if (cudaMemcpy(device_counts_, poison.data(), n * 4, cudaMemcpyHostToDevice) != cudaSuccess) {
      return Status(StatusCode::kCudaError, "poisoning counts");
    }
    uint32_t* target = output == Output::kPinned ? pinned_->data() : device_counts_;
    const Status s = h_->Compute(views.data(), int(views.size()), stream_, target);
    const cudaError_t synced = cudaStreamSynchronize(stream_);
    if (synced != cudaSuccess) return Status(StatusCode::kCudaError, cudaGetErrorString(synced));
    counts->assign(n, 0);
    if (output == Output::kPinned) {
      std::copy(pinned_->data(), pinned_->data() + n, counts->begin());
    } else if (cudaMemcpy(counts->data(), device_counts_, n * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
      return Status(StatusCode::kCudaError, "reading counts");
    }
    return s;
  }

  Histogrammer& histogrammer() { return *h_; }

 private:
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<Histogrammer> h_;
  std::unique_ptr<cudahist::PinnedCounts> pinned_;
  uint32_t* device_counts_ = nullptr;
};

std::vector<uint32_t> Reference(const Frame& frame, uint32_t bins) {
  HistogramSpec spec;
  spec.bins = bins;
  std::vector<uint32_t> counts(cudahist::CountsLength(spec, int(frame.views.size())));
  const Status s = cudahist::ReferenceHistogram(spec, frame.views.data(), int(frame.views.size()), counts.data());
  EXPECT_TRUE(s.ok()) << s.message();
  return counts;
}

// Every algorithm on `spec`'s frame equals the reference (or, where the
// counters cannot fit its layout, says kUnsupported).
void ExpectEveryAlgorithmMatches(const FrameSpec& spec, Output output) {
  const uint64_t seed = FreshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay: CUDAHIST_TEST_SEED=" + std::to_string(seed) + ")");
  SCOPED_TRACE(Describe(spec));
  std::mt19937_64 rng(seed);
  const Frame frame = MakeFrame(spec, rng);
  const std::vector<uint32_t> expected = Reference(frame, spec.bins);
  DeviceFrame device;
  ASSERT_CUDA(device.Upload(frame));
  const int components = int(frame.views.size());
  for (Algorithm algorithm : kAlgorithms) {
    SCOPED_TRACE(cudahist::AlgorithmName(algorithm));
    GpuRun run;
    const Status created = run.Create(algorithm, spec.bins, components);
    ASSERT_TRUE(created.ok()) << created.message();
    std::vector<uint32_t> counts;
    const Status s = run.Run(device.views(), output, &counts);
    if (!Supported(algorithm, spec.bins * uint32_t(components))) {
      EXPECT_EQ(s.code(), StatusCode::kUnsupported) << s.message();
      continue;
    }
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(counts, expected);
  }
}

class GpuCoverageTest : public ::testing::TestWithParam<FrameSpec> {};
TEST_P(GpuCoverageTest, EveryAlgorithmEqualsReference) {
  SKIP_WITHOUT_CUDA_DEVICE();
  ExpectEveryAlgorithmMatches(GetParam(), Output::kDevice);
}
INSTANTIATE_TEST_SUITE_P(Coverage, GpuCoverageTest, ::testing::ValuesIn(CoverageFrames()));

class GpuLargeFrameTest : public ::testing::TestWithParam<FrameSpec> {};
TEST_P(GpuLargeFrameTest, EveryAlgorithmEqualsReference) {
  SKIP_WITHOUT_CUDA_DEVICE();
  ExpectEveryAlgorithmMatches(GetParam(), Output::kDevice);
}
INSTANTIATE_TEST_SUITE_P(Large, GpuLargeFrameTest, ::testing::ValuesIn(LargeFrames()));

TEST(GpuOutputTest, PinnedHostCountsAreWrittenByTheKernel) {
  SKIP_WITHOUT_CUDA_DEVICE();
  const std::vector<FrameSpec> frames = LargeFrames();
  ExpectEveryAlgorithmMatches(frames.front(), Output::kPinned);  // 1080p 8-bit
  for (const FrameSpec& s : CoverageFrames()) {
    if (s.kind == FrameSpec::Kind::kNv12) ExpectEveryAlgorithmMatches(s, Output::kPinned);
  }
}

// One Histogrammer, frames of different sizes and ROIs back to back: the
// scratch each launch leaves behind must be ready for the next.
TEST(GpuReuseTest, OneHistogrammerAcrossFramesOfDifferentSizes) {
  SKIP_WITHOUT_CUDA_DEVICE();
  const uint64_t seed = FreshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<FrameSpec> specs;
  for (auto [w, h] : {std::pair{1920u, 1080u}, {17u, 3u}, {333u, 77u}, {1u, 1u}, {1920u, 1080u}}) {
    FrameSpec s;
    s.kind = FrameSpec::Kind::kNv12;
    s.name = "nv12";
    s.layout.width = w;
    s.layout.height = h;
    s.layout.pitch_padding = 5;
    s.layout.base_offset = w % 16;
    specs.push_back(s);
  }
  specs[2].has_roi = true;
  specs[2].roi = cudahist::Roi{1, 1, 100, 30};
  for (Algorithm algorithm : kAlgorithms) {
    SCOPED_TRACE(cudahist::AlgorithmName(algorithm));
    GpuRun run;
    ASSERT_TRUE(run.Create(algorithm, 256, 3).ok());
    for (const FrameSpec& spec : specs) {
      SCOPED_TRACE(Describe(spec));
      const Frame frame = MakeFrame(spec, rng);
      DeviceFrame device;
      ASSERT_CUDA(device.Upload(frame));
      std::vector<uint32_t> counts;
      const Status s = run.Run(device.views(), Output::kDevice, &counts);
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(counts, Reference(frame, 256));
    }
  }
}

// Bad planes: kInvalidArgument, and the poisoned output stays untouched
// (nothing was launched).
TEST(GpuBadInputTest, InvalidPlanesLaunchNothing) {
  SKIP_WITHOUT_CUDA_DEVICE();
  std::mt19937_64 rng(7);
  FrameSpec spec;
  spec.layout.width = 64;
  spec.layout.height = 8;
  const Frame frame = MakeFrame(spec, rng);
  DeviceFrame device;
  ASSERT_CUDA(device.Upload(frame));
  for (Algorithm algorithm : kAlgorithms) {
    SCOPED_TRACE(cudahist::AlgorithmName(algorithm));
    GpuRun run;
    ASSERT_TRUE(run.Create(algorithm, 256, 1).ok());
    const auto expect_refused = [&](const std::vector<PlaneView>& views, const char* field) {
      std::vector<uint32_t> counts;
      const Status s = run.Run(views, Output::kDevice, &counts);
      EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.message();
      EXPECT_NE(s.message().find(field), std::string::npos) << s.message();
      EXPECT_EQ(counts, std::vector<uint32_t>(256, kPoison));
    };
    std::vector<PlaneView> bad = device.views();
    bad[0].pitch = 10;  // smaller than a row
    expect_refused(bad, "pitch");
    bad = device.views();
    bad[0].has_roi = true;
    bad[0].roi = cudahist::Roi{60, 0, 10, 1};  // past the width
    expect_refused(bad, "roi");
    expect_refused({device.views()[0], device.views()[0]}, "num_planes");
    std::vector<uint32_t> counts;
    // And the next good frame is still right.
    ASSERT_TRUE(run.Run(device.views(), Output::kDevice, &counts).ok());
    EXPECT_EQ(counts, Reference(frame, 256));
  }
}

TEST(GpuUnsupportedTest, PackedCountersBeyondSharedMemoryAreRefused) {
  SKIP_WITHOUT_CUDA_DEVICE();
  std::mt19937_64 rng(11);
  FrameSpec spec;
  spec.layout.width = 64;
  spec.layout.height = 8;
  spec.layout.pixel_stride = 2;
  spec.layout.sample_size = 2;
  spec.layout.depth = 16;
  spec.bins = 4096;
  const Frame frame = MakeFrame(spec, rng);
  DeviceFrame device;
  ASSERT_CUDA(device.Upload(frame));
  GpuRun run;
  ASSERT_TRUE(run.Create(Algorithm::kPrivatizedPacked, 4096, 1).ok());
  ASSERT_FALSE(Supported(Algorithm::kPrivatizedPacked, 4096));
  std::vector<uint32_t> counts;
  const Status s = run.Run(device.views(), Output::kDevice, &counts);
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("privatized-packed"), std::string::npos) << s.message();
  EXPECT_EQ(counts, std::vector<uint32_t>(4096, kPoison));
}

TEST(GpuAutoTest, AutoFollowsTheRuleInDispatch) {
  SKIP_WITHOUT_CUDA_DEVICE();
  PlaneView view;
  for (auto [bins, components, expected] :
       {std::tuple{256u, 1, Algorithm::kPrivatized}, std::tuple{256u, 4, Algorithm::kPrivatized},
        std::tuple{1024u, 1, Algorithm::kPrivatized}, std::tuple{4096u, 1, Algorithm::kPrivatized},
        std::tuple{65536u, 1, Algorithm::kTwoPhase}, std::tuple{4096u, 4, Algorithm::kTwoPhase}}) {
    HistogramSpec spec;
    spec.bins = bins;
    std::unique_ptr<Histogrammer> h;
    ASSERT_TRUE(Histogrammer::Create(spec, components, &h).ok());
    EXPECT_EQ(h->ResolvedAlgorithm(&view, 1), expected) << bins << " bins x " << components;
  }
}

}  // namespace
}  // namespace cudahist_test
