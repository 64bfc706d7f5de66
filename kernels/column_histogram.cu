// per-column histograms (waveform, parade; seed 004's [length, channels]
// rows) in ONE launch: seed 004's two phases, without its bank conflicts and
// without its second kernel.
//
// Phase 1, work item (band, bin tile, slice): a block owns a band of 32 x V
// columns and a slice of rows. Lane l of every warp takes columns l V .. l V +
// V - 1 of the rows its warp walks; its counters are one histogram per column
// at word (k * tile + bin) * 32 + l, so the 32 lanes of a warp always land in
// 32 different banks (shared reductions, no conflicts whatever the data).
// The block then writes its counters out, group-major, through a padded
// transposition stage: straight to the counts when the plan is direct (one
// slice, no group across two bands: video frames with groups = width), else
// to partials[slice][band][group in band][bin] with plain stores.
// Phase 2 (only when not direct), after grid.sync: every thread sums one
// count over the slices and the bands its group touches, in a fixed order.
//
// V = 1 for frames (enough bands to fill the GPU without slices), V = 4 for
// tall planes (4-byte loads, 128-byte row segments per warp); scopes_tuning.h.
// At V = 1 the lanes of a warp may also share out 2 or 4 rows (bands of 16 or
// 8 columns: more bands for narrow frames), each lane still with counters of
// its own, summed at the flush; a band holds whole groups (as many as fit),
// so frames are direct unless a group is wider than the band. At V = 4 bands
// are 128 columns from column 0.
#include <cooperative_groups.h>

#include <algorithm>

#include "device_helpers.cuh"
#include "scopes_launch.h"
#include "scopes_tuning.h"

namespace cudahist::detail {
namespace {

constexpr uint32_t kStagePitch = 33;  // words per staged column: 32 bins + 1 of padding
constexpr uint32_t kReduceLoads = 8;  // partial loads in flight per thread in phase 2

template <uint32_t kV>
struct ColumnShape {
  static constexpr uint32_t kThreads = kV == 1 ? kColumnThreadsNarrow : kColumnThreadsWide;
  static constexpr uint32_t kBandColumns = 32 * kV;  // at most (fewer when lanes share a row at V = 1)
  static constexpr uint32_t kRowsInFlight = kV == 1 ? kColumnRowsInFlightNarrow : kColumnRowsInFlightWide;
  static constexpr uint32_t kMinBlocksPerSm = kV == 1 ? kColumnMinBlocksNarrow : 1;
  static constexpr bool kPrefetch = kV == 4 ? kColumnPrefetchWide : kColumnPrefetchNarrow;
  static constexpr uint32_t kFlushWarps = kV == 1 ? kColumnFlushWarpsNarrow : kColumnFlushWarpsWide;
  static constexpr uint32_t kCounterWords = kV * 32 * kColumnTileBins;
  static constexpr uint32_t kStageWords = kBandColumns * kStagePitch;
  static constexpr uint32_t kSharedBytes =
      (kCounterWords + kFlushWarps * kStageWords + kBandColumns) * uint32_t(sizeof(uint32_t));
  static_assert(kFlushWarps <= kThreads / 32, "flushing warps are warps of the block");
};

// n / d for a 64-bit n whose quotient fits 32 bits: a 32-bit division when n
// does (every video frame and seed 004's shape), else the 64-bit routine,
// several times longer: a block computes a handful of these before its first
// load, on the critical path of a frame of a few microseconds.
__device__ __forceinline__ uint32_t DivideWide(uint64_t n, uint32_t d) {
  return n >> 32 == 0 ? uint32_t(n) / d : uint32_t(n / d);
}

__device__ __forceinline__ uint32_t GroupOfColumn(const ColumnPlan& p, uint32_t x) {
  return DivideWide(uint64_t(x) * p.groups, p.width);
}

// The first column of group g (the inverse of GroupOfColumn, rounded up).
__device__ __forceinline__ uint32_t FirstColumnOfGroup(const ColumnPlan& p, uint32_t g) {
  return DivideWide(uint64_t(g) * p.width + p.groups - 1, p.groups);
}

struct ColumnItem {
  uint32_t band, slice;
  uint32_t x0, columns;         // the band's first region column, its width
  uint32_t tile_begin, tile_len;
  uint32_t y0, y1;
  uint32_t first_group;
};

__device__ __forceinline__ ColumnItem ItemOf(const ColumnPlan& p, uint32_t item) {
  ColumnItem it;
  if (kColumnLeanItem && p.simple_items) {  // item = band; band_columns groups of one column each
    it.band = item;
    it.slice = 0;
    it.x0 = item * p.band_columns;
    it.columns = min(p.band_columns, p.width - it.x0);
    it.tile_begin = 0;
    it.tile_len = p.bins;
    it.y0 = 0;
    it.y1 = p.height;
    it.first_group = it.x0;
    return it;
  }
  it.band = item % p.bands;  // neighbouring blocks: neighbouring bands of the same rows
  const uint32_t rest = item / p.bands;
  const uint32_t tile = rest % p.tiles;
  it.slice = rest / p.tiles;
  if (p.groups_per_band != 0) {  // bands of whole groups
    const uint32_t g0 = it.band * p.groups_per_band;
    it.x0 = FirstColumnOfGroup(p, g0);
    it.columns = FirstColumnOfGroup(p, min(p.groups, g0 + p.groups_per_band)) - it.x0;
  } else {
    it.x0 = it.band * p.band_columns;
    it.columns = min(p.band_columns, p.width - it.x0);
  }
  it.tile_begin = tile * p.tile_bins;
  it.tile_len = min(p.tile_bins, p.bins - it.tile_begin);
  it.y0 = DivideWide(uint64_t(p.height) * it.slice, p.slices);
  it.y1 = DivideWide(uint64_t(p.height) * (it.slice + 1), p.slices);
  it.first_group = GroupOfColumn(p, it.x0);
  return it;
}

__device__ __forceinline__ uint32_t BinOfWord(const SampleGrid& g, uint32_t word, uint32_t bins) {
  return ((((word >> g.shift) & g.mask)) * bins) >> g.depth;
}

__device__ __forceinline__ void SharedIncrement(uint32_t address) {
  asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(address) : "memory");
}

// Counters zeroed 16 bytes a store (count: a multiple of 4 words; the
// dynamic shared window is 16-byte aligned).
__device__ __forceinline__ void ZeroSharedVector(uint32_t* words, uint32_t count) {
  uint4* vectors = reinterpret_cast<uint4*>(words);
  for (uint32_t i = threadIdx.x; i < count / 4; i += blockDim.x) vectors[i] = make_uint4(0, 0, 0, 0);
}

// --- the byte walk of CUDAHIST_COLUMN_LEAN_COUNT (scopes_tuning.h) ------------
// A lane's word of one row: one sample or four consecutive columns.
template <uint32_t kWordBytes>
__device__ __forceinline__ uint32_t LoadRowWord(const uint8_t* at) {
  if constexpr (kWordBytes == 4) {
    return __ldg(reinterpret_cast<const unsigned int*>(at));
  } else {
    return __ldg(at);
  }
}

// One batch of rows `step` bytes apart: all kRows of them (kFull), or the first n.
template <uint32_t kWordBytes, uint32_t kRows, bool kFull>
__device__ __forceinline__ void LoadRows(const uint8_t* at, uint64_t step, uint32_t n, uint32_t (&word)[kRows]) {
CUDAHIST_UNROLL
  for (uint32_t r = 0; r < kRows; ++r) {
    if (kFull || r < n) word[r] = LoadRowWord<kWordBytes>(at);
    at += step;
  }
}

template <uint32_t kRows, bool kFull, class Count>
__device__ __forceinline__ void CountRows(uint32_t n, const uint32_t (&word)[kRows], const Count& count) {
CUDAHIST_UNROLL
  for (uint32_t r = 0; r < kRows; ++r) {
    if (kFull || r < n) count(word[r]);
  }
}

// A lane's `rows` rows from `at`, `step` bytes apart, each word counted by
// `count`: whole batches of kRows without a test per row, then the rest;
// with the next batch's loads in flight while one is counted (kPrefetch).
template <uint32_t kWordBytes, uint32_t kRows, bool kPrefetch, class Count>
__device__ __forceinline__ void WalkRows(const uint8_t* at, uint64_t step, uint32_t rows, const Count& count) {
  const uint64_t batch_step = step * kRows;
  const uint32_t full = rows / kRows, rest = rows % kRows;
  uint32_t word[kRows];
  if constexpr (kPrefetch) {
    if (full == 0) {
      LoadRows<kWordBytes, kRows, false>(at, step, rest, word);
      CountRows<kRows, false>(rest, word, count);
      return;
    }
    LoadRows<kWordBytes, kRows, true>(at, step, kRows, word);
    at += batch_step;
    for (uint32_t b = 1; b < full; ++b) {
      uint32_t next[kRows];
      LoadRows<kWordBytes, kRows, true>(at, step, kRows, next);
      at += batch_step;
      CountRows<kRows, true>(kRows, word, count);
CUDAHIST_UNROLL
      for (uint32_t r = 0; r < kRows; ++r) word[r] = next[r];
    }
    if (rest != 0) {
      uint32_t next[kRows];
      LoadRows<kWordBytes, kRows, false>(at, step, rest, next);
      CountRows<kRows, true>(kRows, word, count);
      CountRows<kRows, false>(rest, next, count);
    } else {
      CountRows<kRows, true>(kRows, word, count);
    }
  } else {
    for (uint32_t b = 0; b < full; ++b) {
      LoadRows<kWordBytes, kRows, true>(at, step, kRows, word);
      at += batch_step;
      CountRows<kRows, true>(kRows, word, count);
    }
    if (rest != 0) {
      LoadRows<kWordBytes, kRows, false>(at, step, rest, word);
      CountRows<kRows, false>(rest, word, count);
    }
  }
}

// Adds one to the counter of `bin` in the lane slot at `slot` (the shared
// address of word `lane` of bin 0): 32-bit counters at word bin * 32 + lane,
// or (kPacked) 16-bit ones, bin b in half b % 2 of word (b / 2) * 32 + lane.
template <bool kPacked>
__device__ __forceinline__ void CountBin(uint32_t slot, uint32_t bin) {
  if constexpr (kPacked) {
    const uint32_t address = slot + ((bin >> 1) << 7), one = 1u << ((bin & 1) << 4);
    asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(address), "r"(one) : "memory");
  } else {
    SharedIncrement(slot + (bin << 7));
  }
}

// CUDAHIST_COLUMN_WORD_LOADS at V = 1: a lane loads four columns of a row
// (one 32-bit word) instead of one sample. Within a group of 4 lanes (lane =
// s row_lanes + 4 q + j), lane j loads row 4 s + j of the warp's 128 /
// row_lanes rows, columns 4 q .. 4 q + 3, and counts column 4 q + m in the
// counters of the group's lane m: the counters stay those of the byte walk
// (the slot of lane l counts column l % row_lanes), so the flush is
// unchanged. In the k-th count of a word the four lanes of a group add to the
// four slots (j + k) % 4: 32 different banks a count, whatever the data.
// The rows of a lane come 4 x 128 / row_lanes apart: a 4K band of 16 columns
// is 17 words a lane, one batch (three of 32 bytes with a sample a load).
template <bool kPacked>
__device__ __forceinline__ void CountBandWords(const ColumnPlan& p, const ColumnItem& it, uint32_t counters) {
  const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const uint32_t rows_per_warp = 128 / p.row_lanes;
  const uint32_t x = 4 * ((lane % p.row_lanes) / 4);  // the word's first column in the band
  const uint32_t first = it.y0 + warp * rows_per_warp + 4 * (lane / p.row_lanes) + lane % 4;
  if (x >= it.columns || first >= it.y1) return;
  const uint32_t round = warps * rows_per_warp;
  const uint32_t rows = (it.y1 - first + round - 1) / round;
  const SampleGrid& g = p.grid;
  const uint8_t* at = g.first + (it.x0 + x) + uint64_t(first) * g.pitch;
  const uint64_t step = uint64_t(round) * g.pitch;
  const uint32_t j = lane % 4;
  const uint32_t group_slots = counters + (lane - j) * uint32_t(sizeof(uint32_t));
  // Rotated right by 8 j bits, the word's byte k is column x + (j + k) % 4.
  const uint32_t valid = min(4u, it.columns - x);
  constexpr uint32_t kRows = CUDAHIST_COLUMN_WORD_ROWS_IN_FLIGHT;
  constexpr bool kPrefetch = ColumnShape<1>::kPrefetch;
  if (valid == 4) {
    WalkRows<4, kRows, kPrefetch>(at, step, rows, [&](uint32_t word) {
      const uint32_t rotated = __funnelshift_r(word, word, 8 * j);
CUDAHIST_UNROLL
      for (uint32_t k = 0; k < 4; ++k) {
        CountBin<kPacked>(group_slots + ((j + k) % 4) * uint32_t(sizeof(uint32_t)), ByteOf(rotated, k));
      }
    });
  } else {  // the last word of a band whose width is not a multiple of 4
    WalkRows<4, kRows, false>(at, step, rows, [&](uint32_t word) {
      for (uint32_t m = 0; m < valid; ++m) {
        CountBin<kPacked>(group_slots + m * uint32_t(sizeof(uint32_t)), ByteOf(word, m));
      }
    });
  }
}

// CountBand's byte walk (ColumnPlan::bytes) under CUDAHIST_COLUMN_LEAN_COUNT:
// the same rows, lanes and counters, one division for the lane's row count.
template <uint32_t kV>
__device__ __forceinline__ void CountBandBytes(const ColumnPlan& p, const ColumnItem& it, uint32_t counters) {
  constexpr uint32_t kRows = ColumnShape<kV>::kRowsInFlight;
  constexpr bool kPrefetch = ColumnShape<kV>::kPrefetch;
  constexpr uint32_t kColumnBytes = kColumnTileBins * 32 * uint32_t(sizeof(uint32_t));
  const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const uint32_t rows_per_warp = 32 / p.row_lanes;
  const uint32_t lx = (lane % p.row_lanes) * kV;
  const uint32_t first = it.y0 + warp * rows_per_warp + lane / p.row_lanes;
  if (lx >= it.columns || first >= it.y1) return;
  const uint32_t round = warps * rows_per_warp;  // rows one load of every warp covers
  const uint32_t rows = (it.y1 - first + round - 1) / round;
  const SampleGrid& g = p.grid;
  const uint8_t* at = g.first + uint64_t(it.x0 + lx) * g.stride + uint64_t(first) * g.pitch;
  const uint64_t step = uint64_t(round) * g.pitch;
  const uint32_t lane_counters = counters + lane * uint32_t(sizeof(uint32_t));
  if constexpr (kV == 1) {
    if (kColumnCounters16 && p.counters16) {
      WalkRows<1, kRows, kPrefetch>(at, step, rows, [&](uint32_t bin) { CountBin<true>(lane_counters, bin); });
    } else {
      WalkRows<1, kRows, kPrefetch>(at, step, rows, [&](uint32_t bin) { CountBin<false>(lane_counters, bin); });
    }
  } else {
    const uint32_t valid = min(kV, it.columns - lx);  // below kV only in the last lane of a band
    if (valid == kV) {
      WalkRows<4, kRows, kPrefetch>(at, step, rows, [&](uint32_t word) {
CUDAHIST_UNROLL
        for (uint32_t k = 0; k < kV; ++k) SharedIncrement(lane_counters + k * kColumnBytes + (ByteOf(word, k) << 7));
      });
    } else {
      WalkRows<4, kRows, kPrefetch>(at, step, rows, [&](uint32_t word) {
        for (uint32_t k = 0; k < valid; ++k) SharedIncrement(lane_counters + k * kColumnBytes + (ByteOf(word, k) << 7));
      });
    }
  }
}

// Counts this lane's columns of the item's rows into the block's counters
// (shared-window address `counters`). kBytes: 8-bit samples that are their own
// bin (depth 8, no shift, 256 bins: luma, seed 004's channels), loaded as one
// byte (V = 1) or one aligned 32-bit word of four columns (V = 4), each count
// a byte extract, a shift-add and a shared reduction; otherwise any layout,
// sample by sample, through the bin arithmetic and the tile test.
// kWordWalk: the word walk (ColumnPlan::word_loads), a kernel of its own (with
// the byte walk beside it in one kernel, ptxas spilled 160 to 280 bytes).
template <uint32_t kV, bool kBytes, bool kWordWalk>
__device__ __forceinline__ void CountBand(const ColumnPlan& p, const ColumnItem& it, uint32_t counters) {
  if constexpr (kWordWalk) {
    static_assert(kV == 1 && kBytes && kColumnWordLoads, "word loads: V = 1 bytes");
    if (kColumnCounters16 && p.counters16) {
      CountBandWords<true>(p, it, counters);
    } else {
      CountBandWords<false>(p, it, counters);
    }
    return;
  }
  if constexpr (kBytes && kColumnLeanCount) {
    CountBandBytes<kV>(p, it, counters);
    return;
  }
  // Per-sample loads of four columns hold four words per row: half the rows
  // keep them in registers (1024 threads leave 64 registers a thread).
  constexpr uint32_t kRows = kV == 1 || kBytes ? ColumnShape<kV>::kRowsInFlight : ColumnShape<kV>::kRowsInFlight / 2;
  constexpr uint32_t kWords = kBytes ? 1 : kV;  // registers per row
  // The 32 / row_lanes lanes groups of a warp take one row each.
  const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const uint32_t rows_per_warp = 32 / p.row_lanes;
  const uint32_t lx = (lane % p.row_lanes) * kV;
  if (lx >= it.columns) return;
  const SampleGrid& g = p.grid;
  const uint8_t* column0 = g.first + uint64_t(it.x0 + lx) * g.stride;
  const uint32_t lane_counters = counters + lane * uint32_t(sizeof(uint32_t));
  const uint32_t round = warps * rows_per_warp;  // rows one load of every warp covers
  auto load = [&](uint32_t y, uint32_t (&word)[kRows][kWords]) {
CUDAHIST_UNROLL
    for (uint32_t r = 0; r < kRows; ++r) {
      const uint32_t yr = y + r * round;
      if (yr >= it.y1) break;
      const uint8_t* at = column0 + uint64_t(yr) * g.pitch;
      if constexpr (kBytes && kV == 4) {
        word[r][0] = __ldg(reinterpret_cast<const unsigned int*>(at));
      } else if constexpr (kBytes) {
        word[r][0] = __ldg(at);
      } else {
CUDAHIST_UNROLL
        for (uint32_t k = 0; k < kV; ++k) word[r][k] = lx + k < it.columns ? LoadSample(at + k * g.stride, g.sample_size) : 0;
      }
    }
  };
  auto count = [&](uint32_t y, const uint32_t (&word)[kRows][kWords]) {
CUDAHIST_UNROLL
    for (uint32_t r = 0; r < kRows; ++r) {
      if (y + r * round >= it.y1) break;
CUDAHIST_UNROLL
      for (uint32_t k = 0; k < kV; ++k) {
        if (lx + k >= it.columns) break;
        if constexpr (kBytes) {
          const uint32_t bin = kV == 4 ? ByteOf(word[r][0], k) : word[r][0];
          SharedIncrement(lane_counters + (((k << 8) | bin) << 7));  // word (k * 256 + bin) * 32 + lane
        } else {
          const uint32_t rel = BinOfWord(g, word[r][k % kWords], p.bins) - it.tile_begin;
          if (rel < it.tile_len) SharedIncrement(lane_counters + (k * it.tile_len + rel) * 32 * uint32_t(sizeof(uint32_t)));
        }
      }
    }
  };
  const uint32_t first = it.y0 + warp * rows_per_warp + lane / p.row_lanes;
  const uint32_t step = round * kRows;
  uint32_t word[kRows][kWords];
  if constexpr (ColumnShape<kV>::kPrefetch && kBytes) {  // the generic walk's words would spill
    // The next batch's loads are in flight while this one is counted.
    if (first < it.y1) load(first, word);
    for (uint32_t y = first; y < it.y1; y += step) {
      uint32_t next[kRows][kWords];
      if (y + step < it.y1) load(y + step, next);
      count(y, word);
CUDAHIST_UNROLL
      for (uint32_t r = 0; r < kRows; ++r) {
CUDAHIST_UNROLL
        for (uint32_t k = 0; k < kWords; ++k) word[r][k] = next[r][k];
      }
    }
  } else {
    for (uint32_t y = first; y < it.y1; y += step) {
      load(y, word);
      count(y, word);
    }
  }
}

// --- the flush of CUDAHIST_COLUMN_SHUFFLE_FLUSH (scopes_tuning.h) -------------
// One butterfly step of a reduce-scatter over the lanes `offset` apart: of its
// first kN words a lane keeps the half its lane bit selects (upper half when
// set), plus its partner's copy of that half; the kept half moves to the front.
template <uint32_t kN, uint32_t kSize>
__device__ __forceinline__ void ReduceScatterStep(uint32_t (&v)[kSize], uint32_t offset, uint32_t lane) {
  constexpr uint32_t kHalf = kN / 2;
  const bool upper = (lane & offset) != 0;
CUDAHIST_UNROLL
  for (uint32_t i = 0; i < kHalf; ++i) {
    const uint32_t send = upper ? v[i] : v[i + kHalf];
    const uint32_t keep = upper ? v[i + kHalf] : v[i];
    v[i] = keep + __shfl_xor_sync(0xffffffffu, send, offset);
  }
}

// Over the row bits of the lane (the highest, lane bit 4, first): afterwards
// the lane of row r holds words [r kN / kQ, (r + 1) kN / kQ) summed over the
// kQ lanes of its column.
template <uint32_t kQ, uint32_t kN, uint32_t kSize>
__device__ __forceinline__ void ReduceScatterRows(uint32_t (&v)[kSize], uint32_t offset, uint32_t lane) {
  if constexpr (kQ > 1) {
    ReduceScatterStep<kN>(v, offset, lane);
    ReduceScatterRows<kQ / 2, kN / 2>(v, offset / 2, lane);
  }
}

// Direct counts of a V = 1 band whose every column is its own group; kQ =
// 32 / row_lanes lanes counted each column (lane = row * row_lanes + column).
// Every warp takes groups of kGroupBins bins: one conflict-free row of the
// counters per bin (per two bins when kPacked), the reduce-scatter over the
// rows, then each lane stores kGroupBins / kQ consecutive counts of its column.
template <uint32_t kQ, bool kPacked>
__device__ __forceinline__ void FlushByShuffle(const ColumnPlan& p, const ColumnItem& it, const uint32_t* counters,
                                               uint32_t* counts) {
  constexpr uint32_t kGroupBins = kQ == 4 ? 16 : 8;  // 4 or 8 bins a lane: fewer registers than 16
  constexpr uint32_t kWords = kPacked ? kGroupBins / 2 : kGroupBins;
  constexpr uint32_t kLaneBins = kGroupBins / kQ;  // a multiple of 4
  constexpr uint32_t kRowLanes = 32 / kQ;
  const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const uint32_t column = lane % kRowLanes, row = lane / kRowLanes;
  const uint32_t groups = (it.tile_len + kGroupBins - 1) / kGroupBins;
  // 16-byte stores where the counts allow them (cudaMalloc'd counts do;
  // a caller's pointer may be 4-byte aligned only).
  const bool vector = reinterpret_cast<uintptr_t>(counts) % 16 == 0 && p.bins % 4 == 0;
  uint32_t* column_counts = counts + uint64_t(it.first_group + column) * p.bins + it.tile_begin;
  for (uint32_t grp = warp; grp < groups; grp += warps) {
    const uint32_t b0 = grp * kGroupBins;
    // Bins past tile_len read counters that were not zeroed; their sums are
    // never stored.
    uint32_t v[kWords];
CUDAHIST_UNROLL
    for (uint32_t i = 0; i < kWords; ++i) v[i] = counters[((kPacked ? b0 / 2 : b0) + i) * 32 + lane];
    ReduceScatterRows<kQ, kWords>(v, 16, lane);
    uint32_t sum[kLaneBins];
CUDAHIST_UNROLL
    for (uint32_t j = 0; j < kLaneBins; ++j) sum[j] = kPacked ? (v[j / 2] >> (16 * (j % 2))) & 0xffffu : v[j];
    if (column >= it.columns) continue;
    const uint32_t bin0 = b0 + row * kLaneBins;
CUDAHIST_UNROLL
    for (uint32_t q = 0; q < kLaneBins; q += 4) {
      if (vector && bin0 + q + 4 <= it.tile_len) {
        *reinterpret_cast<uint4*>(column_counts + bin0 + q) = make_uint4(sum[q], sum[q + 1], sum[q + 2], sum[q + 3]);
      } else {
CUDAHIST_UNROLL
        for (uint32_t j = 0; j < 4; ++j) {
          if (bin0 + q + j < it.tile_len) column_counts[bin0 + q + j] = sum[q + j];
        }
      }
    }
  }
}

template <bool kPacked>
__device__ __forceinline__ void FlushByShuffle(const ColumnPlan& p, const ColumnItem& it, const uint32_t* counters,
                                               uint32_t* counts) {
  switch (p.row_lanes) {
    case 32: return FlushByShuffle<1, kPacked>(p, it, counters, counts);
    case 16: return FlushByShuffle<2, kPacked>(p, it, counters, counts);
    default: return FlushByShuffle<4, kPacked>(p, it, counters, counts);  // 8 (BuildColumnPlan)
  }
}

// CUDAHIST_COLUMN_NATIVE_PARTIALS (V = 4): the counters of each k (tile_len
// x 32 words, contiguous) to their place in the slice's partials, every thread
// 16 bytes a store (eight 16-bit partials when p.partials16).
__device__ __forceinline__ void FlushNative(const ColumnPlan& p, const ColumnItem& it, const uint32_t* counters,
                                            uint32_t* partials) {
  constexpr uint32_t kV = 4;
  const uint32_t words = it.tile_len * 32;  // a multiple of 32
CUDAHIST_UNROLL
  for (uint32_t k = 0; k < kV; ++k) {
    const uint4* from = reinterpret_cast<const uint4*>(counters + k * words);
    const uint64_t first = ((uint64_t(it.slice) * p.bands + it.band) * kV * p.bins + uint64_t(k) * p.bins +
                            it.tile_begin) * 32;
    if (p.partials16) {
      uint4* to = reinterpret_cast<uint4*>(reinterpret_cast<uint16_t*>(partials) + first);
      for (uint32_t i = threadIdx.x; i < words / 8; i += blockDim.x) {
        const uint4 a = from[2 * i], b = from[2 * i + 1];
        to[i] = make_uint4(a.x | (a.y << 16), a.z | (a.w << 16), b.x | (b.y << 16), b.z | (b.w << 16));
      }
    } else {
      uint4* to = reinterpret_cast<uint4*>(partials + first);
      for (uint32_t i = threadIdx.x; i < words / 4; i += blockDim.x) to[i] = from[i];
    }
  }
}

// Writes the block's counters group-major: 32 bins at a time per flushing
// warp, transposed through the warp's stage (lane = column on the way in,
// lane = bin on the way out; the 33-word pitch keeps both conflict-free), the
// lanes that counted one column (one per row a warp load covers) and the
// columns of one group summed in band order.
template <uint32_t kV, bool kBytes>
__device__ __forceinline__ void FlushBand(const ColumnPlan& p, const ColumnItem& it, const uint32_t* counters,
                                          uint32_t* stages, const uint32_t* column_slot, uint32_t* partials,
                                          uint32_t* counts) {
  if constexpr (kV == 1 && kColumnShuffleFlush) {
    if (p.shuffle_flush) {
      if (kBytes && kColumnCounters16 && p.counters16) {
        FlushByShuffle<true>(p, it, counters, counts);
      } else {
        FlushByShuffle<false>(p, it, counters, counts);
      }
      return;
    }
  }
  if constexpr (kV == 4 && kColumnNativePartials) {
    if (p.native_partials) return FlushNative(p, it, counters, partials);
  }
  const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  constexpr uint32_t kFlushWarps = ColumnShape<kV>::kFlushWarps;
  if (warp >= kFlushWarps) return;
  uint32_t* stage = stages + warp * ColumnShape<kV>::kStageWords;
  const uint32_t chunks = (it.tile_len + 31) / 32;
  auto emit = [&](uint32_t slot, uint32_t bin, uint32_t sum) {
    if (bin >= it.tile_len) return;
    const uint32_t out_bin = it.tile_begin + bin;
    if (p.direct) {
      counts[uint64_t(it.first_group + slot) * p.bins + out_bin] = sum;
    } else {
      const uint64_t at = (uint64_t(it.slice * p.bands + it.band) * p.slots + slot) * p.bins + out_bin;
      if (p.partials16) {
        reinterpret_cast<uint16_t*>(partials)[at] = uint16_t(sum);
      } else {
        partials[at] = sum;
      }
    }
  };
  for (uint32_t c = warp; c < chunks; c += kFlushWarps) {
    const uint32_t b0 = c * 32;
CUDAHIST_UNROLL
    for (uint32_t k = 0; k < kV; ++k) {
      for (uint32_t i = 0; i < 32; ++i) {
        const uint32_t v = b0 + i < it.tile_len ? counters[(k * it.tile_len + b0 + i) * 32 + lane] : 0;
        stage[(k * 32 + lane) * kStagePitch + i] = v;
      }
    }
    __syncwarp();
    // Column col was counted by lane (col / kV) + row * row_lanes, at k = col % kV.
    auto column_sum = [&](uint32_t col) {
      uint32_t sum = 0;
      for (uint32_t row = col / kV; row < 32; row += p.row_lanes) sum += stage[((col % kV) * 32 + row) * kStagePitch + lane];
      return sum;
    };
    if (kColumnFlushPerColumn && p.groups == p.width) {
      // One group per column (full-width waveforms, seed 004's channels):
      // column col is slot col, the sums are independent, and unrolled their
      // shared loads are in flight together instead of one column at a time.
#pragma unroll 4
      for (uint32_t col = 0; col < it.columns; ++col) emit(col, b0 + lane, column_sum(col));
    } else {
      uint32_t slot = column_slot[0];
      uint32_t sum = 0;
      for (uint32_t col = 0; col < it.columns; ++col) {
        const uint32_t s = column_slot[col];
        if (s != slot) {
          emit(slot, b0 + lane, sum);
          slot = s;
          sum = 0;
        }
        sum += column_sum(col);
      }
      emit(slot, b0 + lane, sum);
    }
    __syncwarp();  // the stage is refilled for the next chunk
  }
}

// The sum of one partial over the slices (`stride` words apart).
template <typename T>
__device__ __forceinline__ uint32_t SumOverSlices(const T* partial, uint64_t stride, uint32_t slices) {
  uint32_t sum = 0;
  uint32_t s = 0;
  for (; s + kReduceLoads <= slices; s += kReduceLoads) {
    uint32_t v[kReduceLoads];
CUDAHIST_UNROLL
    for (uint32_t j = 0; j < kReduceLoads; ++j) v[j] = __ldcg(partial + (s + j) * stride);
CUDAHIST_UNROLL
    for (uint32_t j = 0; j < kReduceLoads; ++j) sum += v[j];
  }
  for (; s < slices; ++s) sum += __ldcg(partial + s * stride);
  return sum;
}

// The second phase over native partials (FlushNative): partial i of a slice
// is lane i % 32's counter of bin (i / 32) % bins of its column k of the band.
__device__ __forceinline__ void ReduceNativePartials(const ColumnPlan& p, const uint32_t* partials, uint32_t* counts) {
  constexpr uint32_t kV = 4;
  const uint64_t slice_words = uint64_t(p.bands) * kV * p.bins * 32;
  const uint64_t threads = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < slice_words; i += threads) {
    const uint32_t lane = uint32_t(i % 32);
    const uint32_t band_k = DivideWide(i / 32, p.bins);
    const uint32_t bin = uint32_t(i / 32 - uint64_t(band_k) * p.bins);
    const uint32_t column = (band_k / kV) * 32 * kV + lane * kV + band_k % kV;
    if (column >= p.width) continue;
    counts[uint64_t(column) * p.bins + bin] =
        p.partials16 ? SumOverSlices(reinterpret_cast<const uint16_t*>(partials) + i, slice_words, p.slices)
                     : SumOverSlices(partials + i, slice_words, p.slices);
  }
}

template <uint32_t kV>
__device__ __forceinline__ void ReducePartials(const ColumnPlan& p, const uint32_t* partials, uint32_t* counts) {
  if constexpr (kV == 4 && kColumnNativePartials) {
    if (p.native_partials) return ReduceNativePartials(p, partials, counts);
  }
  const uint64_t total = uint64_t(p.groups) * p.bins;
  const uint64_t threads = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += threads) {
    const uint32_t g = DivideWide(i, p.bins);
    const uint32_t bin = uint32_t(i - uint64_t(g) * p.bins);
    uint32_t sum = 0;
    if (p.width != 0 && p.slices != 0) {
      const uint32_t band_first =
          p.groups_per_band != 0 ? g / p.groups_per_band : FirstColumnOfGroup(p, g) / p.band_columns;
      const uint32_t band_last =
          p.groups_per_band != 0 ? band_first : (FirstColumnOfGroup(p, g + 1) - 1) / p.band_columns;
      for (uint32_t band = band_first; band <= band_last; ++band) {
        const uint32_t slot = g - (p.groups_per_band != 0 ? band * p.groups_per_band
                                                          : GroupOfColumn(p, band * p.band_columns));
        // __ldcg: written by other SMs in this launch; read them from L2,
        // kReduceLoads at a time (seed 004's workload sums 33 slices).
        const uint64_t first = (uint64_t(band) * p.slots + slot) * p.bins + bin;
        const uint64_t slice_words = uint64_t(p.bands) * p.slots * p.bins;
        sum += p.partials16 ? SumOverSlices(reinterpret_cast<const uint16_t*>(partials) + first, slice_words, p.slices)
                            : SumOverSlices(partials + first, slice_words, p.slices);
      }
    }
    counts[i] = sum;
  }
}

// One kernel per walk (both walks of V = 4 in one kernel spilled registers:
// ptxas, 1024 threads, 64 registers each).
template <uint32_t kV, bool kBytes, bool kWordWalk = false>
__global__ void __launch_bounds__(ColumnShape<kV>::kThreads, ColumnShape<kV>::kMinBlocksPerSm)
    ColumnHistogramKernel(const ColumnPlan plan, uint32_t* partials, uint32_t* counts) {
  using Shape = ColumnShape<kV>;
  extern __shared__ uint32_t shared[];
  uint32_t* counters = shared;
  uint32_t* stages = shared + Shape::kCounterWords;
  uint32_t* column_slot = stages + Shape::kFlushWarps * Shape::kStageWords;
  const uint32_t counters_address = uint32_t(__cvta_generic_to_shared(counters));
  const uint32_t items = plan.bands * plan.tiles * plan.slices;
  AllowDependentGridsToLaunch();  // both no-ops unless launched programmatically (LaunchColumn)
  for (uint32_t item = blockIdx.x; item < items; item += gridDim.x) {
    const ColumnItem it = ItemOf(plan, item);
    const uint32_t counter_words = (kV * 32 * it.tile_len) >> (kColumnCounters16 && plan.counters16 ? 1 : 0);
    if (kColumnLeanItem) {
      ZeroSharedVector(counters, counter_words);
    } else {
      ZeroShared(counters, counter_words);
    }
    // The table of groups: only the flush of groups wider than a column reads it.
    const bool column_groups = plan.groups == plan.width && kColumnFlushPerColumn;
    if (!(kColumnLeanItem && column_groups) && threadIdx.x < it.columns) {
      column_slot[threadIdx.x] = GroupOfColumn(plan, it.x0 + threadIdx.x) - it.first_group;
    }
    __syncthreads();
    WaitForPriorGrids();  // before the first read of the frame and write of the counts
    CountBand<kV, kBytes, kWordWalk>(plan, it, counters_address);
    __syncthreads();
    FlushBand<kV, kBytes>(plan, it, counters, stages, column_slot, partials, counts);
    __syncthreads();  // the next item zeroes the counters again
  }
  if (plan.direct) return;  // uniform over the grid: every block skips the sync
  WaitForPriorGrids();        // a block with no item has not waited yet
  cooperative_groups::this_grid().sync();  // includes the fence that publishes the partials
  ReducePartials<kV>(plan, partials, counts);
}

Status ConfigureColumnKernel(const DeviceLimits& limits, const void* kernel, uint32_t threads, uint32_t shared_bytes,
                             const char* name, KernelConfig* config) {
  *config = KernelConfig();
  return ConfigureKernel(limits, kernel, threads, 1, shared_bytes, name, config);
}

// The largest number of groups that one band touches, and whether a group
// lies across a band boundary.
void BandGroups(uint32_t width, uint32_t groups, uint32_t band_columns, uint32_t* slots, bool* spans) {
  *slots = 1;
  *spans = false;
  for (uint32_t x0 = 0; x0 < width; x0 += band_columns) {
    const uint32_t x1 = std::min<uint64_t>(uint64_t(x0) + band_columns, width) - 1;
    *slots = std::max(*slots, ColumnGroupOf(x1, groups, width) - ColumnGroupOf(x0, groups, width) + 1);
    if (x0 > 0 && ColumnGroupOf(x0 - 1, groups, width) == ColumnGroupOf(x0, groups, width)) *spans = true;
  }
}

// Lanes that share a row at V = 1: 32 (bands of 32 columns) unless that
// leaves fewer bands than half the blocks the GPU holds at once; then 16 or 8
// (narrower bands, each warp load covering 2 or 4 rows), so that a 1080p or
// 4K frame is spread over every SM without cutting its rows into slices.
uint32_t RowLanes(const ColumnPlan& p, const KernelConfig& kernel) {
  if (p.lane_columns != 1) return 32;
  uint32_t lanes = 32;
  while (lanes > kColumnMinRowLanes && (uint64_t(p.width) + lanes - 1) / lanes * 2 < kernel.resident_blocks) lanes /= 2;
  return lanes;
}

const KernelConfig& KernelOf(const ColumnKernels& kernels, const ColumnPlan& plan) {
  if (plan.word_loads) return kernels.narrow_words;
  if (plan.lane_columns == 1) return plan.bytes ? kernels.narrow_bytes : kernels.narrow;
  return plan.bytes ? kernels.wide_bytes : kernels.wide;
}

}  // namespace

Status ConfigureColumnKernels(const DeviceLimits& limits, ColumnKernels* kernels) {
  struct Entry {
    const void* kernel;
    uint32_t threads;
    uint32_t shared_bytes;
    const char* name;
    KernelConfig* config;
  };
  const Entry entries[] = {
      {reinterpret_cast<const void*>(&ColumnHistogramKernel<1, false>), ColumnShape<1>::kThreads,
       ColumnShape<1>::kSharedBytes,
       "column (32-column bands)", &kernels->narrow},
      {reinterpret_cast<const void*>(&ColumnHistogramKernel<1, true>), ColumnShape<1>::kThreads,
       ColumnShape<1>::kSharedBytes,
       "column (32-column bands, bytes)", &kernels->narrow_bytes},
      {reinterpret_cast<const void*>(&ColumnHistogramKernel<4, false>), ColumnShape<4>::kThreads,
       ColumnShape<4>::kSharedBytes,
       "column (128-column bands)", &kernels->wide},
      {reinterpret_cast<const void*>(&ColumnHistogramKernel<4, true>), ColumnShape<4>::kThreads,
       ColumnShape<4>::kSharedBytes,
       "column (128-column bands, 32-bit loads of bytes)", &kernels->wide_bytes},
  };
  for (const Entry& e : entries) {
    CUDAHIST_RETURN_IF_ERROR(ConfigureColumnKernel(limits, e.kernel, e.threads, e.shared_bytes, e.name, e.config));
  }
#if CUDAHIST_COLUMN_WORD_LOADS  // the kernel exists only then
  CUDAHIST_RETURN_IF_ERROR(ConfigureColumnKernel(
      limits, reinterpret_cast<const void*>(&ColumnHistogramKernel<1, true, true>), ColumnShape<1>::kThreads,
      ColumnShape<1>::kSharedBytes, "column (32-column bands, 32-bit loads of bytes)", &kernels->narrow_words));
#endif
  return Status::Ok();
}

uint64_t ColumnPartialWords(const ColumnPlan& plan) {
  return plan.direct ? 0 : uint64_t(plan.slices) * plan.bands * plan.slots * plan.bins;
}

Status BuildColumnPlan(const ColumnKernels& kernels, const ColumnHistogramSpec& spec, const PlaneView& plane,
                       uint64_t partial_words, ColumnPlan* plan) {
  ColumnPlan p{};
  const Roi region = CountedRegion(plane);
  p.grid = SampleGridOf(plane);
  p.width = region.width;
  p.height = region.height;
  p.groups = spec.groups;
  p.bins = spec.bins;
  p.lane_columns = p.height >= kColumnWideMinRows ? 4 : 1;
  const bool byte_is_bin = p.grid.sample_size == 1 && p.grid.shift == 0 && p.grid.depth == 8 && p.bins == 256;
  const bool word_aligned = p.grid.stride == 1 && reinterpret_cast<uintptr_t>(p.grid.first) % 4 == 0 &&
                            p.grid.pitch % 4 == 0;
  p.bytes = byte_is_bin && (p.lane_columns == 1 || word_aligned);
  const KernelConfig& kernel = KernelOf(kernels, p);
  if (!kernel.supported) return Status::Unsupported(kernel.why);
  p.row_lanes = RowLanes(p, kernel);
  p.band_columns = p.row_lanes * p.lane_columns;
  p.tile_bins = std::min(p.bins, kColumnTileBins);
  p.tiles = (p.bins + p.tile_bins - 1) / p.tile_bins;
  if (p.width == 0) {  // nothing to count: phase 2 alone writes the zeros
    p.bands = p.slices = p.slots = 0;
    p.direct = false;
    *plan = p;
    return Status::Ok();
  }
  bool spans = false;
  const uint32_t widest_group = (p.width + p.groups - 1) / p.groups;
  if (p.lane_columns == 1 && widest_group <= p.band_columns) {
    // Bands of whole groups (as many as fit the band): no group straddles
    // two bands, so one slice writes the counts directly (a 1024-column
    // waveform of a 1920-wide frame). Not at V = 4, whose 32-bit loads need
    // bands that start on a multiple of 4 columns.
    p.groups_per_band = p.band_columns / widest_group;
    p.bands = (p.groups + p.groups_per_band - 1) / p.groups_per_band;
    p.slots = p.groups_per_band;
  } else {
    // Groups wider than the band: bands of 32 x V columns from column 0 (the
    // fewest bands, so the fewest partials: one set per band and slice).
    p.row_lanes = 32;
    p.band_columns = p.row_lanes * p.lane_columns;
    p.bands = (p.width + p.band_columns - 1) / p.band_columns;
    BandGroups(p.width, p.groups, p.band_columns, &p.slots, &spans);
    // Native partials hold a band's every lane position (band_columns), its
    // last band's too.
    if (kColumnNativePartials && p.lane_columns == 4 && p.groups == p.width) p.slots = p.band_columns;
  }
  const uint32_t per_slice = p.bands * p.tiles;
  const uint32_t by_residency = (kernel.resident_blocks + per_slice - 1) / per_slice;
  const uint32_t by_rows = std::max<uint32_t>(1, p.height / kColumnMinRowsPerSlice);
  p.slices = std::max<uint32_t>(1, std::min(by_residency, by_rows));
  p.direct = p.slices == 1 && !spans;
  if (!p.direct) {
    const uint64_t per_slice_words = uint64_t(p.bands) * p.slots * p.bins;
    const uint64_t fit = partial_words / per_slice_words;
    if (fit == 0) {
      return Status::Unsupported("spec: " + std::to_string(p.groups) + " groups x " + std::to_string(p.bins) +
                                 " bins over " + std::to_string(p.width) + " columns need " +
                                 std::to_string(per_slice_words * 4) + " bytes of partials, more than the " +
                                 std::to_string(partial_words * 4) + " the ColumnHistogrammer holds");
    }
    p.slices = uint32_t(std::min<uint64_t>(p.slices, fit));
    p.direct = p.slices == 1 && !spans;
    // A partial counts at most a slice's rows x the group's columns in one band.
    const uint64_t slice_rows = (uint64_t(p.height) + p.slices - 1) / p.slices;
    p.partials16 = kColumnPartials16 && slice_rows * std::min(widest_group, p.band_columns) <= UINT16_MAX;
  }
  const bool column_groups = p.direct && p.groups == p.width && p.groups_per_band != 0;
  p.simple_items = kColumnLeanItem && column_groups && p.slices == 1 && p.tiles == 1;
  p.shuffle_flush = kColumnShuffleFlush && column_groups && p.lane_columns == 1 && p.row_lanes >= 8;
  // A column's count of one bin is at most the height: 16 bits hold it.
  p.counters16 = kColumnCounters16 && kColumnLeanCount && p.shuffle_flush && p.bytes && p.height <= UINT16_MAX;
  // Every band must start on a multiple of 4 columns: bands of whole
  // one-column groups (multiples of row_lanes) or of 32 columns from column 0.
  p.word_loads = kColumnWordLoads && kColumnLeanCount && p.lane_columns == 1 && p.bytes && word_aligned &&
                 (p.groups_per_band == 0 || p.groups == p.width) && kernels.narrow_words.supported;
  p.native_partials = kColumnNativePartials && p.lane_columns == 4 && p.groups == p.width && !p.direct;
  *plan = p;
  return Status::Ok();
}

Status LaunchColumn(const ColumnKernels& kernels, const ColumnPlan& plan, uint32_t* partials, uint32_t* counts,
                    cudaStream_t stream) {
  const KernelConfig& kernel = KernelOf(kernels, plan);
  const uint32_t items = plan.bands * plan.tiles * plan.slices;
  const uint32_t grid = std::max<uint32_t>(1, std::min(kernel.resident_blocks, items));
  ColumnPlan plan_arg = plan;
  void* args[] = {&plan_arg, &partials, &counts};
  if (plan.direct) {
    return CudaStatus(LaunchKernelSerialized(kernel.kernel, dim3(grid), kernel.threads, kernel.shared_bytes, args,
                                             stream, kScopesProgrammaticLaunch),
                      "column histogram kernel launch");
  }
  return CudaStatus(cudaLaunchCooperativeKernel(kernel.kernel, dim3(grid), dim3(kernel.threads), args,
                                                kernel.shared_bytes, stream),
                    "column histogram kernel launch (cooperative)");
}

}  // namespace cudahist::detail
