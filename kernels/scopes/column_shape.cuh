// cudahist: what the per-column kernel (column_histogram.cu) and its walks
// and flushes share: the block's shape at V = 1 or 4, the work item (band,
// bin tile, slice) and the group arithmetic of a plan. Included by
// column_histogram.cu only (device code).
#pragma once

#include <cstdint>

#include "device/plan_walk.cuh"
#include "launch/launch_tuning.h"
#include "scopes/scopes_launch.h"
#include "scopes/scopes_tuning.h"

namespace cudahist::detail {

constexpr uint32_t kStagePitch = 33;  // words per staged column: 32 bins + 1 of padding

constexpr ScopesPolicy::Column kColumnPolicy = kScopesPolicy.column;

template <uint32_t kV>
struct ColumnShape {
  static constexpr uint32_t kThreads = kV == 1 ? kColumnPolicy.threads_narrow : kColumnPolicy.threads_wide();
  static constexpr uint32_t kBandColumns = 32 * kV;  // at most (fewer when lanes share a row at V = 1)
  static constexpr uint32_t kRowsInFlight =
      kV == 1 ? kColumnPolicy.rows_in_flight_narrow : kColumnPolicy.rows_in_flight_wide;
  static constexpr uint32_t kMinBlocksPerSm = kLaunchPolicy.min_blocks_per_sm(kThreads);
  static constexpr uint32_t kFlushWarps = kV == 1 ? kColumnPolicy.flush_warps_narrow() : kColumnPolicy.flush_warps_wide;
  static constexpr uint32_t kCounterWords = kV * 32 * kColumnPolicy.tile_bins;
  static constexpr uint32_t kStageWords = kBandColumns * kStagePitch;
  static constexpr uint32_t kSharedBytes =
      (kCounterWords + kFlushWarps * kStageWords + kBandColumns) * uint32_t(sizeof(uint32_t));
  static_assert(kFlushWarps <= kThreads / 32, "flushing warps are warps of the block");
};

// n / d for a 64-bit n whose quotient fits 32 bits: a 32-bit division when n
// does (every video frame and the tall [length, 512] shape), else the 64-bit routine,
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
  if (p.simple_items) {  // item = band; band_columns groups of one column each
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

}  // namespace cudahist::detail
