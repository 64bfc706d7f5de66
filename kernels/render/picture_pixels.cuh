// cudahist: the one definition of a picture pixel (scope_render.h states it),
// compiled for the CPU (cpu/render/scope_drawing_cpu.cc) and the GPU
// (picture_drawing.cu) alike; integer arithmetic only, so both paths give
// the same bytes.
#pragma once

#include <cstdint>

#include "cudahist/histogram_spec.h"  // CUDAHIST_HOST_DEVICE
#include "cudahist/scope_render.h"
#include "device/sample_loads.cuh"

namespace cudahist::detail {

// The samples of one image pixel's box along one axis of a plane of `extent`
// samples, read at `step`.
struct PictureSpan {
  uint32_t first, end, step;
};

CUDAHIST_HOST_DEVICE inline PictureSpan PictureSpanOf(uint32_t pixel, uint32_t pixels, uint32_t extent) {
  const uint32_t first = uint32_t(uint64_t(pixel) * extent / pixels);
  uint32_t end = uint32_t(uint64_t(pixel + 1) * extent / pixels);
  if (end <= first) end = first + 1;
  const uint32_t box = end - first;
  return PictureSpan{first, end, (box + kMaxPictureBoxSide - 1) / kMaxPictureBoxSide};
}

CUDAHIST_HOST_DEVICE inline uint32_t PictureSample(const PlaneView& plane, uint32_t x, uint32_t y) {
  const auto* p = static_cast<const uint8_t*>(plane.data) + size_t(y) * plane.pitch + size_t(x) * plane.pixel_stride +
                  plane.offset;
  const uint32_t mask = uint32_t((uint64_t(1) << plane.depth) - 1);
  return (LoadSample(p, plane.sample_size) >> plane.shift) & mask;
}

// The rounded mean of the box's samples at the component's depth, scaled to
// 16 bits.
CUDAHIST_HOST_DEVICE inline int32_t PictureComponent(const PlaneView& plane, uint32_t width, uint32_t height,
                                                     uint32_t x, uint32_t y) {
  const PictureSpan cols = PictureSpanOf(x, width, plane.width);
  const PictureSpan rows = PictureSpanOf(y, height, plane.height);
  uint64_t sum = 0;
  uint32_t n = 0;
  for (uint32_t r = rows.first; r < rows.end; r += rows.step) {
    for (uint32_t c = cols.first; c < cols.end; c += cols.step) {
      sum += PictureSample(plane, c, r);
      ++n;
    }
  }
  return int32_t(uint32_t((sum + n / 2) / n) << (16 - plane.depth));
}

CUDAHIST_HOST_DEVICE inline uint32_t ClampByte(int32_t v) { return v < 0 ? 0u : v > 255 ? 255u : uint32_t(v); }

CUDAHIST_HOST_DEVICE inline uint32_t PicturePixel(const PictureScope& scope, uint32_t width, uint32_t height,
                                                  uint32_t x, uint32_t y) {
  const PictureMatrix& m = scope.matrix;
  const int32_t c0 = PictureComponent(scope.components[0], width, height, x, y);
  uint32_t r, g, b;
  if (scope.colour == PictureColour::kRgb) {
    r = ClampByte((c0 + 128) >> 8);
    g = ClampByte((PictureComponent(scope.components[1], width, height, x, y) + 128) >> 8);
    b = ClampByte((PictureComponent(scope.components[2], width, height, x, y) + 128) >> 8);
  } else {
    const int32_t luma = m.y_gain * (c0 - (m.y_offset << 8)) + (1 << 15);
    if (scope.colour == PictureColour::kGray) {
      r = g = b = ClampByte(luma >> 16);
    } else {
      const int32_t u = PictureComponent(scope.components[1], width, height, x, y) - (128 << 8);
      const int32_t v = PictureComponent(scope.components[2], width, height, x, y) - (128 << 8);
      r = ClampByte((luma + m.v_to_r * v) >> 16);
      g = ClampByte((luma - m.u_to_g * u - m.v_to_g * v) >> 16);
      b = ClampByte((luma + m.u_to_b * u) >> 16);
    }
  }
  return r | g << 8 | b << 16 | 0xffu << 24;
}

}  // namespace cudahist::detail
