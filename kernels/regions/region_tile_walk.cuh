// cudahist: a region tile as the kernels' walks take it (host and device:
// tests walk it on the host): the plan of a histogram tile, the signalstats
// walk's parameters of a signalstats tile.
#pragma once

#include <cstdint>

#include "launch/launch_plan.h"
#include "regions/region_tiles.h"
#include "signalstats/signalstats_walk.cuh"

namespace cudahist::detail {

// The plan of `tile` (of group `g`): the group's with the tile's first pixel,
// rows, span and units. Host and device alike (tests walk it on the host).
CUDAHIST_HD GroupPlan TilePlan(const RegionGroup& g, const RegionTile& tile) {
  GroupPlan p = g.plan;
  p.pixel0 = g.plan.pixel0 + uint64_t(tile.y) * g.plan.pitch + uint64_t(tile.x) * g.plan.pixel_stride;
  p.rows = tile.rows;
  SetGroupWidth(p, tile.width);
  p.units = p.rows * p.units_per_row;
  return p;
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
