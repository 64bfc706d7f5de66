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
#include <type_traits>

#include "device/sample_loads.cuh"
#include "launch/launch_plan.h"
#include "launch/walk_tuning.h"

namespace cudahist::detail {

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
    // One bin (mask 0) takes no bits, and its shift would point past the
    // word's last position (32 for the top byte of 8-bit samples): a shift
    // by 32 is undefined in C++, so it takes none.
    p.shift[m] = s.mask == 0 ? 0 : (m % kPositions) * kBitsPerPosition + s.shift;
    p.mask[m] = s.mask;
    p.depth[m] = s.depth;
  }
  return p;
}

template <bool kPow2Bins, class Counter>
CUDAHIST_HD uint32_t BinAt(uint32_t word, const Positions<Counter>& p, uint32_t m, uint32_t bins) {
  const uint32_t v = (word >> p.shift[m]) & p.mask[m];
  return kPow2Bins ? v : (v * bins) >> p.depth[m];
}

template <bool kPow2Bins, class Counter>
CUDAHIST_HD void CountAt(uint32_t word, const Positions<Counter>& p, uint32_t m, uint32_t bins,
                         Counter& counter) {
  counter.Add(p.slot[m], BinAt<kPow2Bins>(word, p, m, bins));
}

// Byte k of a chunk counts once if it lies in the row's span [lo, hi), else
// not at all: every byte takes the same instructions (an add of 0 outside),
// so the lanes of a warp with chunks at a row's edges stay together.
CUDAHIST_HD uint32_t TimesCounted(int k, int lo, int hi) { return k >= lo && k < hi ? 1u : 0u; }

// Whether `p` holds in every active lane of the warp (on the host: in the
// one thread there is).
CUDAHIST_HD bool EveryLaneOfWarp(bool p) {
#if defined(__CUDA_ARCH__)
  return __all_sync(__activemask(), p);
#else
  return p;
#endif
}

// One aligned chunk of a vector-layout group, located from its unit index.
struct ChunkRef {
  const uint8_t* address = nullptr;
  uint32_t phase = 0;  // (address - row's pixel0): byte position in the pixel, mod the stride
  int lo = 0;          // bytes [lo, hi) of the chunk lie in the row's span
  int hi = 0;
  bool any = false;
};

template <UnitOrder kOrder = UnitOrder::kRowMajor>
CUDAHIST_HD ChunkRef LocateChunk(const GroupPlan& g, uint32_t unit) {
  uint32_t row, j;
  if (kOrder == UnitOrder::kRowMajor) {
    row = g.row_of_unit.Divide(unit);
    j = unit - row * g.units_per_row;
  } else {
    j = g.row_of_unit.Divide(unit);
    row = unit - j * g.rows;
  }
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

// How the walks of whole bytes (256 bins) add a byte's bin. A counter that
// keeps its bins at places of its own (LaneCopiesCounter's bank swizzle) may
// also give
//     uint32_t PlacesOfBytes(uint32_t word) const;  // the places of a word's four bins
//     void AddAtPlace(Slot slot, uint32_t place);   // Add of the bin at that place
//     void AddManyAtPlace(Slot slot, uint32_t place, uint32_t n);
// and the walk maps a word at once: two instructions a word instead of two
// a sample, on the hottest path of the region and frame kernels.
template <class Counter, class = void>
struct BytePlaces {
  CUDAHIST_HD static uint32_t Of(const Counter&, uint32_t word) { return word; }
  CUDAHIST_HD static void AddMany(Counter& counter, typename Counter::Slot slot, uint32_t bin, uint32_t n) {
    counter.AddMany(slot, bin, n);
  }
  CUDAHIST_HD static void Add(Counter& counter, typename Counter::Slot slot, uint32_t bin) { counter.Add(slot, bin); }
};

template <class Counter>
struct BytePlaces<Counter, std::void_t<decltype(&Counter::PlacesOfBytes)>> {
  CUDAHIST_HD static uint32_t Of(const Counter& counter, uint32_t word) { return counter.PlacesOfBytes(word); }
  CUDAHIST_HD static void AddMany(Counter& counter, typename Counter::Slot slot, uint32_t place, uint32_t n) {
    counter.AddManyAtPlace(slot, place, n);
  }
  CUDAHIST_HD static void Add(Counter& counter, typename Counter::Slot slot, uint32_t place) {
    counter.AddAtPlace(slot, place);
  }
};

// 8-bit samples at pixel stride 1, 2 or 4. Pixel byte m % stride of a word
// is its byte (m - phase) & 3, so the position of every byte (and with it its
// slot) is a compile-time constant m and its parameters stay in registers.
// kByteIsBin (256 bins of whole bytes): the byte is the bin (its place, as
// BytePlaces maps a word), taken with one PRMT; otherwise the word is rotated
// and the bin shifted and masked out.
template <uint32_t kStride, bool kPow2Bins, bool kByteIsBin, bool kWholeChunk, class Counter>
CUDAHIST_HD void CountBytes(const Chunk16& chunk, const ChunkRef& ref, const Positions<Counter>& p,
                            uint32_t bins, Counter& counter) {
  using Places = BytePlaces<Counter>;
  const uint32_t phase = ref.phase & (kStride - 1);
  // A chunk of four equal words (a black or flat frame, a one-colour RGBA
  // area) adds 4 to each byte position's bin: 4 shared adds instead of 16.
  // Equal samples are also where lane copies help least, so this is where
  // the one-value frames would otherwise fall behind CUB.
  if (kByteIsBin && kWholeChunk && kStride <= kWalkPolicy.equal_words_max_stride && chunk.w[0] == chunk.w[1] &&
      chunk.w[0] == chunk.w[2] && chunk.w[0] == chunk.w[3]) {
    const uint32_t places = Places::Of(counter, chunk.w[0]);
    CUDAHIST_UNROLL
    for (int m = 0; m < 4; ++m) Places::AddMany(counter, p.slot[m], ByteOf(places, (uint32_t(m) - phase) & 3u), 4);
    return;
  }
  CUDAHIST_UNROLL
  for (int j = 0; j < 4; ++j) {
    const uint32_t w = kByteIsBin    ? Places::Of(counter, chunk.w[j])
                       : kStride == 1 ? chunk.w[j]
                                      : RotateLeft(chunk.w[j], 8 * phase);
    CUDAHIST_UNROLL
    for (int m = 0; m < 4; ++m) {
      const uint32_t byte = (uint32_t(m) - phase) & 3u;  // its index in the unrotated word
      if (kByteIsBin) {
        if (kWholeChunk) {
          Places::Add(counter, p.slot[m], ByteOf(w, byte));
        } else {
          Places::AddMany(counter, p.slot[m], ByteOf(w, byte), TimesCounted(4 * j + int(byte), ref.lo, ref.hi));
        }
        continue;
      }
      const uint32_t bin = BinAt<kPow2Bins>(w, p, m, bins);
      if (kWholeChunk) {
        counter.Add(p.slot[m], bin);
      } else {
        counter.AddMany(p.slot[m], bin, TimesCounted(4 * j + int(byte), ref.lo, ref.hi));
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
      if (kWholeChunk) {
        CountAt<kPow2Bins>(chunk.w[j], p, h, bins, counter);
      } else {
        const uint32_t bin = BinAt<kPow2Bins>(chunk.w[j], p, h, bins);
        counter.AddMany(p.slot[h], bin, TimesCounted(4 * j + 2 * h, ref.lo, ref.hi));
      }
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

// A chunk of a warp's walk: by the whole-chunk path only where every lane's
// chunk is whole, since a warp that took both paths would run each with some
// of its lanes.
template <uint32_t kLayout, bool kPow2Bins, bool kByteIsBin, class Counter>
CUDAHIST_HD void CountChunkOfWarp(const Chunk16& chunk, const ChunkRef& ref, const Positions<Counter>& p,
                                  uint32_t bins, Counter& counter) {
  if (EveryLaneOfWarp(ref.lo == 0 && ref.hi == int(kChunkBytes))) {
    CountChunk<kLayout, kPow2Bins, kByteIsBin, true>(chunk, ref, p, bins, counter);
  } else {
    CountChunk<kLayout, kPow2Bins, kByteIsBin, false>(chunk, ref, p, bins, counter);
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

template <uint32_t kLayout, uint32_t kLoads, bool kPow2Bins, bool kByteIsBin, UnitOrder kOrder, class Counter>
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
      if (unit < g.units) ref[i] = LocateChunk<kOrder>(g, unit);
    }
CUDAHIST_UNROLL
    for (uint32_t i = 0; i < kLoads; ++i) {
      chunk[i] = ref[i].any ? LoadChunk16(ref[i].address) : Chunk16{{0, 0, 0, 0}};
    }
CUDAHIST_UNROLL
    for (uint32_t i = 0; i < kLoads; ++i) {
      if (ref[i].any) CountChunkOfWarp<kLayout, kPow2Bins, kByteIsBin>(chunk[i], ref[i], p, bins, counter);
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

// Calls visit(g, GroupKind<...>{}): the one place where a group's run-time
// layout becomes a compile-time one.
template <bool kPow2Bins, class Visit>
CUDAHIST_HD void VisitGroup(const GroupPlan& g, Visit& visit) {
  switch (g.layout) {
    case kBytesStride1: VisitByteGroup<kBytesStride1, kPow2Bins>(g, visit); break;
    case kBytesStride2: VisitByteGroup<kBytesStride2, kPow2Bins>(g, visit); break;
    case kBytesStride4: VisitByteGroup<kBytesStride4, kPow2Bins>(g, visit); break;
    case kWords16: visit(g, GroupKind<kWords16, kPow2Bins, false>{}); break;
    default: visit(g, GroupKind<kGeneral, kPow2Bins, false>{}); break;
  }
}

// VisitGroup for every group of the plan.
template <bool kPow2Bins, class Visit>
CUDAHIST_HD void ForEachGroup(const Plan& plan, Visit visit) {
  for (uint32_t i = 0; i < plan.num_groups; ++i) VisitGroup<kPow2Bins>(plan.group[i], visit);
}

// Counts the units of group `g` that fall to this thread; a vector group's
// in kOrder (a kGeneral group's are always row-major).
template <uint32_t kLoads, bool kPow2Bins, UnitOrder kOrder = UnitOrder::kRowMajor, class Counter>
CUDAHIST_HD void WalkGroup(const GroupPlan& g, uint32_t bins, const WalkPosition& pos, Counter& counter) {
  auto walk = [&](const GroupPlan& group, auto kind) {
    using K = decltype(kind);
    if constexpr (K::kLayout == kGeneral) {
      WalkGeneralGroup<kLoads, kPow2Bins>(group, bins, pos, counter);
    } else {
      WalkVectorGroup<K::kLayout, kLoads, K::kPow2Bins, K::kByteIsBin, kOrder>(group, bins, pos, counter);
    }
  };
  VisitGroup<kPow2Bins>(g, walk);
}

// Counts every group of the plan that falls to this thread.
template <uint32_t kLoads, bool kPow2Bins, class Counter>
CUDAHIST_HD void WalkPlan(const Plan& plan, const WalkPosition& pos, Counter& counter) {
  for (uint32_t i = 0; i < plan.num_groups; ++i) WalkGroup<kLoads, kPow2Bins>(plan.group[i], plan.bins, pos, counter);
}

#if defined(__CUDACC__)

template <uint32_t kLoads>
__device__ __forceinline__ WalkPosition GridWalkPosition(uint32_t block, uint32_t blocks) {
  return WalkPosition{block * blockDim.x * kLoads, blocks * blockDim.x * kLoads, threadIdx.x, blockDim.x};
}

#endif  // __CUDACC__

}  // namespace cudahist::detail
