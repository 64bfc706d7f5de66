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
// - the first block to start zeroes them all (TakeLaunchTicket; signalstats'
//   18 KB): a waiting block then waits only for a block that is running and
//   waits for nothing, so no residency is needed and the launch stays an
//   ordinary one (programmatic dependent launch keeps overlapping the
//   previous kernel, which a cooperative launch does not).
// Everything a launch waits for is counted on the device (StartDirectLaunch):
// its own arrival counter, zero when it starts, so that a launch replayed
// from a CUDA graph, whose arguments are frozen, waits for its own zeros and
// not for a count an earlier launch left. A failed launch re-zeroes the
// scratch.
#pragma once

#include <cstdint>

namespace cudahist::detail {

// The scratch of direct launches, zero before the first: TakeLaunchTicket's
// word and the arrival counters of two consecutive launches.
struct DirectLaunchScratch {
  unsigned long long ticket;
  uint32_t arrivals[2];
};

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

// A block's place in its launch: `first` in the first block of the grid to
// start; `epoch`, the number of launches before this one that took tickets
// from the same word, the same in every block of the launch.
struct LaunchTicket {
  bool first;
  uint32_t epoch;
};

// Every block of a launch takes one ticket, after WaitForPriorGrids, from a
// 64-bit word of the scratch: the low half counts the launch's blocks as
// they start, the high half its epoch. The last block to start moves the
// word on to the next epoch with the low half back at 0 (adding 2^32 - grid
// carries the count into the epoch). Launches of one scratch are serialised
// by their stream, and a grid's dependents start only once all its blocks
// have, so no block of the next launch takes a ticket before that.
__device__ __forceinline__ LaunchTicket TakeLaunchTicket(unsigned long long* word) {
  __shared__ LaunchTicket ticket;
  if (threadIdx.x == 0) {
    const unsigned long long old = atomicAdd(word, 1ull);
    const uint32_t position = uint32_t(old);
    if (position == gridDim.x - 1) atomicAdd(word, (1ull << 32) - gridDim.x);
    ticket = LaunchTicket{position == 0, uint32_t(old >> 32)};
  }
  __syncthreads();
  return ticket;
}

// What a block of a direct launch needs: whether it is the first to start,
// and the launch's arrival counter.
struct DirectLaunch {
  bool first;
  uint32_t* arrivals;
};

// Every block of a direct launch, once, after WaitForPriorGrids. Launch e
// counts its arrivals in arrivals[e % 2], which its predecessor's first
// block zeroed (the launch before that had ended by then); its own first
// block zeroes arrivals[(e + 1) % 2] for the next launch.
__device__ __forceinline__ DirectLaunch StartDirectLaunch(DirectLaunchScratch* scratch) {
  const LaunchTicket ticket = TakeLaunchTicket(&scratch->ticket);
  if (ticket.first && threadIdx.x == 0) scratch->arrivals[(ticket.epoch + 1) % 2] = 0;
  return DirectLaunch{ticket.first, scratch->arrivals + ticket.epoch % 2};
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
