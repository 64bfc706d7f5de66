// cudahist: a region tile as the kernels' walks take it (host and device:
// tests walk it on the host): the plan of a histogram tile, the signalstats
// walk's parameters of a signalstats tile.
#pragma once

#include <cstdint>

#include "launch/launch_plan.h"
#include "regions/region_tiles.h"
#include "signalstats/signalstats_walk.cuh"

namespace cudahist::detail {

// The order a tile's units are walked in (plan_walk.cuh): column-major, so
// that the warps of a tile a few chunks wide take whole chunks.
constexpr UnitOrder kTileUnitOrder = UnitOrder::kColumnMajor;

// The plan of `tile` (of group `g`): the group's with the tile's first pixel,
// rows, span and units. Not the divisor of its units (TileUnitDivisor): the
// walk by rows of chunks (tile_walk.cuh) needs none, and a 64-bit division in
// the one thread that makes a block's tile held the whole block up.
CUDAHIST_HD GroupPlan TilePlan(const RegionGroup& g, const RegionTile& tile) {
  GroupPlan p = g.plan;
  p.pixel0 = g.plan.pixel0 + uint64_t(tile.y) * g.plan.pitch + uint64_t(tile.x) * g.plan.pixel_stride;
  p.rows = tile.rows;
  SetGroupSpan(p, tile.width);
  p.units = p.rows * p.units_per_row;
  return p;
}

// The divisor that kTileUnitOrder's unit walk of a tile's units takes (a
// kGeneral group walks row-major).
CUDAHIST_HD FastDivisor TileUnitDivisor(const GroupPlan& p) {
  const bool column_major = p.layout != kGeneral && kTileUnitOrder == UnitOrder::kColumnMajor;
  return FastDivisor::For(column_major ? (p.rows > 0 ? p.rows : 1) : p.units_per_row);
}

// Units (chunks or samples) a row of `width` samples of group `g` takes: what
// SetGroupSpan makes of it, without a copy of the plan (the layout asks it of
// every region group of a frame).
CUDAHIST_HD uint32_t UnitsPerRow(const GroupPlan& g, uint32_t width) {
  if (g.layout == kGeneral) return width;
  uint32_t begin = 0, end = 0;
  GroupSpan(g, width, &begin, &end);
  return ChunksOfSpan(begin, end);
}

// Rows of a tile of `units_per_row` units a row, for tiles of about `tile_units`.
CUDAHIST_HD uint32_t RowsPerTile(uint32_t tile_units, uint32_t units_per_row) {
  const uint32_t rows = tile_units / (units_per_row > 0 ? units_per_row : 1);
  return rows > 0 ? rows : 1;
}

// The box of entry `e` on the plane of group `g`.
CUDAHIST_HD Roi EntryOnPlane(const RegionGroup& g, const RegionEntry& e) {
  return RegionOnPlane(Roi{e.x, e.y, e.width, e.height}, g.log2_hsub, g.log2_vsub);
}

// Tiles of `rows` rows, `rows_per_tile` each (the last may have fewer).
CUDAHIST_HD uint32_t TilesOfRows(uint32_t rows, uint32_t rows_per_tile) {
  return (rows + rows_per_tile - 1) / rows_per_tile;
}

// The tiles of group `g` of the region of `e`, and their rows each.
CUDAHIST_HD uint32_t GroupTiles(const RegionGroup& g, const RegionEntry& e, uint32_t tile_units, Roi* on_plane,
                                uint32_t* rows_per_tile) {
  *on_plane = EntryOnPlane(g, e);
  if (on_plane->width == 0 || on_plane->height == 0) return 0;
  *rows_per_tile = RowsPerTile(tile_units, UnitsPerRow(g.plan, on_plane->width));
  return TilesOfRows(on_plane->height, *rows_per_tile);
}

// Tile `local` of the region of `e` (which has `region_tiles`): the groups in
// turn, each group's rows top to bottom.
CUDAHIST_HD RegionTile RegionTileAt(const RegionTemplate& tmpl, const RegionEntry& e, uint32_t local,
                                    uint32_t tile_units, uint32_t region_tiles) {
  for (uint32_t k = 0; k < tmpl.num_groups; ++k) {
    Roi on_plane;
    uint32_t rows = 0;
    const uint32_t tiles = GroupTiles(tmpl.group[k], e, tile_units, &on_plane, &rows);
    if (local < tiles) {
      const uint32_t y = local * rows;
      const uint32_t n = on_plane.height - y < rows ? on_plane.height - y : rows;
      return RegionTile{e.region,           region_tiles,     uint16_t(k), uint16_t(on_plane.x),
                        uint16_t(on_plane.y + y), uint16_t(on_plane.width), uint16_t(n), 0};
    }
    local -= tiles;
  }
  return RegionTile{e.region, region_tiles, 0, 0, 0, 0, 0, 0};
}

// Tile `t` of a launch over `num_entries` entries and `num_tiles` tiles:
// its entry is the last whose first_tile is at most t. `entry_at(i)` reads
// entry i where the launch keeps them (its parameters or device memory):
// every thread of a block reads the same ones.
template <class EntryAt>
CUDAHIST_HD RegionTile TileOfLayout(const RegionTemplate& tmpl, EntryAt entry_at, uint32_t num_entries,
                                    uint32_t num_tiles, uint32_t tile_units, uint32_t t) {
  uint32_t lo = 0, hi = num_entries;
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (entry_at(mid).first_tile <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  const RegionEntry e = entry_at(lo);
  const uint32_t end = lo + 1 < num_entries ? entry_at(lo + 1).first_tile : num_tiles;
  return RegionTileAt(tmpl, e, t - e.first_tile, tile_units, end - e.first_tile);
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
