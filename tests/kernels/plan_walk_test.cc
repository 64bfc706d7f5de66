// The kernels' index math, run on the host: the launch plan (grouping,
// layouts, spans) and the very walk the kernels execute (16-byte chunks,
// unaligned heads, row tails, pitch padding, ROI, byte rotation, bins),
// compiled as plain C++ from kernels/device/plan_walk.cuh and compared with the
// CPU reference. No GPU involved: shared-memory layouts, atomics and barriers
// are the GPU suite's business (histogrammer_test.cc).
#include <gtest/gtest.h>

#include <cudahist/cpu.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "device/plan_walk.cuh"
#include "device/row_walk.cuh"
#include "device/bank_swizzle.cuh"
#include "histogram/histogram_tuning.h"
#include "frames.h"
#include "launch/kernel_launch.h"
#include "launch/launch_plan.h"
#include "seeded_rng.h"
#include "test_planes.h"
#include "histogram/histogram_tuning.h"

namespace cudahist_test {
namespace {

using cudahist::detail::BuildPlan;
using cudahist::detail::FastDivisor;
using cudahist::detail::Plan;
using cudahist::detail::WalkPosition;

TEST(FastDivisorTest, MatchesDivisionBelow2To31) {
  SeededRng rng;
  std::vector<uint32_t> divisors = {1, 2, 3, 5, 7, 15, 16, 17, 120, 121, 255, 256, 257, 1000, 65535, 65536,
                                    65537, (1u << 30) - 1, 1u << 30, (1u << 30) + 1, (1u << 31) - 1};
  for (int i = 0; i < 200; ++i) divisors.push_back(1 + uint32_t(rng() % ((1u << 31) - 1)));
  for (uint32_t d : divisors) {
    const FastDivisor f = FastDivisor::For(d);
    std::vector<uint32_t> numerators = {0, 1, d - 1, d, d + 1, 2 * d - 1, (1u << 31) - 1, (1u << 31) - 2};
    for (int i = 0; i < 2000; ++i) numerators.push_back(uint32_t(rng() % (1u << 31)));
    for (uint32_t n : numerators) {
      if (n >= (1u << 31)) continue;
      ASSERT_EQ(f.Divide(n), n / d) << n << " / " << d;
    }
  }
}

// Counts as the kernels' Counter does, and checks the bound a round announces
// (what the packed counters' periodic merge relies on).
struct HostCounter {
  using Slot = uint32_t;
  std::vector<uint32_t>* counts;
  uint32_t announced = 0;
  uint32_t added = 0;
  bool exceeded = false;

  Slot SlotFor(uint32_t base) const { return base; }
  void Add(Slot slot, uint32_t bin) { AddMany(slot, bin, 1); }
  void AddMany(Slot slot, uint32_t bin, uint32_t n) {
    counts->at(slot + bin) += n;
    added += n;
    if (added > announced) exceeded = true;
  }
  template <uint32_t kIncrements>
  void BeforeRound() {
    announced = kIncrements;
    added = 0;
  }
};

// Every one of `blocks` x `threads` emulated threads walks the plan from its
// own position, like GridWalkPosition<kLoads> on the GPU, with the counter
// `counter_of_thread()` makes; `after(counter)` sees each thread's when it is done.
template <uint32_t kLoads, class CounterOfThread, class After>
void EachThreadWalks(const Plan& plan, uint32_t blocks, uint32_t threads, CounterOfThread counter_of_thread,
                     After after) {
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t t = 0; t < threads; ++t) {
      auto counter = counter_of_thread();
      const WalkPosition pos{b * threads * kLoads, blocks * threads * kLoads, t, threads};
      if (plan.pow2_bins) {
        cudahist::detail::WalkPlan<kLoads, true>(plan, pos, counter);
      } else {
        cudahist::detail::WalkPlan<kLoads, false>(plan, pos, counter);
      }
      after(counter);
    }
  }
}

// The walk by HostCounter; *exceeded: whether a thread added more than its
// round announced.
template <uint32_t kLoads>
std::vector<uint32_t> WalkOnHost(const Plan& plan, uint32_t blocks, uint32_t threads, bool* exceeded) {
  std::vector<uint32_t> counts(cudahist::detail::StoredCounters(plan.counters), 0);
  EachThreadWalks<kLoads>(
      plan, blocks, threads, [&] { return HostCounter{&counts}; },
      [&](const HostCounter& counter) { *exceeded = *exceeded || counter.exceeded; });
  counts.resize(plan.counters);  // drop the trash counter
  return counts;
}

// The row walk the privatized kernel runs, for `warps` emulated warps of 32
// lanes (kGeneral groups by units, as `warps` x 32 threads in one block).
template <uint32_t kLoads>
std::vector<uint32_t> RowWalkOnHost(const Plan& plan, uint32_t warps) {
  std::vector<uint32_t> counts(cudahist::detail::StoredCounters(plan.counters), 0);
  const uint32_t threads = warps * 32;
  for (uint32_t t = 0; t < threads; ++t) {
    HostCounter counter{&counts};
    counter.announced = UINT32_MAX;  // the row walk announces no rounds
    const cudahist::detail::RowWalkPosition rows{t / 32, warps, t % 32};
    const WalkPosition units{0, threads * kLoads, t, threads};
    if (plan.pow2_bins) {
      cudahist::detail::WalkPlanRows<kLoads, true>(plan, rows, units, counter);
    } else {
      cudahist::detail::WalkPlanRows<kLoads, false>(plan, rows, units, counter);
    }
  }
  counts.resize(plan.counters);
  return counts;
}

// Keeps bin b of a component at BankSwizzle's place for 8 copies, as
// LaneCopiesCounter does, with BytePlaces' hooks: the walk of whole bytes
// must add at the places it maps a word to, every other path through Add.
struct PlacingHostCounter {
  using Swizzle = cudahist::detail::BankSwizzle<3, true>;
  using Slot = uint32_t;
  std::vector<uint32_t>* by_place;
  uint32_t low_mask;
  uint32_t* words_placed;

  Slot SlotFor(uint32_t base) const { return base; }
  void Add(Slot slot, uint32_t bin) { AddManyAtPlace(slot, Swizzle::Apply(bin, low_mask), 1); }
  void AddMany(Slot slot, uint32_t bin, uint32_t n) { AddManyAtPlace(slot, Swizzle::Apply(bin, low_mask), n); }
  uint32_t PlacesOfBytes(uint32_t word) const {
    ++*words_placed;
    return Swizzle::ApplyToBytes(word, low_mask);
  }
  void AddAtPlace(Slot slot, uint32_t place) { AddManyAtPlace(slot, place, 1); }
  void AddManyAtPlace(Slot slot, uint32_t place, uint32_t n) { by_place->at(slot + place) += n; }
  template <uint32_t kIncrements>
  void BeforeRound() {}
};

// The counts of a power-of-two plan walked by PlacingHostCounter (2 blocks of
// 32 threads), read back through the swizzle; *words_placed: the words the
// walk of whole bytes mapped at once.
std::vector<uint32_t> PlacedWalkOnHost(const Plan& plan, uint32_t* words_placed) {
  using Swizzle = PlacingHostCounter::Swizzle;
  std::vector<uint32_t> by_place(cudahist::detail::StoredCounters(plan.counters), 0);
  const uint32_t low_mask = Swizzle::LowMask(plan.bins);
  EachThreadWalks<2>(
      plan, 2, 32, [&] { return PlacingHostCounter{&by_place, low_mask, words_placed}; },
      [](const PlacingHostCounter&) {});
  std::vector<uint32_t> counts(plan.counters);
  for (uint32_t i = 0; i < plan.counters; ++i) {
    const uint32_t bin = i % plan.bins;
    counts[i] = by_place[i - bin + Swizzle::Apply(bin, low_mask)];
  }
  return counts;
}

class PlanWalkTest : public ::testing::TestWithParam<FrameSpec> {};

TEST_P(PlanWalkTest, EqualsReference) {
  const FrameSpec& spec = GetParam();
  SeededRng rng;
  SCOPED_TRACE(Describe(spec));
  const Frame frame = MakeFrame(spec, rng);
  const PaddedCopy copy = CopyWithSlack(frame);
  cudahist::HistogramSpec hspec;
  hspec.bins = spec.bins;
  const int n = int(copy.views.size());
  ASSERT_TRUE(cudahist::ValidateRequest(hspec, copy.views.data(), n).ok());
  std::vector<uint32_t> expected(cudahist::CountsLength(hspec, n), kPoison);
  ASSERT_TRUE(cudahist::ReferenceHistogram(hspec, copy.views.data(), n, expected.data()).ok());

  Plan plan;
  ASSERT_TRUE(BuildPlan(hspec, copy.views.data(), n, &plan).ok());
  bool exceeded = false;
  EXPECT_EQ(WalkOnHost<cudahist::detail::kWalkPolicy.loads_per_thread>(plan, 1, 1, &exceeded), expected);
  EXPECT_EQ(WalkOnHost<1>(plan, 3, 5, &exceeded), expected);
  EXPECT_EQ(WalkOnHost<2>(plan, 2, 32, &exceeded), expected);
  EXPECT_FALSE(exceeded) << "a round made more Add calls than it announced";
  EXPECT_EQ(RowWalkOnHost<cudahist::detail::kWalkPolicy.loads_per_thread>(plan, 1), expected);
  EXPECT_EQ(RowWalkOnHost<cudahist::detail::kWalkPolicy.deep_loads_per_thread>(plan, 3), expected);
  if (plan.pow2_bins) {
    uint32_t words_placed = 0;
    EXPECT_EQ(PlacedWalkOnHost(plan, &words_placed), expected);
    bool bytes_are_bins = false;
    for (uint32_t g = 0; g < plan.num_groups; ++g) {
      const cudahist::detail::GroupPlan& group = plan.group[g];
      bytes_are_bins = bytes_are_bins || (group.byte_is_bin && group.layout != cudahist::detail::kGeneral);
    }
    EXPECT_EQ(words_placed > 0, bytes_are_bins) << "the walk of whole bytes maps words through the counter's places";
  }
}

INSTANTIATE_TEST_SUITE_P(Coverage, PlanWalkTest, ::testing::ValuesIn(CoverageFrames()));

// --- plan structure: components sharing a plane are read once ------------------

Plan PlanOf(const FrameSpec& spec, Frame* keep) {
  std::mt19937_64 rng(1);
  *keep = MakeFrame(spec, rng);
  cudahist::HistogramSpec hspec;
  hspec.bins = spec.bins;
  Plan plan;
  EXPECT_TRUE(BuildPlan(hspec, keep->views.data(), int(keep->views.size()), &plan).ok());
  return plan;
}

FrameSpec Spec(FrameSpec::Kind kind, uint32_t stride, int components, uint32_t sample_size = 1) {
  FrameSpec s;
  s.kind = kind;
  s.layout.width = 64;
  s.layout.height = 4;
  s.layout.pixel_stride = stride;
  s.layout.sample_size = sample_size;
  s.components = components;
  return s;
}

// The lane copies' bank swizzle must be a permutation of every power-of-two
// bin count (counts are merged back through it), keep bin 0 (the trash
// counter) in place, and spread bins that are 16 apart (8-bit data scaled
// into 16-bit samples) over every row of 32 banks.
template <uint32_t kLogCopies>
void ExpectSwizzleIsAPermutationThatSpreads() {
  using Swizzle = cudahist::detail::BankSwizzle<kLogCopies, true>;
  static_assert(Swizzle::kOn, "on for 2 to 16 copies");
  SCOPED_TRACE(std::to_string(1u << kLogCopies) + " copies");
  for (uint32_t bins = 1; bins <= 65536; bins *= 2) {
    const uint32_t low_mask = Swizzle::LowMask(bins);
    std::vector<bool> seen(bins, false);
    for (uint32_t b = 0; b < bins; ++b) {
      const uint32_t at = Swizzle::Apply(b, low_mask);
      ASSERT_LT(at, bins) << "bin " << b << " of " << bins;
      ASSERT_FALSE(seen[at]) << "bin " << b << " of " << bins << " collides at " << at;
      seen[at] = true;
    }
    EXPECT_EQ(Swizzle::Apply(0, low_mask), 0u);
  }
  constexpr uint32_t kRows = 1u << Swizzle::kRowBits;  // bins per row of 32 banks
  std::vector<uint32_t> per_row(kRows, 0);
  for (uint32_t b = 0; b < 4096; b += 16) ++per_row[Swizzle::Apply(b, Swizzle::LowMask(4096)) % kRows];
  for (uint32_t r = 0; r < kRows; ++r) EXPECT_GE(per_row[r], 256 / kRows / 2) << "bank row " << r;
}

// The copies every copy-keeping kernel takes: the most, a power of two up to
// the cap, that fit the budget; one where not even two do (also for a budget
// that is already spent).
TEST(LaneCopiesTest, LargestLogWithinTakesTheMostThatFit) {
  using cudahist::detail::LargestLogCopiesWithin;
  EXPECT_EQ(LargestLogCopiesWithin(5, 3076, 128 * 1024), 5u);  // 8-bit NV12: 32 copies of 769 counters
  EXPECT_EQ(LargestLogCopiesWithin(3, 3076, 57 * 1024), 3u);
  EXPECT_EQ(LargestLogCopiesWithin(3, 12292, 57 * 1024), 2u);  // 10-bit: 4 copies
  EXPECT_EQ(LargestLogCopiesWithin(3, 100, -1), 0u);
  EXPECT_EQ(LargestLogCopiesWithin(0, 100, 1 << 20), 0u);
  for (uint32_t max_log = 0; max_log <= 5; ++max_log) {
    for (uint64_t copy = 4; copy <= 300000; copy += 4 + copy / 16) {
      for (int64_t budget = 0; budget <= 300000; budget += 997) {
        const uint32_t log = LargestLogCopiesWithin(max_log, copy, budget);
        ASSERT_LE(log, max_log);
        if (log > 0) {
          ASSERT_LE(copy << log, uint64_t(budget)) << copy << " bytes, budget " << budget;
        }
        if (log < max_log) {
          ASSERT_GT(copy << (log + 1), uint64_t(budget)) << copy << " bytes, budget " << budget;
        }
      }
    }
  }
}

TEST(BankSwizzleTest, PermutesEveryPowerOfTwoAndSpreadsStridedBins) {
  ExpectSwizzleIsAPermutationThatSpreads<1>();
  ExpectSwizzleIsAPermutationThatSpreads<2>();
  ExpectSwizzleIsAPermutationThatSpreads<3>();
  ExpectSwizzleIsAPermutationThatSpreads<4>();
  // 32 copies (one bin per bank row) and one copy (the baseline) are left alone.
  EXPECT_FALSE((cudahist::detail::BankSwizzle<5, true>::kOn));
  EXPECT_FALSE((cudahist::detail::BankSwizzle<0, true>::kOn));
  EXPECT_FALSE((cudahist::detail::BankSwizzle<3, false>::kOn));
}

// The walk of whole bytes places a word's four bins at once: each byte of
// ApplyToBytes is Apply of that byte, for every byte value in every position.
template <uint32_t kLogCopies>
void ExpectBytesPlacedAsEachBin() {
  using Swizzle = cudahist::detail::BankSwizzle<kLogCopies, true>;
  SCOPED_TRACE(std::to_string(1u << kLogCopies) + " copies");
  const uint32_t low_mask = Swizzle::LowMask(256);
  for (uint32_t b = 0; b < 256; ++b) {
    // b in each position, beside neighbours whose bits would leak in if the
    // word's shift carried across bytes.
    const uint32_t word = b | (uint32_t(255 - b) << 8) | (uint32_t(b ^ 0xA5) << 16) | (uint32_t(b * 7 & 255) << 24);
    const uint32_t placed = Swizzle::ApplyToBytes(word, low_mask);
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t bin = (word >> (8 * k)) & 255;
      ASSERT_EQ((placed >> (8 * k)) & 255, Swizzle::Apply(bin, low_mask)) << "byte " << k << " of " << std::hex << word;
    }
  }
}

TEST(BankSwizzleTest, PlacesAWordsBytesAsEachOfItsBins) {
  ExpectBytesPlacedAsEachBin<0>();
  ExpectBytesPlacedAsEachBin<1>();
  ExpectBytesPlacedAsEachBin<2>();
  ExpectBytesPlacedAsEachBin<3>();
  ExpectBytesPlacedAsEachBin<4>();
  ExpectBytesPlacedAsEachBin<5>();
}

TEST(BuildPlanTest, RgbaIsOneGroupOfFourSlots) {
  Frame f;
  const Plan plan = PlanOf(Spec(FrameSpec::Kind::kInterleaved, 4, 4), &f);
  ASSERT_EQ(plan.num_groups, 1u);
  EXPECT_EQ(plan.group[0].layout, uint32_t(cudahist::detail::kBytesStride4));
  EXPECT_EQ(plan.group[0].counted_slots, 0xFu);
  EXPECT_EQ(plan.counters, 4u * 256u);
}

// A frame of `kind` (Y, U, V) planned as two groups: luma read as
// `luma_layout`, chroma as `chroma_layout` counting `chroma_slots`.
void ExpectLumaAndChromaGroups(FrameSpec::Kind kind, uint32_t luma_layout, uint32_t chroma_layout,
                               uint32_t chroma_slots) {
  Frame f;
  const Plan plan = PlanOf(Spec(kind, 1, 3), &f);
  ASSERT_EQ(plan.num_groups, 2u);
  EXPECT_EQ(plan.group[0].layout, luma_layout);
  EXPECT_EQ(plan.group[1].layout, chroma_layout);
  EXPECT_EQ(plan.group[1].counted_slots, chroma_slots);
}

TEST(BuildPlanTest, Nv12IsLumaAndOneChromaGroup) {
  ExpectLumaAndChromaGroups(FrameSpec::Kind::kNv12, cudahist::detail::kBytesStride1, cudahist::detail::kBytesStride2,
                            0x3u);
}

TEST(BuildPlanTest, Yuy2ReadsLumaAndChromaAsTwoGroups) {
  ExpectLumaAndChromaGroups(FrameSpec::Kind::kYuy2, cudahist::detail::kBytesStride2, cudahist::detail::kBytesStride4,
                            0xAu);  // U at 1, V at 3
}

TEST(BuildPlanTest, OddLayoutsFallBackToOneSampleAtATime) {
  Frame f;
  const Plan rgb = PlanOf(Spec(FrameSpec::Kind::kInterleaved, 3, 3), &f);
  ASSERT_EQ(rgb.num_groups, 3u);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(rgb.group[i].layout, uint32_t(cudahist::detail::kGeneral));
  Frame g;
  const Plan words = PlanOf(Spec(FrameSpec::Kind::kPackedWords, 4, 3), &g);
  ASSERT_EQ(words.num_groups, 3u);
  EXPECT_EQ(words.group[0].layout, uint32_t(cudahist::detail::kGeneral));
}

TEST(BuildPlanTest, P010IsWords16) {
  FrameSpec s = Spec(FrameSpec::Kind::kSingle, 2, 1, 2);
  s.layout.shift = 6;
  s.layout.depth = 10;
  s.bins = 1024;
  Frame f;
  const Plan plan = PlanOf(s, &f);
  ASSERT_EQ(plan.num_groups, 1u);
  EXPECT_EQ(plan.group[0].layout, uint32_t(cudahist::detail::kWords16));
  EXPECT_TRUE(plan.pow2_bins);
}

TEST(BuildPlanTest, EmptyRoiHasNothingToWalk) {
  FrameSpec s = Spec(FrameSpec::Kind::kSingle, 1, 1);
  s.has_roi = true;
  s.roi = cudahist::Roi{3, 1, 0, 2};
  Frame f;
  const Plan plan = PlanOf(s, &f);
  EXPECT_EQ(plan.num_groups, 0u);
  EXPECT_EQ(plan.total_units, 0u);
}

}  // namespace
}  // namespace cudahist_test
