#include "spin_kernel.h"

namespace cuda_input_test {
namespace {

__device__ uint64_t GlobalTimerNs() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void Spin(uint64_t nanoseconds) {
  const uint64_t start = GlobalTimerNs();
  while (GlobalTimerNs() - start < nanoseconds) __nanosleep(1000);
}

}  // namespace

cudaError_t EnqueueSpin(cudaStream_t stream, uint64_t nanoseconds) {
  Spin<<<1, 1, 0, stream>>>(nanoseconds);
  return cudaGetLastError();
}

}  // namespace cuda_input_test
