// bench/probes/shared_atomics_probe.cu: what limits 8-bit counting? The same
// 16-byte walk over 1 GiB of random bytes with three per-byte operations:
// a shared reduction into 32 lane copies (what the privatized kernel does),
// a plain shared store, and no shared access. On an H200 all three ran at
// the read roofline (docs/tuning.md, Histogram: the probe).
//   nvcc -O3 -gencode=arch=compute_90,code=sm_90 -o probe shared_atomics_probe.cu
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>
template <int kOp, int kLoads>
__global__ void Walk(const uint4* __restrict__ in, size_t n16, unsigned* out) {
  __shared__ unsigned copies[256 * 32];
  for (int i = threadIdx.x; i < 256 * 32; i += blockDim.x) copies[i] = 0;
  __syncthreads();
  const unsigned base = (unsigned)__cvta_generic_to_shared(copies) + (threadIdx.x & 31) * 4;
  unsigned acc = 0;
  const size_t stride = (size_t)gridDim.x * blockDim.x * kLoads;
  for (size_t i = (size_t)blockIdx.x * blockDim.x * kLoads + threadIdx.x; i < n16; i += stride) {
    uint4 v[kLoads];
#pragma unroll
    for (int l = 0; l < kLoads; ++l) { size_t j = i + (size_t)l * blockDim.x; v[l] = j < n16 ? __ldg(in + j) : make_uint4(0,0,0,0); }
#pragma unroll
    for (int l = 0; l < kLoads; ++l) {
      unsigned w[4] = {v[l].x, v[l].y, v[l].z, v[l].w};
#pragma unroll
      for (int k = 0; k < 4; ++k)
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          unsigned addr = base + (__byte_perm(w[k], 0, 0x4440 | b) << 7);
          if (kOp == 0) asm volatile("red.shared.add.u32 [%0], 1;" :: "r"(addr) : "memory");
          else if (kOp == 1) asm volatile("st.shared.u32 [%0], %1;" :: "r"(addr), "r"(w[k]) : "memory");
          else acc ^= addr;
        }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(out, copies[blockIdx.x & 255] + acc);
}
template <int kOp, int kLoads>
float Time(const uint4* d, size_t n16, unsigned* out, int threads) {
  auto k = Walk<kOp, kLoads>;
  int per_sm = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, 0);
  int grid = per_sm * 132;
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < 12; ++r) { cudaEventRecord(a); k<<<grid, threads>>>(d, n16, out); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); if (r >= 2) t.push_back(ms); }
  std::sort(t.begin(), t.end());
  printf("op %-6s loads %d threads %4d blocks/SM %d: %.1f us  %.0f GB/s\n", kOp==0?"atom":kOp==1?"store":"none", kLoads, threads, per_sm, t[t.size()/2]*1e3, n16*16/(t[t.size()/2]*1e-3)/1e9);
  return t[t.size()/2];
}
__global__ void Fill(uint32_t* p, size_t n) { for (size_t i = blockIdx.x*(size_t)blockDim.x+threadIdx.x; i < n; i += (size_t)gridDim.x*blockDim.x) { uint32_t x = (uint32_t)i * 2654435761u; x ^= x >> 13; x *= 0x5bd1e995; x ^= x >> 15; p[i] = x; } }
int main() {
  size_t bytes = 1ull << 30; uint4* d; unsigned* out; cudaMalloc(&d, bytes); cudaMalloc(&out, 4);
  Fill<<<1024, 256>>>((uint32_t*)d, bytes / 4); cudaDeviceSynchronize();
  size_t n16 = bytes / 16;
  for (int th : {1024, 512, 256}) { Time<0,2>(d,n16,out,th); Time<0,4>(d,n16,out,th); Time<1,4>(d,n16,out,th); Time<2,4>(d,n16,out,th); }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
