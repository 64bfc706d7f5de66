// bench/kernels/npp_baseline.h: NPP's nppiHistogramEven, loaded at run time (dlopen of
// libnppist, where NPP's histograms live) so the benchmark builds and runs
// where NPP is absent and compares with it where it is.
#pragma once

#include <cuda_runtime_api.h>
#include <cudahist/plane_view.h>

#include <cstdint>
#include <memory>
#include <string>

namespace bench {

class NppHistogram {
 public:
  // nullptr (and `why`) when libnppist cannot be loaded.
  static std::unique_ptr<NppHistogram> Load(std::string* why);
  ~NppHistogram();

  const std::string& library() const { return library_; }

  // NPP's histograms take one planar channel (8u_C1R, 16u_C1R) or four
  // interleaved 8-bit channels (8u_C4R): views of another shape are refused
  // with `why`. Allocates the scratch buffer for these views.
  bool Prepare(const cudahist::PlaneView* planes, int num_planes, uint32_t bins, std::string* why);

  // Counts `planes` (the shape given to Prepare) into `counts` (component-
  // major ints on the device) on `stream`. Returns NPP's status (0 = success).
  int Run(const cudahist::PlaneView* planes, int num_planes, uint32_t bins, int* counts,
          cudaStream_t stream);

  struct Api;

 private:
  NppHistogram(void* core, void* statistics, std::string library, std::unique_ptr<Api> api);
  void* core_;
  void* statistics_;
  std::string library_;
  std::unique_ptr<Api> api_;
  void* buffer_ = nullptr;
  size_t buffer_bytes_ = 0;
};

}  // namespace bench
