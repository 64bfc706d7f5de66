// The region kernels' index math run on the host: the template of a frame's
// plane groups, the layout of every region and each block's share of it
// (WalkShare, for a GPU of 1 to 1000 resident blocks), each piece's plan (BoxPlan, TileParams) and the very
// walks the kernels execute on it (device/plan_walk.cuh, signalstats'
// walk), emulating a block's threads, compared with the CPU reference for
// every region case. No GPU involved: shared-memory copies, atomics, tickets
// and the launch are regions_gpu_test.cc's business.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cudahist/regions.h"
#include "device/plan_walk.cuh"
#include "region_cases.h"
#include "regions/region_tile_walk.cuh"
#include "regions/region_tiles.h"
#include "regions/regions_tuning.h"
#include "seeded_rng.h"
#include "signalstats/sat_hue_tables.h"
#include "signalstats/signalstats_walk.cuh"
#include "test_planes.h"
#include "yuv_frames.h"

namespace cudahist_test {
namespace {

using namespace cudahist::detail;
using cudahist::Roi;

// Counts into plain counters: base + bin.
struct HostCounter {
  using Slot = uint32_t;
  uint32_t* counts;
  Slot SlotFor(uint32_t base) const { return base; }
  void Add(Slot slot, uint32_t bin) { ++counts[slot + bin]; }
  void AddMany(Slot slot, uint32_t bin, uint32_t n) { counts[slot + bin] += n; }
  template <uint32_t kIncrements>
  void BeforeRound() {}
};

// The planes of `c` copied with 16 bytes of slack after each (a 16-byte
// chunk load near a plane's end stays inside), views rebased.
struct SlackCopy {
  std::vector<AlignedBytes> bytes;
  cudahist::RegionFrame frame;
  explicit SlackCopy(const RegionCase& c) : frame(c.frame) {
    for (const HostPlane& p : c.planes) {
      bytes.emplace_back(p.storage.size() + 16, uint8_t(0));
      std::copy(p.storage.begin(), p.storage.end(), bytes.back().begin());
    }
    for (int k = 0; k < frame.num_planes; ++k) {
      const ViewAnchor a = AnchorOf(c.planes, c.frame.planes[k]);
      frame.planes[k].data = bytes[a.plane].data() + a.offset;
    }
  }
};

// Every block's share walked by `threads` emulated threads, as the segmented
// kernel's blocks walk them (WalkShare, the kernel's own code); counts region
// by region. Each region must be finished by as many blocks as each of its
// finishes says, which is what its last block's ticket waits for.
std::vector<uint32_t> WalkSharesOnHost(const RegionTemplate& tmpl, const RegionLayout& layout, uint32_t num_regions,
                                       uint32_t threads) {
  constexpr uint32_t kLoads = kSegmentedPolicy.loads_per_thread;
  const uint32_t stride = StoredCounters(tmpl.counters);
  std::vector<uint32_t> totals(size_t(num_regions) * stride, 0);
  std::map<uint32_t, std::vector<uint32_t>> finishes;  // region: what each finish said
  const auto entry_at = [&](uint32_t i) { return layout.entries[i]; };
  const auto count = [&](const SharePiece& piece) {
    GroupPlan g = piece.plan;
    g.units = piece.end;
    for (uint32_t t = 0; t < threads; ++t) {
      HostCounter counter{totals.data() + size_t(piece.region) * stride};
      const WalkPosition pos{piece.begin, threads * kLoads, t, threads};
      if (tmpl.pow2_bins) {
        WalkGroup<kLoads, true>(g, tmpl.bins, pos, counter);
      } else {
        WalkGroup<kLoads, false>(g, tmpl.bins, pos, counter);
      }
    }
  };
  const auto finish = [&](const RegionEntry& e, uint32_t blocks, uint32_t) { finishes[e.region].push_back(blocks); };
  for (uint32_t b = 0; b < layout.shares.blocks; ++b) WalkShare(tmpl, entry_at, layout.shares, b, count, finish);
  EXPECT_EQ(finishes.size(), num_regions) << "every region finished";
  for (const auto& [region, said] : finishes) {
    for (uint32_t blocks : said) EXPECT_EQ(blocks, said.size()) << "region " << region;
  }
  std::vector<uint32_t> counts;  // without each region's trash counter
  for (uint32_t r = 0; r < num_regions; ++r) {
    counts.insert(counts.end(), totals.begin() + size_t(r) * stride, totals.begin() + size_t(r) * stride + tmpl.counters);
  }
  return counts;
}

TEST(RegionWalk, SharesWalkedOnTheHostEqualReference) {
  SeededRng rng;
  for (RegionCase& c : RegionCases(rng)) {
    SCOPED_TRACE(Describe(c));
    const SlackCopy copy(c);
    cudahist::HistogramSpec spec;
    spec.bins = c.bins;
    const uint32_t n = uint32_t(c.regions.size());
    std::vector<uint32_t> want(cudahist::RegionCountsLength(spec, c.frame.num_planes, n));
    ASSERT_TRUE(cudahist::ReferenceRegionHistograms(spec, copy.frame, c.regions.data(), n, want.data()).ok());
    RegionTemplate tmpl;
    ASSERT_TRUE(BuildRegionTemplate(spec, copy.frame, &tmpl).ok());
    for (uint32_t resident : {1u, 7u, 264u, 1000u}) {
      SCOPED_TRACE("resident blocks " + std::to_string(resident));
      RegionLayout layout;
      ASSERT_TRUE(LayOutRegions(tmpl, c.regions.data(), n, resident, &layout).ok());
      ASSERT_LE(layout.shares.blocks, resident);
      const std::vector<uint32_t> got = WalkSharesOnHost(tmpl, layout, n, resident == 1 ? 3 : 64);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        const size_t per_region = tmpl.counters;
        ASSERT_EQ(got[i], want[i]) << "region " << i / per_region << " " << Describe(c.regions[i / per_region])
                                   << " counter " << i % per_region;
      }
    }
  }
}

TEST(RegionWalk, OneBoxFillsTheGpuAndSmallFramesTakeFewerBlocks) {
  SeededRng rng;
  YuvFrame yuv = MakeYuvFrame(YuvSpec(YuvFormat::kNv12, 1920, 1080), rng);
  const cudahist::RegionFrame frame = RegionFrameOf(yuv.view);
  cudahist::HistogramSpec spec;
  RegionTemplate tmpl;
  ASSERT_TRUE(BuildRegionTemplate(spec, frame, &tmpl).ok());
  ASSERT_EQ(tmpl.num_groups, 2u) << "Y, and U with V read together";
  RegionLayout layout;
  const Roi whole{0, 0, 1920, 1080};
  ASSERT_TRUE(LayOutRegions(tmpl, &whole, 1, 264, &layout).ok());
  // 1620 rows of 121 chunks (a row's chunks if it starts anywhere in one):
  // a round (1,024 chunks) for each of 192 blocks, more than an H200's 132 SMs.
  EXPECT_EQ(layout.shares.blocks, 192u) << "one box still spreads over the GPU";
  const std::vector<Roi> boxes = RandomRegions(1920, 1080, 3, 10, 20, rng);
  ASSERT_TRUE(LayOutRegions(tmpl, boxes.data(), uint32_t(boxes.size()), 264, &layout).ok());
  EXPECT_EQ(layout.shares.blocks, 1u) << "three small boxes are less than a block's round";
  EXPECT_EQ(layout.shares.share_units, kSegmentedPolicy.min_share_units());
}

TEST(RegionWalk, RegionsOfMoreUnitsThanALaunchCountsAreRefused) {
  // 65535 x 65535 samples of 8 bits: 4097 x 65535 chunks a box, so that the
  // 16th box passes 2^32.
  static uint8_t sample = 0;
  cudahist::RegionFrame frame;
  frame.num_planes = 1;
  frame.planes[0] = cudahist::PlaneView{&sample, 65535, 65535, 65536, 1, 0, 1, 0, 8};
  cudahist::HistogramSpec spec;
  RegionTemplate tmpl;
  ASSERT_TRUE(BuildRegionTemplate(spec, frame, &tmpl).ok());
  const std::vector<Roi> boxes(16, Roi{0, 0, 65535, 65535});
  RegionLayout layout;
  ASSERT_TRUE(LayOutRegions(tmpl, boxes.data(), 15, 264, &layout).ok());
  const cudahist::Status s = LayOutRegions(tmpl, boxes.data(), 16, 264, &layout);
  EXPECT_EQ(s.code(), cudahist::StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("regions[15]"), std::string::npos) << s.message();
}

// --- signalstats --------------------------------------------------------------

std::vector<uint32_t> WalkStatsTilesOnHost(const cudahist::YuvPlanes& frame, const std::vector<RegionStatsTile>& tiles,
                                           uint32_t num_regions) {
  const uint32_t depth = frame.y.depth;
  const SignalStatsParams whole = SignalStatsParamsOf(frame, nullptr, SatHueTable(depth).data());
  const uint32_t counters = SignalStatsCounters(depth), stride = counters + 1;
  std::vector<uint32_t> words(size_t(num_regions) * stride, 0);
  for (const RegionStatsTile& tile : tiles) {
    uint32_t* w = words.data() + size_t(tile.region) * stride;
    const SignalStatsParams p = TileParams(whole, tile);
    UnitCounter<HostCounter> c(HostCounter{w}, depth);
    for (uint32_t unit = 0; unit < p.units; ++unit) CountUnit(p, unit, c);
    w[counters] += uint32_t(c.sums[kBrng]);
  }
  return words;
}

TEST(RegionWalk, SignalStatsTilesWalkedOnTheHostEqualReference) {
  SeededRng rng;
  for (YuvFrameSpec spec : SignalStatsMatrix()) {
    if (spec.has_roi) continue;
    SCOPED_TRACE(Describe(spec));
    YuvFrame yuv = MakeYuvFrame(spec, rng);
    const std::vector<Roi> regions = EdgeRegions(spec.width, spec.height, 12, rng);
    const uint32_t n = uint32_t(regions.size());
    std::vector<uint32_t> want(n * cudahist::RegionSignalStatsWords(yuv.view.y.depth));
    ASSERT_TRUE(cudahist::ReferenceRegionSignalStats(yuv.view, regions.data(), n, want.data()).ok());
    for (uint32_t resident : {1u, 264u}) {
      std::vector<RegionStatsTile> tiles;
      CutRegionStatsTiles(yuv.view, regions.data(), n, resident, &tiles);
      std::map<uint32_t, uint32_t> per_region;
      for (const RegionStatsTile& t : tiles) ++per_region[t.region];
      ASSERT_EQ(per_region.size(), n);
      for (const RegionStatsTile& t : tiles) ASSERT_EQ(t.region_tiles, per_region[t.region]);
      EXPECT_EQ(WalkStatsTilesOnHost(yuv.view, tiles, n), want) << "resident blocks " << resident;
    }
  }
}

}  // namespace
}  // namespace cudahist_test
