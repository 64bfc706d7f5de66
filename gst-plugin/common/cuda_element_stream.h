// An element's CUDA stream: one GstCudaContext (GStreamer's, shared with the
// neighbouring CUDA elements), the element's own non-blocking stream in it,
// and the event that orders that stream after a frame's producer (GStreamer
// 1.24+, see cuda_stream_order.h). cudahistogram's CudaCounter and
// cudavideoscope's CudaScope each own one.
#pragma once

#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>

#include <string>

#include "common/cuda_stream_order.h"

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
  // See StreamOrder::OrderAfterProducers; the context must be current.
  bool OrderAfterProducers(GstBuffer* frame, std::string* error) {
    return order_.OrderAfterProducers(frame, stream_, error);
  }

 private:
  GstCudaContext* context_ = nullptr;
  cudaStream_t stream_ = nullptr;
  StreamOrder order_;
};

}  // namespace cudahistogram
