// cudahist: the page-locked memory behind Pinned<T> (cudahist/pinned.h).
#include <cuda_runtime_api.h>

#include <cstring>

#include "cudahist/pinned.h"
#include "launch/kernel_launch.h"

namespace cudahist::detail {

Status AllocatePinned(size_t bytes, void** out) {
  // Portable and mapped: every context may pass the pointer to a kernel.
  CUDAHIST_RETURN_IF_ERROR(
      CudaStatus(cudaHostAlloc(out, bytes, cudaHostAllocPortable | cudaHostAllocMapped), "cudaHostAlloc(counts)"));
  std::memset(*out, 0, bytes);
  return Status::Ok();
}

void FreePinned(void* data) { cudaFreeHost(data); }

}  // namespace cudahist::detail
