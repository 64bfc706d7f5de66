// RegionHistogrammer and RegionSignalStatsCounter (the GPU paths) against the
// CPU reference, bit for bit: every region case (layouts, bins, boxes that
// overlap, touch the edges, hold one pixel, the whole frame or nothing),
// counts in device and in pinned memory, a table of tiles carried in the
// launch's parameters and one copied to the device (10,000 boxes), the
// global-atomics kernel of 65536 bins, frames back to back on one stream, and
// bad input refused before anything is enqueued. Each test skips (with
// CheckCudaDevice's message) when there is no CUDA device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda_test.h"
#include "cudahist/regions.h"
#include "frames.h"
#include "region_cases.h"
#include "regions/regions_tuning.h"
#include "seeded_rng.h"
#include "test_planes.h"
#include "yuv_frames.h"

namespace cudahist_test {
namespace {

using cudahist::RegionFrame;
using cudahist::Roi;
using cudahist::Status;
using cudahist::StatusCode;

// Device copies of a case's planes (16 bytes of slack each), views rebased.
class DeviceRegionFrame {
 public:
  DeviceRegionFrame(const std::vector<HostPlane>& planes, const RegionFrame& host) : frame_(host) {
    std::vector<cudahist::PlaneView> views(host.planes, host.planes + host.num_planes);
    ok_ = device_.Upload(planes, views, 16) == cudaSuccess;
    for (int k = 0; ok_ && k < host.num_planes; ++k) frame_.planes[k] = device_.views()[k];
  }
  bool ok() const { return ok_; }
  const RegionFrame& frame() const { return frame_; }

 private:
  DeviceFrame device_;
  RegionFrame frame_;
  bool ok_ = false;
};

std::vector<uint32_t> Reference(const cudahist::HistogramSpec& spec, const RegionFrame& frame,
                                const std::vector<Roi>& regions) {
  std::vector<uint32_t> counts(cudahist::RegionCountsLength(spec, frame.num_planes, uint32_t(regions.size())));
  const Status s =
      cudahist::ReferenceRegionHistograms(spec, frame, regions.data(), uint32_t(regions.size()), counts.data());
  EXPECT_TRUE(s.ok()) << s.message();
  return counts;
}

// The first difference between two region counts, or "".
std::string Difference(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, size_t per_region,
                       const std::vector<Roi>& regions) {
  if (got.size() != want.size()) return "sizes " + std::to_string(got.size()) + " != " + std::to_string(want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      return "region " + std::to_string(i / per_region) + " " + Describe(regions[i / per_region]) + " word " +
             std::to_string(i % per_region) + ": " + std::to_string(got[i]) + " != " + std::to_string(want[i]);
    }
  }
  return "";
}

TEST(RegionHistogrammerGpu, EqualsReferenceForEveryCaseAndBox) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  for (RegionCase& c : RegionCases(rng)) {
    SCOPED_TRACE(Describe(c));
    cudahist::HistogramSpec spec;
    spec.bins = c.bins;
    const std::vector<uint32_t> want = Reference(spec, c.frame, c.regions);
    DeviceRegionFrame device(c.planes, c.frame);
    ASSERT_TRUE(device.ok());
    std::unique_ptr<cudahist::RegionHistogrammer> h;
    Status s = cudahist::RegionHistogrammer::Create(spec, c.frame.num_planes, &h);
    ASSERT_TRUE(s.ok()) << s.message();
    PoisonedCounts counts(want.size());
    ASSERT_TRUE(counts.ok());
    for (bool pinned : {false, true}) {
      s = h->Compute(device.frame(), c.regions.data(), uint32_t(c.regions.size()), counts.stream(),
                     counts.Poisoned(pinned));
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(Difference(counts.Read(pinned), want, size_t(c.frame.num_planes) * c.bins, c.regions), "")
          << (pinned ? "pinned" : "device") << " counts";
    }
  }
}

// 1080p NV12 with 1 to 10,000 boxes of mixed sizes: the inline tile table,
// the copied one, several frames back to back on the stream with different
// boxes (the copy's staging is rewritten only once read).
TEST(RegionHistogrammerGpu, ManyBoxesBackToBack) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  YuvFrameSpec spec = YuvSpec(YuvFormat::kNv12, 1920, 1080);
  spec.pitch_padding = 128;
  YuvFrame yuv = MakeYuvFrame(spec, rng);
  const RegionFrame host = RegionFrameOf(yuv.view);
  DeviceRegionFrame device(yuv.planes, host);
  ASSERT_TRUE(device.ok());
  cudahist::HistogramSpec hs;
  std::unique_ptr<cudahist::RegionHistogrammer> h;
  ASSERT_TRUE(cudahist::RegionHistogrammer::Create(hs, 3, &h).ok());
  struct Frame {
    std::vector<Roi> regions;
    std::vector<uint32_t> want;
  };
  std::vector<Frame> frames;
  for (uint32_t boxes : {1u, 16u, 100u, 1000u, 10000u, 100u}) {
    Frame f;
    f.regions = RandomRegions(1920, 1080, boxes, 10, 600, rng);
    f.want = Reference(hs, host, f.regions);
    frames.push_back(std::move(f));
  }
  std::vector<uint32_t*> device_counts(frames.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    ASSERT_CUDA(cudaMalloc(reinterpret_cast<void**>(&device_counts[i]), frames[i].want.size() * sizeof(uint32_t)));
  }
  cudaStream_t stream;
  ASSERT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  bool copied_table = false;
  for (size_t i = 0; i < frames.size(); ++i) {
    const Status s = h->Compute(device.frame(), frames[i].regions.data(), uint32_t(frames[i].regions.size()), stream,
                                device_counts[i]);
    ASSERT_TRUE(s.ok()) << s.message();
    copied_table = copied_table || frames[i].regions.size() > cudahist::detail::kSegmentedPolicy.inline_regions;
  }
  ASSERT_CUDA(cudaStreamSynchronize(stream));
  EXPECT_TRUE(copied_table) << "10,000 boxes are more regions than a launch carries";
  for (size_t i = 0; i < frames.size(); ++i) {
    std::vector<uint32_t> got(frames[i].want.size());
    ASSERT_CUDA(cudaMemcpy(got.data(), device_counts[i], got.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    EXPECT_EQ(Difference(got, frames[i].want, 3 * 256, frames[i].regions), "")
        << frames[i].regions.size() << " boxes";
    cudaFree(device_counts[i]);
  }
  cudaStreamDestroy(stream);
}

TEST(RegionHistogrammerGpu, RefusesBadInputBeforeLaunching) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  YuvFrame yuv = MakeYuvFrame(YuvSpec(YuvFormat::kNv12, 64, 32), rng);
  DeviceRegionFrame device(yuv.planes, RegionFrameOf(yuv.view));
  ASSERT_TRUE(device.ok());
  cudahist::HistogramSpec spec;
  std::unique_ptr<cudahist::RegionHistogrammer> h;
  ASSERT_TRUE(cudahist::RegionHistogrammer::Create(spec, 3, &h).ok());
  PoisonedCounts counts(3 * 256);
  const Roi outside{60, 0, 5, 1};
  Status s = h->Compute(device.frame(), &outside, 1, counts.stream(), counts.Poisoned(true));
  EXPECT_EQ(s.message(), "regions[0]: x 60 + width 5 reaches past plane[0]'s 64 columns");
  EXPECT_EQ(counts.Read(true)[0], kPoison);
  const Roi inside{0, 0, 4, 4};
  s = h->Compute(device.frame(), &inside, 1, counts.stream(), nullptr);
  EXPECT_EQ(s.message(), "counts: null");
  RegionFrame two = device.frame();
  two.num_planes = 2;
  s = h->Compute(two, &inside, 1, counts.stream(), counts.Poisoned(true));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(cudahist::RegionHistogrammer::Create(spec, 5, &h).code(), StatusCode::kInvalidArgument);
}

// --- signalstats per region ---------------------------------------------------------

// The first difference between `counter`'s words of `regions` of `yuv` (on
// the device, into pinned or device memory) and the reference's, or "".
std::string StatsDifference(cudahist::RegionSignalStatsCounter& counter, const YuvFrame& yuv,
                            const std::vector<Roi>& regions, bool pinned) {
  const uint32_t n = uint32_t(regions.size()), per_region = cudahist::RegionSignalStatsWords(yuv.view.y.depth);
  std::vector<uint32_t> want(n * per_region);
  Status s = cudahist::ReferenceRegionSignalStats(yuv.view, regions.data(), n, want.data());
  if (!s.ok()) return "reference: " + s.message();
  DeviceRegionFrame device(yuv.planes, RegionFrameOf(yuv.view));
  if (!device.ok()) return "upload failed";
  cudahist::YuvPlanes on_device = yuv.view;
  on_device.y = device.frame().planes[0];
  on_device.u = device.frame().planes[1];
  on_device.v = device.frame().planes[2];
  PoisonedCounts words(want.size());
  s = counter.Compute(on_device, regions.data(), n, words.stream(), words.Poisoned(pinned));
  if (!s.ok()) return "Compute: " + s.message();
  return Difference(words.Read(pinned), want, per_region, regions);
}

TEST(RegionSignalStatsGpu, EqualsReferenceOverTheMatrix) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  std::unique_ptr<cudahist::RegionSignalStatsCounter> counter;
  const Status s = cudahist::RegionSignalStatsCounter::Create(&counter);
  ASSERT_TRUE(s.ok()) << s.message();
  for (YuvFrameSpec spec : SignalStatsMatrix()) {
    if (spec.has_roi) continue;
    SCOPED_TRACE(Describe(spec));
    YuvFrame yuv = MakeYuvFrame(spec, rng);
    const std::vector<Roi> regions = EdgeRegions(spec.width, spec.height, 12, rng);
    for (bool pinned : {false, true}) {
      EXPECT_EQ(StatsDifference(*counter, yuv, regions, pinned), "") << (pinned ? "pinned" : "device");
    }
  }
}

TEST(RegionSignalStatsGpu, ThousandsOfBoxesOf1080p) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  std::unique_ptr<cudahist::RegionSignalStatsCounter> counter;
  ASSERT_TRUE(cudahist::RegionSignalStatsCounter::Create(&counter).ok());
  for (YuvFormat format : {YuvFormat::kNv12, YuvFormat::kP010}) {
    YuvFrameSpec spec = YuvSpec(format, 1920, 1080);
    spec.distribution = Distribution::kPeaked;
    YuvFrame yuv = MakeYuvFrame(spec, rng);
    EXPECT_EQ(StatsDifference(*counter, yuv, RandomRegions(1920, 1080, 3000, 1, 600, rng), false), "")
        << YuvFormatName(format);
  }
}

}  // namespace
}  // namespace cudahist_test
