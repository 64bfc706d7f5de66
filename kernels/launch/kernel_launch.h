// cudahist: what the algorithm files offer the dispatcher (host side). Each
// algorithm is configured once per Histogrammer (kernel attributes, occupancy,
// scratch sizes; nothing depends on the frame size) and launched once per
// frame: exactly one kernel launch on the caller's stream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "cudahist/histogram_spec.h"
#include "cudahist/status.h"
#include "launch_plan.h"

namespace cudahist::detail {

// What the current device allows (read in Create, in the current context).
struct DeviceLimits {
  int sm_count = 0;
  int max_shared_per_block = 0;  // opt-in maximum of dynamic shared memory
  int cooperative_launch = 0;
};

Status QueryDeviceLimits(DeviceLimits* limits);

// cudaSuccess -> Ok; anything else -> kCudaError "<what>: <cuda error string>".
Status CudaStatus(cudaError_t error, const char* what);

// A configured kernel. `supported` false: Compute returns kUnsupported with `why`.
struct KernelConfig {
  bool supported = false;
  std::string why;
  const char* name = "";
  const void* kernel = nullptr;
  uint32_t threads = 0;
  uint32_t loads_per_thread = 1;  // chunk loads in flight per thread (one round)
  uint32_t shared_bytes = 0;
  uint32_t resident_blocks = 0;  // blocks the whole device holds at once
  uint32_t log_copies = 0;       // privatized: log2 of the lane-indexed copies
  // privatized: the deep kernel (row walk, more loads in flight) for planes
  // that give every resident thread many rounds (tuning.h); null when none.
  const void* deep_kernel = nullptr;
  uint32_t deep_loads_per_thread = 0;
  uint32_t deep_resident_blocks = 0;
  // privatized: the batch kernel (a row of blocks per frame, the frame
  // kernel's copies); null when the algorithm has none.
  const void* batch_kernel = nullptr;
  // two-phase
  uint32_t tile_counters = 0;
  uint32_t tiles = 0;
  uint32_t max_slices = 0;
};

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

// Raises the kernel's dynamic shared memory limit and reads its occupancy at
// `threads` and `shared_bytes`; fills config's name, kernel, threads,
// loads_per_thread, shared_bytes, resident_blocks and supported (false with the
// reason when not even one block fits an SM).
Status ConfigureKernel(const DeviceLimits& limits, const void* kernel, uint32_t threads,
                       uint32_t loads_per_thread, uint32_t shared_bytes, const char* name,
                       KernelConfig* config);

// Launches `kernel`, with the programmatic-serialisation attribute when
// `programmatic` (Hopper: it may start while the previous kernel on the
// stream finishes, so it must call WaitForPriorGrids, device_helpers.cuh,
// before touching global memory). `cooperative`: the launch fails, rather
// than starting, unless every block can be resident at once (for a kernel
// whose blocks wait for one another).
cudaError_t LaunchKernelSerialized(const void* kernel, dim3 grid, uint32_t threads, uint32_t shared_bytes,
                                   void** args, cudaStream_t stream, bool programmatic, bool cooperative = false);

// Whether `p` is device memory (not pinned host or managed memory): where a
// direct launch (grid_arrivals.cuh) may add to counts with L2 atomics.
bool InDeviceMemory(const void* p);

// Launches a kernel that starts with ZeroSharedThenWaitForPriorGrids
// (device_helpers.cuh) with the programmatic-serialisation attribute where
// tuning.h asks for it (dispatch.cu; signalstats.cu uses it too).
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
