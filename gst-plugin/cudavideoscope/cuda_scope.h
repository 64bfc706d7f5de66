// cudavideoscope's CUDA state: its stream in GStreamer's CUDA context
// (ordered after each frame's producer), the column or joint histogrammer,
// and the counts in device memory, which the drawing reads where they are.
#pragma once

#include <gst/gst.h>

#include <memory>
#include <string>

#include "common/cuda_element_stream.h"
#include "cudahist/scope_render.h"
#include "cudahist/scopes.h"
#include "cudavideoscope/scope_plan.h"

namespace cudahistogram {

class CudaScope {
 public:
  CudaScope() = default;
  ~CudaScope() { Close(); }
  CudaScope(const CudaScope&) = delete;
  CudaScope& operator=(const CudaScope&) = delete;

  bool Open(GstCudaContext* context, std::string* error);
  void Close();
  bool is_open() const { return stream_.is_open(); }
  GstCudaContext* context() const { return stream_.context(); }

  // Once the producers of `frame` are done with it: counts the plan's
  // components of `views` (device pointers into `frame`), draws them into
  // `image` (device memory of this context) unless `draw` is false, and
  // waits for both on the element's stream.
  bool Render(ScopePlan* plan, GstBuffer* frame, const cudahist::PlaneView* views,
              const cudahist::ScopeImage& image, bool draw, std::string* error);

 private:
  bool EnsureCounts(const ScopePlan& plan, std::string* error);
  bool Count(const ScopePlan& plan, const cudahist::PlaneView* views, std::string* error);
  void FreeCounts();

  CudaElementStream stream_;
  std::unique_ptr<cudahist::ColumnHistogrammer> columns_;
  std::unique_ptr<cudahist::JointHistogrammer> joint_;
  uint32_t* counts_ = nullptr;  // device memory
  size_t counts_capacity_ = 0;
};

}  // namespace cudahistogram
