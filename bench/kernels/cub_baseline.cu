// bench/kernels/cub_baseline.cu
#include "cub_baseline.h"

#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <vector>

#include "plane_groups.h"

namespace bench {
namespace {

template <typename SampleT, int kChannels>
cudaError_t CubGroup(void* temp, size_t* temp_bytes, const cudahist::PlaneView& first, uint32_t bins,
                     long upper_level, int* counts, cudaStream_t stream) {
  const SampleT* samples = static_cast<const SampleT*>(first.data);
  const int width = int(first.width), height = int(first.height);
  if constexpr (kChannels == 1) {
    return cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, samples, counts, int(bins) + 1, 0,
                                               int(upper_level), width, height, first.pitch, stream);
  } else {
    ::cuda::std::array<int*, kChannels> histograms;
    ::cuda::std::array<int, kChannels> levels, lower, upper;
    for (int c = 0; c < kChannels; ++c) {
      histograms[c] = counts + size_t(c) * bins;
      levels[c] = int(bins) + 1;
      lower[c] = 0;
      upper[c] = int(upper_level);
    }
    return cub::DeviceHistogram::MultiHistogramEven<kChannels, kChannels>(
        temp, *temp_bytes, samples, histograms, levels, lower, upper, width, height, first.pitch, stream);
  }
}

using GroupFn = cudaError_t (*)(void*, size_t*, const cudahist::PlaneView&, uint32_t, long, int*, cudaStream_t);

GroupFn GroupFunction(const PlaneGroup& g) {
  if (g.sample_size == 1 && g.channels == 1) return CubGroup<uint8_t, 1>;
  if (g.sample_size == 1 && g.channels == 2) return CubGroup<uint8_t, 2>;
  if (g.sample_size == 1 && g.channels == 4) return CubGroup<uint8_t, 4>;
  if (g.sample_size == 2 && g.channels == 1) return CubGroup<uint16_t, 1>;
  if (g.sample_size == 2 && g.channels == 2) return CubGroup<uint16_t, 2>;
  if (g.sample_size == 2 && g.channels == 4) return CubGroup<uint16_t, 4>;
  return nullptr;
}

}  // namespace

cudaError_t CubHistogramPlanes(void* temp, size_t* temp_bytes, const cudahist::PlaneView* planes,
                               int num_planes, uint32_t bins, int* counts, cudaStream_t stream,
                               std::string* why, int max_groups) {
  std::vector<PlaneGroup> groups;
  if (!GroupInterleavedPlanes(planes, num_planes, &groups, why)) return cudaErrorNotSupported;
  groups.resize(std::min<size_t>(groups.size(), size_t(max_groups)));
  size_t needed = 0;
  for (const PlaneGroup& g : groups) {
    const GroupFn fn = GroupFunction(g);
    if (fn == nullptr) {
      *why = std::to_string(g.channels) + " interleaved channels of " + std::to_string(g.sample_size) +
             "-byte samples";
      return cudaErrorNotSupported;
    }
    size_t bytes = temp == nullptr ? 0 : *temp_bytes;
    const cudaError_t err = fn(temp, &bytes, planes[g.first_plane], bins, g.upper_level,
                               counts + size_t(g.first_plane) * bins, stream);
    if (err != cudaSuccess) return err;
    needed = std::max(needed, bytes);
  }
  if (temp == nullptr) *temp_bytes = needed;
  return cudaSuccess;
}

}  // namespace bench
