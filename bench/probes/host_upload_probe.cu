// bench/probes/host_upload_probe.cu: how fast can T threads copy decoded
// frames from host memory into CUDA memory, each on its own stream in one
// shared context (what cudahist-qc -j T does with CPU-decoded files)? A
// 1080p 10-bit 4:2:2 frame (8.29 MB), copied COPIES times per thread, from
// pageable memory (what a CPU decoder hands on) and from the same memory
// page-locked with cudaHostRegister. Prints GB/s and frames/s for each, the
// median of 5 runs after a warm-up (wall clock over all threads' copies).
// Last, what page-locking one frame costs: cudaHostRegister and
// cudaHostUnregister of a fresh 8.29 MB allocation, median of 20.
//   nvcc -O3 -gencode=arch=compute_90,code=sm_90 -o probe host_upload_probe.cu -lpthread
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr size_t kFrameBytes = 1920 * 1080 * 2 * 2;  // I422_10LE: Y + U + V, 2 bytes a sample
constexpr int kCopies = 120;

bool Ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return false;
}

// One thread's copies: its own stream and device frame, `copies` uploads of
// its own host frame, each waited for (as the element waits before counting).
void Upload(unsigned char* host, int copies) {
  cudaStream_t stream;
  void* device = nullptr;
  if (!Ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream") ||
      !Ok(cudaMalloc(&device, kFrameBytes), "malloc"))
    std::exit(1);
  for (int i = 0; i < copies; ++i) {
    Ok(cudaMemcpyAsync(device, host, kFrameBytes, cudaMemcpyHostToDevice, stream), "copy");
    Ok(cudaStreamSynchronize(stream), "sync");
  }
  cudaFree(device);
  cudaStreamDestroy(stream);
}

double Run(std::vector<unsigned char*>& frames, int threads) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) workers.emplace_back(Upload, frames[t], kCopies);
  for (auto& w : workers) w.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main() {
  cudaFree(nullptr);  // the context, before anything is timed
  const int kMaxThreads = 8;
  std::vector<unsigned char*> frames(kMaxThreads);
  for (auto& f : frames) {
    f = static_cast<unsigned char*>(std::aligned_alloc(4096, kFrameBytes));
    std::memset(f, 1, kFrameBytes);
  }
  std::printf("| memory | threads | GB/s | frames/s |\n|---|---|---|---|\n");
  for (int registered = 0; registered < 2; ++registered) {
    if (registered)
      for (auto* f : frames) Ok(cudaHostRegister(f, kFrameBytes, cudaHostRegisterDefault), "register");
    for (int threads : {1, 2, 4, 8}) {
      Run(frames, threads);  // warm-up
      std::vector<double> seconds;
      for (int r = 0; r < 5; ++r) seconds.push_back(Run(frames, threads));
      std::sort(seconds.begin(), seconds.end());
      const double median = seconds[seconds.size() / 2];
      const double frames_done = double(threads) * kCopies;
      std::printf("| %s | %d | %.1f | %.0f |\n", registered ? "page-locked" : "pageable", threads,
                  frames_done * kFrameBytes / median / 1e9, frames_done / median);
    }
  }
  std::vector<double> lock_ms, unlock_ms;
  for (int i = 0; i < 20; ++i) {
    auto* f = static_cast<unsigned char*>(std::aligned_alloc(4096, kFrameBytes));
    std::memset(f, 1, kFrameBytes);
    const auto t0 = std::chrono::steady_clock::now();
    Ok(cudaHostRegister(f, kFrameBytes, cudaHostRegisterPortable), "register");
    const auto t1 = std::chrono::steady_clock::now();
    Ok(cudaHostUnregister(f), "unregister");
    const auto t2 = std::chrono::steady_clock::now();
    lock_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    unlock_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    std::free(f);
  }
  std::sort(lock_ms.begin(), lock_ms.end());
  std::sort(unlock_ms.begin(), unlock_ms.end());
  std::printf("\npage-locking one frame: cudaHostRegister %.2f ms, cudaHostUnregister %.2f ms (median of 20)\n",
              lock_ms[10], unlock_ms[10]);
  return 0;
}
