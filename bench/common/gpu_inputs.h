// bench/common/gpu_inputs.h: what the kernel benchmark reads and the roofline it is
// measured against, both on the GPU (1 GiB inputs are generated where they
// live, never copied from the host).
#pragma once

#include <cuda_runtime_api.h>
#include <cudahist/plane_view.h>

#include <cstddef>
#include <cstdint>

namespace bench {

enum class Distribution {
  kUniform,   // every code value equally likely (a hash of the sample index)
  kOneValue,  // the same value everywhere: the worst case for atomics
  kPeaked,    // mean of four uniform values: a bell around mid-range, like real video
  kPhoto,     // a real photograph, tiled over the plane
};
const char* DistributionName(Distribution d);

// A photograph in device memory: rows of width * channels bytes, no padding.
struct DevicePhoto {
  const uint8_t* pixels = nullptr;
  uint32_t width = 0, height = 0, channels = 0;
};

struct FillRecipe {
  Distribution distribution = Distribution::kUniform;
  uint32_t seed = 0;           // differs per frame and component so that no two planes are equal
  DevicePhoto photo;           // for kPhoto
  uint32_t photo_channel = 0;  // which channel of the photo feeds this component
};

// Writes every sample of `plane` (device memory; its `data` is written to in
// spite of the const) as the recipe says: word = value << shift, value of
// `depth` bits. Asynchronous on `stream`.
cudaError_t FillPlane(const cudahist::PlaneView& plane, const FillRecipe& recipe, cudaStream_t stream);

// The read roofline: reads `bytes` at `data` (16-byte aligned) with 16-byte
// loads, several in flight per thread, grid-stride, and folds them into one
// word per block written to `sink` (so nothing can be optimised away).
// `sink` must hold RooflineSinkWords() words.
size_t RooflineSinkWords();
// `programmatic`: launched as cudahist launches its kernels (programmatic
// dependent launch), to show what that alone saves on small frames.
cudaError_t LaunchReadRoofline(const void* data, size_t bytes, uint32_t* sink, cudaStream_t stream,
                               bool programmatic = false);

}  // namespace bench
