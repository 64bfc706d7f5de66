// The segmented histogram: every region of a frame counted in ONE launch.
//
// Block b counts an equal share of the frame's region units (region_tile_walk.cuh:
// the regions laid end to end, b's share the units [b U, (b + 1) U)), piece
// by piece (the share's units of one plane group of one region) with the
// frame kernels' own walk (device/plan_walk.cuh: 16-byte chunks, unaligned
// edges, any layout) into lane-indexed copies in shared memory. At the end of
// each region in its share it merges the copies of the region's components
// into the region's totals (global atomics), leaving them zero; the last of
// the region's blocks to arrive (a ticket per region, device/grid_completion.cuh's
// LastBlockToArrive) moves the totals to the region's counts and leaves
// totals and ticket zero for the next launch. Counters too many for one copy
// in shared memory (65536 bins) are added straight to the region's totals
// instead, with the same finish.
#include <algorithm>
#include <string>

#include "device/bank_swizzle.cuh"
#include "device/grid_completion.cuh"
#include "device/lane_copies.cuh"
#include "device/plan_walk.cuh"
#include "regions/region_launch.h"
#include "regions/region_tile_walk.cuh"

namespace cudahist::detail {
namespace {

constexpr SegmentedPolicy kPolicy = kSegmentedPolicy;
constexpr uint32_t kLoads = kPolicy.loads_per_thread;

// Counts straight into one region's totals (L2 atomics; no return value used,
// so they compile to reductions).
struct GlobalCounter {
  using Slot = uint32_t*;
  uint32_t* totals;

  __device__ __forceinline__ Slot SlotFor(uint32_t base) const { return totals + base; }
  __device__ __forceinline__ void Add(Slot slot, uint32_t bin) { atomicAdd(slot + bin, 1u); }
  __device__ __forceinline__ void AddMany(Slot slot, uint32_t bin, uint32_t n) { atomicAdd(slot + bin, n); }
  template <uint32_t kIncrements>
  __device__ __forceinline__ void BeforeRound() {}
};

// Where the launch keeps the regions' entries: its parameters, or device memory.
struct EntrySource {
  const InlineRegionEntries& carried;
  const RegionEntry* device_entries;
  __device__ __forceinline__ RegionEntry operator()(uint32_t i) const {
    return device_entries != nullptr ? device_entries[i] : carried.tile[i];
  }
};

// A piece walked by the whole block: its units from `begin`, each thread a
// share of every round.
__device__ __forceinline__ WalkPosition PieceWalkPosition(const SharePiece& piece) {
  return WalkPosition{piece.begin, blockDim.x * kLoads, threadIdx.x, blockDim.x};
}

__device__ __forceinline__ GroupPlan PiecePlan(const SharePiece& piece) {
  GroupPlan p = piece.plan;
  p.units = piece.end;
  return p;
}

// Once the block has added its part of a region to the region's totals: the
// last of the region's blocks moves them to the region's counts (barriers inside).
__device__ __forceinline__ void FinishRegion(const RegionEntry& e, uint32_t blocks, uint32_t counters,
                                             uint32_t* totals, uint32_t* tickets, uint32_t* counts) {
  const AccumulatorScratch acc{totals + size_t(e.region) * StoredCounters(counters), tickets + e.region};
  if (LastBlockToArrive(acc.ticket, blocks)) CollectTotals(acc, counters, counts + size_t(e.region) * counters);
}

template <uint32_t kLogCopies, bool kPow2Bins>
__global__ void __launch_bounds__(kPolicy.threads)
    SegmentedSharedKernel(const RegionTemplate tmpl, const InlineRegionEntries carried,
                          const RegionEntry* device_entries, const RegionShares shares, uint32_t* totals,
                          uint32_t* tickets, uint32_t* counts) {
  extern __shared__ uint32_t copies[];
  ZeroSharedThenWaitForPriorGrids(copies, StoredCounters(tmpl.counters) << kLogCopies);
  const uint32_t bins = tmpl.bins;
  const uint32_t low_mask = BankSwizzle<kLogCopies, kPow2Bins>::LowMask(bins);
  LaneCopiesCounter<kLogCopies, kPow2Bins> counter{uint32_t(__cvta_generic_to_shared(copies)),
                                                   threadIdx.x & ((1u << kLogCopies) - 1), low_mask};
  const auto count = [&](const SharePiece& piece) {
    WalkGroup<kLoads, kPow2Bins>(PiecePlan(piece), bins, PieceWalkPosition(piece), counter);
  };
  const auto finish = [&](const RegionEntry& e, uint32_t blocks, uint32_t groups) {
    __syncthreads();  // every thread's counts in the copies
    uint32_t* region_totals = totals + size_t(e.region) * StoredCounters(tmpl.counters);
    for (uint32_t k = 0; k < tmpl.num_groups; ++k) {
      if ((groups & (1u << k)) == 0) continue;
      for (uint32_t c = 0; c < tmpl.num_components; ++c) {
        if ((tmpl.group[k].components & (1u << c)) == 0) continue;
        MergeCopies<kLogCopies, kPow2Bins, true>(copies + ((c * bins) << kLogCopies), bins, bins, low_mask,
                                                 region_totals + c * bins);
      }
    }
    FinishRegion(e, blocks, tmpl.counters, totals, tickets, counts);  // its barriers: the zeros before the next walk
  };
  for (uint32_t b = blockIdx.x; b < shares.blocks; b += gridDim.x) {
    WalkShare(tmpl, EntrySource{carried, device_entries}, shares, b, count, finish);
  }
}

template <bool kPow2Bins>
__global__ void __launch_bounds__(kPolicy.threads)
    SegmentedGlobalKernel(const RegionTemplate tmpl, const InlineRegionEntries carried,
                          const RegionEntry* device_entries, const RegionShares shares, uint32_t* totals,
                          uint32_t* tickets, uint32_t* counts) {
  extern __shared__ uint32_t copies[];
  ZeroSharedThenWaitForPriorGrids(copies, 0);
  const auto count = [&](const SharePiece& piece) {
    GlobalCounter counter{totals + size_t(piece.region) * StoredCounters(tmpl.counters)};
    WalkGroup<kLoads, kPow2Bins>(PiecePlan(piece), tmpl.bins, PieceWalkPosition(piece), counter);
  };
  const auto finish = [&](const RegionEntry& e, uint32_t blocks, uint32_t) {
    FinishRegion(e, blocks, tmpl.counters, totals, tickets, counts);
  };
  for (uint32_t b = blockIdx.x; b < shares.blocks; b += gridDim.x) {
    WalkShare(tmpl, EntrySource{carried, device_entries}, shares, b, count, finish);
  }
}

template <uint32_t kLogCopies>
const void* SharedKernelOf(bool pow2_bins) {
  return pow2_bins ? reinterpret_cast<const void*>(&SegmentedSharedKernel<kLogCopies, true>)
                   : reinterpret_cast<const void*>(&SegmentedSharedKernel<kLogCopies, false>);
}

const void* SharedKernelFor(uint32_t log_copies, bool pow2_bins) {
  switch (log_copies) {
    case 0: return SharedKernelOf<0>(pow2_bins);
    case 1: return SharedKernelOf<1>(pow2_bins);
    case 2: return SharedKernelOf<2>(pow2_bins);
    default: return SharedKernelOf<3>(pow2_bins);
  }
}
static_assert(kPolicy.max_copies <= 8, "SharedKernelFor instantiates up to 8 copies");

}  // namespace

Status ConfigureSegmented(const DeviceLimits& limits, uint32_t counters, bool pow2_bins, KernelConfig* config) {
  *config = KernelConfig();
  const uint64_t one_copy = uint64_t(StoredCounters(counters)) * sizeof(uint32_t);
  if (one_copy > uint64_t(limits.max_shared_per_block)) {
    const void* kernel = pow2_bins ? reinterpret_cast<const void*>(&SegmentedGlobalKernel<true>)
                                   : reinterpret_cast<const void*>(&SegmentedGlobalKernel<false>);
    return ConfigureKernel(limits, kernel, kPolicy.threads, kLoads, 0, "segmented-global", config);
  }
  uint32_t log_copies = CeilLog2(kPolicy.max_copies);
  while (log_copies > 0 && ((one_copy << log_copies) > kPolicy.copies_budget_bytes ||
                            (one_copy << log_copies) > uint64_t(limits.max_shared_per_block))) {
    --log_copies;
  }
  CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(limits, SharedKernelFor(log_copies, pow2_bins), kPolicy.threads, kLoads,
                                           uint32_t(one_copy << log_copies), "segmented", config));
  config->log_copies = log_copies;
  return Status::Ok();
}

Status LaunchSegmented(const KernelConfig& config, const RegionTemplate& tmpl, const InlineRegionEntries& carried,
                       const RegionEntry* device_entries, const RegionShares& shares, const RegionTotals& totals,
                       uint32_t* counts, cudaStream_t stream) {
  uint32_t* totals_arg = totals.totals();
  uint32_t* tickets_arg = totals.tickets();
  void* args[] = {const_cast<RegionTemplate*>(&tmpl), const_cast<InlineRegionEntries*>(&carried), &device_entries,
                  const_cast<RegionShares*>(&shares), &totals_arg, &tickets_arg, &counts};
  return LaunchOverTiles(config, args, shares.blocks, kPolicy.programmatic_launch, stream);
}

}  // namespace cudahist::detail
