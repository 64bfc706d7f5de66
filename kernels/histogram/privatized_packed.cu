// privatized-packed: per-thread packed 8-bit counters with periodic merge, as
// The CUDA Handbook describes them ("Privatized (Per Thread)
// Histograms", Listings 5-8), generalised to several components and to any
// number of counters that fits shared memory.
//
// Layout (the Handbook's interleaved columns): counter i of thread t is
// byte i % 4 of the 32-bit word (i / 4) * threads + t. A thread only ever
// touches its own column, so the increment is a plain read-modify-write (no
// atomic), and the 32 lanes of a warp always use 32 different banks.
// Overflow: a thread merges before it can have made more than 255 increments
// since the last merge (periodic merge; the block walks in uniform rounds, so
// the merge's barriers are reached by every thread). The merge (Listings 6
// and 7) lets each thread sum one row of packed words into two pairs of 16-bit
// lanes, clearing the row, and adds the four sums to the block's 32-bit
// totals in shared memory; at the end the totals go to the global accumulator
// and the last block writes the counts.
//
// Shared memory: threads x counters bytes of columns + counters x 4 bytes of
// totals (64 x 1024 + 4096 for 4 x 256 bins). More counters than fit: the
// Histogrammer reports kUnsupported and auto never picks this algorithm.
#include "device/plan_walk.cuh"
#include "device/grid_completion.cuh"
#include "histogram/histogram_launch.h"
#include "histogram/histogram_tuning.h"

namespace cudahist::detail {
namespace {

constexpr uint32_t kPackedThreads = kHistogramPolicy.packed.threads;
constexpr uint32_t kPackedLoadsPerThread = kWalkPolicy.loads_per_thread;  // as frames walk
// Merging before a thread can have counted 256 times into one 8-bit counter makes
// overflow impossible whatever the data.
constexpr uint32_t kPackedMaxIncrementsBetweenMerges = 255;
static_assert(kPackedThreads * 255u < 65536u, "16-bit merge lanes would overflow");

// Rows of four packed counters, the trash counter included.
CUDAHIST_HD uint32_t PackedRows(uint32_t counters) { return (StoredCounters(counters) + 3) / 4; }

struct PackedCounter {
  uint32_t* columns;  // rows x kPackedThreads words
  uint32_t* totals;   // rows x 4 words: the block's 32-bit counts (then the trash)
  uint32_t rows;
  uint32_t increments_since_merge = 0;  // the same in every thread of the block

  using Slot = uint32_t;  // the component's first counter
  __device__ __forceinline__ Slot SlotFor(uint32_t base) const { return base; }
  __device__ __forceinline__ void Add(Slot base, uint32_t bin) { AddMany(base, bin, 1); }
  __device__ __forceinline__ void AddMany(Slot base, uint32_t bin, uint32_t n) {
    const uint32_t counter = base + bin;
    columns[(counter >> 2) * kPackedThreads + threadIdx.x] += n << ((counter & 3) * 8);
  }

  template <uint32_t kIncrements>
  __device__ __forceinline__ void BeforeRound() {
    static_assert(kIncrements <= kPackedMaxIncrementsBetweenMerges, "a round could overflow");
    if (increments_since_merge + kIncrements > kPackedMaxIncrementsBetweenMerges) {
      Merge();
      increments_since_merge = 0;
    }
    increments_since_merge += kIncrements;
  }

  // Every thread of the block must call this.
  __device__ __forceinline__ void Merge() {
    __syncthreads();
    for (uint32_t row = threadIdx.x; row < rows; row += kPackedThreads) {
      uint32_t* words = columns + row * kPackedThreads;
      uint32_t sum02 = 0;  // counters 0 and 2 of the row, 16 bits each
      uint32_t sum13 = 0;
      for (uint32_t i = 0; i < kPackedThreads; ++i) {
        const uint32_t column = (i + threadIdx.x) % kPackedThreads;  // lanes on distinct banks
        const uint32_t packed = words[column];
        words[column] = 0;
        sum02 += packed & 0x00ff00ffu;
        sum13 += (packed >> 8) & 0x00ff00ffu;
      }
      totals[4 * row + 0] += sum02 & 0xffffu;
      totals[4 * row + 1] += sum13 & 0xffffu;
      totals[4 * row + 2] += sum02 >> 16;
      totals[4 * row + 3] += sum13 >> 16;
    }
    __syncthreads();
  }
};

template <bool kPow2Bins>
__global__ void __launch_bounds__(kPackedThreads)
    PackedKernel(const Plan plan, const AccumulatorScratch acc, uint32_t* counts) {
  extern __shared__ uint32_t shared[];
  const uint32_t rows = PackedRows(plan.counters);
  ZeroSharedThenWaitForPriorGrids(shared, rows * (kPackedThreads + 4));
  PackedCounter counter{shared, shared + rows * kPackedThreads, rows};
  WalkPlan<kPackedLoadsPerThread, kPow2Bins>(plan, GridWalkPosition<kPackedLoadsPerThread>(blockIdx.x, gridDim.x),
                                             counter);
  counter.Merge();
  for (uint32_t i = threadIdx.x; i < plan.counters; i += blockDim.x) {
    if (counter.totals[i] != 0) atomicAdd(acc.totals + i, counter.totals[i]);
  }
  FinishThroughAccumulator(acc, plan.counters, counts, gridDim.x);
}

}  // namespace

Status ConfigurePacked(const DeviceLimits& limits, uint32_t counters, bool pow2_bins,
                       KernelConfig* config) {
  *config = KernelConfig();
  const uint64_t bytes = uint64_t(PackedRows(counters)) * (kPackedThreads + 4) * sizeof(uint32_t);
  if (bytes > uint64_t(limits.max_shared_per_block)) {
    config->why = "privatized-packed: " + std::to_string(counters) +
                  " counters (components x bins) need " + std::to_string(bytes) +
                  " bytes of shared memory (" + std::to_string(kPackedThreads) +
                  " threads x counters + totals), more than the " +
                  std::to_string(limits.max_shared_per_block) +
                  " a block can have; use privatized, two-phase or auto";
    return Status::Ok();
  }
  const void* kernel = pow2_bins ? reinterpret_cast<const void*>(&PackedKernel<true>)
                                 : reinterpret_cast<const void*>(&PackedKernel<false>);
  return ConfigureKernel(limits, kernel, kPackedThreads, kPackedLoadsPerThread, uint32_t(bytes),
                         "privatized-packed", config);
}

}  // namespace cudahist::detail
