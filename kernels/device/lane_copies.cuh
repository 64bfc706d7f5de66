// cudahist: lane-indexed copies of shared-memory counters, the counter that
// privatized.cu and signalstats_counter.cu count into, and their merge into global
// totals. The copy of counter i for lane l sits at i * C + l % C (C = 2^kLogCopies),
// so the lanes of a warp that share no copy never share a bank row for one
// counter; BankSwizzle (bank_swizzle.cuh) spreads bins that would.
#pragma once

#include "device/bank_swizzle.cuh"
#include "device/grid_completion.cuh"
#include "device/plan_walk.cuh"

namespace cudahist::detail {

// 32 copies put every lane of a warp in its own bank whatever the data.
constexpr uint32_t kMaxLaneCopies = 32;

}  // namespace cudahist::detail

#if defined(__CUDACC__)

namespace cudahist::detail {

template <uint32_t kLogCopies, bool kPow2Bins>
struct LaneCopiesCounter {
  using Swizzle = BankSwizzle<kLogCopies, kPow2Bins>;
  // Shared-window address of this lane's copy of a component's bin 0, so that
  // a count is one shift-add (LEA) and one shared reduction (no return value).
  using Slot = uint32_t;
  uint32_t copies;     // shared-window address of the copies
  uint32_t lane_copy;  // lane % copies
  uint32_t low_mask;   // BankSwizzle's

  __device__ __forceinline__ Slot SlotFor(uint32_t base) const {
    return copies + ((base << kLogCopies) + lane_copy) * uint32_t(sizeof(uint32_t));
  }
  // A bin's place is where BankSwizzle puts it among the copies.
  __device__ __forceinline__ uint32_t Address(Slot slot, uint32_t place) const {
    return slot + (place << (kLogCopies + 2));
  }
  __device__ __forceinline__ void Add(Slot slot, uint32_t bin) { AddAtPlace(slot, Swizzle::Apply(bin, low_mask)); }
  __device__ __forceinline__ void AddMany(Slot slot, uint32_t bin, uint32_t n) {
    AddManyAtPlace(slot, Swizzle::Apply(bin, low_mask), n);
  }
  // The walk of whole bytes (256 bins) places a word's four bins at once
  // (plan_walk.cuh's BytePlaces) and adds at the places.
  __device__ __forceinline__ uint32_t PlacesOfBytes(uint32_t word) const {
    return Swizzle::ApplyToBytes(word, low_mask);
  }
  __device__ __forceinline__ void AddAtPlace(Slot slot, uint32_t place) {
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(Address(slot, place)) : "memory");
  }
  __device__ __forceinline__ void AddManyAtPlace(Slot slot, uint32_t place, uint32_t n) {
    asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(Address(slot, place)), "r"(n) : "memory");
  }
  template <uint32_t kIncrements>
  __device__ __forceinline__ void BeforeRound() {}
};

// Sums the C copies of each counter into the global totals. A warp reads 32
// consecutive counters, whose copies span 32 x C words: counter i's copies sit
// in the row of banks that i's low 5 - log2 C bits pick, so lanes that agree
// there (every 32 / C-th lane) start at different copies, and the warp's 32
// reads of a step fall in 32 banks (a rotation by the lane itself would do so
// for 32 copies only: with 8, lanes l and l + 8 would meet, 4 reads a bank).
// kZeroCopies: each copy is left zero as it is read (one thread reads all of
// a counter's copies, so no other thread needs it), for a kernel that counts
// again into the same copies.
template <uint32_t kLogCopies, bool kPow2Bins, bool kZeroCopies = false>
__device__ __forceinline__ void MergeCopies(uint32_t* copies, uint32_t bins, uint32_t counters,
                                            uint32_t low_mask, uint32_t* totals) {
  using Swizzle = BankSwizzle<kLogCopies, kPow2Bins>;
  constexpr uint32_t kCopies = 1u << kLogCopies;
  const uint32_t first_copy = (threadIdx.x % 32) >> (5 - kLogCopies);
  for (uint32_t i = threadIdx.x; i < counters; i += blockDim.x) {
    // Counter i is bin i % bins of its component (bins is a power of two
    // whenever the swizzle is on).
    const uint32_t stored = Swizzle::kOn ? (i & ~(bins - 1)) | Swizzle::Apply(i & (bins - 1), low_mask) : i;
    uint32_t sum = 0;
CUDAHIST_UNROLL
    for (uint32_t c = 0; c < kCopies; ++c) {
      uint32_t& copy = copies[(stored << kLogCopies) + ((c + first_copy) & (kCopies - 1))];
      sum += copy;
      if (kZeroCopies) copy = 0;
    }
    if (sum != 0) atomicAdd(totals + i, sum);
  }
}

}  // namespace cudahist::detail

#endif  // __CUDACC__
