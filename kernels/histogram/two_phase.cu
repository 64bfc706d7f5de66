// two-phase: per-block partial histograms written to global memory without
// atomics, then a reduction (the two-phase per-column layout's article), in ONE cooperative launch.
//
// Phase 1: the (component, bin) counters are cut into tiles that fit shared
// memory (the policy's tile_bytes; 65536 bins x 1 component = 3 tiles) and the
// frame into slices (interleaved rounds of chunks). Work item (tile, slice):
// a block zeroes its tile, counts the samples of its slice whose counter falls
// in the tile (shared atomics), and stores the tile to partials[slice] with
// plain stores. Every partial is written every launch, so nothing needs
// zeroing between frames.
// Phase 2, after grid.sync(): every thread sums a counter over the slices in
// slice order and writes it to the counts. Integer sums in a fixed order: the
// result does not depend on scheduling.
//
// Launch: the policy's threads, tile_counters x 4 bytes of shared memory,
// a cooperative grid no larger than the device holds at once (occupancy x SMs,
// read at creation) so that grid.sync() cannot deadlock; slices as many as a
// round of loads over the frame needs, at most max_slices (partials budget).
#include <cooperative_groups.h>

#include <algorithm>

#include "device/plan_walk.cuh"
#include "device/grid_completion.cuh"
#include "histogram/histogram_launch.h"
#include "histogram/histogram_tuning.h"
#include "launch/launch_tuning.h"

namespace cudahist::detail {
namespace {

constexpr HistogramPolicy::TwoPhase kPolicy = kHistogramPolicy.two_phase;
constexpr uint32_t kLoads = kWalkPolicy.loads_per_thread;  // as frames walk

struct TileCounter {
  uint32_t* tile;
  uint32_t begin;
  uint32_t length;

  // The component's bin 0 relative to the tile (wraps above `length` when the
  // component lies before the tile; the trash counter lies past every tile).
  using Slot = uint32_t;
  __device__ __forceinline__ Slot SlotFor(uint32_t base) const { return base - begin; }
  __device__ __forceinline__ void Add(Slot slot, uint32_t bin) { AddMany(slot, bin, 1); }
  __device__ __forceinline__ void AddMany(Slot slot, uint32_t bin, uint32_t n) {
    const uint32_t i = slot + bin;
    if (i < length) atomicAdd(tile + i, n);
  }
  template <uint32_t kIncrements>
  __device__ __forceinline__ void BeforeRound() {}
};

struct TwoPhaseShape {
  uint32_t tiles;
  uint32_t tile_counters;
  uint32_t slices;
};

template <bool kPow2Bins>
__device__ __forceinline__ void CountTiles(const Plan& plan, const TwoPhaseShape& shape, uint32_t* tile,
                                           uint32_t* partials) {
  const uint32_t items = shape.tiles * shape.slices;
  for (uint32_t item = blockIdx.x; item < items; item += gridDim.x) {
    const uint32_t slice = item / shape.tiles;
    const uint32_t begin = (item % shape.tiles) * shape.tile_counters;
    const uint32_t length = min(shape.tile_counters, plan.counters - begin);
    ZeroShared(tile, length);
    __syncthreads();
    TileCounter counter{tile, begin, length};
    const WalkPosition pos{slice * blockDim.x * kLoads, shape.slices * blockDim.x * kLoads,
                           threadIdx.x, blockDim.x};
    WalkPlan<kLoads, kPow2Bins>(plan, pos, counter);
    __syncthreads();
    uint32_t* partial = partials + uint64_t(slice) * plan.counters + begin;
    for (uint32_t i = threadIdx.x; i < length; i += blockDim.x) partial[i] = tile[i];
    __syncthreads();  // the next item zeroes the tile again
  }
}

__device__ __forceinline__ void ReduceSlices(const Plan& plan, const TwoPhaseShape& shape,
                                             const uint32_t* partials, uint32_t* counts) {
  const uint32_t threads = gridDim.x * blockDim.x;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < plan.counters; i += threads) {
    uint32_t sum = 0;
    // __ldcg: the partials were stored by other SMs; read them from L2.
    for (uint32_t s = 0; s < shape.slices; ++s) sum += __ldcg(partials + uint64_t(s) * plan.counters + i);
    counts[i] = sum;
  }
}

template <bool kPow2Bins>
__global__ void __launch_bounds__(kPolicy.threads)
    TwoPhaseKernel(const Plan plan, const TwoPhaseShape shape, uint32_t* partials, uint32_t* counts) {
  extern __shared__ uint32_t tile[];
  CountTiles<kPow2Bins>(plan, shape, tile, partials);
  cooperative_groups::this_grid().sync();  // includes the fence that publishes the partials
  ReduceSlices(plan, shape, partials, counts);
}

}  // namespace

Status ConfigureTwoPhase(const DeviceLimits& limits, uint32_t counters, bool pow2_bins,
                         KernelConfig* config) {
  *config = KernelConfig();
  if (!limits.cooperative_launch) {
    config->why = "two-phase: the device does not support cooperative launches";
    return Status::Ok();
  }
  const uint32_t tile_bytes = std::min<uint32_t>(kPolicy.tile_bytes, uint32_t(limits.max_shared_per_block));
  const uint32_t tile_counters = std::min<uint32_t>(counters, tile_bytes / sizeof(uint32_t));
  const void* kernel = pow2_bins ? reinterpret_cast<const void*>(&TwoPhaseKernel<true>)
                                 : reinterpret_cast<const void*>(&TwoPhaseKernel<false>);
  CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(limits, kernel, kPolicy.threads, kLoads,
                                           tile_counters * uint32_t(sizeof(uint32_t)), "two-phase",
                                           config));
  if (!config->supported) return Status::Ok();
  config->tile_counters = tile_counters;
  config->tiles = (counters + tile_counters - 1) / tile_counters;
  const uint64_t by_budget = kLaunchPolicy.partial_budget_bytes / (uint64_t(counters) * sizeof(uint32_t));
  const uint64_t by_residency = config->resident_blocks / config->tiles;
  config->max_slices = uint32_t(std::max<uint64_t>(1, std::min(by_budget, by_residency)));
  return Status::Ok();
}

Status LaunchTwoPhase(const KernelConfig& config, const Plan& plan, uint32_t* partials,
                      uint32_t* counts, cudaStream_t stream) {
  // A slice per block-sized round of loads, as many as the partials hold.
  TwoPhaseShape shape{config.tiles, config.tile_counters,
                      std::min(BlocksForOneRound(config, plan), config.max_slices)};
  const uint32_t grid = std::min(config.resident_blocks, shape.tiles * shape.slices);
  Plan plan_arg = plan;
  void* args[] = {&plan_arg, &shape, &partials, &counts};
  return CudaStatus(cudaLaunchCooperativeKernel(config.kernel, dim3(grid), dim3(config.threads), args,
                                                config.shared_bytes, stream),
                    "two-phase kernel launch");
}

}  // namespace cudahist::detail
