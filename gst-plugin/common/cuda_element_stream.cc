#include "common/cuda_element_stream.h"

#include "common/test_hooks.h"

namespace cudahistogram {

bool CudaElementStream::Open(GstCudaContext* context, std::string* error) {
  Close();
  ScopedContext scoped(context);
  if (!scoped.pushed()) {
    *error = kContextPushFailed;
    return false;
  }
  if (!CudaOk(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags",
              error)) {
    stream_ = nullptr;
    return false;
  }
  if (!order_.Open(context, error)) {
    cudaStreamDestroy(stream_);
    stream_ = nullptr;
    return false;
  }
  context_ = static_cast<GstCudaContext*>(gst_object_ref(context));
  return true;
}

void CudaElementStream::Close() {
  if (context_ == nullptr) return;
  {
    ScopedContext scoped(context_);
    order_.Close();
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }
  gst_object_unref(context_);
  context_ = nullptr;
}

bool CudaElementStream::FaultDue(std::string* error) {
  if (runs_until_fault_ == 0 || --runs_until_fault_ > 0) return false;
  // A null destination: the runtime refuses it as any invalid call, with a
  // non-sticky error that leaves the context usable.
  CudaOk(cudaMemsetAsync(nullptr, 0, 1, stream_), "cudaMemsetAsync", error);
  *error += " (injected by " + std::string(kCudaFaultVariable) + ")";
  return true;
}

}  // namespace cudahistogram
