// What tests and benchmarks may ask of the elements through the environment,
// compiled in only where meson's test-hooks option is on (CUDAHIST_TEST_HOOKS:
// scripts/test.sh and the GPU host's pack build with it). A build without it
// reads neither variable: no fault is ever injected, every picture is drawn.
//
//   CUDAHIST_CUDA_FAULT=PIPELINE:N
//       A real CUDA error on demand, for testing what an application does
//       when one element's CUDA work fails mid-stream (a monitor restarting
//       that stream, the other streams going on): the element whose
//       top-level pipeline is named PIPELINE fails its N-th frame with the
//       error an invalid cudaMemsetAsync returns. Once per process: the
//       element that takes the fault disarms it, so a restarted pipeline runs.
//   CUDAVIDEOSCOPE_SKIP_DRAW (set at all)
//       cudavideoscope counts every frame and leaves its picture undrawn, so
//       that videoscope_element_bench can tell the drawing's share.
#pragma once

#include <gst/gst.h>

#include <cstdint>

namespace cudahistogram {

constexpr char kCudaFaultVariable[] = "CUDAHIST_CUDA_FAULT";

#if CUDAHIST_TEST_HOOKS
// The frame (counted from 1) at which `element` should fail, or 0. Taking a
// fault disarms it for the rest of the process.
uint64_t TakeCudaFault(GstElement* element);
// True (and a warning logged) where CUDAVIDEOSCOPE_SKIP_DRAW asks for counts
// without pictures.
bool DrawingSkipped();
#else
inline uint64_t TakeCudaFault(GstElement*) { return 0; }
inline bool DrawingSkipped() { return false; }
#endif

}  // namespace cudahistogram
