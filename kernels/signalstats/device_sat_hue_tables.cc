#include "signalstats/device_sat_hue_tables.h"

#include <vector>

#include "launch/kernel_launch.h"
#include "signalstats/sat_hue_tables.h"
#include "signalstats/signalstats_walk.cuh"

namespace cudahist::detail {

DeviceSatHueTables::~DeviceSatHueTables() {
  for (uint32_t* t : tables_) {
    if (t != nullptr) cudaFree(t);
  }
  if (packed_ != nullptr) cudaFree(packed_);
}

Status DeviceSatHueTables::Upload() {
  for (uint32_t depth = kSignalStatsMinDepth; depth <= kSignalStatsMaxDepth; ++depth) {
    uint32_t*& device = tables_[depth - kSignalStatsMinDepth];
    const std::vector<uint32_t>& table = SatHueTable(depth);
    const size_t bytes = table.size() * sizeof(uint32_t);
    CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaMalloc(reinterpret_cast<void**>(&device), bytes), "cudaMalloc(sat/hue table)"));
    CUDAHIST_RETURN_IF_ERROR(
        CudaStatus(cudaMemcpy(device, table.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy(sat/hue table)"));
  }
  {
    const std::vector<uint32_t>& table = SatHueTable(8);
    std::vector<uint16_t> packed(table.size());
    for (size_t k = 0; k < table.size(); ++k) packed[k] = PackSatHue(table[k]);
    const size_t bytes = packed.size() * sizeof(uint16_t);
    CUDAHIST_RETURN_IF_ERROR(
        CudaStatus(cudaMalloc(reinterpret_cast<void**>(&packed_), bytes), "cudaMalloc(packed sat/hue table)"));
    CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaMemcpy(packed_, packed.data(), bytes, cudaMemcpyHostToDevice),
                                        "cudaMemcpy(packed sat/hue table)"));
  }
  return Status::Ok();
}

}  // namespace cudahist::detail
