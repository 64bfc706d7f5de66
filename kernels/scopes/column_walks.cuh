// cudahist: phase 1 of the per-column kernel (column_histogram.cu), the
// walk: how a block's lanes read the rows of its band and count each sample
// into their own counters (the byte walk, and the general walk of wider
// samples).
#pragma once

#include <cstdint>

#include "scopes/column_shape.cuh"

namespace cudahist::detail {

// --- the byte walk: whole batches of rows without a test per row or column,
// row addresses by increments (the count of tall planes was issue-bound at
// some 42 instructions a word: docs/tuning.md) ---------------------------------
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
// with the next batch's loads in flight while one is counted.
template <uint32_t kWordBytes, uint32_t kRows, class Count>
__device__ __forceinline__ void WalkRows(const uint8_t* at, uint64_t step, uint32_t rows, const Count& count) {
  const uint64_t batch_step = step * kRows;
  const uint32_t full = rows / kRows, rest = rows % kRows;
  uint32_t word[kRows];
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

// CountBand's byte walk (ColumnPlan::bytes): the lanes and counters of the
// general walk, one division for the lane's row count.
template <uint32_t kV>
__device__ __forceinline__ void CountBandBytes(const ColumnPlan& p, const ColumnItem& it, uint32_t counters) {
  constexpr uint32_t kRows = ColumnShape<kV>::kRowsInFlight;
  constexpr uint32_t kColumnBytes = kColumnPolicy.tile_bins * 32 * uint32_t(sizeof(uint32_t));
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
    if (p.counters16) {
      WalkRows<1, kRows>(at, step, rows, [&](uint32_t bin) { CountBin<true>(lane_counters, bin); });
    } else {
      WalkRows<1, kRows>(at, step, rows, [&](uint32_t bin) { CountBin<false>(lane_counters, bin); });
    }
  } else {
    const uint32_t valid = min(kV, it.columns - lx);  // below kV only in the last lane of a band
    if (valid == kV) {
      WalkRows<4, kRows>(at, step, rows, [&](uint32_t word) {
CUDAHIST_UNROLL
        for (uint32_t k = 0; k < kV; ++k) SharedIncrement(lane_counters + k * kColumnBytes + (ByteOf(word, k) << 7));
      });
    } else {
      WalkRows<4, kRows>(at, step, rows, [&](uint32_t word) {
        for (uint32_t k = 0; k < valid; ++k) SharedIncrement(lane_counters + k * kColumnBytes + (ByteOf(word, k) << 7));
      });
    }
  }
}

// Counts this lane's columns of the item's rows into the block's counters
// (shared-window address `counters`). kBytes: 8-bit samples that are their own
// bin (depth 8, no shift, 256 bins: luma, tall multi-channel planes), the byte
// walk: loaded as one byte (V = 1) or one aligned 32-bit word of four columns
// (V = 4), each count a byte extract, a shift-add and a shared reduction;
// otherwise any layout, sample by sample, through the bin arithmetic and the
// tile test.
template <uint32_t kV, bool kBytes>
__device__ __forceinline__ void CountBand(const ColumnPlan& p, const ColumnItem& it, uint32_t counters) {
  if constexpr (kBytes) {
    CountBandBytes<kV>(p, it, counters);
  } else {
    // Per-sample loads of four columns hold four words per row: half the rows
    // keep them in registers (1024 threads leave 64 registers a thread).
    constexpr uint32_t kRows = kV == 1 ? ColumnShape<kV>::kRowsInFlight : ColumnShape<kV>::kRowsInFlight / 2;
    // The 32 / row_lanes lanes groups of a warp take one row each.
    const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    const uint32_t rows_per_warp = 32 / p.row_lanes;
    const uint32_t lx = (lane % p.row_lanes) * kV;
    if (lx >= it.columns) return;
    const SampleGrid& g = p.grid;
    const uint8_t* column0 = g.first + uint64_t(it.x0 + lx) * g.stride;
    const uint32_t lane_counters = counters + lane * uint32_t(sizeof(uint32_t));
    const uint32_t round = warps * rows_per_warp;  // rows one load of every warp covers
    auto load = [&](uint32_t y, uint32_t (&word)[kRows][kV]) {
CUDAHIST_UNROLL
      for (uint32_t r = 0; r < kRows; ++r) {
        const uint32_t yr = y + r * round;
        if (yr >= it.y1) break;
        const uint8_t* at = column0 + uint64_t(yr) * g.pitch;
CUDAHIST_UNROLL
        for (uint32_t k = 0; k < kV; ++k) word[r][k] = lx + k < it.columns ? LoadSample(at + k * g.stride, g.sample_size) : 0;
      }
    };
    auto count = [&](uint32_t y, const uint32_t (&word)[kRows][kV]) {
CUDAHIST_UNROLL
      for (uint32_t r = 0; r < kRows; ++r) {
        if (y + r * round >= it.y1) break;
CUDAHIST_UNROLL
        for (uint32_t k = 0; k < kV; ++k) {
          if (lx + k >= it.columns) break;
          const uint32_t rel = BinOfWord(g, word[r][k], p.bins) - it.tile_begin;
          if (rel < it.tile_len) SharedIncrement(lane_counters + (k * it.tile_len + rel) * 32 * uint32_t(sizeof(uint32_t)));
        }
      }
    };
    const uint32_t first = it.y0 + warp * rows_per_warp + lane / p.row_lanes;
    const uint32_t step = round * kRows;
    uint32_t word[kRows][kV];
    for (uint32_t y = first; y < it.y1; y += step) {
      load(y, word);
      count(y, word);
    }
  }
}

}  // namespace cudahist::detail
