// The scope kernels' plans, built on the host with the occupancy of an H100
// (132 SMs: the 32-column kernels two blocks an SM, the 128-column ones one)
// and no GPU: which kernel, how many bands and slices, whether the counts are
// written directly or through partials, and the refusal when the partials
// would not fit. What the kernels then do with a plan is the GPU suite's
// business (scopes_gpu_test.cc).
#include <gtest/gtest.h>

#include <cudahist/scopes.h>

#include <cstdint>

#include "scopes_launch.h"
#include "scopes_tuning.h"

namespace cudahist_test {
namespace {

using cudahist::PlaneView;
using cudahist::detail::ColumnKernels;
using cudahist::detail::ColumnPlan;

constexpr uint32_t kSms = 132;

ColumnKernels H100Kernels() {
  ColumnKernels k;
  for (auto* c : {&k.narrow, &k.narrow_bytes}) {
    c->supported = true;
    c->threads = cudahist::detail::kColumnThreadsNarrow;
    c->resident_blocks = 2 * kSms;
  }
  for (auto* c : {&k.wide, &k.wide_bytes}) {
    c->supported = true;
    c->threads = cudahist::detail::kColumnThreadsWide;
    c->resident_blocks = kSms;
  }
  return k;
}

// A plane that is never read: only its address's alignment matters here.
alignas(256) const uint8_t kNowhere[16] = {};

PlaneView Plane(uint32_t width, uint32_t height, size_t pitch, uint32_t sample_size = 1, uint32_t depth = 8) {
  PlaneView p;
  p.data = kNowhere;
  p.width = width;
  p.height = height;
  p.pitch = pitch;
  p.pixel_stride = sample_size;
  p.sample_size = sample_size;
  p.depth = depth;
  return p;
}

ColumnPlan PlanOf(uint32_t groups, uint32_t bins, const PlaneView& plane) {
  cudahist::ColumnHistogramSpec spec;
  spec.groups = groups;
  spec.bins = bins;
  ColumnPlan plan{};
  const cudahist::Status s = cudahist::detail::BuildColumnPlan(
      H100Kernels(), spec, plane, cudahist::detail::kColumnPartialBudgetBytes / 4, &plan);
  EXPECT_TRUE(s.ok()) << s.message();
  return plan;
}

TEST(ScopePlan, VideoFramesSpreadOverEverySmAndWriteTheCountsDirectly) {
  const ColumnPlan hd = PlanOf(1920, 256, Plane(1920, 1080, 1920));
  EXPECT_EQ(hd.lane_columns, 1u);
  EXPECT_TRUE(hd.bytes);
  EXPECT_EQ(hd.row_lanes, 8u);
  EXPECT_EQ(hd.bands, 240u);
  EXPECT_EQ(hd.slices, 1u);
  EXPECT_TRUE(hd.direct);
  EXPECT_EQ(cudahist::detail::ColumnPartialWords(hd), 0u);

  const ColumnPlan uhd = PlanOf(3840, 256, Plane(3840, 2160, 4096));
  EXPECT_EQ(uhd.row_lanes, 16u);
  EXPECT_EQ(uhd.bands, 240u);
  EXPECT_TRUE(uhd.direct);

  // A 1024-column waveform of a 1920-wide frame: bands of 4 whole groups.
  const ColumnPlan waveform = PlanOf(1024, 256, Plane(1920, 1080, 1920));
  EXPECT_EQ(waveform.groups_per_band, 4u);
  EXPECT_EQ(waveform.bands, 256u);
  EXPECT_TRUE(waveform.direct);
}

TEST(ScopePlan, Seed004WorkloadTakesWideBandsAndRowSlices) {
  const ColumnPlan p = PlanOf(512, 256, Plane(512, 524288, 512));
  EXPECT_EQ(p.lane_columns, 4u);
  EXPECT_TRUE(p.bytes);  // 32-bit loads of four whole-byte bins
  EXPECT_EQ(p.bands, 4u);
  EXPECT_EQ(p.slices, 33u);  // 4 bands x 33 slices = 132 blocks, one per SM
  EXPECT_FALSE(p.direct);
  EXPECT_EQ(cudahist::detail::ColumnPartialWords(p), 33ull * 4 * 128 * 256);
  // A pitch that is not a multiple of 4: the per-sample walk.
  EXPECT_FALSE(PlanOf(512, 256, Plane(512, 524288, 513)).bytes);
}

TEST(ScopePlan, WideGroupsGoThroughPartials) {
  const ColumnPlan p = PlanOf(9, 256, Plane(333, 77, 336));
  EXPECT_EQ(p.row_lanes, 32u);
  EXPECT_EQ(p.slices, 1u);
  EXPECT_FALSE(p.direct);
  EXPECT_EQ(p.slots, 2u);
}

TEST(ScopePlan, PartialsBeyondTheBudgetAreRefusedWithTheSizes) {
  cudahist::ColumnHistogramSpec spec;
  spec.groups = 1;
  spec.bins = 65536;
  ColumnPlan plan{};
  const cudahist::Status s = cudahist::detail::BuildColumnPlan(
      H100Kernels(), spec, Plane(7680, 100, 15360, 2, 16), cudahist::detail::kColumnPartialBudgetBytes / 4, &plan);
  EXPECT_EQ(s.code(), cudahist::StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("bytes of partials"), std::string::npos) << s.message();
}

TEST(ScopePlan, JointItemsAndThePairedLoad) {
  PlaneView u = Plane(960, 540, 1920);
  u.pixel_stride = 2;
  PlaneView v = u;
  v.offset = 1;
  const cudahist::detail::JointPlan nv12 = cudahist::detail::BuildJointPlan(cudahist::JointHistogramSpec(), u, v);
  EXPECT_TRUE(nv12.paired);
  EXPECT_EQ(nv12.item_columns, 960u);
  EXPECT_EQ(nv12.item_rows, cudahist::detail::kJointSamplesPerItem / 960);
  EXPECT_EQ(nv12.items, (540u + nv12.item_rows - 1) / nv12.item_rows);
  EXPECT_LE(uint64_t(nv12.item_columns) * nv12.item_rows, cudahist::detail::kJointSamplesPerItem);
  // V before U (NV21 read as U-V): two loads.
  EXPECT_FALSE(cudahist::detail::BuildJointPlan(cudahist::JointHistogramSpec(), v, u).paired);
  // A row longer than an item: rows cut into column segments.
  const PlaneView wide = Plane(20000, 3, 20000);
  const cudahist::detail::JointPlan w = cudahist::detail::BuildJointPlan(cudahist::JointHistogramSpec(), wide, wide);
  EXPECT_EQ(w.column_segments, 3u);
  EXPECT_EQ(w.items, 9u);
}

}  // namespace
}  // namespace cudahist_test
