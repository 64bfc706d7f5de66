#include "cudavideoscope/cuda_scope.h"

#include <cuda_runtime_api.h>

#include "common/cuda_support.h"

namespace cudahistogram {

bool CudaScope::Open(GstCudaContext* context, std::string* error) {
  Close();
  return stream_.Open(context, error);
}

void CudaScope::FreeCounts() {
  if (counts_ != nullptr) cudaFree(counts_);
  counts_ = nullptr;
  counts_capacity_ = 0;
}

void CudaScope::Close() {
  if (!stream_.is_open()) return;
  {
    // The histogrammers and the counts are device memory of this context.
    ScopedContext scoped(stream_.context());
    columns_.reset();
    joint_.reset();
    FreeCounts();
  }
  stream_.Close();
}

// Histogrammers are created on first use (their scratch is sized for the
// device, whatever the frame); the counts grow to the largest plan seen.
bool CudaScope::EnsureCounts(const ScopePlan& plan, std::string* error) {
  if (plan.is_vectorscope() && !joint_ && !LibraryOk(cudahist::JointHistogrammer::Create(&joint_), error)) {
    return false;
  }
  if (!plan.is_vectorscope() && !columns_ && !LibraryOk(cudahist::ColumnHistogrammer::Create(&columns_), error)) {
    return false;
  }
  if (counts_capacity_ >= plan.counts_total) return true;
  FreeCounts();
  if (!CudaOk(cudaMalloc(reinterpret_cast<void**>(&counts_), plan.counts_total * sizeof(uint32_t)),
              "cudaMalloc(scope counts)", error)) {
    counts_ = nullptr;
    return false;
  }
  counts_capacity_ = plan.counts_total;
  return true;
}

bool CudaScope::Count(const ScopePlan& plan, const cudahist::PlaneView* views, std::string* error) {
  if (plan.is_vectorscope()) {
    return LibraryOk(joint_->Compute(plan.joint, views[0], views[1], stream_.stream(), counts_), error);
  }
  // One launch per traced component, in order on the element's stream.
  for (int i = 0; i < plan.traces(); ++i) {
    if (!LibraryOk(columns_->Compute(plan.columns[i], views[i], stream_.stream(), counts_ + plan.counts_offset[i]),
                   error)) {
      return false;
    }
  }
  return true;
}

bool CudaScope::Render(ScopePlan* plan, GstBuffer* frame, const cudahist::PlaneView* views,
                       const cudahist::ScopeImage& image, bool draw, std::string* error) {
  if (!stream_.is_open()) {
    *error = "no CUDA context";
    return false;
  }
  ScopedContext scoped(stream_.context());
  if (!scoped.pushed()) {
    *error = kContextPushFailed;
    return false;
  }
  if (!EnsureCounts(*plan, error)) return false;
  if (!stream_.OrderAfterProducers(frame, error)) return false;
  if (!Count(*plan, views, error)) return false;
  SetScopeCounts(plan, counts_);
  if (draw) {
    const cudahist::Status drawn = plan->is_vectorscope()
                                       ? cudahist::DrawVectorScope(plan->vector_scope, image, stream_.stream())
                                       : cudahist::DrawColumnScope(plan->column_scope, image, stream_.stream());
    if (!LibraryOk(drawn, error)) return false;
  }
  // GStreamer 1.22's CUDA memory carries no stream: the picture must be
  // complete before the buffer is pushed.
  return CudaOk(cudaStreamSynchronize(stream_.stream()), "cudaStreamSynchronize", error);
}

}  // namespace cudahistogram
