#include "launch/device_scratch.h"

#include "launch/kernel_launch.h"

namespace cudahist::detail {

DeviceScratch::~DeviceScratch() {
  if (data_ != nullptr) cudaFree(data_);
}

Status DeviceScratch::Allocate(size_t bytes, bool keep_zero, const char* what) {
  if (data_ != nullptr) {  // cudaFree waits for the device: no launch still uses it
    cudaFree(data_);
    data_ = nullptr;
  }
  bytes_ = bytes;
  keep_zero_ = keep_zero;
  launch_failed_ = false;
  what_ = what;
  if (bytes == 0) return Status::Ok();
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaMalloc(&data_, bytes), ("cudaMalloc(" + what_ + ")").c_str()));
  if (!keep_zero) return Status::Ok();
  CUDAHIST_RETURN_IF_ERROR(
      CudaStatus(cudaMemsetAsync(data_, 0, bytes, nullptr), ("cudaMemsetAsync(" + what_ + ")").c_str()));
  return CudaStatus(cudaStreamSynchronize(nullptr), ("cudaStreamSynchronize(" + what_ + " zeroing)").c_str());
}

Status DeviceScratch::Launched(const Status& launch) {
  if (!launch.ok()) launch_failed_ = true;
  return launch;
}

Status DeviceScratch::RezeroIfLaunchFailed(cudaStream_t stream) {
  if (!launch_failed_ || !keep_zero_ || data_ == nullptr) return Status::Ok();
  CUDAHIST_RETURN_IF_ERROR(
      CudaStatus(cudaMemsetAsync(data_, 0, bytes_, stream), ("cudaMemsetAsync(" + what_ + ")").c_str()));
  launch_failed_ = false;
  return Status::Ok();
}

}  // namespace cudahist::detail
