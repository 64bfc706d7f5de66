// cudahist: four 8-bit samples of one 32-bit word handled at once, for the
// signalstats walk's wide units (signalstats_walk.cuh, UnitCounter::CountByteLanes):
// the DIF sums and the BRNG tests of a word in a few SIMD-within-a-word
// instructions (__vsadu4, __vcmpltu4, __vcmpgtu4, PRMT) instead of a byte
// extraction, a compare and an add per sample, which is most of what a thread
// issues for a unit besides its histogram increments. Written for the host
// too (byte loops), so that the walk's host tests run the same logic.
#pragma once

#include <cstdint>

#include "device/plan_walk.cuh"

namespace cudahist::detail {

// `b` in each byte of a word.
CUDAHIST_HD constexpr uint32_t EveryByte(uint32_t b) { return b * 0x01010101u; }

// The sum over the four bytes of |a - b|.
CUDAHIST_HD uint32_t SumAbsDiff4(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __vsadu4(a, b);
#else
  uint32_t sum = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t x = ByteOf(a, i), y = ByteOf(b, i);
    sum += x > y ? x - y : y - x;
  }
  return sum;
#endif
}

// 0xff in each byte of w below `low` or above `high` (both EveryByte words), 0 elsewhere.
CUDAHIST_HD uint32_t BytesOutside(uint32_t w, uint32_t low, uint32_t high) {
#if defined(__CUDA_ARCH__)
  return __vcmpltu4(w, low) | __vcmpgtu4(w, high);
#else
  uint32_t out = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t x = ByteOf(w, i);
    if (x < ByteOf(low, i) || x > ByteOf(high, i)) out |= 0xffu << (8 * i);
  }
  return out;
#endif
}

// Byte n of the result is byte (selector >> 4n) & 7 of the pair (x, y), x's
// bytes first: __byte_perm without its sign-replicating mode.
CUDAHIST_HD uint32_t BytePerm(uint32_t x, uint32_t y, uint32_t selector) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, y, selector);
#else
  const uint64_t pair = uint64_t(y) << 32 | x;
  uint32_t out = 0;
  for (uint32_t n = 0; n < 4; ++n) out |= uint32_t((pair >> (8 * ((selector >> (4 * n)) & 7))) & 0xff) << (8 * n);
  return out;
#endif
}

// The bytes set (0xff) in a word of flags, counted.
CUDAHIST_HD uint32_t FlaggedBytes(uint32_t flags) {
#if defined(__CUDA_ARCH__)
  return __popc(flags & EveryByte(1));
#else
  uint32_t n = 0;
  for (uint32_t i = 0; i < 4; ++i) n += (flags >> (8 * i)) & 1;
  return n;
#endif
}

}  // namespace cudahist::detail
