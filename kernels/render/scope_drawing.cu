// cudahist: scopes drawn on the GPU, one thread per pixel through
// scope_pixels.cuh (the definition the CPU path uses too), one launch per image.
#include <cuda_runtime.h>

#include "cudahist/scope_render.h"
#include "launch/kernel_launch.h"
#include "render/scope_pixels.cuh"
#include "render/scope_drawing_tuning.h"

namespace cudahist {
namespace {

constexpr uint32_t kScopeTileWidth = detail::kScopeDrawingPolicy.tile_width();
constexpr uint32_t kScopeTileHeight = detail::kScopeDrawingPolicy.tile_height;

__device__ __forceinline__ void StorePixel(const ScopeImage& image, uint32_t x, uint32_t y, uint32_t rgba) {
  reinterpret_cast<uint32_t*>(static_cast<uint8_t*>(image.data) + size_t(y) * image.pitch)[x] = rgba;
}

// Every block finds each trace's tallest bin itself: a histogram has at most
// a few thousand bins, and one launch needs no scratch this way.
__device__ void TraceMaxima(const ColumnScope& scope, uint32_t* maxima) {
  const uint32_t thread = threadIdx.y * blockDim.x + threadIdx.x;
  const uint32_t threads = blockDim.x * blockDim.y;
  if (thread < kMaxScopeTraces) maxima[thread] = 0;
  __syncthreads();
  for (int i = 0; i < scope.num_traces; ++i) {
    uint32_t local = 0;
    for (uint32_t b = thread; b < scope.traces[i].bins; b += threads) local = max(local, scope.traces[i].counts[b]);
    atomicMax(&maxima[i], local);
  }
  __syncthreads();
}

__global__ void DrawColumnScopeKernel(ColumnScope scope, ScopeImage image) {
  __shared__ uint32_t maxima[kMaxScopeTraces];
  const bool histogram = scope.style == ColumnScopeStyle::kHistogram;
  if (histogram) TraceMaxima(scope, maxima);
  const uint32_t x = blockIdx.x * kScopeTileWidth + threadIdx.x;
  const uint32_t y = blockIdx.y * kScopeTileHeight + threadIdx.y;
  if (x >= image.width || y >= image.height) return;
  StorePixel(image, x, y,
             histogram ? detail::HistogramPixel(scope, maxima, image.width, image.height, x, y)
                       : detail::WaveformPixel(scope, image.width, image.height, x, y));
}

__global__ void DrawVectorScopeKernel(VectorScope scope, ScopeImage image) {
  const uint32_t x = blockIdx.x * kScopeTileWidth + threadIdx.x;
  const uint32_t y = blockIdx.y * kScopeTileHeight + threadIdx.y;
  if (x >= image.width || y >= image.height) return;
  StorePixel(image, x, y, detail::VectorscopePixel(scope, image.width, image.height, x, y));
}

dim3 Tiles(const ScopeImage& image) {
  return dim3((image.width + kScopeTileWidth - 1) / kScopeTileWidth,
              (image.height + kScopeTileHeight - 1) / kScopeTileHeight);
}

}  // namespace

Status DrawColumnScope(const ColumnScope& scope, const ScopeImage& image, cudaStream_t stream) {
  CUDAHIST_RETURN_IF_ERROR(ValidateColumnScope(scope, image));
  DrawColumnScopeKernel<<<Tiles(image), dim3(kScopeTileWidth, kScopeTileHeight), 0, stream>>>(scope, image);
  return detail::CudaStatus(cudaGetLastError(), "DrawColumnScope kernel launch");
}

Status DrawVectorScope(const VectorScope& scope, const ScopeImage& image, cudaStream_t stream) {
  CUDAHIST_RETURN_IF_ERROR(ValidateVectorScope(scope, image));
  DrawVectorScopeKernel<<<Tiles(image), dim3(kScopeTileWidth, kScopeTileHeight), 0, stream>>>(scope, image);
  return detail::CudaStatus(cudaGetLastError(), "DrawVectorScope kernel launch");
}

}  // namespace cudahist
