// An element's CUDA work, as one sequence for every frame: GStreamer's CUDA
// context (shared with the neighbouring CUDA elements) made current, the
// element's own non-blocking stream ordered after the frame's producer
// (GStreamer 1.24+, see cuda_stream_order.h), the element's launches on that
// stream, and the wait for that stream only (never the device, never the
// producer's stream from the CPU).
//
// ElementCuda<Device> adds the element's device objects (histogrammers,
// counts): `Device` is made when the stream opens and destroyed in the
// stream's context before the stream is. cudahistogram's CudaCounter and
// cudavideoscope's CudaScope are such devices.
#pragma once

#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>

#include <cstdint>
#include <memory>
#include <string>

#include "common/cuda_stream_order.h"
#include "common/cuda_support.h"

namespace cudahistogram {

class CudaElementStream {
 public:
  CudaElementStream() = default;
  ~CudaElementStream() { Close(); }
  CudaElementStream(const CudaElementStream&) = delete;
  CudaElementStream& operator=(const CudaElementStream&) = delete;

  // Creates the stream and event in `context` (a new reference is taken).
  // Closes whatever was open before.
  bool Open(GstCudaContext* context, std::string* error);
  // Destroys the stream and event in their context. An owner frees its own
  // device memory first (in the same context).
  void Close();
  bool is_open() const { return context_ != nullptr; }
  GstCudaContext* context() const { return context_; }
  cudaStream_t stream() const { return stream_; }
  // The `frame`-th run (from 1) fails with a real CUDA error (see
  // test_hooks.h); 0 never.
  void FailRun(uint64_t frame) { runs_until_fault_ = frame; }

  // With the context current: the stream ordered after the producers of
  // `frame`, `enqueue(stream, error)`, then the wait for the stream (the
  // counts are read on the CPU next, and GStreamer 1.22's CUDA memory carries
  // no stream: a picture must be complete before its buffer is pushed).
  // False with `error` set by the step that failed.
  template <typename Enqueue>
  bool RunAfterProducers(GstBuffer* frame, Enqueue enqueue, std::string* error) {
    if (!is_open()) {
      *error = "no CUDA context";
      return false;
    }
    ScopedContext scoped(context_);
    if (!scoped.pushed()) {
      *error = kContextPushFailed;
      return false;
    }
    return order_.OrderAfterProducers(frame, stream_, error) && !FaultDue(error) && enqueue(stream_, error) &&
           CudaOk(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", error);
  }

 private:
  bool FaultDue(std::string* error);

  uint64_t runs_until_fault_ = 0;
  GstCudaContext* context_ = nullptr;
  cudaStream_t stream_ = nullptr;
  StreamOrder order_;
};

template <typename Device>
class ElementCuda {
 public:
  ~ElementCuda() { Close(); }

  // Opens the stream in `context` with a new Device; closes what was open.
  bool Open(GstCudaContext* context, std::string* error) {
    Close();
    if (!stream_.Open(context, error)) return false;
    device_ = std::make_unique<Device>();
    return true;
  }
  void Close() {
    if (!stream_.is_open()) return;
    {
      ScopedContext scoped(stream_.context());
      device_.reset();
    }
    stream_.Close();
  }
  bool is_open() const { return stream_.is_open(); }
  GstCudaContext* context() const { return stream_.context(); }
  void FailRun(uint64_t frame) { stream_.FailRun(frame); }

  // CudaElementStream::RunAfterProducers with `work(device, stream, error)`
  // as what is enqueued.
  template <typename Work>
  bool RunAfterProducers(GstBuffer* frame, Work work, std::string* error) {
    return stream_.RunAfterProducers(
        frame, [&](cudaStream_t stream, std::string* e) { return work(*device_, stream, e); }, error);
  }

 private:
  CudaElementStream stream_;
  std::unique_ptr<Device> device_;
};

}  // namespace cudahistogram
