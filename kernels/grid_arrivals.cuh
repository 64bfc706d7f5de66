// cudahist: direct launches, whose blocks add straight into the caller's
// counts instead of an accumulator that the last block moves.
//
// The counts must be zero before any block adds to them, and someone in the
// grid must zero them: a block announces its zeros at a counter in the
// caller's scratch (ZeroShareThenArrive), and a block waits for that counter
// before it adds (WaitForArrivals; by then long past, so the wait costs the
// read). That removes the chain after the count of an accumulating kernel
// (fence, ticket, the last block's move and zeroing): a block's end is its
// own reductions. Two ways to share the zeroing:
// - every block zeroes its share (the joint kernel's 256 KB of counts): a
//   block then waits for blocks that may not have started, so every block
//   must be resident at once: such kernels are launched cooperatively
//   (LaunchKernelSerialized), a device with fewer SMs free refuses the launch
//   instead of hanging, and the caller takes the accumulator's path;
// - the first block to start zeroes them all (FirstBlockToStart; signalstats'
//   18 KB): a waiting block then waits only for a block that is running and
//   waits for nothing, so no residency is needed and the launch stays an
//   ordinary one (programmatic dependent launch keeps overlapping the
//   previous kernel, which a cooperative launch does not).
// The arrival counter is never reset: the host adds what a launch adds to
// the target it passes each launch (unsigned, wrapping); a failed launch
// re-zeroes the scratch with the target back at 0.
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

// True (block-uniform) in the first block of the grid to get here, by a
// counter in the scratch that every block of every launch on the stream
// increments once and that wraps to 0 at the grid's size: each launch finds
// it at 0 (launches of one scratch are serialised by their stream; a grid's
// dependents start only once all its blocks have). Call after
// WaitForPriorGrids.
__device__ __forceinline__ bool FirstBlockToStart(uint32_t* started) {
  __shared__ bool first;
  if (threadIdx.x == 0) first = atomicInc(started, gridDim.x - 1) == 0;
  __syncthreads();
  return first;
}

// Until the arrivals counter reached `target` (unsigned, wrapping): then the
// zeros of every block that arrives are in place. Ends with a
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
