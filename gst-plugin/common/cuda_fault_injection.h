// A real CUDA error on demand, for testing what an application does when one
// element's CUDA work fails mid-stream (a monitor restarting that stream, the
// other streams going on). Off unless the environment asks for it:
//
//   CUDAHIST_CUDA_FAULT=PIPELINE:N
//
// The element whose top-level pipeline is named PIPELINE fails its N-th
// frame with the error an invalid cudaMemsetAsync returns. Once per process:
// the element that takes the fault disarms it, so a restarted pipeline runs.
#pragma once

#include <gst/gst.h>

#include <cstdint>

namespace cudahistogram {

constexpr char kCudaFaultVariable[] = "CUDAHIST_CUDA_FAULT";

// The frame (counted from 1) at which `element` should fail, or 0. Taking a
// fault disarms it for the rest of the process.
uint64_t TakeCudaFault(GstElement* element);

}  // namespace cudahistogram
