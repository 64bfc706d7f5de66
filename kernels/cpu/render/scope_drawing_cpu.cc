// cudahist: scopes drawn on the CPU, pixel by pixel through render/scope_pixels.cuh,
// the same definition the GPU kernel uses.
#include <algorithm>
#include <cstring>

#include "render/picture_pixels.cuh"
#include "render/scope_pixels.cuh"
#include "cudahist/scope_render.h"

namespace cudahist {
namespace {

template <typename PixelOf>
void DrawRows(const ScopeImage& image, PixelOf pixel_of) {
  for (uint32_t y = 0; y < image.height; ++y) {
    uint8_t* row = static_cast<uint8_t*>(image.data) + size_t(y) * image.pitch;
    for (uint32_t x = 0; x < image.width; ++x) {
      const uint32_t rgba = pixel_of(x, y);
      std::memcpy(row + size_t(x) * 4, &rgba, 4);  // little-endian: R, G, B, A
    }
  }
}

}  // namespace

Status DrawColumnScopeCpu(const ColumnScope& scope, const ScopeImage& image) {
  CUDAHIST_RETURN_IF_ERROR(ValidateColumnScope(scope, image));
  if (scope.style == ColumnScopeStyle::kHistogram) {
    uint32_t maxima[kMaxScopeTraces] = {};
    for (int i = 0; i < scope.num_traces; ++i) {
      const ColumnTrace& t = scope.traces[i];
      maxima[i] = *std::max_element(t.counts, t.counts + t.bins);
    }
    DrawRows(image, [&](uint32_t x, uint32_t y) {
      return detail::HistogramPixel(scope, maxima, image.width, image.height, x, y);
    });
  } else {
    DrawRows(image, [&](uint32_t x, uint32_t y) {
      return detail::WaveformPixel(scope, image.width, image.height, x, y);
    });
  }
  return Status::Ok();
}

Status DrawVectorScopeCpu(const VectorScope& scope, const ScopeImage& image) {
  CUDAHIST_RETURN_IF_ERROR(ValidateVectorScope(scope, image));
  DrawRows(image, [&](uint32_t x, uint32_t y) {
    return detail::VectorscopePixel(scope, image.width, image.height, x, y);
  });
  return Status::Ok();
}

Status DrawPictureCpu(const PictureScope& scope, const ScopeImage& image) {
  CUDAHIST_RETURN_IF_ERROR(ValidatePictureScope(scope, image));
  DrawRows(image, [&](uint32_t x, uint32_t y) { return detail::PicturePixel(scope, image.width, image.height, x, y); });
  return Status::Ok();
}

}  // namespace cudahist
