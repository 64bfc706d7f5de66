// joint histograms (vectorscope: U against V, or two of R, G, B) in ONE
// launch. counts[bin_b * bins_a + bin_a], up to 256 x 256.
//
// 65536 32-bit counters (256 KB) do not fit shared memory, so a block keeps
// 16-bit counters, two to a word (128 KB), and counts items of at most
// kJointSamplesPerItem (< 65536) samples, after each of which it adds its
// non-zero counters to a 32-bit accumulator in global memory (L2 atomics) and
// zeroes them in the same pass. After grid.sync every thread copies its share
// of the accumulator to the counts and zeroes it for the next launch (so the
// accumulator is zero between launches; a failed launch makes the
// histogrammer re-zero it). Why not tiles of the b range (the frame read once
// per tile) or global atomics per sample: scopes_tuning.h. With
// kJointBParts > 1 a block counts one part of the b range of an item (the
// item read once per part, from L2 after the first): smaller counters, two
// blocks an SM.
//
// With CUDAHIST_JOINT_SLICED, JointSlicedKernel instead (scopes_tuning.h says
// why): a block per (part of the b range, slice of rows), shared counters of
// its part, no grid sync; the last block of a part to arrive moves that part
// of the accumulator to the counts (joint_slices.cuh: the walk).
#include <cooperative_groups.h>

#include <algorithm>

#include "device/plan_walk.cuh"
#include "device/grid_completion.cuh"
#include "scopes/joint_slices.cuh"
#include "scopes/scopes_launch.h"
#include "scopes/scopes_tuning.h"

namespace cudahist::detail {
namespace {

// A block's counters: one part of the b range (kJointBParts, scopes_tuning.h).
constexpr uint32_t kJointCounterWords = kMaxJointBins * kMaxJointBins / 2 / kJointBParts;

// The b bins of a part (rows of the joint histogram a block counts).
__device__ __forceinline__ uint32_t PartRows(const JointPlan& p) {
  return (p.bins_b + kJointBParts - 1) / kJointBParts;
}

template <bool kPaired>
__device__ __forceinline__ void CountItem(const JointPlan& p, uint32_t item, uint32_t part, uint32_t counters) {
  constexpr uint32_t kSamples = kJointSamplesPerThread;
  const uint32_t x0 = (item % p.column_segments) * p.item_columns;
  const uint32_t y0 = (item / p.column_segments) * p.item_rows;
  uint32_t word_a[kSamples], word_b[kSamples];
  bool valid[kSamples];
CUDAHIST_UNROLL
  for (uint32_t s = 0; s < kSamples; ++s) {
    const uint32_t j = threadIdx.x + s * blockDim.x;
    const uint32_t r = p.item_row_of.Divide(j);
    const uint32_t x = x0 + (j - r * p.item_columns);
    const uint32_t y = y0 + r;
    valid[s] = r < p.item_rows && y < p.height && x < p.width;
    word_a[s] = word_b[s] = 0;
    if (!valid[s]) continue;
    const uint8_t* at_a = p.a.first + uint64_t(y) * p.a.pitch + uint64_t(x) * p.a.stride;
    if constexpr (kPaired) {
      word_a[s] = LoadSample(at_a, 2);
    } else {
      word_a[s] = LoadSample(at_a, p.a.sample_size);
      word_b[s] = LoadSample(p.b.first + uint64_t(y) * p.b.pitch + uint64_t(x) * p.b.stride, p.b.sample_size);
    }
  }
CUDAHIST_UNROLL
  for (uint32_t s = 0; s < kSamples; ++s) {
    if (!valid[s]) continue;
    const uint32_t wb = kPaired ? word_a[s] >> 8 : word_b[s];
    // A sample of another part's b rows wraps to a row >= PartRows (unsigned).
    const uint32_t row = JointBinOf(p.b, wb, p.bins_b) - part * PartRows(p);
    if (kJointBParts > 1 && row >= PartRows(p)) continue;
    const uint32_t c = row * p.bins_a + JointBinOf(p.a, word_a[s], p.bins_a);
    uint32_t add = 1;
    if constexpr (kJointWarpAggregate) {  // one increment per distinct counter of the warp
      const uint32_t peers = __match_any_sync(__activemask(), c);
      if ((threadIdx.x & 31) != uint32_t(__ffs(peers)) - 1) continue;
      add = __popc(peers);
    }
    asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(counters + (c >> 1) * 4), "r"(add << ((c & 1) * 16))
                 : "memory");
  }
}

// Adds a non-zero counter word (two 16-bit counters, the first at
// accumulator[at]) to the accumulator.
__device__ __forceinline__ void AddCounterPair(uint32_t v, uint32_t at, uint32_t counts_length,
                                               uint32_t* accumulator) {
  if ((v & 0xffffu) != 0) atomicAdd(accumulator + at, v & 0xffffu);
  if ((v >> 16) != 0 && at + 1 < counts_length) atomicAdd(accumulator + at + 1, v >> 16);
}

// Adds the block's non-zero counters to the accumulator (from counts index
// `first`: the block's part) and zeroes them.
__device__ __forceinline__ void FlushCounters(uint32_t* counters, uint32_t words, uint32_t first,
                                              uint32_t counts_length, uint32_t* accumulator) {
  if constexpr (kJointFlushVector) {  // words rounded up to 4: the counters beyond stay zero
    uint4* vectors = reinterpret_cast<uint4*>(counters);
    for (uint32_t i = threadIdx.x; i < (words + 3) / 4; i += blockDim.x) {
      const uint4 v = vectors[i];
      if ((v.x | v.y | v.z | v.w) == 0) continue;
      vectors[i] = make_uint4(0, 0, 0, 0);
      const uint32_t at = first + 8 * i;
      if (v.x != 0) AddCounterPair(v.x, at, counts_length, accumulator);
      if (v.y != 0) AddCounterPair(v.y, at + 2, counts_length, accumulator);
      if (v.z != 0) AddCounterPair(v.z, at + 4, counts_length, accumulator);
      if (v.w != 0) AddCounterPair(v.w, at + 6, counts_length, accumulator);
    }
  } else {
    for (uint32_t w = threadIdx.x; w < words; w += blockDim.x) {
      const uint32_t v = counters[w];
      if (v == 0) continue;
      counters[w] = 0;
      AddCounterPair(v, first + 2 * w, counts_length, accumulator);
    }
  }
}

__global__ void __launch_bounds__(kJointThreads, kJointMinBlocksPerSm)
    JointHistogramKernel(const JointPlan plan, uint32_t* accumulator, uint32_t* counts) {
  extern __shared__ __align__(16) uint32_t counters[];
  const uint32_t counts_length = plan.bins_a * plan.bins_b;
  const uint32_t part_length = PartRows(plan) * plan.bins_a;
  const uint32_t words = (part_length + 1) / 2;
  const uint32_t counters_address = uint32_t(__cvta_generic_to_shared(counters));
  ZeroShared(counters, kJointFlushVector ? (words + 3) / 4 * 4 : words);
  __syncthreads();
  // Work unit u: part u % kJointBParts of item u / kJointBParts.
  for (uint32_t unit = blockIdx.x; unit < plan.items * kJointBParts; unit += gridDim.x) {
    const uint32_t item = unit / kJointBParts, part = unit % kJointBParts;
    if (plan.paired) {
      CountItem<true>(plan, item, part, counters_address);
    } else {
      CountItem<false>(plan, item, part, counters_address);
    }
    __syncthreads();
    FlushCounters(counters, words, part * part_length, counts_length, accumulator);
    __syncthreads();
  }
  cooperative_groups::this_grid().sync();  // includes the fence that publishes the atomics
  const uint32_t threads = gridDim.x * blockDim.x;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < counts_length; i += threads) {
    counts[i] = __ldcg(accumulator + i);
    accumulator[i] = 0;
  }
}

// In the last block of part `part` to arrive: moves the part's totals to the
// counts and leaves them and the part's ticket zero for the next launch.
// kJointMoveBatch loads a thread in flight before its stores. The totals are
// read from L2 (__ldcg), where the other blocks' reductions landed before
// their tickets (LastBlockToArrive's fences).
__device__ __forceinline__ void MovePartToCounts(uint32_t first, uint32_t length, uint32_t* accumulator,
                                                 uint32_t* ticket, uint32_t* counts) {
  constexpr uint32_t kBatch = kJointMoveBatch;
  for (uint32_t i = threadIdx.x; i < length; i += kBatch * blockDim.x) {
    uint32_t v[kBatch];
CUDAHIST_UNROLL
    for (uint32_t k = 0; k < kBatch; ++k) {
      const uint32_t at = i + k * blockDim.x;
      v[k] = at < length ? __ldcg(accumulator + first + at) : 0;
    }
CUDAHIST_UNROLL
    for (uint32_t k = 0; k < kBatch; ++k) {
      const uint32_t at = i + k * blockDim.x;
      if (at >= length) continue;
      counts[first + at] = v[k];
      accumulator[first + at] = 0;
    }
  }
  if (threadIdx.x == 0) *ticket = 0;
}

// The sliced walk's count (joint_slices.cuh) into the block's shared counters:
// one reduction, predicated on `add`, at a shared address computed once (a
// generic pointer into shared memory costs the address's conversion at every
// sample on sm_90, and a branch around each reduction a divergent warp).
struct SharedCount {
  uint32_t counters;  // shared address of counter 0
  __device__ __forceinline__ void operator()(uint32_t i, uint32_t n, bool add) const {
    asm volatile(
        "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %2, 0;\n\t@p red.shared.add.u32 [%0], %1;\n\t}"
        :: "r"(counters + 4 * i), "r"(n), "r"(uint32_t(add))
        : "memory");
  }
};

// The block's non-zero counters added to `to` (its part's first count).
// Consecutive lanes, consecutive counters: a warp's reductions share sectors.
__device__ __forceinline__ void AddNonZeroCounters(const uint32_t* counters, uint32_t length, uint32_t* to) {
  for (uint32_t i = threadIdx.x; i < length; i += blockDim.x) {
    const uint32_t v = counters[i];
    if (v != 0) atomicAdd(to + i, v);
  }
}

// Block b: part b % parts of slice b / parts (the parts of one slice run side
// by side, so its rows come from DRAM once and from L2 for the others).
// direct: counts in device memory and kJointDirect.
__global__ void __launch_bounds__(kJointSliceThreads)
    JointSlicedKernel(const JointPlan plan, uint32_t slices, uint32_t* accumulator, uint32_t* counts, bool direct) {
  extern __shared__ __align__(16) uint32_t counters[];
  const uint32_t part = blockIdx.x % plan.parts, slice = blockIdx.x / plan.parts;
  const uint32_t first = JointPartFirst(plan, part), length = JointPartLength(plan, part);
  const uint32_t y0 = JointSliceRow(plan, slice, slices), y1 = JointSliceRow(plan, slice + 1, slices);
  if (kJointDirect && !kJointGlobalAtomics && direct) {
    ZeroSharedThenWaitForPriorGrids(counters, length);
    const DirectLaunch launch =
        StartDirectLaunch(reinterpret_cast<DirectLaunchScratch*>(accumulator + kJointDirectAt), gridDim.x);
    ZeroShareThenArrive(counts + first, length, slice, slices, launch.arrivals);
    CountSlicePart<kJointSliceLoads>(plan, part, y0, y1, threadIdx.x, blockDim.x,
                                     SharedCount{uint32_t(__cvta_generic_to_shared(counters))});
    WaitForArrivals(launch.arrivals, gridDim.x);  // its __syncthreads also ends the count
    AddNonZeroCounters(counters, length, counts + first);
    return;
  }
  if constexpr (kJointGlobalAtomics) {
    AllowDependentGridsToLaunch();
    WaitForPriorGrids();
    uint32_t* totals = accumulator + first;
    CountSlicePart<kJointSliceLoads>(plan, part, y0, y1, threadIdx.x, blockDim.x,
                                     [&](uint32_t i, uint32_t n, bool add) {
                                       if (add) atomicAdd(totals + i, n);
                                     });
  } else {
    ZeroSharedThenWaitForPriorGrids(counters, length);
    CountSlicePart<kJointSliceLoads>(plan, part, y0, y1, threadIdx.x, blockDim.x,
                                     SharedCount{uint32_t(__cvta_generic_to_shared(counters))});
    __syncthreads();
    AddNonZeroCounters(counters, length, accumulator + first);
  }
  uint32_t* ticket = accumulator + kJointTicketsAt + part;
  if (LastBlockToArrive(ticket, slices)) MovePartToCounts(first, length, accumulator, ticket, counts);
}

// Shared memory of a sliced block: the counters of the largest part.
constexpr uint32_t kJointSlicedSharedBytes =
    kJointGlobalAtomics ? 0 : (kMaxJointBins + kJointParts - 1) / kJointParts * kMaxJointBins * sizeof(uint32_t);

}  // namespace

Status ConfigureJointKernel(const DeviceLimits& limits, KernelConfig* config) {
  *config = KernelConfig();
  if constexpr (kJointSliced) {
    CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(limits, reinterpret_cast<const void*>(&JointSlicedKernel),
                                             kJointSliceThreads, kJointSliceLoads, kJointSlicedSharedBytes,
                                             "joint histogram (sliced)", config));
    // The grid's size (JointSlices), not all the device could hold.
    config->resident_blocks = std::min(config->resident_blocks, uint32_t(limits.sm_count) * kJointBlocksPerSm);
    return Status::Ok();
  }
  if (!limits.cooperative_launch) {
    config->why = "joint histogram: the device does not support cooperative launches";
    return Status::Ok();
  }
  return ConfigureKernel(limits, reinterpret_cast<const void*>(&JointHistogramKernel), kJointThreads,
                         kJointSamplesPerThread, kJointCounterWords * uint32_t(sizeof(uint32_t)), "joint histogram",
                         config);
}

JointPlan BuildJointPlan(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b) {
  JointPlan p{};
  const Roi region = CountedRegion(a);
  p.a = SampleGridOf(a);
  p.b = SampleGridOf(b);
  p.width = region.width;
  p.height = region.height;
  p.bins_a = spec.bins_a;
  p.bins_b = spec.bins_b;
  p.item_columns = std::max<uint32_t>(1, std::min(p.width, kJointSamplesPerItem));
  p.item_rows = std::max<uint32_t>(1, kJointSamplesPerItem / p.item_columns);
  p.item_row_of = FastDivisor::For(p.item_columns);
  p.column_segments = (p.width + p.item_columns - 1) / p.item_columns;
  const uint64_t row_bands = (uint64_t(p.height) + p.item_rows - 1) / p.item_rows;
  p.items = uint32_t(p.column_segments * row_bands);
  // NV12's U and V: the two bytes of one aligned 16-bit word, one load for both.
  p.paired = p.a.sample_size == 1 && p.b.sample_size == 1 && p.b.first == p.a.first + 1 &&
             p.a.pitch == p.b.pitch && p.a.stride == p.b.stride && p.a.stride % 2 == 0 && p.a.pitch % 2 == 0 &&
             reinterpret_cast<uintptr_t>(p.a.first) % 2 == 0;
  p.packed_pairs = p.paired && p.a.stride == 2;
  p.byte_bins = p.paired && p.a.depth == 8 && p.b.depth == 8 && p.a.shift == 0 && p.b.shift == 0 &&
                spec.bins_a == 256 && spec.bins_b == 256;
  // 2 x width bytes from any even address touch at most this many chunks.
  p.chunk_span = (2 * p.width + 15) / 16 + 1;
  p.chunk_row_of = FastDivisor::For(p.chunk_span);
  p.width_of = FastDivisor::For(std::max<uint32_t>(1, p.width));
  JointPlanParts(kJointParts, &p);
  return p;
}

void JointPlanParts(uint32_t parts, JointPlan* plan) {
  plan->part_rows = (plan->bins_b + parts - 1) / parts;
  plan->parts = (plan->bins_b + plan->part_rows - 1) / plan->part_rows;
}

uint32_t JointSlices(const KernelConfig& config, const JointPlan& plan) {
  const uint32_t slices = std::max<uint32_t>(1, config.resident_blocks / plan.parts);
  return std::min(slices, std::max<uint32_t>(1, plan.height));
}

bool JointCountsDirect(const uint32_t* counts) {
  return kJointSliced && kJointDirect && !kJointGlobalAtomics && InDeviceMemory(counts);
}

Status LaunchJoint(const KernelConfig& config, const JointPlan& plan, uint32_t* scratch, uint32_t* counts,
                   bool direct, cudaStream_t stream) {
  uint32_t* accumulator = scratch;
  if constexpr (kJointSliced) {
    JointPlan plan_arg = plan;
    uint32_t slices = JointSlices(config, plan);
    const uint32_t grid = plan.parts * slices;
    direct = direct && grid <= config.resident_blocks;  // the wait needs every block resident
    void* args[] = {&plan_arg, &slices, &accumulator, &counts, &direct};
    // A direct launch's blocks wait for one another: cooperative, so that a
    // device with fewer SMs free than the plan assumed (MPS, green contexts)
    // refuses the launch instead of hanging; then the accumulator's path.
    cudaError_t error = LaunchKernelSerialized(config.kernel, dim3(grid), config.threads, config.shared_bytes, args,
                                               stream, kScopesProgrammaticLaunch, direct);
    if (error != cudaSuccess && direct) {
      (void)cudaGetLastError();  // a refused launch leaves no sticky error
      direct = false;
      error = LaunchKernelSerialized(config.kernel, dim3(grid), config.threads, config.shared_bytes, args, stream,
                                     kScopesProgrammaticLaunch);
    }
    return CudaStatus(error, "joint histogram kernel launch (sliced)");
  }
  const uint32_t grid = std::max<uint32_t>(1, std::min(config.resident_blocks, plan.items * kJointBParts));
  JointPlan plan_arg = plan;
  void* args[] = {&plan_arg, &accumulator, &counts};
  return CudaStatus(cudaLaunchCooperativeKernel(config.kernel, dim3(grid), dim3(config.threads), args,
                                                config.shared_bytes, stream),
                    "joint histogram kernel launch (cooperative)");
}

}  // namespace cudahist::detail
