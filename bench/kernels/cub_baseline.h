// bench/kernels/cub_baseline.h: CUB's DeviceHistogram called as an application has to
// call it for a set of plane views: HistogramEven per planar component,
// MultiHistogramEven<2,2> for NV12's interleaved UV, <4,4> for RGBA; one call
// per group (see plane_groups.h). Counts land component-major, like cudahist's.
#pragma once

#include <cuda_runtime_api.h>
#include <cudahist/plane_view.h>

#include <cstdint>
#include <string>

namespace bench {

// With temp == nullptr sets *temp_bytes to what the calls need and launches
// nothing (CUB's convention). cudaErrorNotSupported (with `why`) when CUB
// cannot count these views. `counts`: num_planes * bins ints on the device.
// `max_groups` limits the call to the first groups (1: NV12's Y plane alone).
cudaError_t CubHistogramPlanes(void* temp, size_t* temp_bytes, const cudahist::PlaneView* planes,
                               int num_planes, uint32_t bins, int* counts, cudaStream_t stream,
                               std::string* why, int max_groups = 1 << 30);

}  // namespace bench
