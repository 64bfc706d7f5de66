// The oracle of every test: one sample at a time, straight from the
// PlaneView definition in plane_view.h. Kept plain on purpose; speed lives in
// backend.cc.
#include <algorithm>
#include <cstdint>

#include "cudahist/cpu.h"

namespace cudahist {
namespace {

// The little-endian word of plane.sample_size bytes of column x, row y,
// assembled byte by byte (no unaligned or type-punned load).
uint32_t SampleWord(const PlaneView& plane, uint32_t x, uint32_t y) {
  const auto* p = static_cast<const uint8_t*>(plane.data) + size_t(y) * plane.pitch +
                  size_t(x) * plane.pixel_stride + plane.offset;
  uint32_t word = 0;
  for (uint32_t b = 0; b < plane.sample_size; ++b) word |= uint32_t(p[b]) << (8 * b);
  return word;
}

uint32_t SampleValue(const PlaneView& plane, uint32_t x, uint32_t y) {
  const uint32_t mask = uint32_t((uint64_t(1) << plane.depth) - 1);
  return (SampleWord(plane, x, y) >> plane.shift) & mask;
}

}  // namespace

Status ReferenceHistogram(const HistogramSpec& spec, const PlaneView* planes, int num_planes,
                          uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(ValidateRequest(spec, planes, num_planes));
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  std::fill(counts, counts + CountsLength(spec, num_planes), 0u);
  for (int c = 0; c < num_planes; ++c) {
    const PlaneView& plane = planes[c];
    const Roi region = CountedRegion(plane);
    uint32_t* histogram = counts + size_t(c) * spec.bins;
    for (uint32_t y = region.y; y < region.y + region.height; ++y) {
      for (uint32_t x = region.x; x < region.x + region.width; ++x) {
        ++histogram[BinOf(SampleValue(plane, x, y), spec.bins, plane.depth)];
      }
    }
  }
  return Status::Ok();
}

}  // namespace cudahist
