// Regions into tiles (region_tiles.h): the template of a frame's plane groups,
// and the cut of each region into runs of rows of about the same work.
#include "regions/region_tiles.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "regions/region_tile_walk.cuh"
#include "regions/regions_tuning.h"

namespace cudahist::detail {
namespace {

// Indices of `units` in decreasing order, ties in their own order: what a
// stable sort by decreasing units gives, as a radix sort on the bytes the
// largest count has (one or two for a frame's tiles). A comparison sort of
// a few hundred tiles was a large part of the host's time in a Compute call.
void LargestFirst(const std::vector<uint64_t>& units, std::vector<uint32_t>* order, std::vector<uint32_t>* next) {
  order->resize(units.size());
  next->resize(units.size());
  std::iota(order->begin(), order->end(), 0u);
  const uint64_t most = units.empty() ? 0 : *std::max_element(units.begin(), units.end());
  for (uint32_t shift = 0; shift < 64 && (most >> shift) != 0; shift += 8) {
    // Bucket 255 - byte: a stable pass by decreasing byte.
    uint32_t start[257] = {};
    for (uint64_t u : units) ++start[256 - ((u >> shift) & 0xff)];
    for (uint32_t b = 1; b <= 256; ++b) start[b] += start[b - 1];
    for (uint32_t i : *order) (*next)[start[255 - ((units[i] >> shift) & 0xff)]++] = i;
    order->swap(*next);
  }
}

// `tiles` reordered largest first by `units` (one per tile).
template <typename Tile>
void SortLargestFirst(const std::vector<uint64_t>& units, std::vector<Tile>* tiles) {
  std::vector<uint32_t> order, next;
  LargestFirst(units, &order, &next);
  std::vector<Tile> sorted;
  sorted.reserve(tiles->size());
  for (uint32_t i : order) sorted.push_back((*tiles)[i]);
  tiles->swap(sorted);
}

}  // namespace

Status BuildRegionTemplate(const HistogramSpec& spec, const RegionFrame& frame, RegionTemplate* tmpl) {
  *tmpl = RegionTemplate();
  Plan plan;
  CUDAHIST_RETURN_IF_ERROR(BuildPlan(spec, frame.planes, frame.num_planes, &plan));
  tmpl->num_components = uint32_t(frame.num_planes);
  tmpl->bins = spec.bins;
  tmpl->counters = plan.counters;
  tmpl->pow2_bins = plan.pow2_bins;
  tmpl->num_groups = plan.num_groups;
  for (uint32_t i = 0; i < plan.num_groups; ++i) {
    RegionGroup& g = tmpl->group[i];
    g.plan = plan.group[i];
    int first = -1;
    for (uint32_t s = 0; s < 4; ++s) {
      if ((g.plan.counted_slots & (1u << s)) == 0) continue;
      const int c = int(g.plan.slot[s].base / spec.bins);
      g.components |= 1u << c;
      if (first < 0) {
        first = c;
      } else if (frame.log2_hsub[c] != frame.log2_hsub[first] || frame.log2_vsub[c] != frame.log2_vsub[first]) {
        return Status::Unsupported("plane[" + std::to_string(c) + "]: shares its plane with plane[" +
                                   std::to_string(first) + "] but not its subsampling");
      }
    }
    g.log2_hsub = frame.log2_hsub[first];
    g.log2_vsub = frame.log2_vsub[first];
  }
  return Status::Ok();
}

uint32_t RegionLogCopies(const DeviceLimits& limits, uint64_t one_copy, uint32_t static_shared) {
  const int64_t per_block = int64_t(limits.shared_per_sm) / kSegmentedPolicy.min_blocks_per_sm() -
                            limits.reserved_shared_per_block - int64_t(static_shared);
  return LargestLogCopiesWithin(CeilLog2(kSegmentedPolicy.max_copies), one_copy,
                                std::min<int64_t>(per_block, limits.max_shared_per_block));
}

uint32_t TileUnits(uint64_t total_units, uint32_t resident_blocks, uint32_t min_units, uint32_t max_units) {
  return uint32_t(std::clamp<uint64_t>(total_units / std::max(1u, resident_blocks), min_units, max_units));
}

namespace {

// Tiles of region `r` of `layout` at the tile size of the last GroupTilesAt:
// at least one (an empty region's, which only finishes it); the blocks cut
// the same ones from the region's entry (region_tile_walk.cuh's GroupTiles).
uint32_t RegionTiles(const RegionLayout& layout, uint32_t num_groups, uint32_t r) {
  uint32_t tiles = 0;
  for (uint32_t k = 0; k < num_groups; ++k) tiles += layout.rows[size_t(r) * num_groups + k].tiles;
  return tiles > 0 ? tiles : 1;
}

// The tiles of a group's `rows` (> 0) rows of `units_per_row` units at tiles
// of about `tile_units`, and their rows each, as the kernel's blocks cut them
// (region_tile_walk.cuh's GroupTiles: TilesOfRows of RowsPerTile); without
// the two divisions where the rows fit one tile (the same tile: RowsPerTile
// is then at least `rows`). Not in the kernel's cut: there the test took the
// 65536-bin kernel past its registers (ptxas: 68 bytes spilled).
uint32_t TilesOfGroupRows(uint32_t rows, uint32_t units_per_row, uint32_t tile_units, uint32_t* rows_per_tile) {
  if (uint64_t(rows) * units_per_row <= tile_units) {
    *rows_per_tile = rows;
    return 1;
  }
  *rows_per_tile = RowsPerTile(tile_units, units_per_row);
  return TilesOfRows(rows, *rows_per_tile);
}

// The tiles of the regions' plane groups (`rows`, those covering nothing
// included) for tiles of about `tile_units`, each group's kept in it, and in
// `*next_units` the least tile size above it at which some group's tiles
// take a row more.
uint64_t GroupTilesAt(std::vector<GroupRows>* rows, uint32_t tile_units, uint64_t* next_units) {
  uint64_t tiles = 0;
  *next_units = UINT64_MAX;
  for (GroupRows& g : *rows) {
    if (g.rows == 0) continue;
    uint32_t rows_per_tile = 0;
    g.tiles = TilesOfGroupRows(g.rows, g.units_per_row, tile_units, &rows_per_tile);
    tiles += g.tiles;
    if (g.rows > rows_per_tile) {
      *next_units = std::min<uint64_t>(*next_units, uint64_t(rows_per_tile + 1) * g.units_per_row);
    }
  }
  return tiles;
}

// The units of a tile with which the regions' `spans` covering plane groups
// (`total` units) and `empty` regions make at most `resident_blocks` tiles,
// and close to as many; the groups' tiles at it kept in `layout->rows`. The
// tiles are about total / units plus what the groups' rounding up adds (half
// a tile a group on average, then as measured): each guess solves for the
// units with the last guess's rounding, and grows at least to where a
// group's tiles take a row more. The first guess allows a sixteenth of a
// tile a group more than the average, so that it mostly fits at once (a
// pass over the groups is two divisions each, most of the layout's time).
uint32_t OneWaveTileUnits(RegionLayout* layout, uint64_t total, uint32_t spans, uint32_t empty,
                          uint32_t resident_blocks, uint32_t min_units) {
  const auto units_for = [&](uint64_t rounding) {
    const uint64_t room = resident_blocks - std::min<uint64_t>(rounding + empty, resident_blocks - 1);
    return std::min<uint64_t>(UINT32_MAX, std::max<uint64_t>(min_units, (total + room - 1) / room));
  };
  uint64_t units = units_for(spans / 2 + spans / 16);
  for (int guess = 0;; ++guess) {
    uint64_t next_units = 0;
    const uint64_t tiles = GroupTilesAt(&layout->rows, uint32_t(units), &next_units) + empty;
    if (tiles <= resident_blocks || next_units >= UINT32_MAX || guess == 3) break;
    const uint64_t unrounded = total / units;
    units = std::max(units_for(tiles - empty - std::min(unrounded, tiles - empty)), next_units);
  }
  return uint32_t(units);
}

}  // namespace

void LayOutRegions(const RegionTemplate& tmpl, const Roi* regions, uint32_t num_regions, uint32_t resident_blocks,
                   RegionLayout* layout) {
  const SegmentedPolicy& policy = kSegmentedPolicy;
  const uint32_t num_groups = tmpl.num_groups;
  layout->rows.resize(size_t(num_regions) * num_groups);
  layout->units.resize(num_regions);
  uint64_t total = 0;
  uint32_t spans = 0, empty = 0;
  for (uint32_t r = 0; r < num_regions; ++r) {
    uint64_t units = 0;
    for (uint32_t k = 0; k < num_groups; ++k) {
      const RegionGroup& g = tmpl.group[k];
      const Roi on_plane = RegionOnPlane(regions[r], g.log2_hsub, g.log2_vsub);
      const bool covers = on_plane.width > 0 && on_plane.height > 0;
      GroupRows& rows = layout->rows[size_t(r) * num_groups + k];
      rows = GroupRows{covers ? on_plane.height : 0, covers ? UnitsPerRow(g.plan, on_plane.width) : 0, 0};
      units += uint64_t(rows.rows) * rows.units_per_row;
      spans += covers ? 1 : 0;
    }
    layout->units[r] = units;
    total += units;
    empty += units == 0 ? 1 : 0;
  }
  const uint32_t resident = std::max(1u, resident_blocks);
  if (spans < resident) {
    layout->tile_units = OneWaveTileUnits(layout, total, spans, empty, resident, policy.min_tile_units());
    layout->order.resize(num_regions);
    std::iota(layout->order.begin(), layout->order.end(), 0u);
  } else {
    layout->tile_units = TileUnits(total, resident, policy.min_tile_units(), policy.max_tile_units);
    uint64_t next_units = 0;
    GroupTilesAt(&layout->rows, layout->tile_units, &next_units);
    LargestFirst(layout->units, &layout->order, &layout->next);
  }
  layout->entries.resize(num_regions);
  uint32_t tiles = 0;
  for (uint32_t i = 0; i < num_regions; ++i) {
    const uint32_t r = layout->order[i];
    const Roi& box = regions[r];
    layout->entries[i] = RegionEntry{r, tiles, uint16_t(box.x), uint16_t(box.y), uint16_t(box.width),
                                     uint16_t(box.height)};
    tiles += RegionTiles(*layout, num_groups, r);
  }
  layout->num_tiles = tiles;
}

namespace {

// `frame` counting only the luma rectangle `luma` (its chroma: RegionOnPlane).
YuvPlanes Restricted(const YuvPlanes& frame, const Roi& luma) {
  YuvPlanes f = frame;
  const Roi chroma = RegionOnPlane(luma, frame.log2_hsub, frame.log2_vsub);
  f.y.has_roi = f.u.has_roi = f.v.has_roi = true;
  f.y.roi = luma;
  f.u.roi = f.v.roi = chroma;
  return f;
}

RegionStatsTile StatsTileOf(const SignalStatsParams& p, uint32_t region) {
  return RegionStatsTile{region,           0,          uint16_t(p.lx0),  uint16_t(p.ly0),
                         uint16_t(p.lx1),  uint16_t(p.ly1), uint16_t(p.cx0), uint16_t(p.cy0),
                         uint16_t(p.cx1),  uint16_t(p.wide), p.units_per_row, p.units};
}

}  // namespace

void CutRegionStatsTiles(const YuvPlanes& frame, const Roi* regions, uint32_t num_regions,
                         uint32_t resident_blocks, std::vector<RegionStatsTile>* tiles) {
  const SegmentedPolicy& policy = kSegmentedPolicy;  // the tile walk's (regions_tuning.h)
  uint64_t total = 0;
  for (uint32_t r = 0; r < num_regions; ++r) {
    total += SignalStatsParamsOf(Restricted(frame, regions[r]), nullptr, nullptr).units;
  }
  const uint32_t tile_units =
      TileUnits(total, resident_blocks, policy.min_tile_units(), kRegionSignalStatsPolicy.max_tile_units());
  const uint32_t v = frame.log2_vsub;
  tiles->clear();
  std::vector<uint64_t> units;
  for (uint32_t r = 0; r < num_regions; ++r) {
    const Roi& box = regions[r];
    const SignalStatsParams whole = SignalStatsParamsOf(Restricted(frame, box), nullptr, nullptr);
    if (whole.units == 0) {  // empty: one tile that only writes its zeros
      RegionStatsTile empty = StatsTileOf(whole, r);
      empty.region_tiles = 1;
      tiles->push_back(empty);
      units.push_back(0);
      continue;
    }
    const size_t first = tiles->size();
    const uint32_t chroma_rows = whole.units / whole.units_per_row;
    const uint32_t rows = RowsPerTile(tile_units, whole.units_per_row);
    for (uint32_t c = 0; c < chroma_rows; c += rows) {
      // Chroma rows [cy0 + c, cy0 + c + n) and the region's luma rows among theirs.
      const uint32_t n = std::min(rows, chroma_rows - c);
      const uint32_t luma_begin = std::max(box.y, (whole.cy0 + c) << v);
      const uint32_t luma_end = std::min(box.y + box.height, (whole.cy0 + c + n) << v);
      const SignalStatsParams p =
          SignalStatsParamsOf(Restricted(frame, Roi{box.x, luma_begin, box.width, luma_end - luma_begin}), nullptr,
                              nullptr);
      tiles->push_back(StatsTileOf(p, r));
      units.push_back(p.units);
    }
    for (size_t t = first; t < tiles->size(); ++t) (*tiles)[t].region_tiles = uint32_t(tiles->size() - first);
  }
  SortLargestFirst(units, tiles);
}

}  // namespace cudahist::detail
