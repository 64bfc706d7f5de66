// The GPU kernels, every algorithm, against the CPU reference, bit for bit.
// Each GPU test skips (with CheckCudaDevice's message) when there is no CUDA
// device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cudahist/cudahist.h>

#include <cstdint>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuda_test.h"
#include "frames.h"
#include "launch/launch_plan.h"
#include "seeded_rng.h"
#include "test_planes.h"
#include "histogram/histogram_tuning.h"

namespace cudahist_test {
namespace {

using cudahist::Algorithm;
using cudahist::Histogrammer;
using cudahist::HistogramSpec;
using cudahist::PlaneView;
using cudahist::Status;
using cudahist::StatusCode;

constexpr Algorithm kAlgorithms[] = {Algorithm::kPrivatized, Algorithm::kPrivatizedSharedAtomic,
                                     Algorithm::kPrivatizedPacked, Algorithm::kTwoPhase, Algorithm::kAuto};

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
      return (stored + 3) / 4 * (cudahist::detail::kHistogramPolicy.packed.threads + 4) * 4 <= uint64_t(max_shared);
    default:
      return true;
  }
}

enum class Output { kDevice, kPinned };

// One Compute into poisoned counts; the counts as the kernel left them.
class GpuRun {
 public:
  Status Create(Algorithm algorithm, uint32_t bins, int components) {
    HistogramSpec spec;
    spec.bins = bins;
    spec.algorithm = algorithm;
    out_ = std::make_unique<PoisonedCounts>(size_t(bins) * components);
    if (!out_->ok()) return Status(StatusCode::kCudaError, "stream, device or pinned counts");
    return Histogrammer::Create(spec, components, &h_);
  }

  Status Run(const std::vector<PlaneView>& views, Output output, std::vector<uint32_t>* counts) {
    const bool pinned = output == Output::kPinned;
    const Status s = h_->Compute(views.data(), int(views.size()), out_->stream(), out_->Poisoned(pinned));
    *counts = out_->Read(pinned);
    return s;
  }

  Histogrammer& histogrammer() { return *h_; }

 private:
  std::unique_ptr<PoisonedCounts> out_;
  std::unique_ptr<Histogrammer> h_;
};

// `views` refused with `code` and a message naming `field`; the poisoned
// counts (`n` of them) untouched: nothing was launched.
void ExpectRefused(GpuRun& run, const std::vector<PlaneView>& views, StatusCode code, const char* field,
                   size_t n) {
  std::vector<uint32_t> counts;
  const Status s = run.Run(views, Output::kDevice, &counts);
  EXPECT_EQ(s.code(), code) << s.message();
  EXPECT_NE(s.message().find(field), std::string::npos) << s.message();
  EXPECT_EQ(counts, std::vector<uint32_t>(n, kPoison));
}

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
  SeededRng rng;
  SCOPED_TRACE(Describe(spec));
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
  SeededRng rng;
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
  spec.layout = PlaneLayout{/*width=*/64, /*height=*/8};
  const Frame frame = MakeFrame(spec, rng);
  DeviceFrame device;
  ASSERT_CUDA(device.Upload(frame));
  for (Algorithm algorithm : kAlgorithms) {
    SCOPED_TRACE(cudahist::AlgorithmName(algorithm));
    GpuRun run;
    ASSERT_TRUE(run.Create(algorithm, 256, 1).ok());
    const auto expect_refused = [&](const std::vector<PlaneView>& views, const char* field) {
      ExpectRefused(run, views, StatusCode::kInvalidArgument, field, 256);
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

// --- ComputeBatch --------------------------------------------------------------

// Frames of three components in several sizes, NV12 with pitch padding and
// odd base offsets, one with an ROI, and (when `with_large`) 4K frames that
// take the deep kernel and so a launch of their own.
std::vector<FrameSpec> BatchSpecs(size_t count, bool with_large) {
  const std::pair<uint32_t, uint32_t> sizes[] = {{1920, 1080}, {17, 3}, {333, 77}, {1, 1}, {640, 360}, {96, 2}};
  std::vector<FrameSpec> specs;
  for (size_t i = 0; i < count; ++i) {
    FrameSpec s;
    s.kind = FrameSpec::Kind::kNv12;
    s.name = "nv12";
    s.layout.width = sizes[i % std::size(sizes)].first;
    s.layout.height = sizes[i % std::size(sizes)].second;
    s.layout.pitch_padding = uint32_t(i % 7);
    s.layout.base_offset = uint32_t(i % 16);
    s.distribution = i % 3 == 0 ? Distribution::kUniform : i % 3 == 1 ? Distribution::kPeaked : Distribution::kOneValue;
    s.one_value = uint32_t(i * 37 % 256);
    if (i % 5 == 2) {
      s.has_roi = true;
      // Inside the half-size chroma planes too (the ROI applies to every view).
      s.roi = cudahist::Roi{s.layout.width / 8, s.layout.height / 8, s.layout.width / 4, s.layout.height / 4};
    }
    specs.push_back(s);
  }
  if (with_large) {
    specs[count / 2].layout.width = specs[count - 1].layout.width = 3840;
    specs[count / 2].layout.height = specs[count - 1].layout.height = 2160;
    specs[count / 2].has_roi = specs[count - 1].has_roi = false;
  }
  return specs;
}

// The frames of a batch on the device, their views back to back as
// ComputeBatch takes them, and each frame's reference counts.
struct DeviceBatch {
  std::vector<std::unique_ptr<DeviceFrame>> frames;
  std::vector<PlaneView> views;
  std::vector<std::vector<uint32_t>> expected;
};

void UploadBatch(const std::vector<FrameSpec>& specs, uint32_t bins, std::mt19937_64& rng, DeviceBatch* batch) {
  for (const FrameSpec& spec : specs) {
    const Frame frame = MakeFrame(spec, rng);
    batch->expected.push_back(Reference(frame, bins));
    batch->frames.push_back(std::make_unique<DeviceFrame>());
    ASSERT_CUDA(batch->frames.back()->Upload(frame));
    const auto& v = batch->frames.back()->views();
    batch->views.insert(batch->views.end(), v.begin(), v.end());
  }
}

// ComputeBatch into poisoned device counts; the counts, frame by frame.
Status RunBatch(Histogrammer& h, const std::vector<PlaneView>& views, int frames, size_t words_per_frame,
                std::vector<std::vector<uint32_t>>* counts) {
  uint32_t* device_counts = nullptr;
  const size_t words = words_per_frame * size_t(frames);
  if (cudaMalloc(reinterpret_cast<void**>(&device_counts), words * 4) != cudaSuccess) {
    return Status(StatusCode::kCudaError, "cudaMalloc(counts)");
  }
  std::vector<uint32_t> all(words, kPoison);
  Status s = CopyToDevice(device_counts, all.data(), words * 4) == cudaSuccess
                 ? h.ComputeBatch(views.data(), frames, nullptr, device_counts)
                 : Status(StatusCode::kCudaError, "poisoning counts");
  if (cudaDeviceSynchronize() != cudaSuccess ||
      cudaMemcpy(all.data(), device_counts, words * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
    s = Status(StatusCode::kCudaError, "reading counts");
  }
  cudaFree(device_counts);
  counts->clear();
  for (int f = 0; f < frames; ++f) {
    counts->emplace_back(all.begin() + f * words_per_frame, all.begin() + (f + 1) * words_per_frame);
  }
  return s;
}

void ExpectBatchMatches(const std::vector<FrameSpec>& specs, uint32_t bins) {
  const int components = specs[0].kind == FrameSpec::Kind::kNv12 ? 3 : 1;
  SeededRng rng;
  DeviceBatch batch;
  UploadBatch(specs, bins, rng, &batch);
  for (Algorithm algorithm : kAlgorithms) {
    SCOPED_TRACE(cudahist::AlgorithmName(algorithm));
    HistogramSpec spec;
    spec.bins = bins;
    spec.algorithm = algorithm;
    std::unique_ptr<Histogrammer> h;
    ASSERT_TRUE(Histogrammer::Create(spec, components, &h).ok());
    std::vector<std::vector<uint32_t>> counts;
    const Status s = RunBatch(*h, batch.views, int(specs.size()), size_t(bins) * components, &counts);
    if (!Supported(algorithm, bins * uint32_t(components))) {
      EXPECT_EQ(s.code(), StatusCode::kUnsupported) << s.message();
      continue;
    }
    ASSERT_TRUE(s.ok()) << s.message();
    for (size_t f = 0; f < specs.size(); ++f) {
      EXPECT_EQ(counts[f], batch.expected[f]) << "frame " << f << ": " << Describe(specs[f]);
    }
  }
}

// 37 frames: two full launches of 16 and a partial one, every algorithm.
TEST(GpuBatchTest, EveryFrameOfABatchEqualsItsReference) {
  SKIP_WITHOUT_CUDA_DEVICE();
  ExpectBatchMatches(BatchSpecs(37, false), 256);
}

// 4K frames among small ones: those launches go frame by frame.
TEST(GpuBatchTest, FramesForTheDeepKernelAmongSmallOnes) {
  SKIP_WITHOUT_CUDA_DEVICE();
  ExpectBatchMatches(BatchSpecs(18, true), 256);
}

// 16-bit samples in 4096 bins: 8 lane copies, so the bank swizzle is on.
TEST(GpuBatchTest, ManyBinsPerComponent) {
  SKIP_WITHOUT_CUDA_DEVICE();
  std::vector<FrameSpec> specs = BatchSpecs(21, false);
  for (FrameSpec& s : specs) {
    s.kind = FrameSpec::Kind::kSingle;
    s.name = "gray16";
    s.layout.sample_size = 2;
    s.layout.pixel_stride = 2;
    s.layout.depth = 16;
    s.layout.base_offset &= ~size_t(1);
    s.layout.pitch_padding &= ~size_t(1);
  }
  ExpectBatchMatches(specs, 4096);
}

// Single frames and batches on one Histogrammer: the scratch each leaves
// behind is ready for the other.
TEST(GpuBatchTest, BatchesAndSingleFramesInterleave) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  DeviceBatch batch;
  UploadBatch(BatchSpecs(20, false), 256, rng, &batch);
  for (Algorithm algorithm : kAlgorithms) {
    SCOPED_TRACE(cudahist::AlgorithmName(algorithm));
    GpuRun run;
    ASSERT_TRUE(run.Create(algorithm, 256, 3).ok());
    for (int round = 0; round < 2; ++round) {
      std::vector<std::vector<uint32_t>> counts;
      const Status s = RunBatch(run.histogrammer(), batch.views, 20, 768, &counts);
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(counts, batch.expected);
      std::vector<uint32_t> single;
      const std::vector<PlaneView> frame7(batch.views.begin() + 21, batch.views.begin() + 24);
      ASSERT_TRUE(run.Run(frame7, Output::kDevice, &single).ok());
      EXPECT_EQ(single, batch.expected[7]);
    }
  }
}

// A bad frame anywhere refuses the whole batch before anything is launched,
// and says which frame.
TEST(GpuBatchTest, BadFramesLaunchNothing) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  DeviceBatch batch;
  UploadBatch(BatchSpecs(20, false), 256, rng, &batch);
  GpuRun run;
  ASSERT_TRUE(run.Create(Algorithm::kAuto, 256, 3).ok());
  Histogrammer& h = run.histogrammer();
  const std::vector<uint32_t> poisoned(768, kPoison);
  const auto expect_refused = [&](const std::vector<PlaneView>& views, int frames, const std::string& words) {
    std::vector<std::vector<uint32_t>> counts;
    const Status s = RunBatch(h, views, frames, 768, &counts);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.message();
    EXPECT_NE(s.message().find(words), std::string::npos) << s.message();
    for (const auto& c : counts) EXPECT_EQ(c, poisoned);
  };
  std::vector<PlaneView> bad = batch.views;
  bad[17 * 3 + 1].pitch = 1;  // frame 17, past the first launch of 16
  expect_refused(bad, 20, "frame 17: plane[1].pitch");
  bad = batch.views;
  bad[3 * 3].depth = 0;
  expect_refused(bad, 20, "frame 3: plane[0].depth");
  uint32_t unused = kPoison;
  EXPECT_EQ(h.ComputeBatch(batch.views.data(), 0, nullptr, &unused).message(), "num_frames: 0 (must be at least 1)");
  EXPECT_EQ(h.ComputeBatch(batch.views.data(), -2, nullptr, &unused).message(),
            "num_frames: -2 (must be at least 1)");
  EXPECT_EQ(h.ComputeBatch(nullptr, 2, nullptr, &unused).message(), "planes: null");
  EXPECT_EQ(h.ComputeBatch(batch.views.data(), 2, nullptr, nullptr).message(), "counts: null");
  EXPECT_EQ(unused, kPoison);
  // And the next good batch is still right.
  std::vector<std::vector<uint32_t>> counts;
  ASSERT_TRUE(RunBatch(h, batch.views, 20, 768, &counts).ok());
  EXPECT_EQ(counts, batch.expected);
}

TEST(GpuUnsupportedTest, PackedCountersBeyondSharedMemoryAreRefused) {
  SKIP_WITHOUT_CUDA_DEVICE();
  std::mt19937_64 rng(11);
  FrameSpec spec;
  spec.layout = PlaneLayout{/*width=*/64, /*height=*/8, /*pixel_stride=*/2, /*offset=*/0, /*sample_size=*/2,
                            /*shift=*/0, /*depth=*/16};
  spec.bins = 4096;
  const Frame frame = MakeFrame(spec, rng);
  DeviceFrame device;
  ASSERT_CUDA(device.Upload(frame));
  GpuRun run;
  ASSERT_TRUE(run.Create(Algorithm::kPrivatizedPacked, 4096, 1).ok());
  ASSERT_FALSE(Supported(Algorithm::kPrivatizedPacked, 4096));
  ExpectRefused(run, device.views(), StatusCode::kUnsupported, "privatized-packed", 4096);
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
