// cudahist: device memory that a GPU counter owns for its whole life (host
// side), allocated in Create. Scratch kept zero between launches (an
// accumulator and its ticket) is zeroed once there and again, on the next
// launch's stream, after a launch that failed midway and may have left part
// of a frame in it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "cudahist/status.h"

namespace cudahist::detail {

class DeviceScratch {
 public:
  DeviceScratch() = default;
  ~DeviceScratch();
  DeviceScratch(const DeviceScratch&) = delete;
  DeviceScratch& operator=(const DeviceScratch&) = delete;

  // cudaMalloc of `bytes` (nothing when 0), in place of any earlier
  // allocation; `what` names it in errors. With `keep_zero`, zeroed on the
  // legacy default stream before this returns.
  Status Allocate(size_t bytes, bool keep_zero, const char* what);

  // A launch's status, passed on; a failure is remembered for RezeroIfLaunchFailed.
  Status Launched(const Status& launch);
  // Zeroes kept-zero scratch on `stream` when a launch failed since the last zeroing.
  Status RezeroIfLaunchFailed(cudaStream_t stream);

  template <class T>
  T* as() const {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
  bool keep_zero_ = false;
  bool launch_failed_ = false;
  std::string what_;
};

}  // namespace cudahist::detail
