// The region counts on the CPU (cudahist/regions.h): the reference against
// hand-counted frames, the backend's one sweep against the reference over
// every layout and box the region cases hold (overlapping, on each edge, one
// pixel, the whole frame, empty), signalstats per region, and the checks
// that refuse bad frames and boxes, naming the field. Outputs are poisoned
// before every run; the seed is printed on failure.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "cudahist/cpu.h"
#include "cudahist/regions.h"
#include "cudahist/signalstats.h"
#include "region_cases.h"
#include "seeded_rng.h"
#include "test_planes.h"
#include "yuv_frames.h"

namespace cudahist_test {
namespace {

using cudahist::HistogramSpec;
using cudahist::RegionFrame;
using cudahist::Roi;
using cudahist::Status;
using cudahist::StatusCode;

// A GRAY8 frame of `width` x `height` holding `values` row by row, with 3
// bytes of pitch padding that never count.
struct GrayFrame {
  AlignedBytes bytes;
  RegionFrame frame;
  GrayFrame(uint32_t width, uint32_t height, const std::vector<uint8_t>& values) {
    const size_t pitch = width + 3;
    bytes.assign(pitch * height, 0xEE);
    for (uint32_t y = 0; y < height; ++y) {
      for (uint32_t x = 0; x < width; ++x) bytes[y * pitch + x] = values[y * width + x];
    }
    cudahist::PlaneView& p = frame.planes[0];
    p.data = bytes.data();
    p.width = width;
    p.height = height;
    p.pitch = pitch;
    frame.num_planes = 1;
  }
};

std::vector<uint32_t> Reference(const HistogramSpec& spec, const RegionFrame& frame, const std::vector<Roi>& regions) {
  std::vector<uint32_t> counts(cudahist::RegionCountsLength(spec, frame.num_planes, uint32_t(regions.size())),
                               kPoison);
  const Status s =
      cudahist::ReferenceRegionHistograms(spec, frame, regions.data(), uint32_t(regions.size()), counts.data());
  EXPECT_TRUE(s.ok()) << s.message();
  return counts;
}

TEST(RegionReference, CountsEachBoxOfAGrayFrame) {
  // 4 x 3:   0  1  2  3
  //          4  5  6  7
  //          8  9 10 11
  std::vector<uint8_t> values(12);
  std::iota(values.begin(), values.end(), uint8_t(0));
  GrayFrame g(4, 3, values);
  HistogramSpec spec;  // 256 bins: a bin per value
  const std::vector<Roi> regions = {{1, 1, 2, 2}, {3, 2, 1, 1}, {0, 0, 4, 3}, {2, 0, 0, 3}};
  const std::vector<uint32_t> counts = Reference(spec, g.frame, regions);
  auto count = [&](uint32_t region, uint32_t value) { return counts[region * 256 + value]; };
  for (uint32_t v : {5u, 6u, 9u, 10u}) EXPECT_EQ(count(0, v), 1u) << v;
  EXPECT_EQ(std::accumulate(counts.begin(), counts.begin() + 256, 0u), 4u);
  EXPECT_EQ(count(1, 11), 1u);
  EXPECT_EQ(std::accumulate(counts.begin() + 256, counts.begin() + 512, 0u), 1u);
  for (uint32_t v = 0; v < 12; ++v) EXPECT_EQ(count(2, v), 1u) << v;
  EXPECT_EQ(std::accumulate(counts.begin() + 3 * 256, counts.end(), 0u), 0u) << "the empty box";
}

TEST(RegionReference, SubsampledComponentsCountTheSamplesTheBoxTouches) {
  // NV12 6 x 4: chroma 3 x 2. A box at (1, 1) of 2 x 2 touches chroma
  // columns 0 and 1 and rows 0 and 1; a box at (2, 2) of 2 x 2 only chroma (1, 1).
  SeededRng rng;
  YuvFrameSpec spec = YuvSpec(YuvFormat::kNv12, 6, 4);
  YuvFrame yuv = MakeYuvFrame(spec, rng);
  const RegionFrame frame = RegionFrameOf(yuv.view);
  HistogramSpec hs;
  const std::vector<Roi> regions = {{1, 1, 2, 2}, {2, 2, 2, 2}};
  const std::vector<uint32_t> counts = Reference(hs, frame, regions);
  const auto total = [&](uint32_t region, uint32_t component) {
    const auto first = counts.begin() + (region * 3 + component) * 256;
    return std::accumulate(first, first + 256, 0u);
  };
  EXPECT_EQ(total(0, 0), 4u);
  EXPECT_EQ(total(0, 1), 4u);
  EXPECT_EQ(total(0, 2), 4u);
  EXPECT_EQ(total(1, 0), 4u);
  EXPECT_EQ(total(1, 1), 1u);
  EXPECT_EQ(total(1, 2), 1u);
  // The chroma sample (1, 1) is the second box's only one.
  const uint32_t u11 = (static_cast<const uint8_t*>(frame.planes[1].data) + frame.planes[1].pitch)[2];
  EXPECT_EQ(counts[(1 * 3 + 1) * 256 + u11], 1u);
}

TEST(RegionCpuBackend, EqualsReferenceForEveryCaseAndBox) {
  SeededRng rng;
  for (RegionCase& c : RegionCases(rng)) {
    SCOPED_TRACE(Describe(c));
    HistogramSpec spec;
    spec.bins = c.bins;
    const std::vector<uint32_t> expected = Reference(spec, c.frame, c.regions);
    // The reference's own totals: every region holds its samples.
    for (size_t r = 0; r < c.regions.size(); ++r) {
      for (int k = 0; k < c.frame.num_planes; ++k) {
        const Roi on = cudahist::RegionOnPlane(c.regions[r], c.frame.log2_hsub[k], c.frame.log2_vsub[k]);
        const auto first = expected.begin() + (r * c.frame.num_planes + k) * spec.bins;
        ASSERT_EQ(std::accumulate(first, first + spec.bins, uint64_t(0)), uint64_t(on.width) * on.height)
            << "region " << r << " " << Describe(c.regions[r]) << " component " << k;
      }
    }
    cudahist::CpuRegionHistogrammer backend(c.bins);
    std::vector<uint32_t> actual(expected.size(), kPoison);
    const Status s = backend.Compute(c.frame, c.regions.data(), uint32_t(c.regions.size()), actual.data());
    ASSERT_TRUE(s.ok()) << s.message();
    for (size_t i = 0; i < expected.size(); ++i) {
      const size_t per_region = size_t(c.frame.num_planes) * spec.bins;
      ASSERT_EQ(actual[i], expected[i]) << "region " << i / per_region << " "
                                        << Describe(c.regions[i / per_region]) << " component "
                                        << (i % per_region) / spec.bins << " bin " << i % spec.bins;
    }
  }
}

TEST(RegionCpuBackend, TenThousandBoxesOfOneFrame) {
  SeededRng rng;
  YuvFrameSpec spec = YuvSpec(YuvFormat::kNv12, 320, 240);
  spec.pitch_padding = 5;
  YuvFrame yuv = MakeYuvFrame(spec, rng);
  const RegionFrame frame = RegionFrameOf(yuv.view);
  const std::vector<Roi> boxes = RandomRegions(320, 240, 10000, 1, 60, rng);
  HistogramSpec hs;
  const std::vector<uint32_t> expected = Reference(hs, frame, boxes);
  std::vector<uint32_t> actual(expected.size(), kPoison);
  cudahist::CpuRegionHistogrammer backend(256);
  ASSERT_TRUE(backend.Compute(frame, boxes.data(), uint32_t(boxes.size()), actual.data()).ok());
  EXPECT_TRUE(actual == expected);
}

TEST(RegionCpuBackend, NoRegionsWritesNothing) {
  SeededRng rng;
  YuvFrame yuv = MakeYuvFrame(YuvSpec(YuvFormat::kNv12, 16, 8), rng);
  cudahist::CpuRegionHistogrammer backend(256);
  uint32_t untouched = kPoison;
  const Status s = backend.Compute(RegionFrameOf(yuv.view), nullptr, 0, &untouched);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(untouched, kPoison);
}

// --- checks -----------------------------------------------------------------

Status Validate(const RegionFrame& frame, const std::vector<Roi>& regions) {
  return cudahist::ValidateRegions(frame, regions.data(), uint32_t(regions.size()));
}

TEST(RegionValidate, NamesTheBoxAndTheEdgeItCrosses) {
  SeededRng rng;
  YuvFrame yuv = MakeYuvFrame(YuvSpec(YuvFormat::kNv12, 333, 77), rng);
  const RegionFrame frame = RegionFrameOf(yuv.view);
  EXPECT_TRUE(Validate(frame, {{0, 0, 333, 77}, {332, 76, 1, 1}, {333, 77, 0, 0}}).ok());
  Status s = Validate(frame, {{0, 0, 1, 1}, {300, 0, 34, 10}});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "regions[1]: x 300 + width 34 reaches past plane[0]'s 333 columns");
  s = Validate(frame, {{0, 70, 10, 8}});
  EXPECT_EQ(s.message(), "regions[0]: y 70 + height 8 reaches past plane[0]'s 77 rows");
  s = Validate(frame, {{334, 0, 0, 0}});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << "an empty box's corner outside the frame";
  s = cudahist::ValidateRegions(frame, nullptr, 2);
  EXPECT_EQ(s.message(), "regions: null");
}

TEST(RegionValidate, RefusesFramesARegionCountCannotRead) {
  SeededRng rng;
  YuvFrame yuv = MakeYuvFrame(YuvSpec(YuvFormat::kNv12, 16, 8), rng);
  RegionFrame frame = RegionFrameOf(yuv.view);
  frame.planes[1].has_roi = true;
  EXPECT_EQ(Validate(frame, {}).message(), "plane[1].has_roi: a region count reads whole planes (the regions say what)");
  frame = RegionFrameOf(yuv.view);
  frame.log2_hsub[2] = 3;
  EXPECT_EQ(Validate(frame, {}).message(), "plane[2]: log2 subsampling 3/1 is outside 0 to 2");
  frame = RegionFrameOf(yuv.view);
  frame.num_planes = 0;
  EXPECT_EQ(Validate(frame, {}).code(), StatusCode::kInvalidArgument);
  frame = RegionFrameOf(yuv.view);
  frame.planes[0].width = 70000;
  frame.planes[0].pitch = 70000;
  EXPECT_EQ(Validate(frame, {}).code(), StatusCode::kUnsupported);
  // The backend refuses what the checks refuse and leaves the counts alone.
  frame = RegionFrameOf(yuv.view);
  std::vector<uint32_t> counts(3 * 256, kPoison);
  const Roi outside{10, 0, 7, 1};
  cudahist::CpuRegionHistogrammer backend(256);
  EXPECT_EQ(backend.Compute(frame, &outside, 1, counts.data()).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(counts[0], kPoison);
  cudahist::CpuRegionHistogrammer too_many_bins(512);
  const Roi inside{0, 0, 1, 1};
  EXPECT_EQ(too_many_bins.Compute(frame, &inside, 1, counts.data()).code(), StatusCode::kInvalidArgument);
}

TEST(RegionOnPlane, MapsBoxesOntoSubsampledPlanes) {
  using cudahist::RegionOnPlane;
  const auto same = [](const Roi& a, const Roi& b) {
    return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
  };
  EXPECT_TRUE(same(RegionOnPlane({1, 1, 2, 2}, 1, 1), {0, 0, 2, 2}));
  EXPECT_TRUE(same(RegionOnPlane({2, 2, 2, 2}, 1, 1), {1, 1, 1, 1}));
  EXPECT_TRUE(same(RegionOnPlane({3, 0, 1, 5}, 1, 0), {1, 0, 1, 5}));
  EXPECT_TRUE(same(RegionOnPlane({5, 6, 0, 3}, 1, 1), {2, 3, 0, 0}));
  EXPECT_TRUE(same(RegionOnPlane({0, 0, 333, 77}, 1, 1), {0, 0, 167, 39}));
  EXPECT_TRUE(same(RegionOnPlane({0, 0, 7, 7}, 2, 2), {0, 0, 2, 2}));
}

// --- signalstats per region ------------------------------------------------------

std::vector<uint32_t> StatsReference(const cudahist::YuvPlanes& frame, const std::vector<Roi>& regions) {
  std::vector<uint32_t> words(regions.size() * cudahist::RegionSignalStatsWords(frame.y.depth), kPoison);
  const Status s = cudahist::ReferenceRegionSignalStats(frame, regions.data(), uint32_t(regions.size()), words.data());
  EXPECT_TRUE(s.ok()) << s.message();
  return words;
}

TEST(RegionSignalStats, CpuBackendEqualsReferenceOverTheMatrix) {
  SeededRng rng;
  for (YuvFrameSpec spec : SignalStatsMatrix()) {
    if (spec.has_roi) continue;  // regions are the boxes below
    SCOPED_TRACE(Describe(spec));
    YuvFrame yuv = MakeYuvFrame(spec, rng);
    const std::vector<Roi> regions = EdgeRegions(spec.width, spec.height, 12, rng);
    const std::vector<uint32_t> expected = StatsReference(yuv.view, regions);
    std::vector<uint32_t> actual(expected.size(), kPoison);
    cudahist::CpuRegionSignalStats backend;
    const Status s = backend.Compute(yuv.view, regions.data(), uint32_t(regions.size()), actual.data());
    ASSERT_TRUE(s.ok()) << s.message();
    const uint32_t per_region = cudahist::RegionSignalStatsWords(yuv.view.y.depth);
    for (size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(actual[i], expected[i]) << "region " << i / per_region << " " << Describe(regions[i / per_region])
                                        << " word " << i % per_region;
    }
  }
}

TEST(RegionSignalStats, FiguresAreSignalstatsOfTheFrameCutToTheBox) {
  SeededRng rng;
  for (YuvFormat format : {YuvFormat::kNv12, YuvFormat::kP010, YuvFormat::kYuy2, YuvFormat::kY444}) {
    YuvFrameSpec spec = YuvSpec(format, 64, 36);
    spec.distribution = Distribution::kPeaked;
    YuvFrame yuv = MakeYuvFrame(spec, rng);
    const std::vector<Roi> regions = {{0, 0, 64, 36}, {5, 3, 17, 11}, {63, 35, 1, 1}};
    const std::vector<uint32_t> words = StatsReference(yuv.view, regions);
    const uint32_t depth = yuv.view.y.depth;
    for (size_t r = 0; r < regions.size(); ++r) {
      SCOPED_TRACE(std::string(YuvFormatName(format)) + " region " + Describe(regions[r]));
      cudahist::YuvPlanes cut = yuv.view;
      cut.y.has_roi = cut.u.has_roi = cut.v.has_roi = true;
      cut.y.roi = regions[r];
      cut.u.roi = cut.v.roi = cudahist::RegionOnPlane(regions[r], cut.log2_hsub, cut.log2_vsub);
      cudahist::SignalStatsCounts counts;
      ASSERT_TRUE(cudahist::ReferenceSignalStats(cut, nullptr, &counts).ok());
      const cudahist::SignalStatsFigures want = cudahist::FiguresOf(counts);
      const cudahist::SignalStatsFigures got =
          cudahist::RegionFiguresOf(words.data() + r * cudahist::RegionSignalStatsWords(depth), depth);
#define SIGNALSTATS_FIGURE(group, member, name, ffmpeg_key, type, unit) EXPECT_EQ(got.member, want.member) << name;
#include "cudahist/figures.def"
      EXPECT_EQ(got.y_dif, 0.0) << "a region has no previous frame";
    }
  }
}

TEST(RegionSignalStats, RefusesRoiFramesAndBoxesOutside) {
  SeededRng rng;
  YuvFrameSpec spec = YuvSpec(YuvFormat::kNv12, 32, 16);
  spec.has_roi = true;
  spec.roi = Roi{0, 0, 8, 8};
  YuvFrame with_roi = MakeYuvFrame(spec, rng);
  const Roi box{0, 0, 4, 4};
  EXPECT_EQ(cudahist::ValidateRegionSignalStats(with_roi.view, &box, 1).message(),
            "y.has_roi: a region count reads whole planes (the regions say what)");
  spec.has_roi = false;
  YuvFrame yuv = MakeYuvFrame(spec, rng);
  const Roi outside{30, 0, 3, 1};
  std::vector<uint32_t> words(cudahist::RegionSignalStatsWords(8), kPoison);
  cudahist::CpuRegionSignalStats backend;
  const Status s = backend.Compute(yuv.view, &outside, 1, words.data());
  EXPECT_EQ(s.message(), "regions[0]: x 30 + width 3 reaches past plane[0]'s 32 columns");
  EXPECT_EQ(words[0], kPoison);
}

}  // namespace
}  // namespace cudahist_test
