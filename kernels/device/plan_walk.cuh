// cudahist: what every kernel shares. The walk over a launch plan (16-byte
// chunk loads, the unaligned head and the tail of each row, pitch padding and
// ROI, sample extraction, bin computation) is written once here, generic over
// a Counter, the only thing the algorithms do differently:
//
//   struct Counter {
//     using Slot = ...;                    // one component's counters, addressed
//     Slot SlotFor(uint32_t base) const;   //   as the counter likes (base = component
//                                          //   * bins, or the trash counter)
//     void Add(Slot slot, uint32_t bin);   // counter base + bin
//     void AddMany(Slot slot, uint32_t bin, uint32_t n);  // n (<= 16) at once: n
//                                          //   Add calls as far as BeforeRound goes
//     template <uint32_t kIncrements> void BeforeRound();  // at most kIncrements
//   };                                     //   Add calls per thread follow
//
// The walk also compiles as plain C++ (no __CUDACC__) so that the host tests
// can run the very same index math against the CPU reference.
//
// Reading whole aligned 16-byte chunks: a chunk that holds at least one byte
// of a row lies within the 16-byte block of that byte, which never crosses a
// page (nor the end of a cudaMalloc/pitched allocation, rounded to 256
// bytes), so loading it cannot fault; bytes outside the span (the previous
// row's padding, this row's padding, other components) are never counted.
#pragma once

#include <cstdint>
#include <cstring>

#include "launch_plan.h"
#include "tuning.h"

namespace cudahist::detail {

struct Chunk16 {
  uint32_t w[4];
};

CUDAHIST_HD Chunk16 LoadChunk16(const uint8_t* aligned) {
  Chunk16 c;
#if defined(__CUDA_ARCH__)
  const uint4 v = __ldg(reinterpret_cast<const uint4*>(aligned));
  c.w[0] = v.x;
  c.w[1] = v.y;
  c.w[2] = v.z;
  c.w[3] = v.w;
#else
  std::memcpy(c.w, aligned, sizeof(c.w));
#endif
  return c;
}

// The little-endian word of sample_size (1, 2 or 4) naturally aligned bytes.
CUDAHIST_HD uint32_t LoadSample(const uint8_t* p, uint32_t sample_size) {
#if defined(__CUDA_ARCH__)
  if (sample_size == 1) return __ldg(p);
  if (sample_size == 2) return __ldg(reinterpret_cast<const unsigned short*>(p));
  return __ldg(reinterpret_cast<const unsigned int*>(p));
#else
  uint32_t v = 0;
  for (uint32_t b = 0; b < sample_size; ++b) v |= uint32_t(p[b]) << (8 * b);
  return v;
#endif
}

CUDAHIST_HD uint32_t RotateLeft(uint32_t x, uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_l(x, x, bits);
#else
  bits &= 31;
  return bits == 0 ? x : (x << bits) | (x >> (32 - bits));
#endif
}

// Byte i (0..3) of x, as a value: one PRMT on the device.
CUDAHIST_HD uint32_t ByteOf(uint32_t x, uint32_t i) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, 0, 0x4440 | i);
#else
  return (x >> (8 * i)) & 0xffu;
#endif
}

template <uint32_t kLayout>
struct LayoutTraits {
  static constexpr uint32_t kStride = kLayout == kBytesStride1 ? 1 : kLayout == kBytesStride2 ? 2 : 4;
  // Add calls one unit can make, for the packed counters' merge period.
  static constexpr uint32_t kSamplesPerUnit =
      kLayout == kGeneral ? 1 : kLayout == kWords16 ? kChunkBytes / 2 : kChunkBytes;
};

// A group's slots as the hot loop wants them, in registers, one entry per
// sample position p of a 32-bit word (bytes: p = 0..3, half-words: p = 0..1,
// kGeneral: p = 0): the sample is (word >> shift[p]) & mask[p], its bin
// goes to slot[p]. The position's bit offset is folded into shift[p].
template <class Counter>
struct Positions {
  typename Counter::Slot slot[4];
  uint32_t shift[4];
  uint32_t mask[4];
  uint32_t depth[4];
};

template <uint32_t kLayout, class Counter>
CUDAHIST_HD Positions<Counter> PositionsOf(const GroupPlan& g, const Counter& counter) {
  constexpr uint32_t kPositions = kLayout == kGeneral ? 1 : kLayout == kWords16 ? 2 : 4;
  constexpr uint32_t kBitsPerPosition = 32 / kPositions;
  Positions<Counter> p;
  CUDAHIST_UNROLL
  for (uint32_t m = 0; m < 4; ++m) {
    const SlotParams& s = g.slot[kLayout == kGeneral || kLayout == kWords16 ? 0 : m % LayoutTraits<kLayout>::kStride];
    p.slot[m] = counter.SlotFor(s.base);
    p.shift[m] = (m % kPositions) * kBitsPerPosition + s.shift;
    p.mask[m] = s.mask;
    p.depth[m] = s.depth;
  }
  return p;
}

template <bool kPow2Bins, class Counter>
CUDAHIST_HD void CountAt(uint32_t word, const Positions<Counter>& p, uint32_t m, uint32_t bins,
                         Counter& counter) {
  const uint32_t v = (word >> p.shift[m]) & p.mask[m];
  counter.Add(p.slot[m], kPow2Bins ? v : (v * bins) >> p.depth[m]);
}

// One aligned chunk of a vector-layout group, located from its unit index.
struct ChunkRef {
  const uint8_t* address = nullptr;
  uint32_t phase = 0;  // (address - row's pixel0): byte position in the pixel, mod the stride
  int lo = 0;          // bytes [lo, hi) of the chunk lie in the row's span
  int hi = 0;
  bool any = false;
};

CUDAHIST_HD ChunkRef LocateChunk(const GroupPlan& g, uint32_t unit) {
  const uint32_t row = g.row_of_unit.Divide(unit);
  const uint32_t j = unit - row * g.units_per_row;
  const uintptr_t pixel0 = reinterpret_cast<uintptr_t>(g.pixel0) + uintptr_t(row) * g.pitch;
  const uintptr_t begin = pixel0 + g.span_begin;
  const uintptr_t end = pixel0 + g.span_end;
  const uintptr_t a = (begin & ~uintptr_t(kChunkBytes - 1)) + uintptr_t(j) * kChunkBytes;
  ChunkRef c;
  c.any = a < end;
  c.address = reinterpret_cast<const uint8_t*>(a);
  c.phase = uint32_t(a - pixel0);
  c.lo = a < begin ? int(begin - a) : 0;
  c.hi = end - a < kChunkBytes ? int(end - a) : int(kChunkBytes);
  return c;
}

// 8-bit samples at pixel stride 1, 2 or 4. Pixel byte m % stride of a word
// is its byte (m - phase) & 3, so the position of every byte (and with it its
// slot) is a compile-time constant m and its parameters stay in registers.
// kByteIsBin (256 bins of whole bytes): the byte is the bin, taken with one
// PRMT; otherwise the word is rotated and the bin shifted and masked out.
template <uint32_t kStride, bool kPow2Bins, bool kByteIsBin, bool kWholeChunk, class Counter>
CUDAHIST_HD void CountBytes(const Chunk16& chunk, const ChunkRef& ref, const Positions<Counter>& p,
                            uint32_t bins, Counter& counter) {
  const uint32_t phase = ref.phase & (kStride - 1);
  // A chunk of four equal words (a black or flat frame, a one-colour RGBA
  // area) adds 4 to each byte position's bin: 4 shared adds instead of 16.
  // Equal samples are also where lane copies help least, so this is where
  // the one-value frames would otherwise fall behind CUB.
  if (kByteIsBin && kWholeChunk && kStride <= kEqualWordsMaxStride && chunk.w[0] == chunk.w[1] &&
      chunk.w[0] == chunk.w[2] && chunk.w[0] == chunk.w[3]) {
    CUDAHIST_UNROLL
    for (int m = 0; m < 4; ++m) counter.AddMany(p.slot[m], ByteOf(chunk.w[0], (uint32_t(m) - phase) & 3u), 4);
    return;
  }
  CUDAHIST_UNROLL
  for (int j = 0; j < 4; ++j) {
    const uint32_t w = kStride == 1 || kByteIsBin ? chunk.w[j] : RotateLeft(chunk.w[j], 8 * phase);
    CUDAHIST_UNROLL
    for (int m = 0; m < 4; ++m) {
      const uint32_t byte = (uint32_t(m) - phase) & 3u;  // its index in the unrotated word
      if (!kWholeChunk) {
        const int k = 4 * j + int(byte);
        if (k < ref.lo || k >= ref.hi) continue;
      }
      if (kByteIsBin) {
        counter.Add(p.slot[m], ByteOf(w, byte));
      } else {
        CountAt<kPow2Bins>(w, p, m, bins, counter);
      }
    }
  }
}

// 16-bit samples at pixel stride 2: every half-word of the chunk is a sample
// (the data, pitch and span are 2-byte aligned, so no half-word straddles).
template <bool kPow2Bins, bool kWholeChunk, class Counter>
CUDAHIST_HD void CountWords16(const Chunk16& chunk, const ChunkRef& ref, const Positions<Counter>& p,
                              uint32_t bins, Counter& counter) {
  CUDAHIST_UNROLL
  for (int j = 0; j < 4; ++j) {
    CUDAHIST_UNROLL
    for (int h = 0; h < 2; ++h) {
      if (!kWholeChunk) {
        const int k = 4 * j + 2 * h;
        if (k < ref.lo || k >= ref.hi) continue;
      }
      CountAt<kPow2Bins>(chunk.w[j], p, h, bins, counter);
    }
  }
}

template <uint32_t kLayout, bool kPow2Bins, bool kByteIsBin, bool kWholeChunk, class Counter>
CUDAHIST_HD void CountChunk(const Chunk16& chunk, const ChunkRef& ref, const Positions<Counter>& p,
                            uint32_t bins, Counter& counter) {
  if (kLayout == kWords16) {
    CountWords16<kPow2Bins, kWholeChunk>(chunk, ref, p, bins, counter);
  } else {
    CountBytes<LayoutTraits<kLayout>::kStride, kPow2Bins, kByteIsBin, kWholeChunk>(chunk, ref, p, bins,
                                                                                   counter);
  }
}

// Which units a thread takes: rounds of kLoads x threads consecutive units,
// starting at `first`, `stride` units apart (block- and grid-uniform, so that
// a Counter may synchronise the block in BeforeRound).
struct WalkPosition {
  uint32_t first;
  uint32_t stride;
  uint32_t thread;
  uint32_t threads;
};

template <uint32_t kLayout, uint32_t kLoads, bool kPow2Bins, bool kByteIsBin, class Counter>
CUDAHIST_HD void WalkVectorGroup(const GroupPlan& g, uint32_t bins, const WalkPosition& pos,
                                 Counter& counter) {
  const Positions<Counter> p = PositionsOf<kLayout>(g, counter);
  for (uint32_t base = pos.first; base < g.units; base += pos.stride) {
    counter.template BeforeRound<kLoads * LayoutTraits<kLayout>::kSamplesPerUnit>();
    ChunkRef ref[kLoads];
    Chunk16 chunk[kLoads];
CUDAHIST_UNROLL
    for (uint32_t i = 0; i < kLoads; ++i) {
      const uint32_t unit = base + i * pos.threads + pos.thread;
      if (unit < g.units) ref[i] = LocateChunk(g, unit);
    }
CUDAHIST_UNROLL
    for (uint32_t i = 0; i < kLoads; ++i) {
      chunk[i] = ref[i].any ? LoadChunk16(ref[i].address) : Chunk16{{0, 0, 0, 0}};
    }
CUDAHIST_UNROLL
    for (uint32_t i = 0; i < kLoads; ++i) {
      if (!ref[i].any) continue;
      if (ref[i].lo == 0 && ref[i].hi == int(kChunkBytes)) {
        CountChunk<kLayout, kPow2Bins, kByteIsBin, true>(chunk[i], ref[i], p, bins, counter);
      } else {
        CountChunk<kLayout, kPow2Bins, kByteIsBin, false>(chunk[i], ref[i], p, bins, counter);
      }
    }
  }
}

// Any other layout, one sample per unit.
template <uint32_t kLoads, bool kPow2Bins, class Counter>
CUDAHIST_HD void WalkGeneralGroup(const GroupPlan& g, uint32_t bins, const WalkPosition& pos,
                                  Counter& counter) {
  const Positions<Counter> p = PositionsOf<kGeneral>(g, counter);
  for (uint32_t base = pos.first; base < g.units; base += pos.stride) {
    counter.template BeforeRound<kLoads>();
    uint32_t word[kLoads];
    bool valid[kLoads];
CUDAHIST_UNROLL
    for (uint32_t i = 0; i < kLoads; ++i) {
      const uint32_t unit = base + i * pos.threads + pos.thread;
      valid[i] = unit < g.units;
      word[i] = 0;
      if (valid[i]) {
        const uint32_t row = g.row_of_unit.Divide(unit);
        const uint32_t x = unit - row * g.units_per_row;
        const uint8_t* p = g.pixel0 + uint64_t(row) * g.pitch + uint64_t(x) * g.pixel_stride + g.offset;
        word[i] = LoadSample(p, g.sample_size);
      }
    }
CUDAHIST_UNROLL
    for (uint32_t i = 0; i < kLoads; ++i) {
      if (valid[i]) CountAt<kPow2Bins>(word[i], p, 0, bins, counter);
    }
  }
}

// What a walk needs to know of a group at compile time: its layout, and for
// 8-bit layouts whether its bins are whole bytes (instantiated only with
// power-of-two bins, the only case that can hold them).
template <uint32_t kLayoutV, bool kPow2BinsV, bool kByteIsBinV>
struct GroupKind {
  static constexpr uint32_t kLayout = kLayoutV;
  static constexpr bool kPow2Bins = kPow2BinsV;
  static constexpr bool kByteIsBin = kByteIsBinV;
};

template <uint32_t kLayout, bool kPow2Bins, class Visit>
CUDAHIST_HD void VisitByteGroup(const GroupPlan& g, Visit& visit) {
  if constexpr (kPow2Bins) {
    if (g.byte_is_bin) return visit(g, GroupKind<kLayout, true, true>{});
  }
  visit(g, GroupKind<kLayout, kPow2Bins, false>{});
}

// Calls visit(group, GroupKind<...>{}) for every group of the plan: the one
// place where a group's run-time layout becomes a compile-time one.
template <bool kPow2Bins, class Visit>
CUDAHIST_HD void ForEachGroup(const Plan& plan, Visit visit) {
  for (uint32_t i = 0; i < plan.num_groups; ++i) {
    const GroupPlan& g = plan.group[i];
    switch (g.layout) {
      case kBytesStride1: VisitByteGroup<kBytesStride1, kPow2Bins>(g, visit); break;
      case kBytesStride2: VisitByteGroup<kBytesStride2, kPow2Bins>(g, visit); break;
      case kBytesStride4: VisitByteGroup<kBytesStride4, kPow2Bins>(g, visit); break;
      case kWords16: visit(g, GroupKind<kWords16, kPow2Bins, false>{}); break;
      default: visit(g, GroupKind<kGeneral, kPow2Bins, false>{}); break;
    }
  }
}

// Counts every group of the plan that falls to this thread.
template <uint32_t kLoads, bool kPow2Bins, class Counter>
CUDAHIST_HD void WalkPlan(const Plan& plan, const WalkPosition& pos, Counter& counter) {
  ForEachGroup<kPow2Bins>(plan, [&](const GroupPlan& g, auto kind) {
    using K = decltype(kind);
    if constexpr (K::kLayout == kGeneral) {
      WalkGeneralGroup<kLoads, kPow2Bins>(g, plan.bins, pos, counter);
    } else {
      WalkVectorGroup<K::kLayout, kLoads, K::kPow2Bins, K::kByteIsBin>(g, plan.bins, pos, counter);
    }
  });
}

// --- Bank swizzle of lane copies ---------------------------------------------
// Where bin b of a component sits among C = 2^kLogCopies lane copies
// (privatized.cu): b itself with 32 copies (or one), otherwise b with its low
// bits (the 32 / C bins that share a row of 32 banks) XORed with bits 4 and
// up (tuning.h, kBankSwizzle says why). A permutation of [0, bins) for every
// power-of-two bin count, since the bits XORed in are left as they are and
// `low_mask` = (32 / C - 1) & (bins - 1); bin 0 stays 0, so the trash
// counter (always bin 0) stays in place.
template <uint32_t kLogCopies, bool kPow2Bins>
struct BankSwizzle {
  static constexpr uint32_t kRowBits = 5 - kLogCopies;
  static constexpr bool kOn = kBankSwizzle && kPow2Bins && kLogCopies > 0 && kLogCopies < 5;
  // The bits XORed into the low ones start here: bits 4 and up vary in data
  // that is a multiple of 4 (10-bit samples in 4096 bins) or of 16 (8-bit
  // samples scaled to 16 bits), and 4 >= kRowBits keeps the map one to one.
  static constexpr uint32_t kSourceShift = 4;
  static_assert(!kOn || kSourceShift >= kRowBits, "the XORed bits must lie above the row bits");

  CUDAHIST_HD static uint32_t Apply(uint32_t bin, uint32_t low_mask) {
    if constexpr (!kOn) {
      return bin;
    } else {
      return bin ^ ((bin >> kSourceShift) & low_mask);
    }
  }
  CUDAHIST_HD static uint32_t LowMask(uint32_t bins) { return ((1u << kRowBits) - 1) & (bins - 1); }
};

// --- The row walk -----------------------------------------------------------
// The walk above finds each chunk's row with a division and carries its edges
// in registers while its loads are in flight. The row walk gives each warp
// whole rows instead: lane l takes the row's chunks l, l + 32, ..., so the row
// is located once per warp and a chunk's edges are known from its index. On
// the H200 a plain kernel of this shape counted 8-bit samples into lane copies
// at the read roofline, where the unit walk stopped near 0.75 of it. Its rounds
// are not block-uniform, so counters that synchronise in BeforeRound (the
// packed ones) keep the unit walk.
struct RowWalkPosition {
  uint32_t warp;   // this warp's index in the grid
  uint32_t warps;  // warps in the grid
  uint32_t lane;
};

template <uint32_t kLayout, uint32_t kLoads, bool kPow2Bins, bool kByteIsBin, class Counter>
CUDAHIST_HD void WalkVectorRows(const GroupPlan& g, uint32_t bins, const RowWalkPosition& pos,
                                Counter& counter) {
  constexpr uint32_t kLanes = 32;
  const Positions<Counter> p = PositionsOf<kLayout>(g, counter);
  for (uint32_t row = pos.warp; row < g.rows; row += pos.warps) {
    const uintptr_t pixel0 = reinterpret_cast<uintptr_t>(g.pixel0) + uintptr_t(row) * g.pitch;
    const uintptr_t begin = pixel0 + g.span_begin;
    const uintptr_t end = pixel0 + g.span_end;
    const uintptr_t first = begin & ~uintptr_t(kChunkBytes - 1);
    // The row's chunks, counted from `first` in 32-bit: [0, chunks) hold span
    // bytes (never a load past the span's end: on the last row that could
    // leave the allocation), and all but a partial first and last one lie
    // wholly inside it, so the hot loop does no 64-bit edge arithmetic (which
    // it did per chunk before: H200, 1 GiB, same runs, 8-bit photo 0.94 ->
    // 0.95-0.96 of the read roofline, RGBA 0.94 -> 0.95-0.96).
    const uint32_t chunks = uint32_t((end - 1 - first) / kChunkBytes) + 1;
    const uint32_t whole_begin = begin % kChunkBytes != 0 ? 1 : 0;
    const uint32_t whole_end = end % kChunkBytes != 0 ? chunks - 1 : chunks;
    // Chunk j's byte position in the pixel is this + 16 j, the same modulo
    // every pixel stride (1, 2 or 4), which is all CountChunk looks at.
    ChunkRef ref;
    ref.any = true;
    ref.phase = uint32_t(first - pixel0);
    for (uint32_t c0 = pos.lane; c0 < chunks; c0 += kLanes * kLoads) {
      Chunk16 chunk[kLoads];
CUDAHIST_UNROLL
      for (uint32_t i = 0; i < kLoads; ++i) {
        const uint32_t j = c0 + i * kLanes;
        chunk[i] = j < chunks ? LoadChunk16(reinterpret_cast<const uint8_t*>(first + uintptr_t(j) * kChunkBytes))
                              : Chunk16{{0, 0, 0, 0}};
      }
CUDAHIST_UNROLL
      for (uint32_t i = 0; i < kLoads; ++i) {
        const uint32_t j = c0 + i * kLanes;
        if (j >= chunks) break;
        if (j >= whole_begin && j < whole_end) {
          CountChunk<kLayout, kPow2Bins, kByteIsBin, true>(chunk[i], ref, p, bins, counter);
        } else {
          const uintptr_t a = first + uintptr_t(j) * kChunkBytes;
          ChunkRef edge = ref;
          edge.lo = a < begin ? int(begin - a) : 0;
          edge.hi = end - a < kChunkBytes ? int(end - a) : int(kChunkBytes);
          CountChunk<kLayout, kPow2Bins, kByteIsBin, false>(chunk[i], edge, p, bins, counter);
        }
      }
    }
  }
}

// Every group of the plan: vector layouts by rows, kGeneral by units.
template <uint32_t kLoads, bool kPow2Bins, class Counter>
CUDAHIST_HD void WalkPlanRows(const Plan& plan, const RowWalkPosition& rows, const WalkPosition& units,
                              Counter& counter) {
  ForEachGroup<kPow2Bins>(plan, [&](const GroupPlan& g, auto kind) {
    using K = decltype(kind);
    if constexpr (K::kLayout == kGeneral) {
      WalkGeneralGroup<kLoads, kPow2Bins>(g, plan.bins, units, counter);
    } else {
      WalkVectorRows<K::kLayout, kLoads, K::kPow2Bins, K::kByteIsBin>(g, plan.bins, rows, counter);
    }
  });
}

#if defined(__CUDACC__)

// Walk positions of block `block` of the `blocks` that share one frame (a
// batch launch gives each frame its own row of blocks, so these are not
// always blockIdx.x and gridDim.x).
__device__ __forceinline__ RowWalkPosition GridRowWalkPosition(uint32_t block, uint32_t blocks) {
  return RowWalkPosition{(block * blockDim.x + threadIdx.x) / 32, blocks * blockDim.x / 32, threadIdx.x % 32};
}

template <uint32_t kLoads>
__device__ __forceinline__ WalkPosition GridWalkPosition(uint32_t block, uint32_t blocks) {
  return WalkPosition{block * blockDim.x * kLoads, blocks * blockDim.x * kLoads, threadIdx.x, blockDim.x};
}

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
// cooperative groups' grid sync does); kTicketFenceEveryThread (tuning.h)
// says why not a fence in every thread.
__device__ __forceinline__ bool LastBlockToArrive(uint32_t* ticket, uint32_t blocks) {
  __shared__ bool is_last_block;
  if constexpr (kTicketFenceEveryThread) __threadfence();
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
  if (kTicketFenceEveryThread && is_last_block) __threadfence();
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

#endif  // __CUDACC__

}  // namespace cudahist::detail
