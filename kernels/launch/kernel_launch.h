// cudahist: what every module's launch is made of (host side): the device's
// limits, a configured kernel, CUDA errors as a Status, and the launch itself.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "cudahist/histogram_spec.h"
#include "cudahist/status.h"
#include "launch/launch_plan.h"

namespace cudahist::detail {

// What the current device allows (read in Create, in the current context).
struct DeviceLimits {
  int sm_count = 0;
  int max_shared_per_block = 0;  // opt-in maximum of dynamic shared memory
  int shared_per_sm = 0;         // shared memory of an SM, shared among its blocks
  int reserved_shared_per_block = 0;  // what the system takes of it for every block
  int cooperative_launch = 0;
};

Status QueryDeviceLimits(DeviceLimits* limits);

// log2 of the most lane copies of `copy_bytes` each, a power of two up to
// 2^max_log_copies, that fit in `budget_bytes`; 0 (one copy) when fewer fit:
// whether even one fits is the caller's to refuse. The kernels that keep
// copies (privatized, signalstats, the region kernels) take theirs so.
uint32_t LargestLogCopiesWithin(uint32_t max_log_copies, uint64_t copy_bytes, int64_t budget_bytes);

// The shared memory a kernel declares itself (its __shared__ variables).
Status StaticSharedBytes(const void* kernel, uint32_t* bytes);

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
  // that give every resident thread many rounds (histogram/histogram_tuning.h); null when none.
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

// Raises the kernel's dynamic shared memory limit and reads its occupancy at
// `threads` and `shared_bytes`; fills config's name, kernel, threads,
// loads_per_thread, shared_bytes, resident_blocks and supported (false with the
// reason when not even one block fits an SM).
Status ConfigureKernel(const DeviceLimits& limits, const void* kernel, uint32_t threads,
                       uint32_t loads_per_thread, uint32_t shared_bytes, const char* name,
                       KernelConfig* config);

// Launches `kernel` with the programmatic-serialisation attribute, as every
// kernel of the library is launched (Hopper: it may start while the previous
// kernel on the stream finishes, so it must call WaitForPriorGrids,
// device/grid_completion.cuh, before touching global memory). `cooperative`:
// the launch fails, rather than starting, unless every block can be resident
// at once (for a kernel whose blocks wait for one another).
cudaError_t LaunchKernelSerialized(const void* kernel, dim3 grid, uint32_t threads, uint32_t shared_bytes,
                                   void** args, cudaStream_t stream, bool cooperative = false);

// Whether `p` is device memory (not pinned host or managed memory): where a
// direct launch (device/grid_completion.cuh) may add to counts with L2 atomics.
bool InDeviceMemory(const void* p);

}  // namespace cudahist::detail
