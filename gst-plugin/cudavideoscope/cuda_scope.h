// cudavideoscope's device objects: the column or joint histogrammer and the
// counts in device memory, which the drawing reads where they are. They live
// in the element's ElementCuda (context, stream, ordering after the
// producer, the wait), so Render is called with the context current.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "common/cuda_support.h"
#include "cudahist/scope_render.h"
#include "cudahist/scopes.h"
#include "cudavideoscope/scope_plan.h"

namespace cudahistogram {

class CudaScope {
 public:
  // Enqueues the count of the plan's components of `views` (device pointers
  // of the context) and, unless `draw` is false, their drawing into `image`
  // (device memory of the context); a picture is drawn from `views` directly.
  bool Render(cudaStream_t stream, ScopePlan* plan, const cudahist::PlaneView* views,
              const cudahist::ScopeImage& image, bool draw, std::string* error);

 private:
  bool EnsureCounts(const ScopePlan& plan, std::string* error);
  bool Count(cudaStream_t stream, const ScopePlan& plan, const cudahist::PlaneView* views, std::string* error);

  std::unique_ptr<cudahist::ColumnHistogrammer> columns_;
  std::unique_ptr<cudahist::JointHistogrammer> joint_;
  std::unique_ptr<uint32_t, DeviceFree> counts_;
  size_t counts_capacity_ = 0;
};

}  // namespace cudahistogram
