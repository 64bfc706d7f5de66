// Small pieces every CUDA user of the plugin shares: a GstCudaContext made
// current for a scope, and a CUDA runtime or library result turned into an
// error text.
#pragma once

#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>

#include <string>

#include "cudahist/status.h"

namespace cudahistogram {

// Pushes a GstCudaContext for the lifetime of the object. GStreamer's context
// is not the runtime's primary one, and the runtime API works in whichever
// context is current on the thread.
class ScopedContext {
 public:
  explicit ScopedContext(GstCudaContext* context) : pushed_(gst_cuda_context_push(context)) {}
  ~ScopedContext() {
    if (pushed_) gst_cuda_context_pop(nullptr);
  }
  ScopedContext(const ScopedContext&) = delete;
  ScopedContext& operator=(const ScopedContext&) = delete;
  bool pushed() const { return pushed_; }

 private:
  bool pushed_;
};

constexpr char kContextPushFailed[] =
    "could not make the CUDA context current (gst_cuda_context_push failed)";

// A pool of CUDA frames in `context`. gst-cuda's pool allocates through the
// CUDA allocator that gst_cuda_memory_init_once() registers; nvcodec's plugin
// registers it when it loads, but a pipeline without nvcodec elements (a CPU
// decoder and upload=true) has no one else to do it.
inline GstBufferPool* NewCudaFramePool(GstCudaContext* context) {
  gst_cuda_memory_init_once();
  return gst_cuda_buffer_pool_new(context);
}

// True on cudaSuccess; otherwise `error` = "<what>: <error name>: <error string>".
inline bool CudaOk(cudaError_t result, const char* what, std::string* error) {
  if (result == cudaSuccess) return true;
  *error = std::string(what) + ": " + cudaGetErrorName(result) + ": " + cudaGetErrorString(result);
  return false;
}

// Frees device memory of the current context: std::unique_ptr<T, DeviceFree>.
struct DeviceFree {
  void operator()(void* device_memory) const { cudaFree(device_memory); }
};

// True when the library call succeeded; otherwise `error` = its message.
inline bool LibraryOk(const cudahist::Status& status, std::string* error) {
  if (!status.ok()) *error = status.message();
  return status.ok();
}

}  // namespace cudahistogram
