// cudahist dispatch: which algorithm runs (the `auto` rule), its launch
// configuration, and the single launch per frame.
#include <algorithm>
#include <string>

#include "device/lane_copies.cuh"
#include "histogram/histogram_launch.h"
#include "histogram/histogram_tuning.h"

namespace cudahist::detail {

constexpr HistogramPolicy::Privatized kPrivatized = kHistogramPolicy.privatized;

// THE AUTO RULE (the one place to adjust it; bench/ measures every algorithm
// on every case so that this follows the table):
//   lane-indexed privatized copies while every counter still gets at least
//   auto_min_lane_copies copies within the lane-copies budget: up to 8192
//   counters (4 x 256 RGBA, 1024 bins for P010, 4096 bins); the probe measured
//   0.96 / 0.88 / 0.97 / 0.81 of the read roofline there;
//   two-phase beyond (65536 bins, 4 x 4096): one shared copy per block would
//   serialise on bank conflicts anyway, and two-phase tiles any bin count.
//   privatized-shared (the baseline) and privatized-packed (0.30 in the probe)
//   are never chosen.
Algorithm ResolveAuto(uint32_t counters, const DeviceLimits& limits) {
  return LaneCopiesFor(counters, limits) >= kHistogramPolicy.auto_min_lane_copies ? Algorithm::kPrivatized
                                                                                  : Algorithm::kTwoPhase;
}

uint32_t LaneCopiesFor(uint32_t counters, const DeviceLimits& limits) {
  // The budget decides how many copies; one copy is always allowed up to the
  // device's limit (the trash counter's copies included).
  const uint64_t stored = StoredCounters(counters);
  if (stored * sizeof(uint32_t) > uint64_t(limits.max_shared_per_block)) return 0;
  const uint32_t max_log = CeilLog2(kMaxLaneCopies);
  return 1u << std::min(LargestLogCopiesWithin(max_log, counters * sizeof(uint32_t),
                                               kLaunchPolicy.lane_copies_budget_bytes),
                        LargestLogCopiesWithin(max_log, stored * sizeof(uint32_t), limits.max_shared_per_block));
}

uint32_t BlocksForOneRound(const KernelConfig& config, const Plan& plan) {
  const uint64_t per_block = uint64_t(config.threads) * config.loads_per_thread;
  return uint32_t(std::max<uint64_t>(1, (uint64_t(plan.total_units) + per_block - 1) / per_block));
}

Status ConfigureAlgorithm(Algorithm algorithm, const DeviceLimits& limits, uint32_t counters,
                          bool pow2_bins, KernelConfig* config) {
  switch (algorithm) {
    case Algorithm::kPrivatized:
      return ConfigurePrivatized(limits, counters, pow2_bins, LaneCopiesFor(counters, limits), config);
    case Algorithm::kPrivatizedSharedAtomic:
      return ConfigurePrivatized(limits, counters, pow2_bins, 1, config);
    case Algorithm::kPrivatizedPacked:
      return ConfigurePacked(limits, counters, pow2_bins, config);
    case Algorithm::kTwoPhase:
      return ConfigureTwoPhase(limits, counters, pow2_bins, config);
    case Algorithm::kAuto:
      break;
  }
  return Status::InvalidArgument("spec.algorithm: auto must be resolved before configuring");
}

bool ScratchMustBeZero(Algorithm algorithm) { return algorithm != Algorithm::kTwoPhase; }

uint64_t ScratchWords(Algorithm algorithm, const KernelConfig& config, uint32_t counters) {
  if (!config.supported) return 0;
  if (algorithm == Algorithm::kTwoPhase) return uint64_t(config.max_slices) * counters;
  return uint64_t(StoredCounters(counters)) * (config.batch_kernel != nullptr ? kMaxBatchFrames : 1);
}

Status LaunchAlgorithm(Algorithm algorithm, const KernelConfig& config, const Plan& plan,
                       uint32_t* scratch, uint32_t* counts, cudaStream_t stream) {
  if (algorithm == Algorithm::kTwoPhase) return LaunchTwoPhase(config, plan, scratch, counts, stream);
  return LaunchAccumulating(config, plan, BatchAccumulator(scratch, plan.counters, 0), counts, stream);
}

// Rows of the vector-layout groups: what the deep kernel's row walk shares out.
uint64_t VectorRows(const Plan& plan) {
  uint64_t rows = 0;
  for (uint32_t i = 0; i < plan.num_groups; ++i) {
    if (plan.group[i].layout != kGeneral) rows += plan.group[i].rows;
  }
  return rows;
}

// The deep kernel (row walk, more loads in flight) when the frame gives every
// resident thread at least deep_min_rounds rounds and every resident
// warp a row; the frame kernel (unit walk) otherwise.
bool UseDeepKernel(const KernelConfig& config, const Plan& plan) {
  if (config.deep_kernel == nullptr) return false;
  const uint64_t threads = uint64_t(config.deep_resident_blocks) * config.threads;
  return uint64_t(plan.total_units) >= threads * config.deep_loads_per_thread * kPrivatized.deep_min_rounds &&
         VectorRows(plan) >= threads / 32;
}

// The grid of the frame kernel: at most what the device holds at once and no
// more blocks than give every thread `chunks_per_thread` chunks (a small frame
// does not pay for zeroing and merging the shared copies of blocks that would
// count nothing; see histogram_tuning.h).
uint32_t FrameGrid(const KernelConfig& config, const Plan& plan, uint32_t chunks_per_thread) {
  const uint64_t per_block = uint64_t(config.threads) * chunks_per_thread;
  const uint64_t blocks = std::max<uint64_t>(1, (uint64_t(plan.total_units) + per_block - 1) / per_block);
  return uint32_t(std::min<uint64_t>(config.resident_blocks, blocks));
}

// Every launch of the accumulating kernels (privatized, packed, batch) goes
// through here, with the programmatic-serialisation attribute: the next
// kernel's launch gap and shared-memory zeroing overlap this one's tail
// (docs/tuning.md). Each of those kernels starts with
// ZeroSharedThenWaitForPriorGrids (device/grid_completion.cuh), so it is safe
// after any kernel.
cudaError_t LaunchPrivatizedKernel(const void* kernel, dim3 grid, uint32_t threads, uint32_t shared_bytes,
                                   void** args, cudaStream_t stream) {
  return LaunchKernelSerialized(kernel, grid, threads, shared_bytes, args, stream);
}

// The privatized kernels all take (Plan, AccumulatorScratch, counts).
Status LaunchAccumulating(const KernelConfig& config, const Plan& plan,
                          const AccumulatorScratch& scratch, uint32_t* counts, cudaStream_t stream) {
  Plan plan_arg = plan;
  AccumulatorScratch acc = scratch;
  void* args[] = {&plan_arg, &acc, &counts};
  const bool deep = UseDeepKernel(config, plan);
  const uint32_t grid =
      deep ? config.deep_resident_blocks : FrameGrid(config, plan, 1);
  const cudaError_t error = LaunchPrivatizedKernel(deep ? config.deep_kernel : config.kernel, dim3(grid),
                                                   config.threads, config.shared_bytes, args, stream);
  if (error == cudaSuccess) return Status::Ok();  // no string built on the per-frame path
  return CudaStatus(error, (std::string(config.name) + " kernel launch").c_str());
}

bool CanLaunchBatch(const KernelConfig& config, const Plan* plans, uint32_t frames) {
  if (config.batch_kernel == nullptr) return false;
  for (uint32_t f = 0; f < frames; ++f) {
    if (UseDeepKernel(config, plans[f])) return false;
  }
  return true;
}

Status LaunchBatch(const KernelConfig& config, const Plan* plans, uint32_t frames, uint32_t* scratch,
                   uint32_t* counts, cudaStream_t stream) {
  PlanBatch batch;
  uint32_t blocks_per_frame = 1;
  for (uint32_t f = 0; f < frames; ++f) {
    batch.frame[f] = plans[f];
    blocks_per_frame = std::max(blocks_per_frame, FrameGrid(config, plans[f], kPrivatized.batch_chunks_per_thread));
  }
  void* args[] = {&batch, &scratch, &counts};
  const cudaError_t error = LaunchPrivatizedKernel(config.batch_kernel, dim3(blocks_per_frame, frames),
                                                   config.threads, config.shared_bytes, args, stream);
  if (error == cudaSuccess) return Status::Ok();
  return CudaStatus(error, (std::string(config.name) + " batch kernel launch").c_str());
}

}  // namespace cudahist::detail
