// bench/common/gpu_inputs.cu: input generators and the read-roofline kernel.
#include "gpu_inputs.h"

#include <algorithm>

namespace bench {
namespace {

// The roofline's launch shape: 256 threads, 4 independent 16-byte loads in
// flight per thread, i.e. 16 KiB outstanding per block, 128 KiB per SM at 8
// blocks per SM: meant to be enough to saturate HBM on Hopper. Unverified
// until the GPU host compares it with a device-to-device copy's bandwidth.
constexpr int kRooflineThreads = 256;
constexpr int kRooflineLoadsInFlight = 4;
// The grid is what the device holds resident at once (one wave, grid-stride:
// more blocks would leave a partial last wave, a few percent of a 1 GiB read),
// at most this many, and fewer for small frames so no block idles.
constexpr int kRooflineMaxBlocks = 4096;

constexpr int kFillThreads = 256;
constexpr int kFillMaxBlocks = 65536;

__device__ uint32_t Hash32(uint64_t x) {  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return uint32_t((x ^ (x >> 31)) >> 16);
}

__device__ uint32_t PhotoValue(const DevicePhoto& photo, uint32_t channel, uint64_t x, uint64_t y,
                               uint32_t depth) {
  const uint64_t px = x % photo.width, py = y % photo.height;
  const uint32_t byte = photo.pixels[(py * photo.width + px) * photo.channels + channel];
  return depth >= 8 ? byte << (depth - 8) : byte >> (8 - depth);
}

__device__ uint32_t SampleValue(const FillRecipe& r, uint64_t index, uint64_t x, uint64_t y,
                                uint32_t depth) {
  const uint32_t mask = (1u << depth) - 1u;
  const uint64_t key = (uint64_t(r.seed) << 40) ^ (index << 2);
  switch (r.distribution) {
    case Distribution::kUniform:
      return Hash32(key) & mask;
    case Distribution::kOneValue:
      return 0x5A5Au & mask;
    case Distribution::kPeaked:
      return ((Hash32(key) & mask) + (Hash32(key + 1) & mask) + (Hash32(key + 2) & mask) +
              (Hash32(key + 3) & mask)) / 4;
    case Distribution::kPhoto:
      return PhotoValue(r.photo, r.photo_channel, x, y, depth);
  }
  return 0;
}

__global__ void FillKernel(cudahist::PlaneView plane, FillRecipe recipe) {
  const uint64_t samples = uint64_t(plane.width) * plane.height;
  uint8_t* base = static_cast<uint8_t*>(const_cast<void*>(plane.data));
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < samples;
       i += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t x = i % plane.width, y = i / plane.width;
    const uint32_t word = SampleValue(recipe, i, x, y, plane.depth) << plane.shift;
    uint8_t* at = base + y * plane.pitch + x * plane.pixel_stride + plane.offset;
    if (plane.sample_size == 1) {
      *at = uint8_t(word);
    } else if (plane.sample_size == 2) {
      *reinterpret_cast<uint16_t*>(at) = uint16_t(word);
    } else {
      *reinterpret_cast<uint32_t*>(at) = word;
    }
  }
}

__device__ uint32_t Fold(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

__global__ void __launch_bounds__(kRooflineThreads)
    ReadRooflineKernel(const uint4* __restrict__ data, size_t vectors, const uint8_t* __restrict__ tail,
                       uint32_t tail_bytes, uint32_t* __restrict__ sink) {
#if __CUDA_ARCH__ >= 900
  // Launched with programmatic serialisation (LaunchReadRoofline's
  // `programmatic`), wait for the previous kernel before reading, as
  // cudahist's kernels do; a no-op otherwise.
  asm volatile("griddepcontrol.launch_dependents;" :::);
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  uint32_t acc = 0;
  for (; i + (kRooflineLoadsInFlight - 1) * stride < vectors; i += kRooflineLoadsInFlight * stride) {
    uint4 v[kRooflineLoadsInFlight];
#pragma unroll
    for (int k = 0; k < kRooflineLoadsInFlight; ++k) v[k] = __ldg(data + i + k * stride);
#pragma unroll
    for (int k = 0; k < kRooflineLoadsInFlight; ++k) acc ^= Fold(v[k]);
  }
  for (; i < vectors; i += stride) acc ^= Fold(__ldg(data + i));
  if (blockIdx.x == 0 && threadIdx.x < tail_bytes) acc ^= tail[threadIdx.x];

  __shared__ uint32_t warp_acc[kRooflineThreads / 32];
  for (int offset = 16; offset > 0; offset >>= 1) acc ^= __shfl_xor_sync(0xFFFFFFFFu, acc, offset);
  if ((threadIdx.x & 31) == 0) warp_acc[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t block_acc = 0;
    for (int w = 0; w < kRooflineThreads / 32; ++w) block_acc ^= warp_acc[w];
    sink[blockIdx.x] = block_acc;
  }
}

}  // namespace

const char* DistributionName(Distribution d) {
  switch (d) {
    case Distribution::kUniform: return "uniform";
    case Distribution::kOneValue: return "one-value";
    case Distribution::kPeaked: return "peaked";
    case Distribution::kPhoto: return "photo";
  }
  return "?";
}

cudaError_t FillPlane(const cudahist::PlaneView& plane, const FillRecipe& recipe, cudaStream_t stream) {
  const uint64_t samples = uint64_t(plane.width) * plane.height;
  if (samples == 0) return cudaSuccess;
  const uint64_t blocks = std::min<uint64_t>((samples + kFillThreads - 1) / kFillThreads, kFillMaxBlocks);
  FillKernel<<<unsigned(blocks), kFillThreads, 0, stream>>>(plane, recipe);
  return cudaGetLastError();
}

size_t RooflineSinkWords() { return kRooflineMaxBlocks; }

static size_t ResidentRooflineBlocks() {
  static const size_t resident = [] {
    int device = 0, sms = 1, per_sm = 1;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ReadRooflineKernel, kRooflineThreads, 0);
    return std::clamp<size_t>(size_t(sms) * size_t(per_sm), 1, kRooflineMaxBlocks);
  }();
  return resident;
}

cudaError_t LaunchReadRoofline(const void* data, size_t bytes, uint32_t* sink, cudaStream_t stream,
                               bool programmatic) {
  // The tail (under 16 bytes) is read by block 0's first threads: one byte each.
  static_assert(kRooflineThreads >= 16, "tail needs 16 threads");
  const size_t vectors = bytes / 16;
  const uint32_t tail_bytes = uint32_t(bytes % 16);
  const size_t per_block = size_t(kRooflineThreads) * kRooflineLoadsInFlight;
  const size_t blocks = std::clamp<size_t>((vectors + per_block - 1) / per_block, 1, ResidentRooflineBlocks());
  cudaLaunchConfig_t launch = {};
  launch.gridDim = dim3(unsigned(blocks));
  launch.blockDim = dim3(kRooflineThreads);
  launch.stream = stream;
  cudaLaunchAttribute attribute = {};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  if (programmatic) {
    launch.attrs = &attribute;
    launch.numAttrs = 1;
  }
  return cudaLaunchKernelEx(&launch, ReadRooflineKernel, static_cast<const uint4*>(data), vectors,
                            static_cast<const uint8_t*>(data) + vectors * 16, tail_bytes, sink);
}

}  // namespace bench
