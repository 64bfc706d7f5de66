#include "common/cuda_stream_order.h"

#include <gst/cuda/gstcudamemory.h>

#include "common/cuda_support.h"

namespace cudahistogram {

bool StreamOrder::Open(GstCudaContext* context, std::string* error) {
  Close();
  // No timing: the event only marks a point in the producer's stream.
  cudaEvent_t event = nullptr;
  if (!CudaOk(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreateWithFlags", error)) {
    return false;
  }
  event_.reset(event);
  context_ = context;
  return true;
}

void StreamOrder::Close() {
  event_.reset();
  context_ = nullptr;
}

#if GST_CHECK_VERSION(1, 24, 0)

namespace {

// The stream of `mem`'s producer when work it queued may still be pending
// (gst-cuda sets NEED_SYNC on a GST_MAP_CUDA write map of a memory with a
// stream and clears it once that stream was synchronised); nullptr otherwise.
GstCudaStream* PendingProducerStream(GstMemory* mem) {
  if (!gst_is_cuda_memory(mem) || !GST_MEMORY_FLAG_IS_SET(mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC)) {
    return nullptr;
  }
  return gst_cuda_memory_get_stream(GST_CUDA_MEMORY_CAST(mem));
}

}  // namespace

bool StreamOrder::OrderAfterProducers(GstBuffer* buffer, cudaStream_t consumer, std::string* error) {
  CUstream ordered = nullptr;  // most buffers hold one memory, or several of one stream
  for (guint i = 0; i < gst_buffer_n_memory(buffer); ++i) {
    GstCudaStream* producer = PendingProducerStream(gst_buffer_peek_memory(buffer, i));
    if (producer == nullptr) continue;
    // An event can only be recorded on a stream of its own context.
    if (gst_cuda_context_get_handle(producer->context) != gst_cuda_context_get_handle(context_)) {
      *error = "the CUDA stream the frame was written on belongs to another CUDA context than the "
               "one the frame is counted in";
      return false;
    }
    CUstream handle = gst_cuda_stream_get_handle(producer);
    if (handle == ordered) continue;
    if (!CudaOk(cudaEventRecord(event_.get(), cudaStream_t(handle)), "recording an event on the producer's CUDA stream",
                error) ||
        !CudaOk(cudaStreamWaitEvent(consumer, event_.get(), 0), "waiting for the producer's CUDA stream", error)) {
      return false;
    }
    ordered = handle;
  }
  return true;
}

#else  // GStreamer 1.22: memories carry no stream; producers finish before they push.

bool StreamOrder::OrderAfterProducers(GstBuffer*, cudaStream_t, std::string*) { return true; }

#endif

}  // namespace cudahistogram
