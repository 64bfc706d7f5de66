// bench/probes/cuda_start_probe.cu: what CUDA's start costs a process before
// it can count its first frame on the GPU, the part of a short file's time
// that decoding on the CPU does not pay. Prints, in milliseconds since the
// measuring process began:
//   cuInit          the driver opens the GPUs (what cudahist-qc's backend probe pays)
//   context         cuCtxCreate with no flags, as gst_cuda_context_new makes it
//   first kernel    a launch and its wait: the module is loaded on first use
//   first copy      an 8.29 MB host-to-device copy (one 1080p 10-bit 4:2:2 frame)
// and what CUDA's end costs: from the end of main to the process's exit as
// its parent sees it, twice: with the context still alive at the end of main
// (as cudahist-qc leaves its shared one), and after cuCtxDestroy (timed too).
// Each measuring process is a child of this one.
// Run it as a fresh process several times in a row: the driver keeps little
// between processes unless the GPU is in persistence mode (nvidia-smi -q).
//   nvcc -O3 -gencode=arch=compute_90,code=sm_90 -o probe cuda_start_probe.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <sys/wait.h>
#include <unistd.h>

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

// Everything up to the first copy, as in a process that counts one frame;
// prints the times, then destroys the context when asked (timed).
void StartCuda(bool destroy_context) {
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

  std::printf("cuInit %.1f ms, context %.1f ms, first kernel %.1f ms, first copy %.1f ms (total %.1f ms)", init,
              created - init, kernel - created, copied - before_copy, copied);
  if (destroy_context) {
    const double before_destroy = since_start();
    cudaFree(frame);
    cudaFree(value);
    Check(cuCtxDestroy(context), "cuCtxDestroy");
    std::printf(", cuCtxDestroy %.1f ms", since_start() - before_destroy);
  }
}

// Runs StartCuda in a child process; returns the milliseconds from the end of
// the child's main (it sends the time through a pipe) to its exit as seen here.
double ExitOfChild(bool destroy_context) {
  int ends[2];
  if (pipe(ends) != 0) std::exit(1);
  std::fflush(stdout);
  const pid_t child = fork();
  if (child < 0) std::exit(1);
  if (child == 0) {
    close(ends[0]);
    StartCuda(destroy_context);
    std::fflush(stdout);
    const Clock::rep end_of_main = Clock::now().time_since_epoch().count();
    if (write(ends[1], &end_of_main, sizeof end_of_main) != sizeof end_of_main) std::exit(1);
    std::exit(0);  // as returning from main: the atexit handlers, then the kernel closes the driver's files
  }
  close(ends[1]);
  Clock::rep end_of_main = 0;
  const bool told = read(ends[0], &end_of_main, sizeof end_of_main) == sizeof end_of_main;
  int status = 0;
  waitpid(child, &status, 0);
  const Clock::rep exited = Clock::now().time_since_epoch().count();
  close(ends[0]);
  if (!told || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "the measuring child failed\n");
    std::exit(1);
  }
  return std::chrono::duration<double, std::milli>(Clock::duration(exited - end_of_main)).count();
}

}  // namespace

int main() {
  const double alive = ExitOfChild(false);
  std::printf("; exit with the context alive %.1f ms\n", alive);
  const double destroyed = ExitOfChild(true);
  std::printf("; exit after it %.1f ms\n", destroyed);
  return 0;
}
