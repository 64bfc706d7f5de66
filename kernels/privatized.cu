// privatized: per-block sub-histograms in shared memory, merged into a global
// accumulator; the last block writes the counts (seeds 000 v4 / 001).
//
// Lane-indexed copies (the fast path): C copies of every counter, the copy of
// counter i for lane l at i * C + l % C, 32-bit shared atomics. With C = 32
// the 32 lanes of a warp always hit 32 different banks, so neither random nor
// degenerate data serialises the warp; with C < 32 lanes l and l + C share a
// copy. C = 1 is the one-copy shared-atomic baseline: the same kernel.
//
// Launch: kPrivatizedThreads threads, (counters + trash) * C * 4 bytes of dynamic shared
// memory. Two kernels per configuration: frames walk units with
// kPrivatizedLoadsPerThread loads, large planes walk rows with more (the deep
// kernel); dispatch.cu picks one per frame and sizes the grid (tuning.h).
#include "device_helpers.cuh"
#include "launch.h"
#include "tuning.h"

namespace cudahist::detail {
namespace {

template <uint32_t kLogCopies>
struct LaneCopiesCounter {
  // Shared-window address of this lane's copy of a component's bin 0, so that
  // a count is one shift-add (LEA) and one shared reduction (no return value).
  using Slot = uint32_t;
  uint32_t copies;     // shared-window address of the copies
  uint32_t lane_copy;  // lane % copies

  __device__ __forceinline__ Slot SlotFor(uint32_t base) const {
    return copies + ((base << kLogCopies) + lane_copy) * uint32_t(sizeof(uint32_t));
  }
  __device__ __forceinline__ void Add(Slot slot, uint32_t bin) {
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(slot + (bin << (kLogCopies + 2))) : "memory");
  }
  __device__ __forceinline__ void AddMany(Slot slot, uint32_t bin, uint32_t n) {
    asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(slot + (bin << (kLogCopies + 2))), "r"(n)
                 : "memory");
  }
  template <uint32_t kIncrements>
  __device__ __forceinline__ void BeforeRound() {}
};

// Sums the C copies of each counter into the global totals. Each lane starts
// at a different copy (rotated by the lane) so that a warp reading 32 counters
// does not pile onto one bank.
template <uint32_t kLogCopies>
__device__ __forceinline__ void MergeCopies(const uint32_t* copies, uint32_t counters,
                                            uint32_t* totals) {
  constexpr uint32_t kCopies = 1u << kLogCopies;
  const uint32_t lane = threadIdx.x % 32;
  for (uint32_t i = threadIdx.x; i < counters; i += blockDim.x) {
    uint32_t sum = 0;
CUDAHIST_UNROLL
    for (uint32_t c = 0; c < kCopies; ++c) sum += copies[(i << kLogCopies) + ((c + lane) & (kCopies - 1))];
    if (sum != 0) atomicAdd(totals + i, sum);
  }
}

// kRowWalk: the deep kernel walks rows (device_helpers.cuh, the row walk);
// the frame kernel walks units, which keeps more blocks busy on small frames.
template <uint32_t kLogCopies, bool kPow2Bins, uint32_t kLoads, bool kRowWalk>
__global__ void __launch_bounds__(kPrivatizedThreads, kPrivatizedMinBlocksPerSm)
    PrivatizedKernel(const Plan plan, const AccumulatorScratch acc, uint32_t* counts) {
  extern __shared__ uint32_t copies[];
  ZeroShared(copies, StoredCounters(plan.counters) << kLogCopies);
  __syncthreads();
  LaneCopiesCounter<kLogCopies> counter{uint32_t(__cvta_generic_to_shared(copies)),
                                        threadIdx.x & ((1u << kLogCopies) - 1)};
  if constexpr (kRowWalk) {
    WalkPlanRows<kLoads, kPow2Bins>(plan, GridRowWalkPosition(), GridWalkPosition<kLoads>(), counter);
  } else {
    WalkPlan<kLoads, kPow2Bins>(plan, GridWalkPosition<kLoads>(), counter);
  }
  __syncthreads();
  MergeCopies<kLogCopies>(copies, plan.counters, acc.totals);
  FinishThroughAccumulator(acc, plan.counters, counts);
}

template <bool kPow2Bins, uint32_t kLoads, bool kRowWalk>
const void* PrivatizedKernelFor(uint32_t log_copies) {
  switch (log_copies) {
    case 0: return reinterpret_cast<const void*>(&PrivatizedKernel<0, kPow2Bins, kLoads, kRowWalk>);
    case 1: return reinterpret_cast<const void*>(&PrivatizedKernel<1, kPow2Bins, kLoads, kRowWalk>);
    case 2: return reinterpret_cast<const void*>(&PrivatizedKernel<2, kPow2Bins, kLoads, kRowWalk>);
    case 3: return reinterpret_cast<const void*>(&PrivatizedKernel<3, kPow2Bins, kLoads, kRowWalk>);
    case 4: return reinterpret_cast<const void*>(&PrivatizedKernel<4, kPow2Bins, kLoads, kRowWalk>);
    default: return reinterpret_cast<const void*>(&PrivatizedKernel<5, kPow2Bins, kLoads, kRowWalk>);
  }
}

template <uint32_t kLoads, bool kRowWalk>
const void* PrivatizedKernelFor(bool pow2_bins, uint32_t log_copies) {
  return pow2_bins ? PrivatizedKernelFor<true, kLoads, kRowWalk>(log_copies)
                   : PrivatizedKernelFor<false, kLoads, kRowWalk>(log_copies);
}
static_assert(kMaxLaneCopies <= 32, "PrivatizedKernelFor instantiates up to 32 copies");

}  // namespace

Status ConfigurePrivatized(const DeviceLimits& limits, uint32_t counters, bool pow2_bins,
                           uint32_t copies, KernelConfig* config) {
  *config = KernelConfig();
  const uint64_t bytes = uint64_t(StoredCounters(counters)) * copies * sizeof(uint32_t);
  if (copies == 0 || bytes > uint64_t(limits.max_shared_per_block)) {
    config->why = std::to_string(counters) + " counters (components x bins) do not fit the " +
                  std::to_string(limits.max_shared_per_block) +
                  " bytes of shared memory of a block; use two-phase (or auto)";
    return Status::Ok();
  }
  const uint32_t log_copies = CeilLog2(copies);
  const char* name = copies == 1 ? "privatized-shared" : "privatized";
  KernelConfig deep;
  CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(
      limits, PrivatizedKernelFor<kPrivatizedDeepLoadsPerThread, true>(pow2_bins, log_copies),
      kPrivatizedThreads, kPrivatizedDeepLoadsPerThread, uint32_t(bytes), name, &deep));
  CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(
      limits, PrivatizedKernelFor<kPrivatizedLoadsPerThread, false>(pow2_bins, log_copies),
      kPrivatizedThreads, kPrivatizedLoadsPerThread, uint32_t(bytes), name, config));
  config->log_copies = log_copies;
  if (deep.supported) {
    config->deep_kernel = deep.kernel;
    config->deep_loads_per_thread = deep.loads_per_thread;
    config->deep_resident_blocks = deep.resident_blocks;
  }
  return Status::Ok();
}

}  // namespace cudahist::detail
