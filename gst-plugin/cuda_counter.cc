#include "cuda_counter.h"

#include <cuda_runtime_api.h>

#include "cuda_support.h"

namespace cudahistogram {
bool CudaCounter::Open(GstCudaContext* context, std::string* error) {
  Close();
  return stream_.Open(context, error);
}

void CudaCounter::Close() {
  if (!stream_.is_open()) return;
  {
    // The objects free device and pinned memory: their context must be current.
    ScopedContext scoped(stream_.context());
    histogrammer_.reset();
    pinned_.reset();
  }
  stream_.Close();
}

bool CudaCounter::EnsureHistogrammer(const cudahist::HistogramSpec& spec, int n,
                                     std::string* error) {
  if (histogrammer_ && histogrammer_->spec().bins == spec.bins &&
      histogrammer_->spec().algorithm == spec.algorithm && histogrammer_->num_components() == n) {
    return true;
  }
  histogrammer_.reset();
  pinned_.reset();
  return LibraryOk(cudahist::Histogrammer::Create(spec, n, &histogrammer_), error) &&
         LibraryOk(cudahist::PinnedCounts::Create(cudahist::CountsLength(spec, n), &pinned_), error);
}

bool CudaCounter::Count(const cudahist::HistogramSpec& spec, GstBuffer* frame,
                        const cudahist::PlaneView* planes, int n, const uint32_t** counts,
                        std::string* error) {
  if (!stream_.is_open()) {
    *error = "no CUDA context";
    return false;
  }
  ScopedContext scoped(stream_.context());
  if (!scoped.pushed()) {
    *error = kContextPushFailed;
    return false;
  }
  if (!EnsureHistogrammer(spec, n, error)) return false;
  if (!stream_.OrderAfterProducers(frame, error)) return false;
  if (!LibraryOk(histogrammer_->Compute(planes, n, stream_.stream(), pinned_->data()), error)) return false;
  if (!CudaOk(cudaStreamSynchronize(stream_.stream()), "cudaStreamSynchronize", error)) return false;
  *counts = pinned_->data();
  return true;
}

}  // namespace cudahistogram
