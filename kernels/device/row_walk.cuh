// cudahist: the row walk, each warp taking whole rows of a plan group.
#pragma once

#include <cstdint>

#include "device/plan_walk.cuh"

namespace cudahist::detail {

// --- The row walk -----------------------------------------------------------
// The walk above finds each chunk's row with a division and carries its edges
// in registers while its loads are in flight. The row walk gives each warp
// whole rows instead: lane l takes the row's chunks l, l + 32, ..., so the row
// is located once per warp and a chunk's edges are known from its index. On
// the H200 a plain kernel of this shape counted 8-bit samples into lane copies
// at the read roofline, where the unit walk stopped near 0.75 of it. Its rounds
// are not block-uniform, so counters that synchronise in BeforeRound (the
// packed ones) keep the unit walk.
struct RowWalkPosition {
  uint32_t warp;   // this warp's index in the grid
  uint32_t warps;  // warps in the grid
  uint32_t lane;
};

template <uint32_t kLayout, uint32_t kLoads, bool kPow2Bins, bool kByteIsBin, class Counter>
CUDAHIST_HD void WalkVectorRows(const GroupPlan& g, uint32_t bins, const RowWalkPosition& pos,
                                Counter& counter) {
  constexpr uint32_t kLanes = 32;
  const Positions<Counter> p = PositionsOf<kLayout>(g, counter);
  for (uint32_t row = pos.warp; row < g.rows; row += pos.warps) {
    const uintptr_t pixel0 = reinterpret_cast<uintptr_t>(g.pixel0) + uintptr_t(row) * g.pitch;
    const uintptr_t begin = pixel0 + g.span_begin;
    const uintptr_t end = pixel0 + g.span_end;
    const uintptr_t first = begin & ~uintptr_t(kChunkBytes - 1);
    // The row's chunks, counted from `first` in 32-bit: [0, chunks) hold span
    // bytes (never a load past the span's end: on the last row that could
    // leave the allocation), and all but a partial first and last one lie
    // wholly inside it, so the hot loop does no 64-bit edge arithmetic (which
    // it did per chunk before: H200, 1 GiB, same runs, 8-bit photo 0.94 ->
    // 0.95-0.96 of the read roofline, RGBA 0.94 -> 0.95-0.96).
    const uint32_t chunks = uint32_t((end - 1 - first) / kChunkBytes) + 1;
    const uint32_t whole_begin = begin % kChunkBytes != 0 ? 1 : 0;
    const uint32_t whole_end = end % kChunkBytes != 0 ? chunks - 1 : chunks;
    // Chunk j's byte position in the pixel is this + 16 j, the same modulo
    // every pixel stride (1, 2 or 4), which is all CountChunk looks at.
    ChunkRef ref;
    ref.any = true;
    ref.phase = uint32_t(first - pixel0);
    for (uint32_t c0 = pos.lane; c0 < chunks; c0 += kLanes * kLoads) {
      Chunk16 chunk[kLoads];
CUDAHIST_UNROLL
      for (uint32_t i = 0; i < kLoads; ++i) {
        const uint32_t j = c0 + i * kLanes;
        chunk[i] = j < chunks ? LoadChunk16(reinterpret_cast<const uint8_t*>(first + uintptr_t(j) * kChunkBytes))
                              : Chunk16{{0, 0, 0, 0}};
      }
CUDAHIST_UNROLL
      for (uint32_t i = 0; i < kLoads; ++i) {
        const uint32_t j = c0 + i * kLanes;
        if (j >= chunks) break;
        if (j >= whole_begin && j < whole_end) {
          CountChunk<kLayout, kPow2Bins, kByteIsBin, true>(chunk[i], ref, p, bins, counter);
        } else {
          const uintptr_t a = first + uintptr_t(j) * kChunkBytes;
          ChunkRef edge = ref;
          edge.lo = a < begin ? int(begin - a) : 0;
          edge.hi = end - a < kChunkBytes ? int(end - a) : int(kChunkBytes);
          CountChunk<kLayout, kPow2Bins, kByteIsBin, false>(chunk[i], edge, p, bins, counter);
        }
      }
    }
  }
}

// Every group of the plan: vector layouts by rows, kGeneral by units.
template <uint32_t kLoads, bool kPow2Bins, class Counter>
CUDAHIST_HD void WalkPlanRows(const Plan& plan, const RowWalkPosition& rows, const WalkPosition& units,
                              Counter& counter) {
  ForEachGroup<kPow2Bins>(plan, [&](const GroupPlan& g, auto kind) {
    using K = decltype(kind);
    if constexpr (K::kLayout == kGeneral) {
      WalkGeneralGroup<kLoads, kPow2Bins>(g, plan.bins, units, counter);
    } else {
      WalkVectorRows<K::kLayout, kLoads, K::kPow2Bins, K::kByteIsBin>(g, plan.bins, rows, counter);
    }
  });
}

#if defined(__CUDACC__)

// Walk positions of block `block` of the `blocks` that share one frame (a
// batch launch gives each frame its own row of blocks, so these are not
// always blockIdx.x and gridDim.x).
__device__ __forceinline__ RowWalkPosition GridRowWalkPosition(uint32_t block, uint32_t blocks) {
  return RowWalkPosition{(block * blockDim.x + threadIdx.x) / 32, blocks * blockDim.x / 32, threadIdx.x % 32};
}

#endif  // __CUDACC__

}  // namespace cudahist::detail
