#include "cudavideoscope/cuda_scope.h"

#include "common/cuda_support.h"

namespace cudahistogram {

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
  counts_.reset();
  counts_capacity_ = 0;
  uint32_t* counts = nullptr;
  if (!CudaOk(cudaMalloc(reinterpret_cast<void**>(&counts), plan.counts_total * sizeof(uint32_t)),
              "cudaMalloc(scope counts)", error)) {
    return false;
  }
  counts_.reset(counts);
  counts_capacity_ = plan.counts_total;
  return true;
}

bool CudaScope::Count(cudaStream_t stream, const ScopePlan& plan, const cudahist::PlaneView* views,
                      std::string* error) {
  if (plan.is_vectorscope()) {
    return LibraryOk(joint_->Compute(plan.joint, views[0], views[1], stream, counts_.get()), error);
  }
  // One launch per traced component, in order on the element's stream.
  for (int i = 0; i < plan.traces(); ++i) {
    if (!LibraryOk(columns_->Compute(plan.columns[i], views[i], stream, counts_.get() + plan.counts_offset[i]), error)) {
      return false;
    }
  }
  return true;
}

bool CudaScope::Render(cudaStream_t stream, ScopePlan* plan, const cudahist::PlaneView* views,
                       const cudahist::ScopeImage& image, bool draw, std::string* error) {
  if (plan->is_picture()) {
    SetPictureFrame(plan, views);
    return !draw || LibraryOk(cudahist::DrawPicture(plan->picture, image, stream), error);
  }
  if (!EnsureCounts(*plan, error) || !Count(stream, *plan, views, error)) return false;
  SetScopeCounts(plan, counts_.get());
  if (!draw) return true;
  return LibraryOk(plan->is_vectorscope() ? cudahist::DrawVectorScope(plan->vector_scope, image, stream)
                                          : cudahist::DrawColumnScope(plan->column_scope, image, stream),
                   error);
}

}  // namespace cudahistogram
