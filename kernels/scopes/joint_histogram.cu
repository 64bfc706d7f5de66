// joint histograms (vectorscope: U against V, or two of R, G, B) in ONE
// launch. counts[bin_b * bins_a + bin_a], up to 256 x 256.
//
// 65536 32-bit counters (256 KB) do not fit shared memory, so the b range is
// cut into parts (scopes_tuning.h) and the frame's rows into slices: a block
// per (part, slice) keeps 32-bit shared counters of its part, counts its
// slice's rows into them (joint_slices.cuh: the walk), and adds its non-zero
// counters to the counts. Counts in device memory take a direct launch
// (device/grid_completion.cuh): every block zeroes its share of the counts,
// waits for every block's zeros and adds straight into them. Pinned or
// managed counts go through a 32-bit accumulator in L2 instead, whose last
// block of a part to arrive moves that part to the counts, leaving the
// accumulator zero for the next launch.
#include <algorithm>

#include "device/plan_walk.cuh"
#include "device/grid_completion.cuh"
#include "scopes/joint_slices.cuh"
#include "scopes/scopes_launch.h"
#include "scopes/scopes_tuning.h"

namespace cudahist::detail {
namespace {

constexpr ScopesPolicy::Joint kPolicy = kScopesPolicy.joint;

// In the last block of part `part` to arrive: moves the part's totals to the
// counts and leaves them and the part's ticket zero for the next launch.
// Partial loads in flight (launch_tuning.h) before a thread's stores. The totals are
// read from L2 (__ldcg), where the other blocks' reductions landed before
// their tickets (LastBlockToArrive's fences).
__device__ __forceinline__ void MovePartToCounts(uint32_t first, uint32_t length, uint32_t* accumulator,
                                                 uint32_t* ticket, uint32_t* counts) {
  constexpr uint32_t kBatch = kLaunchPolicy.partial_loads_in_flight;
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
// direct: counts in device memory.
__global__ void __launch_bounds__(kPolicy.threads())
    JointSlicedKernel(const JointPlan plan, uint32_t slices, uint32_t* accumulator, uint32_t* counts, bool direct) {
  extern __shared__ __align__(16) uint32_t counters[];
  const uint32_t part = blockIdx.x % plan.parts, slice = blockIdx.x / plan.parts;
  const uint32_t first = JointPartFirst(plan, part), length = JointPartLength(plan, part);
  const uint32_t y0 = JointSliceRow(plan, slice, slices), y1 = JointSliceRow(plan, slice + 1, slices);
  if (direct) {
    ZeroSharedThenWaitForPriorGrids(counters, length);
    const DirectLaunch launch =
        StartDirectLaunch(reinterpret_cast<DirectLaunchScratch*>(accumulator + kJointDirectAt), gridDim.x);
    ZeroShareThenArrive(counts + first, length, slice, slices, launch.arrivals);
    CountSlicePart<kWalkPolicy.deep_loads_per_thread>(plan, part, y0, y1, threadIdx.x, blockDim.x,
                                                      SharedCount{uint32_t(__cvta_generic_to_shared(counters))});
    WaitForArrivals(launch.arrivals, gridDim.x);  // its __syncthreads also ends the count
    AddNonZeroCounters(counters, length, counts + first);
    return;
  }
  ZeroSharedThenWaitForPriorGrids(counters, length);
  CountSlicePart<kWalkPolicy.deep_loads_per_thread>(plan, part, y0, y1, threadIdx.x, blockDim.x,
                                                    SharedCount{uint32_t(__cvta_generic_to_shared(counters))});
  __syncthreads();
  AddNonZeroCounters(counters, length, accumulator + first);
  uint32_t* ticket = accumulator + kJointTicketsAt + part;
  if (LastBlockToArrive(ticket, slices)) MovePartToCounts(first, length, accumulator, ticket, counts);
}

// Shared memory of a block: the counters of the largest part.
constexpr uint32_t kJointSlicedSharedBytes =
    (kMaxJointBins + kPolicy.parts - 1) / kPolicy.parts * kMaxJointBins * sizeof(uint32_t);

}  // namespace

Status ConfigureJointKernel(const DeviceLimits& limits, KernelConfig* config) {
  *config = KernelConfig();
  CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(limits, reinterpret_cast<const void*>(&JointSlicedKernel), kPolicy.threads(),
                                           kWalkPolicy.deep_loads_per_thread, kJointSlicedSharedBytes,
                                           "joint histogram (sliced)", config));
  // The grid's size (JointSlices), not all the device could hold.
  config->resident_blocks = std::min(config->resident_blocks, uint32_t(limits.sm_count) * kPolicy.blocks_per_sm);
  return Status::Ok();
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
  JointPlanParts(kPolicy.parts, &p);
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
  return InDeviceMemory(counts);
}

Status LaunchJoint(const KernelConfig& config, const JointPlan& plan, uint32_t* scratch, uint32_t* counts,
                   bool direct, cudaStream_t stream) {
  uint32_t* accumulator = scratch;
  JointPlan plan_arg = plan;
  uint32_t slices = JointSlices(config, plan);
  const uint32_t grid = plan.parts * slices;
  direct = direct && grid <= config.resident_blocks;  // the wait needs every block resident
  void* args[] = {&plan_arg, &slices, &accumulator, &counts, &direct};
  // A direct launch's blocks wait for one another: cooperative, so that a
  // device with fewer SMs free than the plan assumed (MPS, green contexts)
  // refuses the launch instead of hanging; then the accumulator's path.
  cudaError_t error = LaunchKernelSerialized(config.kernel, dim3(grid), config.threads, config.shared_bytes, args,
                                             stream, /*cooperative=*/direct);
  if (error != cudaSuccess && direct) {
    (void)cudaGetLastError();  // a refused launch leaves no sticky error
    direct = false;
    error = LaunchKernelSerialized(config.kernel, dim3(grid), config.threads, config.shared_bytes, args, stream);
  }
  return CudaStatus(error, "joint histogram kernel launch (sliced)");
}

}  // namespace cudahist::detail
