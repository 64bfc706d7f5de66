// bench/scopes/scope_baselines.cu
#include "scope_baselines.h"

#include <cub/device/device_histogram.cuh>

#include <algorithm>

namespace bench {
namespace {

constexpr int kRooflineThreads = 512;
constexpr int kRooflineLoads = 4;

__global__ void ReadWriteRooflineKernel(const uint4* data, size_t vectors, const uint8_t* tail, uint32_t tail_bytes,
                                        uint32_t* out, size_t out_words) {
  const size_t thread = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  uint32_t fold = 0;
  for (size_t base = thread; base < vectors; base += threads * kRooflineLoads) {
    uint4 v[kRooflineLoads];
#pragma unroll
    for (int i = 0; i < kRooflineLoads; ++i) {
      const size_t at = base + size_t(i) * threads;
      v[i] = at < vectors ? __ldg(data + at) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int i = 0; i < kRooflineLoads; ++i) fold ^= v[i].x ^ v[i].y ^ v[i].z ^ v[i].w;
  }
  if (thread < tail_bytes) fold ^= tail[thread];
  for (size_t i = thread; i < out_words; i += threads) out[i] = fold + uint32_t(i);
}

__global__ void TransposeKernel(const uint8_t* plane, int width, int height, size_t pitch, uint8_t* out) {
  __shared__ uint8_t tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += blockDim.y) {
    const int y = blockIdx.y * 32 + j;
    if (x < width && y < height) tile[j][threadIdx.x] = plane[size_t(y) * pitch + x];
  }
  __syncthreads();
  const int y = blockIdx.y * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += blockDim.y) {
    const int xo = blockIdx.x * 32 + j;
    if (xo < width && y < height) out[size_t(xo) * height + y] = tile[threadIdx.x][j];
  }
}

}  // namespace

cudaError_t LaunchReadWriteRoofline(const void* data, size_t bytes, uint32_t* out, size_t out_words,
                                    cudaStream_t stream) {
  static const int resident = [] {
    int device = 0, sms = 1, per_sm = 1;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ReadWriteRooflineKernel, kRooflineThreads, 0);
    return std::max(1, sms * per_sm);
  }();
  const size_t vectors = bytes / 16;
  const size_t per_block = size_t(kRooflineThreads) * kRooflineLoads;
  const size_t needed = std::max((vectors + per_block - 1) / per_block, (out_words + kRooflineThreads - 1) / kRooflineThreads);
  const int blocks = int(std::clamp<size_t>(needed, 1, size_t(resident)));
  ReadWriteRooflineKernel<<<blocks, kRooflineThreads, 0, stream>>>(
      static_cast<const uint4*>(data), vectors, static_cast<const uint8_t*>(data) + vectors * 16,
      uint32_t(bytes % 16), out, out_words);
  return cudaGetLastError();
}

cudaError_t CubColumnsStrided(void* temp, size_t* temp_bytes, const uint8_t* plane, int width, int height,
                              size_t pitch, int* counts, cudaStream_t stream) {
  if (temp == nullptr) {
    return cub::DeviceHistogram::HistogramEven(nullptr, *temp_bytes, plane, counts, 257, 0, 256, 1, height, pitch,
                                               stream);
  }
  for (int x = 0; x < width; ++x) {
    const cudaError_t e = cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, plane + x, counts + size_t(x) * 256,
                                                              257, 0, 256, 1, height, pitch, stream);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t CubColumnsContiguous(void* temp, size_t* temp_bytes, const uint8_t* transposed, int width, int height,
                                 int* counts, cudaStream_t stream) {
  if (temp == nullptr) {
    return cub::DeviceHistogram::HistogramEven(nullptr, *temp_bytes, transposed, counts, 257, 0, 256, height, stream);
  }
  for (int x = 0; x < width; ++x) {
    const cudaError_t e = cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, transposed + size_t(x) * height,
                                                              counts + size_t(x) * 256, 257, 0, 256, height, stream);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t TransposeBytes(const uint8_t* plane, int width, int height, size_t pitch, uint8_t* out,
                           cudaStream_t stream) {
  TransposeKernel<<<dim3((width + 31) / 32, (height + 31) / 32), dim3(32, 8), 0, stream>>>(plane, width, height,
                                                                                         pitch, out);
  return cudaGetLastError();
}

cudaError_t CubJointUv(void* temp, size_t* temp_bytes, const uint8_t* uv_plane, int width, int height, size_t pitch,
                       int* counts, cudaStream_t stream) {
  return cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, reinterpret_cast<const uint16_t*>(uv_plane), counts,
                                             65537, 0, 65536, width, height, pitch, stream);
}

}  // namespace bench
