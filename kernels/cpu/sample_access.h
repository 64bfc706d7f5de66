// cudahist CPU: reading samples of a PlaneView. SampleWord / SampleValue go
// straight from its definition (plane_view.h), for the references; LoadWord is
// the fast paths' load of a validated (naturally aligned) sample word.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cudahist/plane_view.h"

namespace cudahist::cpu_detail {

// The little-endian word of plane.sample_size bytes of column x, row y,
// assembled byte by byte (no unaligned or type-punned load).
inline uint32_t SampleWord(const PlaneView& plane, uint32_t x, uint32_t y) {
  const auto* p = static_cast<const uint8_t*>(plane.data) + size_t(y) * plane.pitch +
                  size_t(x) * plane.pixel_stride + plane.offset;
  uint32_t word = 0;
  for (uint32_t b = 0; b < plane.sample_size; ++b) word |= uint32_t(p[b]) << (8 * b);
  return word;
}

inline uint32_t SampleValue(const PlaneView& plane, uint32_t x, uint32_t y) {
  const uint32_t mask = uint32_t((uint64_t(1) << plane.depth) - 1);
  return (SampleWord(plane, x, y) >> plane.shift) & mask;
}

// The unsigned integer of kBytes bytes; void where there is none (3 bytes,
// or 0 for a size known only at run time).
template <uint32_t kBytes>
struct WordOf {
  using type = void;
};
template <>
struct WordOf<1> {
  using type = uint8_t;
};
template <>
struct WordOf<2> {
  using type = uint16_t;
};
template <>
struct WordOf<4> {
  using type = uint32_t;
};

// Little-endian load of a (validated: naturally aligned) sample word.
template <uint32_t kSampleSize>
inline uint32_t LoadWord(const uint8_t* p) {
  typename WordOf<kSampleSize>::type word;
  std::memcpy(&word, p, kSampleSize);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  if constexpr (kSampleSize == 2) word = __builtin_bswap16(word);
  if constexpr (kSampleSize == 4) word = __builtin_bswap32(word);
#endif
  return word;
}

// Where and how to read one component, decoded once per plane.
struct ComponentWalk {
  const uint8_t* first;  // the first counted sample's word
  size_t pitch;
  size_t stride;
  uint32_t width, height;
  uint32_t shift, mask;
  uint32_t offset;  // bytes from a pixel's first byte to this component's word
};

inline ComponentWalk WalkOf(const PlaneView& plane) {
  const Roi r = CountedRegion(plane);
  return ComponentWalk{static_cast<const uint8_t*>(plane.data) + size_t(r.y) * plane.pitch +
                           size_t(r.x) * plane.pixel_stride + plane.offset,
                       plane.pitch,
                       plane.pixel_stride,
                       r.width,
                       r.height,
                       plane.shift,
                       uint32_t((uint64_t(1) << plane.depth) - 1),
                       plane.offset};
}

// Samples the fast paths look at together for a flat stretch, counted with
// one add: sixteen 16-bit values are one AVX2 vector. Flat areas (borders,
// bars, graphics, black) otherwise spend a load-increment-store per sample
// on one counter, which the round-robin copies only split; a stretch that is
// not flat costs one compare.
constexpr uint32_t kFlatStretch = 16;

// True when the kFlatStretch words of type Word from p are all one value.
// One vector compare (GCC's vector extension: one or two AVX2 registers in
// an AVX2 clone, up to four SSE2 registers in the baseline); the compiler
// does not vectorise the equivalent loop, which ends in a branch.
template <typename Word>
inline bool IsFlatStretch(const void* p) {
  typedef Word Stretch __attribute__((vector_size(kFlatStretch * sizeof(Word))));
  Stretch stretch;
  std::memcpy(&stretch, p, sizeof(stretch));
  const Stretch differ = stretch ^ stretch[0];
  uint64_t words[sizeof(differ) / sizeof(uint64_t)];
  std::memcpy(words, &differ, sizeof(differ));
  uint64_t any = 0;
  for (uint64_t w : words) any |= w;
  return any == 0;
}

}  // namespace cudahist::cpu_detail
