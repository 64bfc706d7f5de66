// cudahist: the walk of a region tile by a block's threads (host and device:
// tests walk it on the host, emulating the threads).
//
// A tile's units are taken column-major (kTileUnitOrder): thread t of T takes
// units t, t + T, t + 2T, ..., so that the lanes of a warp go down a column
// of chunks and a box a few chunks wide gives few warps a row's edge. Where
// every row's chunks sit at the same place in their 16 bytes (a pitch that is
// a multiple of 16, as every CUDA allocation's is), a thread's next unit is
// its last one stepped T units on, with no division, and its chunk's edges
// follow from its column alone. In the profile that took a chunk's location,
// load, edges and the warp's vote together from about 33 instructions to
// about 31 (docs/tuning.md): the gain is less the instructions than the
// rounds. The thread keeps `kInFlight` loads in flight as it counts (each
// count issues the load kInFlight chunks ahead), so that a tile of a few
// chunks a thread waits for its loads about once, not once a round.
// Counters that synchronise the block in BeforeRound (the packed ones) cannot
// take it: its threads' counts are not in block-uniform rounds.
// Other tiles (a pitch not a multiple of 16, or the one-sample units of
// kGeneral layouts) take the unit walk of device/plan_walk.cuh.
#pragma once

#include <cstdint>

#include "device/plan_walk.cuh"
#include "regions/region_tile_walk.cuh"

namespace cudahist::detail {

// Where a tile's chunks lie, when every row's lie alike.
struct TileColumns {
  uintptr_t first = 0;  // the first row's first chunk (16-byte aligned)
  uint32_t pitch = 0;
  uint32_t rows = 0;
  uint32_t columns = 0;      // chunks a row that hold span bytes
  int head = 0;              // bytes of column 0 before the span
  int tail = 0;              // bytes of the last column inside the span (1 to 16)
  uint32_t phase = 0;        // first - the row's pixel0, modulo 2^32: a chunk's byte position in the pixel
  uint32_t row_step = 0;     // threads % rows
  uint32_t column_step = 0;  // threads / rows
};

// Whether the tile of plan `g` can be walked by steps (TileColumns).
CUDAHIST_HD bool WalksByColumnSteps(const GroupPlan& g) {
  return g.layout != kGeneral && g.pitch % kChunkBytes == 0 && g.pitch <= UINT32_MAX && g.rows > 0;
}

CUDAHIST_HD TileColumns TileColumnsOf(const GroupPlan& g, uint32_t threads) {
  const uintptr_t pixel0 = reinterpret_cast<uintptr_t>(g.pixel0);
  const uintptr_t begin = pixel0 + g.span_begin;
  const uintptr_t end = pixel0 + g.span_end;
  TileColumns c;
  c.first = begin & ~uintptr_t(kChunkBytes - 1);
  c.pitch = uint32_t(g.pitch);
  c.rows = g.rows;
  c.columns = uint32_t((end - 1 - c.first) / kChunkBytes) + 1;
  c.head = int(begin - c.first);
  c.tail = int(end - (c.first + uintptr_t(c.columns - 1) * kChunkBytes));
  c.phase = uint32_t(c.first - pixel0);
  c.row_step = threads % g.rows;
  c.column_step = threads / g.rows;
  return c;
}

// A thread's unit of a tile: chunk `column` of row `row`.
struct ColumnPlace {
  uint32_t row;
  uint32_t column;
};

CUDAHIST_HD ColumnPlace NextColumnPlace(const TileColumns& c, ColumnPlace at) {
  at.row += c.row_step;
  at.column += c.column_step;
  if (at.row >= c.rows) {
    at.row -= c.rows;
    ++at.column;
  }
  return at;
}

// The chunk at `at`, or zeros past the tile's last column (nothing loaded).
CUDAHIST_HD Chunk16 LoadColumnChunk(const TileColumns& c, ColumnPlace at) {
  if (at.column >= c.columns) return Chunk16{{0, 0, 0, 0}};
  const uintptr_t a = c.first + uintptr_t(at.row) * c.pitch + uintptr_t(at.column) * kChunkBytes;
  return LoadChunk16(reinterpret_cast<const uint8_t*>(a));
}

template <uint32_t kLayout, bool kPow2Bins, bool kByteIsBin, class Counter>
CUDAHIST_HD void CountColumnChunk(const Chunk16& chunk, uint32_t column, const TileColumns& c,
                                  const Positions<Counter>& p, uint32_t bins, Counter& counter) {
  ChunkRef ref;
  ref.any = true;
  ref.phase = c.phase;  // + 16 x column: the same modulo every pixel stride
  ref.lo = column == 0 ? c.head : 0;
  ref.hi = column == c.columns - 1 ? c.tail : int(kChunkBytes);
  CountChunkOfWarp<kLayout, kPow2Bins, kByteIsBin>(chunk, ref, p, bins, counter);
}

// Thread `thread`'s units of the tile, kInFlight loads ahead of its counts:
// `loaded` is the place of the next load, `counted` that of the next count,
// kInFlight places behind (stepped again rather than kept a column a load:
// registers are what the kernel runs short of). A thread's columns never
// decrease, so its first place past the last column ends its walk.
template <uint32_t kLayout, uint32_t kInFlight, bool kPow2Bins, bool kByteIsBin, class Counter>
CUDAHIST_HD void WalkTileColumns(const GroupPlan& g, uint32_t bins, uint32_t thread, uint32_t threads,
                                 Counter& counter) {
  const Positions<Counter> p = PositionsOf<kLayout>(g, counter);
  const TileColumns c = TileColumnsOf(g, threads);
  ColumnPlace counted{thread % g.rows, thread / g.rows};
  ColumnPlace loaded = counted;
  Chunk16 chunk[kInFlight];
  CUDAHIST_UNROLL
  for (uint32_t i = 0; i < kInFlight; ++i) {
    chunk[i] = LoadColumnChunk(c, loaded);
    loaded = NextColumnPlace(c, loaded);
  }
  for (;;) {
    CUDAHIST_UNROLL
    for (uint32_t i = 0; i < kInFlight; ++i) {
      if (counted.column >= c.columns) return;
      const Chunk16 next = chunk[i];
      chunk[i] = LoadColumnChunk(c, loaded);
      loaded = NextColumnPlace(c, loaded);
      CountColumnChunk<kLayout, kPow2Bins, kByteIsBin>(next, counted.column, c, p, bins, counter);
      counted = NextColumnPlace(c, counted);
    }
  }
}

// Thread `thread` of `threads`' share of the tile of plan `g` (TilePlan): by
// column steps where they apply, else by the unit walk with the divisor the
// tile's unit order takes.
template <uint32_t kInFlight, uint32_t kUnitLoads, bool kPow2Bins, class Counter>
CUDAHIST_HD void WalkTile(const GroupPlan& g, uint32_t bins, uint32_t thread, uint32_t threads, Counter& counter) {
  if (!WalksByColumnSteps(g)) {
    GroupPlan units = g;
    units.row_of_unit = TileUnitDivisor(g);
    const WalkPosition pos{0, threads * kUnitLoads, thread, threads};
    WalkGroup<kUnitLoads, kPow2Bins, kTileUnitOrder>(units, bins, pos, counter);
    return;
  }
  auto walk = [&](const GroupPlan& group, auto kind) {
    using K = decltype(kind);
    if constexpr (K::kLayout != kGeneral) {
      WalkTileColumns<K::kLayout, kInFlight, K::kPow2Bins, K::kByteIsBin>(group, bins, thread, threads, counter);
    }
  };
  VisitGroup<kPow2Bins>(g, walk);
}

}  // namespace cudahist::detail
