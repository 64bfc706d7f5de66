// cudahist: the walk of a region tile by a block's threads (host and device:
// tests walk it on the host, emulating the threads).
//
// Where every row's chunks sit at the same place in their 16 bytes (a pitch
// that is a multiple of 16, as every CUDA allocation's is), a tile's chunks
// are of two kinds: whole chunks, every byte in the span, and the partial
// chunks of its first and last columns where the span starts or ends inside
// a chunk. The threads take the whole chunks row-major (a row's whole
// columns, then the next row's), thread t of T units t, t + T, ..., each the
// last stepped T units on, with no division a unit; then, in the same sequence,
// the partial chunks. So the lanes of a warp read along a row, every thread's
// share is within one chunk of the others', and only the partial chunks pay
// for their edges, where a warp that met one edge would otherwise weigh
// every byte of all its chunks (docs/tuning.md, "Regions"). The thread keeps
// `kInFlight` loads in flight as it counts (each count issues the load
// kInFlight chunks ahead), so that a tile of a few chunks a thread waits for
// its loads about once, not once a round.
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
  uint32_t columns = 0;  // chunks a row that hold span bytes
  int head = 0;          // bytes of column 0 before the span
  int tail = 0;          // bytes of the last column inside the span (1 to 16)
  uint32_t phase = 0;    // first - the row's pixel0, modulo 2^32: a chunk's byte position in the pixel
};

// Whether the tile of plan `g` can be walked by rows of chunks (TileColumns).
CUDAHIST_HD bool WalksByRowsOfChunks(const GroupPlan& g) {
  return g.layout != kGeneral && g.pitch % kChunkBytes == 0 && g.pitch <= UINT32_MAX && g.rows > 0;
}

CUDAHIST_HD TileColumns TileColumnsOf(const GroupPlan& g) {
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
  return c;
}

// The tile's columns by kind: the whole ones, a run, and up to two partial
// ones (the first where the span starts inside it, the last where it ends
// inside it; a one-column tile's column is partial if either does). The
// partial columns are two fields, not an array: an array indexed by a value
// known only at run time lives in local memory, which every thread would
// store and load at each tile's start (docs/tuning.md, "Regions").
struct TileKinds {
  uint32_t first_whole = 0;
  uint32_t whole = 0;
  uint32_t partials = 0;       // 0 to 2
  uint32_t first_partial = 0;  // the column of partial chunk 0's rows ...
  uint32_t last_partial = 0;   // ... and of the second's
};

CUDAHIST_HD TileKinds TileKindsOf(const TileColumns& c) {
  TileKinds k;
  const bool head_partial = c.head != 0 || (c.columns == 1 && c.tail != int(kChunkBytes));
  const bool tail_partial = c.columns > 1 && c.tail != int(kChunkBytes);
  k.partials = (head_partial ? 1 : 0) + (tail_partial ? 1 : 0);
  k.first_partial = head_partial ? 0 : c.columns - 1;
  k.last_partial = c.columns - 1;
  k.first_whole = head_partial ? 1 : 0;
  const uint32_t end = tail_partial ? c.columns - 1 : c.columns;
  k.whole = end > k.first_whole ? end - k.first_whole : 0;
  return k;
}

// A thread's whole chunk: row `row`, whole column `column` (of TileKinds'
// run).
struct WholePlace {
  uint32_t row;
  uint32_t column;
};

// The place `threads` units on in the row-major order of the whole chunks
// (`steps`: threads / whole rows and threads % whole columns).
CUDAHIST_HD WholePlace NextWholePlace(const TileKinds& k, WholePlace steps, WholePlace at) {
  at.row += steps.row;
  at.column += steps.column;
  if (at.column >= k.whole) {
    at.column -= k.whole;
    ++at.row;
  }
  return at;
}

CUDAHIST_HD const uint8_t* WholeChunkAddress(const TileColumns& c, const TileKinds& k, WholePlace at) {
  return reinterpret_cast<const uint8_t*>(c.first + uintptr_t(at.row) * c.pitch +
                                          uintptr_t(k.first_whole + at.column) * kChunkBytes);
}

// Partial chunk `e` of the tile: the first partial column's rows, then the
// second's.
CUDAHIST_HD ChunkRef PartialChunk(const TileColumns& c, const TileKinds& k, uint32_t e) {
  const bool second = e >= c.rows;
  const uint32_t row = second ? e - c.rows : e;
  const uint32_t column = second ? k.last_partial : k.first_partial;
  ChunkRef ref;
  ref.any = true;
  ref.phase = c.phase;  // + 16 x column: the same modulo every pixel stride
  ref.lo = column == 0 ? c.head : 0;
  ref.hi = column == c.columns - 1 ? c.tail : int(kChunkBytes);
  ref.address =
      reinterpret_cast<const uint8_t*>(c.first + uintptr_t(row) * c.pitch + uintptr_t(column) * kChunkBytes);
  return ref;
}

// Thread `thread`'s whole chunks (units thread, thread + threads, ... below
// `whole_units`), kInFlight loads ahead of its counts; returns its first unit
// past them.
template <uint32_t kLayout, uint32_t kInFlight, bool kPow2Bins, bool kByteIsBin, class Counter>
CUDAHIST_HD uint32_t WalkWholeChunks(const TileColumns& c, const TileKinds& k, const Positions<Counter>& p,
                                     uint32_t bins, uint32_t thread, uint32_t threads, Counter& counter) {
  const uint32_t whole_units = c.rows * k.whole;
  if (thread >= whole_units) return thread;
  const uint32_t chunks = (whole_units - 1 - thread) / threads + 1;
  const WholePlace steps{threads / k.whole, threads % k.whole};
  WholePlace loaded{thread / k.whole, thread % k.whole};
  ChunkRef whole;
  whole.any = true;
  whole.phase = c.phase;
  whole.lo = 0;
  whole.hi = int(kChunkBytes);
  Chunk16 chunk[kInFlight] = {};
  CUDAHIST_UNROLL
  for (uint32_t i = 0; i < kInFlight; ++i) {
    if (i < chunks) chunk[i] = LoadChunk16(WholeChunkAddress(c, k, loaded));
    loaded = NextWholePlace(k, steps, loaded);
  }
  for (uint32_t n = 0;;) {
    CUDAHIST_UNROLL
    for (uint32_t i = 0; i < kInFlight; ++i, ++n) {
      if (n >= chunks) return thread + chunks * threads;
      const Chunk16 next = chunk[i];
      if (n + kInFlight < chunks) chunk[i] = LoadChunk16(WholeChunkAddress(c, k, loaded));
      loaded = NextWholePlace(k, steps, loaded);
      CountChunk<kLayout, kPow2Bins, kByteIsBin, true>(next, whole, p, bins, counter);
    }
  }
}

// Thread `thread`'s units of the tile: its whole chunks, then, from the unit
// where they end, its partial ones.
template <uint32_t kLayout, uint32_t kInFlight, bool kPow2Bins, bool kByteIsBin, class Counter>
CUDAHIST_HD void WalkTileRows(const GroupPlan& g, uint32_t bins, uint32_t thread, uint32_t threads,
                              Counter& counter) {
  const Positions<Counter> p = PositionsOf<kLayout>(g, counter);
  const TileColumns c = TileColumnsOf(g);
  const TileKinds k = TileKindsOf(c);
  const uint32_t whole_units = c.rows * k.whole;
  const uint32_t units = whole_units + k.partials * c.rows;
  for (uint32_t unit = WalkWholeChunks<kLayout, kInFlight, kPow2Bins, kByteIsBin>(c, k, p, bins, thread, threads,
                                                                                  counter);
       unit < units; unit += threads) {
    const ChunkRef ref = PartialChunk(c, k, unit - whole_units);
    CountChunk<kLayout, kPow2Bins, kByteIsBin, false>(LoadChunk16(ref.address), ref, p, bins, counter);
  }
}

// Thread `thread` of `threads`' share of the tile of plan `g` (TilePlan): by
// rows of chunks where they apply, else by the unit walk with the divisor
// the tile's unit order takes.
template <uint32_t kInFlight, uint32_t kUnitLoads, bool kPow2Bins, class Counter>
CUDAHIST_HD void WalkTile(const GroupPlan& g, uint32_t bins, uint32_t thread, uint32_t threads, Counter& counter) {
  if (!WalksByRowsOfChunks(g)) {
    GroupPlan units = g;
    units.row_of_unit = TileUnitDivisor(g);
    const WalkPosition pos{0, threads * kUnitLoads, thread, threads};
    WalkGroup<kUnitLoads, kPow2Bins, kTileUnitOrder>(units, bins, pos, counter);
    return;
  }
  auto walk = [&](const GroupPlan& group, auto kind) {
    using K = decltype(kind);
    if constexpr (K::kLayout != kGeneral) {
      WalkTileRows<K::kLayout, kInFlight, K::kPow2Bins, K::kByteIsBin>(group, bins, thread, threads, counter);
    }
  };
  VisitGroup<kPow2Bins>(g, walk);
}

}  // namespace cudahist::detail
