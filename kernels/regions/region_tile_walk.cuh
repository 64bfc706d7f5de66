// cudahist: the regions as the kernels' walks take them (host and device:
// tests walk them on the host): the histogram kernel's share of a block and
// its pieces' plans, the signalstats walk's parameters of a signalstats tile.
#pragma once

#include <cstdint>

#include "launch/launch_plan.h"
#include "regions/region_tiles.h"
#include "signalstats/signalstats_walk.cuh"

namespace cudahist::detail {

// --- histograms: equal shares ------------------------------------------------
// The segmented kernel lays the frame's regions end to end in units (region
// after region in the layout's order, each its plane groups in turn, each
// group its rows) and gives block b the units [b U, (b + 1) U): every block
// the same work whatever the boxes, so that all end together. A share is
// counted piece by piece (a piece: the share's units of one group of one
// region); at the end of each region in the share the block merges its
// copies into the region's totals, and the last of the region's blocks to
// arrive writes its counts.

// Units (chunks or samples) a row of `width` samples of group `g` takes: what
// SetGroupWidth makes of it, without the divisor the layout does not use.
CUDAHIST_HD uint32_t UnitsPerRow(const GroupPlan& g, uint32_t width) {
  GroupPlan p = g;
  SetGroupSpan(p, width);
  return p.units_per_row;
}

// The box of entry `e` on the plane of group `g`.
CUDAHIST_HD Roi EntryOnPlane(const RegionGroup& g, const RegionEntry& e) {
  return RegionOnPlane(Roi{e.x, e.y, e.width, e.height}, g.log2_hsub, g.log2_vsub);
}

// The units of `box` (on the plane of `g`).
CUDAHIST_HD uint32_t BoxUnits(const RegionGroup& g, const Roi& box) {
  return box.width == 0 ? 0 : box.height * UnitsPerRow(g.plan, box.width);
}

// The plan of `box` (on the plane of `g`): the group's with the box's first
// pixel, rows, span and units.
CUDAHIST_HD GroupPlan BoxPlan(const RegionGroup& g, const Roi& box) {
  GroupPlan p = g.plan;
  p.pixel0 = g.plan.pixel0 + uint64_t(box.y) * g.plan.pitch + uint64_t(box.x) * g.plan.pixel_stride;
  p.rows = box.height;
  SetGroupWidth(p, box.width);
  p.units = p.rows * p.units_per_row;
  return p;
}

// The blocks whose shares hold units of the region [first, end): the ones
// its last block waits for. An empty region is finished by one block, the
// one whose share begins at or holds its place (the last, at the end).
CUDAHIST_HD uint32_t BlocksOfRegion(const RegionShares& s, uint32_t first, uint32_t end) {
  if (end == first) return 1;
  return (end - 1) / s.share_units - first / s.share_units + 1;
}

// One piece of a share: units [begin, end) of `plan` (the box of region
// `region` on the plane of group `group`).
struct SharePiece {
  GroupPlan plan;
  uint32_t region;
  uint32_t group;
  uint32_t begin;
  uint32_t end;
};

// Walks block `block`'s share: count(piece) for each piece in order, then
// finish(entry, blocks of the region, groups touched: bit k) at the end of
// each region the share holds (also an empty region that falls to this
// block). `entry_at(i)` reads entry i where the launch keeps them; every
// thread of a block reads the same ones.
template <class EntryAt, class Count, class Finish>
CUDAHIST_HD void WalkShare(const RegionTemplate& tmpl, EntryAt entry_at, const RegionShares& s, uint32_t block,
                           Count count, Finish finish) {
  const uint32_t lo = block * s.share_units;
  const uint32_t hi = s.total_units - lo < s.share_units ? s.total_units : lo + s.share_units;
  const bool last_block = block + 1 == s.blocks;
  // The first entry at or after lo, then back one if that region runs into the share.
  uint32_t first = 0, count_left = s.num_entries;
  while (count_left > 0) {
    const uint32_t half = count_left / 2;
    if (entry_at(first + half).first_unit < lo) {
      first += half + 1;
      count_left -= half + 1;
    } else {
      count_left = half;
    }
  }
  const auto end_of = [&](uint32_t i) { return i + 1 < s.num_entries ? entry_at(i + 1).first_unit : s.total_units; };
  if (first > 0 && end_of(first - 1) > lo) --first;
  for (uint32_t i = first; i < s.num_entries; ++i) {
    const RegionEntry e = entry_at(i);
    if (e.first_unit >= hi && !(last_block && e.first_unit == s.total_units)) break;
    const uint32_t region_end = end_of(i);
    // The share's units of this region, from the region's first.
    const uint32_t from = (lo > e.first_unit ? lo : e.first_unit) - e.first_unit;
    const uint32_t to = (hi < region_end ? hi : region_end) - e.first_unit;
    uint32_t groups = 0, group_first = 0;
    for (uint32_t k = 0; k < tmpl.num_groups && group_first < to; ++k) {
      const Roi box = EntryOnPlane(tmpl.group[k], e);
      const uint32_t units = BoxUnits(tmpl.group[k], box);
      const uint32_t begin = from > group_first ? from - group_first : 0;
      const uint32_t end = to - group_first < units ? to - group_first : units;
      if (begin < end) {
        count(SharePiece{BoxPlan(tmpl.group[k], box), e.region, k, begin, end});
        groups |= 1u << k;
      }
      group_first += units;
    }
    finish(e, BlocksOfRegion(s, e.first_unit, region_end), groups);
  }
}

// The walk's parameters of `tile` over `frame` (the frame's parameters,
// SignalStatsParamsOf without a region and without a previous frame).
CUDAHIST_HD SignalStatsParams TileParams(const SignalStatsParams& frame, const RegionStatsTile& tile) {
  SignalStatsParams p = frame;
  p.lx0 = tile.lx0;
  p.ly0 = tile.ly0;
  p.lx1 = tile.lx1;
  p.ly1 = tile.ly1;
  p.cx0 = tile.cx0;
  p.cy0 = tile.cy0;
  p.cx1 = tile.cx1;
  p.wide = tile.wide;
  p.units_per_row = tile.units_per_row;
  p.units = tile.units;
  p.row_of_unit = FastDivisor::For(tile.units_per_row > 0 ? tile.units_per_row : 1);
  return p;
}

}  // namespace cudahist::detail
