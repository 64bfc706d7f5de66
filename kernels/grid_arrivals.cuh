// cudahist: direct launches, whose blocks add straight into the caller's
// counts instead of an accumulator that the last block moves.
//
// Each block zeroes its share of the counts and arrives at a grid-wide
// counter; after counting, it waits until every block has arrived (by then
// long past, so the wait costs the read) and adds its counters to the counts.
// That removes the chain after the count of an accumulating kernel (fence,
// ticket, the last block's move and zeroing), so a block's end is its own
// reductions. The wait needs every block resident at once: such kernels are
// launched cooperatively (LaunchKernelSerialized), so that a device with
// fewer SMs free refuses the launch instead of hanging, and their callers
// then take the accumulator's path. The counter lives in the caller's scratch
// and is never reset: the host adds the grid to the target it passes each
// launch (unsigned, wrapping), so a replayed or failed launch cannot leave it
// in a state the next launch misreads once the scratch is re-zeroed with the
// target back at 0.
#pragma once

#include <cstdint>

namespace cudahist::detail {

#ifdef __CUDACC__

// Zeroes share `share` of `shares` equal shares of words[0, length), then
// arrives at `arrivals` (fenced: the zeros land before the arrival).
__device__ __forceinline__ void ZeroShareThenArrive(uint32_t* words, uint32_t length, uint32_t share,
                                                    uint32_t shares, uint32_t* arrivals) {
  const uint32_t from = uint32_t(uint64_t(length) * share / shares);
  const uint32_t to = uint32_t(uint64_t(length) * (share + 1) / shares);
  for (uint32_t i = from + threadIdx.x; i < to; i += blockDim.x) words[i] = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();  // cumulative after the barrier: every thread's zeros
    atomicAdd(arrivals, 1u);
  }
}

// Until every block of the grid has arrived (the counter reached `target`,
// unsigned and wrapping): then every block's zeros are in place. Ends with a
// barrier, so it also ends whatever the block did before.
__device__ __forceinline__ void WaitForArrivals(const uint32_t* arrivals, uint32_t target) {
  if (threadIdx.x == 0) {
    for (;;) {
      uint32_t seen;
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(arrivals) : "memory");
      if (int32_t(seen - target) >= 0) break;
      __nanosleep(100);
    }
    __threadfence();
  }
  __syncthreads();
}

#endif  // __CUDACC__

}  // namespace cudahist::detail
