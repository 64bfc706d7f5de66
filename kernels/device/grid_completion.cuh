// cudahist: how the blocks of one launch finish together. Programmatic
// dependent launch (a kernel may start while the previous one ends), the
// last block to arrive (an accumulator that the last block moves to the
// counts), and direct launches, whose blocks add straight into the caller's
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
// - the blocks with the first positions (TakeLaunchTicket: only a block that
//   has started holds one) zero them, a share each, before they wait for
//   anything; the launch stays an ordinary one (programmatic dependent launch
//   keeps overlapping the previous kernel, which a cooperative launch does
//   not). With one share (signalstats' 18 KB) a waiting block waits only for
//   a block that is running, so no residency is needed at all. With several
//   (the region histograms' counts, a region's worth a block) a zeroing block
//   also waits for the shares of blocks that may not have started yet: those
//   start once the kernels before leave the SMs, because the launch has no
//   more blocks than the device holds at once (LaunchOverTiles). What would
//   stall it: a kernel that holds SMs for ever beside it, as it would a
//   cooperative launch, or several such launches on other streams at once,
//   each left fewer blocks on the device than it has zeroing blocks, each
//   waiting for the others' SMs (the element counts into pinned memory, so
//   it never takes this path).
// Everything a launch waits for is counted on the device (StartDirectLaunch):
// its own arrival counter, zero when it starts, so that a launch replayed
// from a CUDA graph, whose arguments are frozen, waits for its own zeros and
// not for a count an earlier launch left. A failed launch re-zeroes the
// scratch.
#pragma once

#include <cstdint>

#include "launch/launch_plan.h"

namespace cudahist::detail {

#ifdef __CUDACC__

// Programmatic dependent launch (Hopper and later): a kernel launched with
// the programmatic-serialisation attribute may be scheduled while the kernel
// before it on the stream is still finishing; it must not touch global memory
// (the frame, the scratch, the counts) before WaitForPriorGrids returns, which
// is when that kernel has completed and its writes are visible. What runs
// before the wait (zeroing shared memory) overlaps the previous kernel's tail.
// Both are no-ops on older GPUs and when the launch had no such attribute.
__device__ __forceinline__ void WaitForPriorGrids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void AllowDependentGridsToLaunch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}

__device__ __forceinline__ void ZeroShared(uint32_t* words, uint32_t count) {
  for (uint32_t i = threadIdx.x; i < count; i += blockDim.x) words[i] = 0;
}

// The start of every kernel that dispatch.cu launches with programmatic
// serialisation (LaunchPrivatizedKernel): zeroes the block's shared counters
// while the previous kernel on the stream may still be finishing, then waits
// for it, so that nothing after this touches global memory too early.
__device__ __forceinline__ void ZeroSharedThenWaitForPriorGrids(uint32_t* words, uint32_t count) {
  AllowDependentGridsToLaunch();
  ZeroShared(words, count);
  __syncthreads();
  WaitForPriorGrids();
}

// Call after the block has added its counts to the global accumulator: true
// (block-uniform) in the last of the `blocks` blocks to arrive at `ticket`.
// The barrier orders every thread's atomics before thread 0's fence, which
// is cumulative, so one fence orders them all before the block's ticket (as
// cooperative groups' grid sync does): a fence in every thread was the
// signalstats kernel's largest single stall (docs/tuning.md).
__device__ __forceinline__ bool LastBlockToArrive(uint32_t* ticket, uint32_t blocks) {
  __shared__ bool is_last_block;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    const bool last = atomicAdd(ticket, 1u) == blocks - 1;
    // The acquiring side likewise: thread 0's fence after the ticket, then
    // the barrier, orders every thread's reads of the totals after the other
    // blocks' atomics.
    if (last) __threadfence();
    is_last_block = last;
  }
  __syncthreads();
  return is_last_block;
}

// In the last block only: copies the totals to `counts` and leaves totals
// and ticket zero for the next launch. It reads the totals with atomicExch,
// which reads them where the atomics landed (L2) and zeroes them at once.
__device__ __forceinline__ void CollectTotals(const AccumulatorScratch& acc, uint32_t counters, uint32_t* counts) {
  for (uint32_t i = threadIdx.x; i < counters; i += blockDim.x) {
    counts[i] = atomicExch(acc.totals + i, 0u);
  }
  if (threadIdx.x == 0) atomicExch(acc.ticket, 0u);
}

// Call after the block has added its counts to acc.totals (global atomics).
// The last of the `blocks` blocks that share acc to arrive copies the totals
// to `counts` and leaves totals and ticket zero for the next launch.
__device__ __forceinline__ void FinishThroughAccumulator(const AccumulatorScratch& acc, uint32_t counters,
                                                         uint32_t* counts, uint32_t blocks) {
  if (LastBlockToArrive(acc.ticket, blocks)) CollectTotals(acc, counters, counts);
}


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

// A block's place in its launch: `position`, a number of [0, blocks) that
// only a block that has started holds (TakeLaunchTicket); `epoch`, the number
// of launches before this one that took tickets from the same scratch, the
// same in every block of the launch.
struct LaunchTicket {
  uint32_t position;
  uint32_t epoch;
};

// The block's ticket, which TakeLaunchTicket leaves in shared memory (a
// kernel takes one).
__device__ __forceinline__ LaunchTicket& BlockLaunchTicket() {
  __shared__ LaunchTicket ticket;
  return ticket;
}

// Shard `shard`'s ticket word (launch_plan.h's kLaunchTicketShards).
__device__ __forceinline__ unsigned long long* TicketWord(DirectLaunchScratch* scratch, uint32_t shard) {
  return scratch->tickets + shard * kLaunchTicketStride;
}

// Each of the launch's first `blocks` blocks that share the scratch (the whole
// grid, or the part of it that does this work) takes one ticket, after
// WaitForPriorGrids, from its shard's word (block b: shard b %
// kLaunchTicketShards): the low half counts the shard's blocks as they start,
// the high half the epoch. The last of a shard's blocks to start moves its
// word on to the next epoch with the low half back at 0 (adding 2^32 - n
// carries the count into the epoch), and the block with position 0 does so
// for the shards that have no block in this launch, so that every word counts
// every launch. The position is the block's order of start in its shard,
// times the shards, plus the shard: one position each in [0, blocks).
// Launches of one scratch are serialised by their stream, and a grid's
// dependents start only once all its blocks have, so no block of the next
// launch takes a ticket before that.
__device__ __forceinline__ LaunchTicket TakeLaunchTicket(DirectLaunchScratch* scratch, uint32_t blocks) {
  LaunchTicket& ticket = BlockLaunchTicket();
  if (threadIdx.x == 0) {
    const uint32_t shard = blockIdx.x % kLaunchTicketShards;
    const uint32_t shard_blocks = (blocks - shard + kLaunchTicketShards - 1) / kLaunchTicketShards;
    unsigned long long* word = TicketWord(scratch, shard);
    const unsigned long long old = atomicAdd(word, 1ull);
    const uint32_t started = uint32_t(old);
    if (started == shard_blocks - 1) atomicAdd(word, (1ull << 32) - shard_blocks);
    ticket = LaunchTicket{started * kLaunchTicketShards + shard, uint32_t(old >> 32)};
    if (ticket.position == 0) {
      for (uint32_t s = blocks; s < kLaunchTicketShards; ++s) atomicAdd(TicketWord(scratch, s), 1ull << 32);
    }
  }
  __syncthreads();
  return ticket;
}

// What a block of a direct launch needs: its place in the order the blocks
// started (a block that has a place is running, so others may wait for it),
// and the launch's arrival counter.
struct DirectLaunch {
  uint32_t position = ~0u;  // ~0u: not a block of a direct launch
  uint32_t* arrivals;
  __device__ __forceinline__ bool first() const { return position == 0; }
};

// The arrival counter of the block's direct launch, once it has its ticket:
// from the ticket in shared memory, so that a kernel that would rather not
// keep the pointer in registers across its work can ask again.
__device__ __forceinline__ uint32_t* LaunchArrivals(DirectLaunchScratch* scratch) {
  return scratch->arrivals + BlockLaunchTicket().epoch % 2;
}

// Each of the `blocks` blocks of a direct launch, once, after
// WaitForPriorGrids (TakeLaunchTicket says which blocks). Launch e
// counts its arrivals in arrivals[e % 2], which its predecessor's first
// block zeroed (the launch before that had ended by then); its own first
// block zeroes arrivals[(e + 1) % 2] for the next launch.
__device__ __forceinline__ DirectLaunch StartDirectLaunch(DirectLaunchScratch* scratch, uint32_t blocks) {
  const LaunchTicket ticket = TakeLaunchTicket(scratch, blocks);
  if (ticket.position == 0 && threadIdx.x == 0) scratch->arrivals[(ticket.epoch + 1) % 2] = 0;
  return DirectLaunch{ticket.position, LaunchArrivals(scratch)};
}

// Until the arrivals counter reached `target` (unsigned, wrapping): then the
// zeros of every block that arrives are in place. Ends with a barrier, so it
// also ends whatever the block did before. The zeros are released by the
// zeroing block's fence before its arrival and acquired by thread 0's acquire
// load; the barrier passes that order on to the block's threads (causality
// order in PTX's memory model is transitive through a barrier), so no fence
// follows the load: with one, the segmented kernel took 11.18 us a frame at
// 100 boxes as a CUDA graph, without 10.98 (H200, 2026-11-30).
__device__ __forceinline__ void WaitForArrivals(const uint32_t* arrivals, uint32_t target) {
  if (threadIdx.x == 0) {
    for (;;) {
      uint32_t seen;
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(arrivals) : "memory");
      if (int32_t(seen - target) >= 0) break;
      __nanosleep(100);
    }
  }
  __syncthreads();
}

#endif  // __CUDACC__

}  // namespace cudahist::detail
