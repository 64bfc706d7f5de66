// Ordering a consumer's CUDA work after the producer of a CUDA frame.
//
// From GStreamer 1.24 a GstCudaMemory carries the CUDA stream its producer
// (nvh264dec, cudaupload, cudaconvert, an application's pool) wrote it on,
// and a GST_MAP_CUDA map no longer waits for that work: a kernel launched on
// another stream right after the map can read a half-written frame. The
// producer's pending work shows as GST_CUDA_MEMORY_TRANSFER_NEED_SYNC on the
// memory. StreamOrder records an event on the producer's stream and makes the
// consumer's stream wait for it: the order is kept on the GPU and the
// streaming thread never blocks on the producer. (gst_cuda_memory_sync would
// block the thread until the producer's stream drains, later work of the
// producer included; it is not used.)
//
// GStreamer 1.22 memories carry no stream (its producers finish their work
// before they push), so there this is a no-op and the plain path stays.
#pragma once

#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>

#include <memory>
#include <string>

namespace cudahistogram {

class StreamOrder {
 public:
  // Creates the event in `context`, which must be current on this thread.
  bool Open(GstCudaContext* context, std::string* error);
  // Destroys the event; `context` of Open must be current.
  void Close();

  // Makes `consumer` (a stream of the Open context, current on this thread)
  // wait on the GPU for the pending work of every producer stream among the
  // CUDA memories of `buffer`. False, with `error` naming the cause, when a
  // producer's stream belongs to another CUDA context than the consumer's or
  // CUDA refuses the event (a destroyed stream): counting then would read a
  // frame that may not be written yet.
  bool OrderAfterProducers(GstBuffer* buffer, cudaStream_t consumer, std::string* error);

 private:
  struct EventDestroy {
    void operator()(cudaEvent_t event) const { cudaEventDestroy(event); }
  };

  GstCudaContext* context_ = nullptr;  // not owned: the CudaElementStream's
  // Destroyed by Close, with the context current (the owner closes before it goes).
  std::unique_ptr<CUevent_st, EventDestroy> event_;
};

}  // namespace cudahistogram
