// The reference's reading of one sample, straight from the PlaneView
// definition (plane_view.h): shared by every CPU oracle (reference.cc,
// signalstats_reference.cc) so that there is one plain reading to trust.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cudahist/plane_view.h"

namespace cudahist::detail {

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

}  // namespace cudahist::detail
