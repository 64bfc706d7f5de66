// bench/probes/cuda_start_probe.cu: what CUDA's start costs a process before
// it can count its first frame on the GPU, the part of a short file's time
// that decoding on the CPU does not pay. Prints, in milliseconds since main:
//   cuInit          the driver opens the GPUs (what cudahist-qc's backend probe pays)
//   context         cuCtxCreate with no flags, as gst_cuda_context_new makes it
//   first kernel    a launch and its wait: the module is loaded on first use
//   first copy      an 8.29 MB host-to-device copy (one 1080p 10-bit 4:2:2 frame)
// Run it as a fresh process several times in a row: the driver keeps little
// between processes unless the GPU is in persistence mode (nvidia-smi -q).
//   nvcc -O3 -gencode=arch=compute_90,code=sm_90 -o probe cuda_start_probe.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kFrameBytes = 1920 * 1080 * 2 * 2;  // I422_10LE: Y + U + V, 2 bytes a sample

__global__ void Touch(int* value) { *value += 1; }

void Check(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return;
  const char* text = nullptr;
  cuGetErrorString(result, &text);
  std::fprintf(stderr, "%s: %s\n", what, text ? text : "unknown error");
  std::exit(1);
}

void Check(cudaError_t result, const char* what) {
  if (result == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(result));
  std::exit(1);
}

}  // namespace

int main() {
  const Clock::time_point start = Clock::now();
  auto since_start = [&] { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); };

  Check(cuInit(0), "cuInit");
  const double init = since_start();

  CUdevice device;
  CUcontext context;
  Check(cuDeviceGet(&device, 0), "cuDeviceGet");
  Check(cuCtxCreate(&context, nullptr, 0, device), "cuCtxCreate");
  const double created = since_start();

  int* value = nullptr;
  Check(cudaMalloc(&value, sizeof *value), "cudaMalloc");
  Touch<<<1, 1>>>(value);
  Check(cudaDeviceSynchronize(), "first kernel");
  const double kernel = since_start();

  std::vector<unsigned char> host(kFrameBytes, 1);
  void* frame = nullptr;
  Check(cudaMalloc(&frame, kFrameBytes), "cudaMalloc (frame)");
  const double before_copy = since_start();
  Check(cudaMemcpy(frame, host.data(), kFrameBytes, cudaMemcpyHostToDevice), "first copy");
  const double copied = since_start();

  std::printf("cuInit %.1f ms, context %.1f ms, first kernel %.1f ms, first copy %.1f ms (total %.1f ms)\n", init,
              created - init, kernel - created, copied - before_copy, copied);
  cudaFree(frame);
  cudaFree(value);
  cuCtxDestroy(context);
  return 0;
}
