// cudahist: how the region kernels share out a frame's regions (host side,
// plain data that the kernels take by value or from device memory).
//
// A region is cut into tiles: runs of rows of one plane group (histograms)
// or of chroma rows with their luma (signalstats), of about the same number
// of units each (TileUnits), so that the blocks of one launch take tiles of
// similar cost whatever the mix of box sizes. Every region gets at least one
// tile (an empty one for an empty region), because a region's counts are
// written by the last of its tiles to finish: `region_tiles` is how many
// that last one waits for. The histograms' tiles are cut by the kernel's
// blocks from the regions' layout; signalstats' by the host. What a tile is
// to the walks: region_tile_walk.cuh.
#pragma once

#include <cstdint>
#include <vector>

#include "cudahist/regions.h"
#include "launch/kernel_launch.h"
#include "launch/launch_plan.h"

namespace cudahist::detail {

// --- histograms ---------------------------------------------------------------

// One group of the frame's plan (BuildPlan of the whole planes), as a tile of
// it is walked: `plan.pixel0` is the plane's first pixel, the rest (layout,
// slots, pitch) is every tile's.
struct RegionGroup {
  GroupPlan plan;
  uint32_t components = 0;  // bit k: component k is counted in this group
  uint32_t log2_hsub = 0;   // the group's plane against the frame's pixels
  uint32_t log2_vsub = 0;
};

struct RegionTemplate {
  RegionGroup group[kMaxComponents];
  uint32_t num_groups = 0;
  uint32_t num_components = 0;
  uint32_t bins = 0;
  uint32_t counters = 0;  // num_components * bins: a region's counts
  bool pow2_bins = false;
};

struct RegionTile {
  uint32_t region;
  uint32_t region_tiles;   // tiles of the region, over all its groups
  uint16_t group;
  uint16_t x, y;           // the tile's first sample, in the group's plane
  uint16_t width, rows;    // rows 0: an empty region's tile, which only finishes it
  uint16_t unused;
};

// What the segmented kernel takes of each region: its box in frame pixels and
// where its tiles start in the launch's order of tiles. A block finds the
// region of its tile by a binary search and cuts the tile itself
// (region_tile_walk.cuh's TileOfLayout), so the host cuts nothing and the
// launch carries 16 bytes a region instead of 20 a tile.
struct RegionEntry {
  uint32_t region;      // the caller's index
  uint32_t first_tile;  // tiles of the entries before this one
  uint16_t x, y, width, height;
};

// A region's rows on one group's plane (0 where it covers none), the units
// (chunks or samples) a row of it takes, and its tiles at the layout's tile
// size.
struct GroupRows {
  uint32_t rows;
  uint32_t units_per_row;
  uint32_t tiles;
};

// A frame's regions as a launch takes them: the entries, and the units a tile
// aims at. Where the blocks take several tiles each, the largest region comes
// first, so that blocks taking tiles in turn end together; where every tile
// has a block of its own (LayOutRegions' one wave) the order cannot matter
// that way, and the regions keep the caller's (the sort was a fifth of the
// host's layout time at 100 boxes, and the caller's order timed the same on
// the device: docs/tuning.md, "Regions").
struct RegionLayout {
  std::vector<RegionEntry> entries;
  uint32_t tile_units = 0;
  uint32_t num_tiles = 0;
  // Scratch reused from frame to frame, so that a Compute call allocates nothing.
  std::vector<GroupRows> rows;  // region r's group k at r * num_groups + k
  std::vector<uint64_t> units;
  std::vector<uint32_t> order, next;
};

// The template of a validated frame (ValidateRegionFrame). kUnsupported when
// the components of one plane group differ in subsampling.
Status BuildRegionTemplate(const HistogramSpec& spec, const RegionFrame& frame, RegionTemplate* tmpl);

// log2 of the lane copies a region kernel's block keeps of counters of
// `one_copy` bytes: kSegmentedPolicy.max_copies at most, and no more than
// leave its min_blocks_per_sm() blocks (each with `static_shared` bytes of
// its own and the system's reserve) room in an SM's shared memory, nor more
// than a block may have; one copy at least (a copy too large for a block is
// the caller's to refuse).
uint32_t RegionLogCopies(const DeviceLimits& limits, uint64_t one_copy, uint32_t static_shared);

// Units (chunks or samples) a launch with `resident_blocks` blocks wants per
// tile for `total_units` units of regions: total / resident, within
// [min_units, max_units].
uint32_t TileUnits(uint64_t total_units, uint32_t resident_blocks, uint32_t min_units, uint32_t max_units);

// Lays validated regions out for a launch of `resident_blocks` blocks, every
// region at least one tile. While the regions' plane groups are fewer than the
// blocks, the tiles are as many as the blocks at most, as large as that asks:
// a block that takes a second tile pays a second toll (its merge, fence and
// ticket) and sets the launch's pace (docs/tuning.md, "Regions"). Beyond,
// tiles of TileUnits units.
void LayOutRegions(const RegionTemplate& tmpl, const Roi* regions, uint32_t num_regions, uint32_t resident_blocks,
                   RegionLayout* layout);

// --- signalstats ------------------------------------------------------------

struct RegionStatsTile {
  uint32_t region;
  uint32_t region_tiles;
  uint16_t lx0, ly0, lx1, ly1;  // the region in luma pixels (SignalStatsParams' lx0 ...)
  uint16_t cx0, cy0, cx1;       // the tile's first chroma column and row, its end column
  uint16_t wide;                // SignalStatsParams' wide for this tile
  uint32_t units_per_row;
  uint32_t units;               // 0: an empty region's tile
};

// Cuts validated regions (ValidateRegionSignalStats) of `frame` into tiles of
// whole chroma rows, largest first.
void CutRegionStatsTiles(const YuvPlanes& frame, const Roi* regions, uint32_t num_regions,
                         uint32_t resident_blocks, std::vector<RegionStatsTile>* tiles);

}  // namespace cudahist::detail
