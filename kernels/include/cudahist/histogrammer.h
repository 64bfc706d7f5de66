// cudahist: per-frame histograms on the GPU.
//
//   auto h = cudahist::Histogrammer::Create(spec, num_components);   // once
//   h->Compute(planes, num_components, stream, counts);              // every frame
//
// A Histogrammer owns all the scratch memory its kernels need (allocated in
// Create, sized for the device, whatever the frame size), so Compute
// allocates nothing and never synchronises the device: it enqueues ONE kernel
// launch on the caller's stream that counts every component, zeroes its own
// scratch, finishes the reduction and writes the final counts to `counts`
// (device memory, or pinned host memory: Pinned<uint32_t>, cudahist/pinned.h).
// The counts are complete when the stream reaches that point
// (cudaStreamSynchronize, an event).
//
// CUDA context: Create and Compute run in the context current on the calling
// thread (the runtime's primary context, or a driver context the caller
// pushed, as GStreamer's CUDA elements do). One Histogrammer serves one
// stream at a time.
#pragma once

#include <cstdint>
#include <memory>

#include "cudahist/histogram_spec.h"
#include "cudahist/pinned.h"
#include "cudahist/plane_view.h"
#include "cudahist/status.h"

// The CUDA runtime's stream handle, declared exactly as its driver_types.h
// declares it, so that this header compiles without the CUDA toolkit (an
// application of the CPU backend needs none); including <cuda_runtime_api.h>
// before or after it is fine.
struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;

namespace cudahist {

// kOk when a CUDA device is usable; kNoDevice with "no CUDA device: <why>" otherwise.
Status CheckCudaDevice();

// Frames that one ComputeBatch launch counts together.
constexpr int kMaxFramesPerLaunch = 16;

class Histogrammer {
 public:
  // `spec.bins` and `num_components` (1 to 4) are fixed for the object's life;
  // the planes given to Compute may change size from call to call.
  static Status Create(const HistogramSpec& spec, int num_components,
                       std::unique_ptr<Histogrammer>* out);
  ~Histogrammer();
  Histogrammer(const Histogrammer&) = delete;
  Histogrammer& operator=(const Histogrammer&) = delete;

  // Enqueues the count of `planes` (num_planes == num_components) on `stream`.
  // `counts` receives num_planes * bins 32-bit counts, component-major.
  // Bad planes return kInvalidArgument before anything is launched.
  Status Compute(const PlaneView* planes, int num_planes, cudaStream_t stream, uint32_t* counts);

  // Enqueues the counts of `num_frames` frames at once (many streams, or a
  // queue of decoded frames): frame f's planes are planes[f * num_components]
  // to planes[f * num_components + num_components - 1], its counts go to
  // counts + f * num_components * bins. With the privatized algorithms (auto
  // up to 8192 counters) up to kMaxFramesPerLaunch frames share one launch,
  // which hides the fixed cost of a launch that dominates small frames. A
  // group of kMaxFramesPerLaunch that holds a frame large enough to fill the
  // GPU alone, and every frame with the other algorithms, get a launch each.
  // Every frame is validated before anything is launched; an error names the
  // frame ("frame 3: plane[0].pitch: ...").
  Status ComputeBatch(const PlaneView* planes, int num_frames, cudaStream_t stream, uint32_t* counts);

  const HistogramSpec& spec() const;
  int num_components() const;
  // The algorithm Compute runs for these planes (resolves kAuto).
  Algorithm ResolvedAlgorithm(const PlaneView* planes, int num_planes) const;

  struct Impl;

 private:
  explicit Histogrammer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cudahist
