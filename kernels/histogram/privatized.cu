// privatized: per-block sub-histograms in shared memory, merged into a global
// accumulator; the last block writes the counts (the classic per-block
// privatization of the CUDA histogram articles).
//
// Lane-indexed copies (the fast path): C copies of every counter, the copy of
// counter i for lane l at i * C + l % C, 32-bit shared atomics. With C = 32
// the 32 lanes of a warp always hit 32 different banks, so neither random nor
// degenerate data serialises the warp; with C < 32 lanes l and l + C share a
// copy. C = 1 is the one-copy shared-atomic baseline: the same kernel.
//
// Launch: the policy's threads (histogram_tuning.h), (counters + trash) * C *
// 4 bytes of dynamic shared memory. Three kernels per configuration: frames
// walk units with kWalkPolicy.loads_per_thread loads, large planes walk rows with more
// (the deep kernel), and batches count a frame per row of blocks with the deep
// kernel's row walk (faster than the unit walk on every batch measured:
// docs/tuning.md). dispatch.cu picks the kernel and sizes the grid.
#include "device/plan_walk.cuh"
#include "device/row_walk.cuh"
#include "device/bank_swizzle.cuh"
#include "device/grid_completion.cuh"
#include "device/lane_copies.cuh"
#include "histogram/histogram_launch.h"
#include "histogram/histogram_tuning.h"

namespace cudahist::detail {
namespace {

constexpr HistogramPolicy::Privatized kPolicy = kHistogramPolicy.privatized;

// One block's share of one frame: block `block` of the `blocks` that count
// it into `acc`; the last of them writes `counts`.
// kRowWalk: the deep kernel walks rows (device/row_walk.cuh);
// the frame kernel walks units, which keeps more blocks busy on small frames.
template <uint32_t kLogCopies, bool kPow2Bins, uint32_t kLoads, bool kRowWalk>
__device__ __forceinline__ void CountFrameBlock(const Plan& plan, uint32_t block, uint32_t blocks,
                                                const AccumulatorScratch& acc, uint32_t* counts) {
  extern __shared__ uint32_t copies[];
  ZeroSharedThenWaitForPriorGrids(copies, StoredCounters(plan.counters) << kLogCopies);
  const uint32_t low_mask = BankSwizzle<kLogCopies, kPow2Bins>::LowMask(plan.bins);
  LaneCopiesCounter<kLogCopies, kPow2Bins> counter{uint32_t(__cvta_generic_to_shared(copies)),
                                                   threadIdx.x & ((1u << kLogCopies) - 1), low_mask};
  if constexpr (kRowWalk) {
    WalkPlanRows<kLoads, kPow2Bins>(plan, GridRowWalkPosition(block, blocks), GridWalkPosition<kLoads>(block, blocks),
                                    counter);
  } else {
    WalkPlan<kLoads, kPow2Bins>(plan, GridWalkPosition<kLoads>(block, blocks), counter);
  }
  __syncthreads();
  MergeCopies<kLogCopies, kPow2Bins>(copies, plan.bins, plan.counters, low_mask, acc.totals);
  FinishThroughAccumulator(acc, plan.counters, counts, blocks);
}

template <uint32_t kLogCopies, bool kPow2Bins, uint32_t kLoads, bool kRowWalk>
__global__ void __launch_bounds__(kPolicy.threads(), kPolicy.min_blocks_per_sm())
    PrivatizedKernel(const Plan plan, const AccumulatorScratch acc, uint32_t* counts) {
  CountFrameBlock<kLogCopies, kPow2Bins, kLoads, kRowWalk>(plan, blockIdx.x, gridDim.x, acc, counts);
}

// A batch: frame blockIdx.y, counted by the gridDim.x blocks of its row.
template <uint32_t kLogCopies, bool kPow2Bins>
__global__ void __launch_bounds__(kPolicy.threads(), kPolicy.min_blocks_per_sm())
    PrivatizedBatchKernel(const PlanBatch batch, uint32_t* scratch, uint32_t* counts) {
  const uint32_t frame = blockIdx.y;
  const Plan& plan = batch.frame[frame];
  CountFrameBlock<kLogCopies, kPow2Bins, kWalkPolicy.deep_loads_per_thread, true>(
      plan, blockIdx.x, gridDim.x, BatchAccumulator(scratch, plan.counters, frame),
      counts + size_t(frame) * plan.counters);
}

// The kernel of each variant, by the run-time log2 of its copies.
template <template <uint32_t> class Variant>
const void* ForLogCopies(uint32_t log_copies) {
  switch (log_copies) {
    case 0: return Variant<0>::Kernel();
    case 1: return Variant<1>::Kernel();
    case 2: return Variant<2>::Kernel();
    case 3: return Variant<3>::Kernel();
    case 4: return Variant<4>::Kernel();
    default: return Variant<5>::Kernel();
  }
}
static_assert(kMaxLaneCopies <= 32, "ForLogCopies instantiates up to 32 copies");

template <bool kPow2Bins, uint32_t kLoads, bool kRowWalk>
struct SingleFrame {
  template <uint32_t kLogCopies>
  struct Variant {
    static const void* Kernel() {
      return reinterpret_cast<const void*>(&PrivatizedKernel<kLogCopies, kPow2Bins, kLoads, kRowWalk>);
    }
  };
};

template <bool kPow2Bins>
struct Batch {
  template <uint32_t kLogCopies>
  struct Variant {
    static const void* Kernel() { return reinterpret_cast<const void*>(&PrivatizedBatchKernel<kLogCopies, kPow2Bins>); }
  };
};

template <uint32_t kLoads, bool kRowWalk>
const void* PrivatizedKernelFor(bool pow2_bins, uint32_t log_copies) {
  return pow2_bins ? ForLogCopies<SingleFrame<true, kLoads, kRowWalk>::template Variant>(log_copies)
                   : ForLogCopies<SingleFrame<false, kLoads, kRowWalk>::template Variant>(log_copies);
}

const void* PrivatizedBatchKernelFor(bool pow2_bins, uint32_t log_copies) {
  return pow2_bins ? ForLogCopies<Batch<true>::template Variant>(log_copies)
                   : ForLogCopies<Batch<false>::template Variant>(log_copies);
}

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
  KernelConfig deep, batch;
  CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(
      limits, PrivatizedKernelFor<kWalkPolicy.deep_loads_per_thread, true>(pow2_bins, log_copies),
      kPolicy.threads(), kWalkPolicy.deep_loads_per_thread, uint32_t(bytes), name, &deep));
  CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(
      limits, PrivatizedBatchKernelFor(pow2_bins, log_copies), kPolicy.threads(),
      kWalkPolicy.deep_loads_per_thread, uint32_t(bytes), name, &batch));
  CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(
      limits, PrivatizedKernelFor<kWalkPolicy.loads_per_thread, false>(pow2_bins, log_copies),
      kPolicy.threads(), kWalkPolicy.loads_per_thread, uint32_t(bytes), name, config));
  if (deep.supported) {
    config->deep_kernel = deep.kernel;
    config->deep_loads_per_thread = deep.loads_per_thread;
    config->deep_resident_blocks = deep.resident_blocks;
  }
  if (batch.supported) config->batch_kernel = batch.kernel;
  return Status::Ok();
}

}  // namespace cudahist::detail
