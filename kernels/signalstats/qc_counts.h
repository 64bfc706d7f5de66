// cudahist: what the QC kernel (qc_counts.cu) offers SignalStatsCounter
// (signalstats_counter.cu), host side.
#pragma once

#include <cuda_runtime_api.h>

#include "cudahist/signalstats.h"

namespace cudahist::detail {

// Enqueues on `stream` the count of a validated frame (ValidateYuvPlanes)
// into `scratch` (device memory), which must be zero: TOUT, VREP, the line
// sums and the field pairs (QcCounts), one launch.
Status LaunchQcCounts(const YuvPlanes& frame, QcCounts* scratch, cudaStream_t stream);

}  // namespace cudahist::detail
