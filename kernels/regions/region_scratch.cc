// What the region counters keep on the device between frames (region_launch.h):
// the tile table's staging and device copy, and the per-region totals; and
// the launch over the tiles both region kernels make.
#include <algorithm>
#include <cstring>
#include <string>

#include "regions/region_launch.h"

namespace cudahist::detail {

template <typename Tile, uint32_t kCapacity>
TileTable<Tile, kCapacity>::~TileTable() {
  if (copied_ != nullptr) cudaEventDestroy(copied_);
  if (staging_ != nullptr) cudaFreeHost(staging_);
  if (device_ != nullptr) cudaFree(device_);
}

template <typename Tile, uint32_t kCapacity>
Status TileTable<Tile, kCapacity>::Grow(size_t tiles) {
  if (tiles <= capacity_) return Status::Ok();
  if (copied_ != nullptr) CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaEventSynchronize(copied_), "cudaEventSynchronize"));
  if (staging_ != nullptr) cudaFreeHost(staging_);
  if (device_ != nullptr) cudaFree(device_);  // waits for the device: no launch still reads it
  const size_t capacity = std::max(tiles, 2 * capacity_);
  staging_ = nullptr;
  device_ = nullptr;
  capacity_ = 0;
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaHostAlloc(reinterpret_cast<void**>(&staging_), capacity * sizeof(Tile),
                                                    cudaHostAllocPortable),
                                      "cudaHostAlloc(tile table)"));
  CUDAHIST_RETURN_IF_ERROR(
      CudaStatus(cudaMalloc(reinterpret_cast<void**>(&device_), capacity * sizeof(Tile)), "cudaMalloc(tile table)"));
  if (copied_ == nullptr) {
    CUDAHIST_RETURN_IF_ERROR(
        CudaStatus(cudaEventCreateWithFlags(&copied_, cudaEventDisableTiming), "cudaEventCreate(tile table)"));
  }
  capacity_ = capacity;
  return Status::Ok();
}

template <typename Tile, uint32_t kCapacity>
Status TileTable<Tile, kCapacity>::Stage(const std::vector<Tile>& tiles, cudaStream_t stream,
                                         InlineTiles<Tile, kCapacity>* carried, const Tile** device_tiles) {
  if (tiles.size() <= kCapacity) {
    std::copy(tiles.begin(), tiles.end(), carried->tile);
    *device_tiles = nullptr;
    return Status::Ok();
  }
  CUDAHIST_RETURN_IF_ERROR(Grow(tiles.size()));
  // The previous copy from the staging has read it (it was enqueued a frame ago).
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaEventSynchronize(copied_), "cudaEventSynchronize(tile table)"));
  std::memcpy(staging_, tiles.data(), tiles.size() * sizeof(Tile));
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(
      cudaMemcpyAsync(device_, staging_, tiles.size() * sizeof(Tile), cudaMemcpyHostToDevice, stream),
      "cudaMemcpyAsync(tile table)"));
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaEventRecord(copied_, stream), "cudaEventRecord(tile table)"));
  *device_tiles = device_;
  return Status::Ok();
}

template class TileTable<RegionEntry, kSegmentedPolicy.inline_regions>;
template class TileTable<RegionStatsTile, kRegionSignalStatsPolicy.inline_tiles>;

Status RegionTotals::Reserve(uint32_t regions, uint32_t stride) {
  if (regions <= regions_ && stride == stride_) return Status::Ok();
  // Room for twice the regions: a detector's count varies from frame to frame.
  const uint32_t capacity = std::max(regions, stride == stride_ ? 2 * regions_ : regions);
  regions_ = 0;
  stride_ = stride;
  CUDAHIST_RETURN_IF_ERROR(scratch_.Allocate(
      (kDirectLaunchWords + size_t(capacity) * (size_t(stride) + 1)) * sizeof(uint32_t), true, "region totals"));
  regions_ = capacity;
  return Status::Ok();
}

Status LaunchOverTiles(const KernelConfig& config, void** args, uint32_t num_tiles, cudaStream_t stream) {
  const uint32_t grid = std::max<uint32_t>(1, std::min(num_tiles, config.resident_blocks));
  const cudaError_t error =
      LaunchKernelSerialized(config.kernel, dim3(grid), config.threads, config.shared_bytes, args, stream);
  if (error == cudaSuccess) return Status::Ok();
  return CudaStatus(error, (std::string(config.name) + " kernel launch").c_str());
}

}  // namespace cudahist::detail
