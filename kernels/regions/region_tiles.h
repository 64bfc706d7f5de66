// cudahist: how the region kernels share out a frame's regions (host side,
// plain data that the kernels take by value or from device memory).
//
// Signalstats' regions are cut into tiles: runs of chroma rows with their luma, of about the same number
// of units each (TileUnits), so that the blocks of one launch take tiles of
// similar cost whatever the mix of box sizes. Every region gets at least one
// tile (an empty one for an empty region), because a region's counts are
// written by the last of its tiles to finish: `region_tiles` is how many
// that last one waits for. What a tile is to the walks: region_tile_walk.cuh.
//
// The histograms need no tiles: the regions' units laid end to end are shared
// out equally among the blocks (RegionShares), which find their pieces from
// the regions' entries themselves.
#pragma once

#include <cstdint>
#include <vector>

#include "cudahist/regions.h"
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

// What the segmented kernel takes of each region: its box in frame pixels and
// where its units start when the regions are laid end to end
// (region_tile_walk.cuh): 16 bytes a region in the launch's parameters.
struct RegionEntry {
  uint32_t region;      // the caller's index
  uint32_t first_unit;  // units of the entries before this one
  uint16_t x, y, width, height;
};

// How a launch shares the regions' units out among its blocks: `share_units`
// each (the last block the rest), `blocks` of them.
struct RegionShares {
  uint32_t num_entries = 0;
  uint32_t total_units = 0;
  uint32_t share_units = 1;
  uint32_t blocks = 1;
};

// A frame's regions as a launch takes them.
struct RegionLayout {
  std::vector<RegionEntry> entries;  // in the caller's order
  RegionShares shares;
};

// The template of a validated frame (ValidateRegionFrame). kUnsupported when
// the components of one plane group differ in subsampling.
Status BuildRegionTemplate(const HistogramSpec& spec, const RegionFrame& frame, RegionTemplate* tmpl);

// Units (chunks or samples) a launch with `resident_blocks` blocks wants per
// tile for `total_units` units of regions: total / (resident x per block),
// within [min_units, max_units].
uint32_t TileUnits(uint64_t total_units, uint32_t resident_blocks, uint32_t tiles_per_resident_block,
                   uint32_t min_units, uint32_t max_units);

// Lays validated regions out for a launch of up to `resident_blocks` blocks:
// equal shares of at least the policy's min_share_units. kUnsupported when
// the regions hold 2^32 units or more.
Status LayOutRegions(const RegionTemplate& tmpl, const Roi* regions, uint32_t num_regions, uint32_t resident_blocks,
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
