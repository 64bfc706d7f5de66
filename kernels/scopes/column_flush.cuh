// cudahist: the end of the per-column kernel (column_histogram.cu): a block's
// counters written out, group-major, to the counts (direct plans) or to the
// slices' partials, and phase 2, the sum of the partials over the slices
// after the grid-wide sync.
#pragma once

#include <cstdint>

#include "scopes/column_shape.cuh"

namespace cudahist::detail {

// --- the shuffle flush (V = 1, direct, one group per column): every warp sums
// its lanes' counters through shuffles and stores 16-byte words, with no stage
// and no idle warps -------------------------------------------------------------
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

// Native partials (V = 4, one group per column): the counters of each k
// (tile_len x 32 words, contiguous) to their place in the slice's partials,
// every thread 16 bytes a store (eight 16-bit partials when p.partials16),
// instead of a flush by 4 warps while DRAM idles at the grid's end.
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
  if constexpr (kV == 1) {
    if (p.shuffle_flush) {
      if (kBytes && p.counters16) {
        FlushByShuffle<true>(p, it, counters, counts);
      } else {
        FlushByShuffle<false>(p, it, counters, counts);
      }
      return;
    }
  }
  if constexpr (kV == 4) {
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
    if (p.groups == p.width) {
      // One group per column (full-width waveforms, tall multi-channel planes):
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
  constexpr uint32_t kLoads = kLaunchPolicy.partial_loads_in_flight;
  for (; s + kLoads <= slices; s += kLoads) {
    uint32_t v[kLoads];
CUDAHIST_UNROLL
    for (uint32_t j = 0; j < kLoads; ++j) v[j] = __ldcg(partial + (s + j) * stride);
CUDAHIST_UNROLL
    for (uint32_t j = 0; j < kLoads; ++j) sum += v[j];
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
  if constexpr (kV == 4) {
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
        // partial_loads_in_flight at a time (the tall [524288, 512] plane sums 33 slices).
        const uint64_t first = (uint64_t(band) * p.slots + slot) * p.bins + bin;
        const uint64_t slice_words = uint64_t(p.bands) * p.slots * p.bins;
        sum += p.partials16 ? SumOverSlices(reinterpret_cast<const uint16_t*>(partials) + first, slice_words, p.slices)
                            : SumOverSlices(partials + first, slice_words, p.slices);
      }
    }
    counts[i] = sum;
  }
}

}  // namespace cudahist::detail
