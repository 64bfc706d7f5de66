// The scope kernels' plans, built on the host with the occupancy of an H100
// (132 SMs: the 32-column kernels two blocks an SM, the 128-column ones one)
// and no GPU: which kernel, how many bands and slices, whether the counts are
// written directly or through partials, and the refusal when the partials
// would not fit. What the kernels then do with a plan is the GPU suite's
// business (scopes_gpu_test.cc).
#include <gtest/gtest.h>

#include <cudahist/scopes.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "frames.h"
#include "launch/launch_tuning.h"
#include "scopes/joint_slices.cuh"
#include "scope_cases.h"
#include "scopes/scopes_launch.h"
#include "scopes/scopes_tuning.h"
#include "seeded_rng.h"

namespace cudahist_test {
namespace {

using cudahist::PlaneView;
using cudahist::detail::ColumnKernels;
using cudahist::detail::ColumnPlan;

constexpr uint32_t kSms = 132;
constexpr uint64_t kPartialWords = cudahist::detail::kLaunchPolicy.partial_budget_bytes / 4;

ColumnKernels H100Kernels() {
  ColumnKernels k;
  for (auto* c : {&k.narrow, &k.narrow_bytes}) {
    c->supported = true;
    c->threads = cudahist::detail::kScopesPolicy.column.threads_narrow;
    c->resident_blocks = 2 * kSms;
  }
  for (auto* c : {&k.wide, &k.wide_bytes}) {
    c->supported = true;
    c->threads = cudahist::detail::kScopesPolicy.column.threads_wide();
    c->resident_blocks = kSms;
  }
  return k;
}

// A plane that is never read: only its address's alignment matters here.
alignas(256) const uint8_t kNowhere[16] = {};

PlaneView Plane(uint32_t width, uint32_t height, size_t pitch, uint32_t sample_size = 1, uint32_t depth = 8) {
  return PlaneView{kNowhere, width, height, pitch, /*pixel_stride=*/sample_size, /*offset=*/0, sample_size,
                   /*shift=*/0, depth};
}

ColumnPlan PlanOf(uint32_t groups, uint32_t bins, const PlaneView& plane) {
  const cudahist::ColumnHistogramSpec spec{/*groups=*/groups, /*bins=*/bins};
  ColumnPlan plan{};
  const cudahist::Status s = cudahist::detail::BuildColumnPlan(
      H100Kernels(), spec, plane, kPartialWords, &plan);
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

TEST(ScopePlan, ArticleWorkloadTakesWideBandsAndRowSlices) {
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
  const cudahist::ColumnHistogramSpec spec{/*groups=*/1, /*bins=*/65536};
  ColumnPlan plan{};
  const cudahist::Status s = cudahist::detail::BuildColumnPlan(
      H100Kernels(), spec, Plane(7680, 100, 15360, 2, 16), kPartialWords, &plan);
  EXPECT_EQ(s.code(), cudahist::StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("bytes of partials"), std::string::npos) << s.message();
}

TEST(ScopePlan, JointPairedLoad) {
  PlaneView u = Plane(960, 540, 1920);
  u.pixel_stride = 2;
  PlaneView v = u;
  v.offset = 1;
  EXPECT_TRUE(cudahist::detail::BuildJointPlan(cudahist::JointHistogramSpec(), u, v).paired);
  // V before U (NV21 read as U-V): two loads.
  EXPECT_FALSE(cudahist::detail::BuildJointPlan(cudahist::JointHistogramSpec(), v, u).paired);
}

TEST(ScopePlan, JointSlicesOfAnH100) {
  PlaneView u = Plane(960, 540, 1920);
  u.pixel_stride = 2;
  PlaneView v = u;
  v.offset = 1;
  cudahist::detail::JointPlan nv12 = cudahist::detail::BuildJointPlan(cudahist::JointHistogramSpec(), u, v);
  EXPECT_TRUE(nv12.packed_pairs);
  EXPECT_EQ(nv12.chunk_span, 121u);  // 1920 bytes: 120 chunks, 121 from an unaligned start
  cudahist::detail::KernelConfig config;
  config.resident_blocks = 2 * kSms;
  cudahist::detail::JointPlanParts(8, &nv12);
  EXPECT_EQ(nv12.parts, 8u);
  EXPECT_EQ(nv12.part_rows, 32u);
  EXPECT_EQ(cudahist::detail::JointSlices(config, nv12), 33u);
  // Fewer b bins than parts: one row a part; bins that parts do not divide:
  // a shorter last part.
  cudahist::JointHistogramSpec spec;
  spec.bins_b = 5;
  cudahist::detail::JointPlan few = cudahist::detail::BuildJointPlan(spec, u, v);
  cudahist::detail::JointPlanParts(8, &few);
  EXPECT_EQ(few.parts, 5u);
  EXPECT_EQ(few.part_rows, 1u);
  spec.bins_b = 100;
  cudahist::detail::JointPlan odd = cudahist::detail::BuildJointPlan(spec, u, v);
  cudahist::detail::JointPlanParts(8, &odd);
  EXPECT_EQ(odd.part_rows, 13u);
  EXPECT_EQ(odd.parts, 8u);
  EXPECT_EQ(cudahist::detail::JointPartLength(odd, 7), 9u * 256);
  // A slice is at least one row.
  const PlaneView short_plane = Plane(100, 3, 100);
  EXPECT_EQ(cudahist::detail::JointSlices(
                config, cudahist::detail::BuildJointPlan(cudahist::JointHistogramSpec(), short_plane, short_plane)),
            3u);
}

// The sliced joint kernel's walk (joint_slices.cuh), run on the host: every
// (part, slice) block, each of its threads visiting the units the kernel
// gives it, adds up to the CPU reference on every joint case (NV12's 16-byte
// chunks with unaligned starts and ROI, two planes, P010, RGBA) and for part
// counts that divide the b bins, do not, or exceed them.
TEST(ScopePlan, JointSlicedWalkEqualsReference) {
  SeededRng rng;
  for (const JointCase& c : JointCases()) {
    SCOPED_TRACE(Describe(c));
    const Frame frame = MakeJointFrame(c, rng);
    const PaddedCopy copy = CopyWithSlack(frame);  // whole 16-byte chunks stay inside it
    const cudahist::JointHistogramSpec spec = JointSpecOf(c);
    std::vector<uint32_t> expected(cudahist::JointCountsLength(spec));
    ASSERT_TRUE(cudahist::ReferenceJointHistogram(spec, frame.views[0], frame.views[1], expected.data()).ok());
    for (uint32_t parts : {1u, 3u, 8u, 300u}) {
      for (uint32_t slices : {1u, 7u}) {
        SCOPED_TRACE(std::to_string(parts) + " parts, " + std::to_string(slices) + " slices");
        cudahist::detail::JointPlan plan = cudahist::detail::BuildJointPlan(spec, copy.views[0], copy.views[1]);
        cudahist::detail::JointPlanParts(parts, &plan);
        std::vector<uint32_t> totals(expected.size());
        constexpr uint32_t kThreads = 5;
        for (uint32_t part = 0; part < plan.parts; ++part) {
          for (uint32_t slice = 0; slice < slices; ++slice) {
            const uint32_t y0 = cudahist::detail::JointSliceRow(plan, slice, slices);
            const uint32_t y1 = cudahist::detail::JointSliceRow(plan, slice + 1, slices);
            std::vector<uint32_t> counters(cudahist::detail::JointPartLength(plan, part));
            for (uint32_t t = 0; t < kThreads; ++t) {
              cudahist::detail::CountSlicePart<3>(plan, part, y0, y1, t, kThreads,
                                                  [&](uint32_t i, uint32_t n, bool add) {
                                                    if (add) counters.at(i) += n;
                                                  });
            }
            const uint32_t first = cudahist::detail::JointPartFirst(plan, part);
            for (size_t i = 0; i < counters.size(); ++i) totals.at(first + i) += counters[i];
          }
        }
        ASSERT_EQ(totals, expected);
      }
    }
  }
}

}  // namespace
}  // namespace cudahist_test
