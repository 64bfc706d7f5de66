// cudahist: the picture display drawn on the GPU, one thread per image pixel
// through picture_pixels.cuh (the definition the CPU path uses too), one
// launch per image. A pixel reads its box of the frame (6 x 6 luma samples
// for a 1080p frame at 320 wide), so the frame is read once, in the tiles
// that scope_drawing_tuning.h gives the scopes: a warp's 32 pixels of one row
// read neighbouring boxes and store one full line.
#include <cuda_runtime.h>

#include "cudahist/scope_render.h"
#include "launch/kernel_launch.h"
#include "render/picture_pixels.cuh"
#include "render/scope_drawing_tuning.h"

namespace cudahist {
namespace {

constexpr uint32_t kTileWidth = detail::kScopeDrawingPolicy.tile_width();
constexpr uint32_t kTileHeight = detail::kScopeDrawingPolicy.tile_height;

__global__ void DrawPictureKernel(PictureScope scope, ScopeImage image) {
  const uint32_t x = blockIdx.x * kTileWidth + threadIdx.x;
  const uint32_t y = blockIdx.y * kTileHeight + threadIdx.y;
  if (x >= image.width || y >= image.height) return;
  reinterpret_cast<uint32_t*>(static_cast<uint8_t*>(image.data) + size_t(y) * image.pitch)[x] =
      detail::PicturePixel(scope, image.width, image.height, x, y);
}

}  // namespace

Status DrawPicture(const PictureScope& scope, const ScopeImage& image, cudaStream_t stream) {
  CUDAHIST_RETURN_IF_ERROR(ValidatePictureScope(scope, image));
  const dim3 tiles((image.width + kTileWidth - 1) / kTileWidth, (image.height + kTileHeight - 1) / kTileHeight);
  DrawPictureKernel<<<tiles, dim3(kTileWidth, kTileHeight), 0, stream>>>(scope, image);
  return detail::CudaStatus(cudaGetLastError(), "DrawPicture kernel launch");
}

}  // namespace cudahist
