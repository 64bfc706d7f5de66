// cudahist: how one colour component of one image plane is laid out in memory.
//
// Every video format that GstVideoFormatInfo describes (plane, poffset,
// pixel stride, depth, shift, subsampling) maps onto a PlaneView
// mechanically, so no kernel is written per format:
//
//   GRAY8 / I420 Y      pixel_stride 1, offset 0, sample_size 1, depth 8
//   NV12 U / V          pixel_stride 2, offset 0 / 1 (on the UV plane, half size)
//   RGBA R, G, B, A     pixel_stride 4, offset 0, 1, 2, 3
//   RGB / BGR           pixel_stride 3
//   P010_10LE Y         pixel_stride 2, sample_size 2, shift 6, depth 10
//   RGB10A2_LE B        pixel_stride 4, sample_size 4, shift 20, depth 10
//   YUY2 Y / U / V      pixel_stride 2 / 4 / 4, offset 0 / 1 / 3
//
// The sample of column x, row y is the little-endian word of `sample_size`
// bytes at  data + y * pitch + x * pixel_stride + offset;  its value is
// (word >> shift) & ((1 << depth) - 1). Bytes between the end of a row and
// the next pitch (padding) are never read as samples.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cudahist/status.h"

namespace cudahist {

// A rectangle in samples, relative to the plane's top-left corner.
struct Roi {
  uint32_t x = 0;
  uint32_t y = 0;
  uint32_t width = 0;
  uint32_t height = 0;
};

struct PlaneView {
  const void* data = nullptr;  // first byte of the plane (device or host memory)
  uint32_t width = 0;          // samples per row of this component
  uint32_t height = 0;         // rows
  size_t pitch = 0;            // bytes from one row to the next
  uint32_t pixel_stride = 1;   // bytes from one sample of this component to the next
  uint32_t offset = 0;         // byte offset of the component inside a pixel
  uint32_t sample_size = 1;    // bytes per sample word: 1, 2 or 4
  uint32_t shift = 0;          // right shift applied to the word
  uint32_t depth = 8;          // bits kept after the shift: 1 to 16
  bool has_roi = false;        // count only `roi` (may be empty) instead of the plane
  Roi roi{};
};

// Largest sample depth the library counts: 2^16 code values, 65536 bins.
constexpr uint32_t kMaxDepth = 16;

// The rectangle of samples that a view counts: the ROI if it has one, else the plane.
inline Roi CountedRegion(const PlaneView& plane) {
  return plane.has_roi ? plane.roi : Roi{0, 0, plane.width, plane.height};
}

// The samples of a plane subsampled 2^log2_hsub x 2^log2_vsub that the
// rectangle `region` of the full-resolution frame touches: columns x >> h to
// (x + width - 1) >> h, rows likewise (empty when the region is). A frame's
// ROI, a region's box and signalstats' chroma all map this way.
#if defined(__CUDACC__)
__host__ __device__
#endif
inline Roi RegionOnPlane(const Roi& region, uint32_t log2_hsub, uint32_t log2_vsub) {
  const uint32_t x0 = region.x >> log2_hsub, y0 = region.y >> log2_vsub;
  if (region.width == 0 || region.height == 0) return Roi{x0, y0, 0, 0};
  return Roi{x0, y0, uint32_t((uint64_t(region.x) + region.width - 1) >> log2_hsub) - x0 + 1,
             uint32_t((uint64_t(region.y) + region.height - 1) >> log2_vsub) - y0 + 1};
}

inline uint64_t CountedSamples(const PlaneView& plane) {
  const Roi r = CountedRegion(plane);
  return uint64_t(r.width) * r.height;
}

// Checks every field; the message names the field as "plane[index].field".
// A null `data` is accepted only when the plane (or its ROI) holds no sample.
// Samples wider than a byte must be naturally aligned (data, pitch, stride, offset).
Status ValidatePlane(const PlaneView& plane, int index);

}  // namespace cudahist
