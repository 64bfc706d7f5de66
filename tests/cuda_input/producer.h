// An application-side producer of NV12 frames in CUDA memory, writing them
// the way GStreamer 1.24+'s own producers do: on its own CUDA stream, and
// handing each frame on at once, without synchronising. Used to show that
// cudahistogram counts what the producer finished writing, never the bytes
// that were there before.
#pragma once

#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cuda_input_test {

// The byte every sample of a plane is set to.
struct Nv12Values {
  uint8_t y;
  uint8_t uv;  // U and V alike
};

// Whether the producer's frames carry a CUDA stream (GStreamer 1.24+) or
// are written on the default stream and synchronised before they are handed
// on (what every GStreamer 1.22 producer does).
enum class ProducerStream { kNone, kOwn };

class CudaFrameProducer {
 public:
  // A producer on device 0 with a pool of width x height NV12 frames; nullptr
  // with `why` set when it cannot be made.
  static std::unique_ptr<CudaFrameProducer> Create(int width, int height, ProducerStream stream,
                                                   std::string* why);
  ~CudaFrameProducer();
  CudaFrameProducer(const CudaFrameProducer&) = delete;
  CudaFrameProducer& operator=(const CudaFrameProducer&) = delete;

  GstCudaContext* context() const { return context_; }
  const GstVideoInfo& info() const { return info_; }
  // video/x-raw(memory:CUDAMemory), NV12, width x height, 30/1.
  GstCaps* NewCaps() const;

  // A frame of the pool whose planes hold `stale` when this returns and
  // `final` once the producer's stream has run a `delay_ns` busy kernel.
  // Without a producer stream the frame is complete when this returns.
  // nullptr with `why` set on failure.
  GstBuffer* SlowFrame(Nv12Values stale, Nv12Values final, uint64_t delay_ns, std::string* why);

#if GST_CHECK_VERSION(1, 24, 0)
  // A complete frame holding `v`, in memory of this producer's context that
  // says it was written on `stream` (which may be of any context, or no
  // longer exist): what a misbehaving producer hands on.
  GstBuffer* FrameClaimingStream(GstCudaStream* stream, Nv12Values v, std::string* why);
#endif

 private:
  CudaFrameProducer() = default;
  // Writes `stale`, then (on `stream`, after a `delay_ns` busy kernel when
  // delay_ns > 0) `final` into the frame mapped in `buffer`.
  bool WritePlanes(GstBuffer* buffer, cudaStream_t stream, Nv12Values stale, Nv12Values final,
                   uint64_t delay_ns, std::string* why);

  GstCudaContext* context_ = nullptr;
#if GST_CHECK_VERSION(1, 24, 0)
  GstCudaStream* stream_ = nullptr;
#endif
  GstBufferPool* pool_ = nullptr;
  GstVideoInfo info_;
};

// Counts of one NV12 frame whose planes all hold `v`: Y, U, V, 256 bins each.
std::vector<uint32_t> ExpectedNv12Counts(int width, int height, Nv12Values v);

}  // namespace cuda_input_test
