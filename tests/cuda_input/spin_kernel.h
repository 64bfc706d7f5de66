// A deliberately slow piece of producer work: a kernel that keeps the GPU
// busy on `stream` for `nanoseconds` (GPU clock) before anything queued after
// it on that stream runs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace cuda_input_test {

cudaError_t EnqueueSpin(cudaStream_t stream, uint64_t nanoseconds);

}  // namespace cuda_input_test
