// The region kernels' index math run on the host: the template of a frame's
// plane groups, the layout of every region and the tiles a block finds in it
// (TileOfLayout, for a GPU of 1 to 1000 resident blocks), each tile's plan (TilePlan, TileParams) and the very
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
#include "regions/tile_walk.cuh"
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

// Every tile walked by `threads` emulated threads of a block, as the
// segmented kernel's block walks it; counts region by region.
std::vector<uint32_t> WalkTilesOnHost(const RegionTemplate& tmpl, const std::vector<RegionTile>& tiles,
                                      uint32_t num_regions, uint32_t threads) {
  constexpr uint32_t kLoads = kWalkPolicy.loads_per_thread;
  constexpr uint32_t kInFlight = kSegmentedPolicy.loads_in_flight;
  const uint32_t stride = StoredCounters(tmpl.counters);
  std::vector<uint32_t> totals(size_t(num_regions) * stride, 0);
  for (const RegionTile& tile : tiles) {
    if (tile.rows == 0) continue;
    const GroupPlan g = TilePlan(tmpl.group[tile.group], tile);
    for (uint32_t t = 0; t < threads; ++t) {
      HostCounter counter{totals.data() + size_t(tile.region) * stride};
      if (tmpl.pow2_bins) {
        WalkTile<kInFlight, kLoads, true>(g, tmpl.bins, t, threads, counter);
      } else {
        WalkTile<kInFlight, kLoads, false>(g, tmpl.bins, t, threads, counter);
      }
    }
  }
  std::vector<uint32_t> counts;  // without each region's trash counter
  for (uint32_t r = 0; r < num_regions; ++r) {
    counts.insert(counts.end(), totals.begin() + size_t(r) * stride, totals.begin() + size_t(r) * stride + tmpl.counters);
  }
  return counts;
}

// Every tile of `layout`, as the blocks of a launch find them.
std::vector<RegionTile> TilesOf(const RegionTemplate& tmpl, const RegionLayout& layout) {
  const auto entry_at = [&](uint32_t i) { return layout.entries[i]; };
  std::vector<RegionTile> tiles;
  for (uint32_t t = 0; t < layout.num_tiles; ++t) {
    tiles.push_back(TileOfLayout(tmpl, entry_at, uint32_t(layout.entries.size()), layout.num_tiles,
                                 layout.tile_units, t));
  }
  return tiles;
}

// The plane groups that the regions cover, summed over the regions.
uint32_t CoveredGroups(const RegionTemplate& tmpl, const std::vector<cudahist::Roi>& regions) {
  uint32_t spans = 0;
  for (const cudahist::Roi& r : regions) {
    for (uint32_t k = 0; k < tmpl.num_groups; ++k) {
      const cudahist::Roi on_plane = cudahist::RegionOnPlane(r, tmpl.group[k].log2_hsub, tmpl.group[k].log2_vsub);
      spans += on_plane.width > 0 && on_plane.height > 0 ? 1 : 0;
    }
  }
  return spans;
}

// The invariants the kernel's finish relies on: every region has tiles, each
// tile knows how many its region has, a region's tiles are consecutive, no
// tile has more units than the layout aims at unless it is one row; and the
// order of the regions: the caller's while the covered groups are fewer than
// the resident blocks (one tile a block), else the largest region first.
void ExpectWellCut(const RegionTemplate& tmpl, const RegionLayout& layout, const std::vector<RegionTile>& tiles,
                   const std::vector<cudahist::Roi>& regions, uint32_t resident) {
  const uint32_t num_regions = uint32_t(regions.size());
  std::map<uint32_t, uint32_t> per_region;
  for (const RegionTile& t : tiles) ++per_region[t.region];
  ASSERT_EQ(per_region.size(), num_regions);
  std::map<uint32_t, uint64_t> region_units;
  for (size_t i = 0; i < tiles.size(); ++i) {
    const RegionTile& t = tiles[i];
    ASSERT_EQ(t.region_tiles, per_region[t.region]) << "region " << t.region;
    if (i > 0 && tiles[i - 1].region != t.region) {
      ASSERT_EQ(region_units.count(t.region), 0u) << "region " << t.region << "'s tiles are not consecutive";
    }
    if (t.rows == 0) {
      ASSERT_EQ(t.region_tiles, 1u) << "tile " << i << ": only an empty region has a tile without rows";
    }
    const uint32_t per_row = t.rows == 0 ? 0 : TilePlan(tmpl.group[t.group], t).units_per_row;
    if (t.rows > 1) {
      ASSERT_LE(uint64_t(t.rows) * per_row, layout.tile_units) << "tile " << i;
    }
    region_units[t.region] += uint64_t(t.rows) * per_row;
  }
  if (CoveredGroups(tmpl, regions) < resident) {
    for (uint32_t i = 0; i < layout.entries.size(); ++i) {
      ASSERT_EQ(layout.entries[i].region, i) << "the caller's order";
    }
    return;
  }
  uint64_t previous = UINT64_MAX;
  for (const RegionEntry& e : layout.entries) {
    ASSERT_LE(region_units[e.region], previous) << "largest region first";
    previous = region_units[e.region];
  }
}

TEST(RegionWalk, TilesWalkedOnTheHostEqualReference) {
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
      LayOutRegions(tmpl, c.regions.data(), n, resident, &layout);
      const std::vector<RegionTile> tiles = TilesOf(tmpl, layout);
      ExpectWellCut(tmpl, layout, tiles, c.regions, resident);
      const std::vector<uint32_t> got = WalkTilesOnHost(tmpl, tiles, n, resident == 1 ? 3 : 64);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        const size_t per_region = tmpl.counters;
        ASSERT_EQ(got[i], want[i]) << "region " << i / per_region << " " << Describe(c.regions[i / per_region])
                                   << " counter " << i % per_region;
      }
    }
  }
}

TEST(RegionWalk, ManySmallBoxesMakeTilesOfSeveralRowsAndOneBigBoxManyTiles) {
  SeededRng rng;
  YuvFrame yuv = MakeYuvFrame(YuvSpec(YuvFormat::kNv12, 1920, 1080), rng);
  const cudahist::RegionFrame frame = RegionFrameOf(yuv.view);
  cudahist::HistogramSpec spec;
  RegionTemplate tmpl;
  ASSERT_TRUE(BuildRegionTemplate(spec, frame, &tmpl).ok());
  ASSERT_EQ(tmpl.num_groups, 2u) << "Y, and U with V read together";
  RegionLayout layout;
  const Roi whole{0, 0, 1920, 1080};
  LayOutRegions(tmpl, &whole, 1, 264, &layout);
  EXPECT_LE(layout.num_tiles, 264u) << "no block takes a second tile";
  EXPECT_GE(layout.num_tiles, 220u) << "one box still fills the GPU (a row a tile more: 270 tiles)";
  EXPECT_EQ(TilesOf(tmpl, layout).size(), layout.num_tiles);
  const std::vector<Roi> mixed = RandomRegions(1920, 1080, 100, 10, 600, rng);
  LayOutRegions(tmpl, mixed.data(), uint32_t(mixed.size()), 528, &layout);
  EXPECT_LE(layout.num_tiles, 528u) << "100 boxes: no block takes a second tile";
  EXPECT_GE(layout.num_tiles, 475u) << "100 boxes: the tiles still fill the GPU";
  const std::vector<Roi> boxes = RandomRegions(1920, 1080, 1000, 10, 60, rng);
  LayOutRegions(tmpl, boxes.data(), uint32_t(boxes.size()), 264, &layout);
  EXPECT_LE(layout.num_tiles, 2 * boxes.size()) << "a small box is a tile a plane group";
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

// The copies a region block keeps leave the policy's blocks room in an SM
// (the reserve and the kernel's own shared memory counted), at most
// max_copies and at least one: on the H200's limits and on the A100's, for
// the counters of 8-, 10- and 12-bit NV12, signalstats' and sizes between.
TEST(RegionWalk, CopiesLeaveThePolicysBlocksRoomInAnSm) {
  DeviceLimits h200;
  h200.shared_per_sm = 233472;
  h200.reserved_shared_per_block = 1024;
  h200.max_shared_per_block = 232448;
  DeviceLimits a100 = h200;
  a100.shared_per_sm = 167936;
  a100.max_shared_per_block = 166912;
  constexpr uint32_t kStatic = 176;
  const uint32_t blocks = kSegmentedPolicy.min_blocks_per_sm();
  const auto copies_of = [&](const DeviceLimits& limits, uint32_t counters) {
    return 1u << RegionLogCopies(limits, uint64_t(StoredCounters(counters)) * 4, kStatic);
  };
  EXPECT_EQ(copies_of(h200, 3 * 256), 8u);    // 8-bit NV12
  EXPECT_EQ(copies_of(h200, 3 * 1024), 4u);   // 10-bit
  EXPECT_EQ(copies_of(h200, 3 * 4096), 1u);   // 12-bit
  EXPECT_EQ(copies_of(a100, 3 * 256), 8u);
  EXPECT_EQ(copies_of(a100, 3 * 1024), 2u);
  for (const DeviceLimits& limits : {h200, a100}) {
    for (uint32_t counters = 1; counters <= 65536; counters += 97) {
      const uint32_t copies = copies_of(limits, counters);
      const uint64_t block = uint64_t(copies) * StoredCounters(counters) * 4 + kStatic +
                             uint64_t(limits.reserved_shared_per_block);
      ASSERT_GE(copies, 1u);
      ASSERT_LE(copies, kSegmentedPolicy.max_copies);
      if (copies > 1) {
        ASSERT_LE(blocks * block, uint64_t(limits.shared_per_sm)) << counters << " counters, " << copies << " copies";
      }
      if (copies < kSegmentedPolicy.max_copies) {  // twice as many would not have fitted
        ASSERT_GT(blocks * (block + uint64_t(copies) * StoredCounters(counters) * 4), uint64_t(limits.shared_per_sm))
            << counters << " counters, " << copies << " copies";
      }
    }
  }
}

}  // namespace
}  // namespace cudahist_test
