// cudahist: what the histogram algorithm files offer the dispatcher (host
// side). Each algorithm is configured once per Histogrammer (kernel
// attributes, occupancy, scratch sizes; nothing depends on the frame size)
// and launched once per frame: exactly one kernel launch on the caller's stream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cudahist/histogram_spec.h"
#include "cudahist/status.h"
#include "launch/kernel_launch.h"
#include "launch/launch_plan.h"

namespace cudahist::detail {

// Largest power-of-two copy count (<= kMaxLaneCopies) whose copies of
// `counters` fit the lane-copies budget and the device; 1 beyond the budget
// while one copy fits the device; 0 when not even one does.
uint32_t LaneCopiesFor(uint32_t counters, const DeviceLimits& limits);

// privatized.cu: `copies` 1 (privatized-shared) or LaneCopiesFor(...), for
// the frame, deep and batch kernels alike.
Status ConfigurePrivatized(const DeviceLimits& limits, uint32_t counters, bool pow2_bins,
                           uint32_t copies, KernelConfig* config);
// privatized_packed.cu
Status ConfigurePacked(const DeviceLimits& limits, uint32_t counters, bool pow2_bins,
                       KernelConfig* config);
// Both privatized kernels take (Plan, AccumulatorScratch, uint32_t* counts).
Status LaunchAccumulating(const KernelConfig& config, const Plan& plan,
                          const AccumulatorScratch& scratch, uint32_t* counts, cudaStream_t stream);

// two_phase.cu: partials hold config.max_slices * counters words.
Status ConfigureTwoPhase(const DeviceLimits& limits, uint32_t counters, bool pow2_bins,
                         KernelConfig* config);
Status LaunchTwoPhase(const KernelConfig& config, const Plan& plan, uint32_t* partials,
                      uint32_t* counts, cudaStream_t stream);

// Launches a kernel that starts with ZeroSharedThenWaitForPriorGrids
// (device/grid_completion.cuh) with the programmatic-serialisation attribute
// (dispatch.cu; signalstats_counter.cu uses it too).
cudaError_t LaunchPrivatizedKernel(const void* kernel, dim3 grid, uint32_t threads, uint32_t shared_bytes,
                                   void** args, cudaStream_t stream);

// Blocks that one round of config.loads_per_thread loads per thread needs to
// cover the plan (at least 1; not capped by residency).
uint32_t BlocksForOneRound(const KernelConfig& config, const Plan& plan);

// --- dispatch.cu: the algorithm behind a Histogrammer ---------------------------

// What `auto` runs for this many counters (components x bins): the rule.
Algorithm ResolveAuto(uint32_t counters, const DeviceLimits& limits);

// Configures `algorithm` (already resolved, not kAuto) for `counters` counters.
Status ConfigureAlgorithm(Algorithm algorithm, const DeviceLimits& limits, uint32_t counters,
                          bool pow2_bins, KernelConfig* config);

// Global scratch a configured algorithm needs, in 32-bit words: the
// accumulating ones counters + 1 (totals and ticket; zero between launches),
// kMaxBatchFrames times over when they have a batch kernel, two-phase
// max_slices * counters partials (no zeroing needed).
uint64_t ScratchWords(Algorithm algorithm, const KernelConfig& config, uint32_t counters);
bool ScratchMustBeZero(Algorithm algorithm);

// The one launch of a frame.
Status LaunchAlgorithm(Algorithm algorithm, const KernelConfig& config, const Plan& plan,
                       uint32_t* scratch, uint32_t* counts, cudaStream_t stream);

// Whether LaunchBatch can count these frames in one launch: the algorithm has
// a batch kernel and no frame is large enough for the deep kernel (such a
// frame fills the GPU on its own; ComputeBatch then launches the frames of
// that group one by one).
bool CanLaunchBatch(const KernelConfig& config, const Plan* plans, uint32_t frames);
// One launch for frames 1 to kMaxBatchFrames (CanLaunchBatch true); frame f's
// counts go to counts + f * plans[f].counters, its accumulator is
// BatchAccumulator(scratch, counters, f).
Status LaunchBatch(const KernelConfig& config, const Plan* plans, uint32_t frames, uint32_t* scratch,
                   uint32_t* counts, cudaStream_t stream);

}  // namespace cudahist::detail
