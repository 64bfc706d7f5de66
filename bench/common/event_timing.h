// bench/common/event_timing.h: timing launches on a stream with CUDA events (warm-up
// passes, then the median of repeats, or the replays of a CUDA graph), shared
// by the benchmarks so that all time the same way.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "bench_stats.h"

namespace bench {

constexpr int kWarmupPasses = 3;
// A method whose warm-up shows it would take longer than this for all its
// repeats gets fewer (at least kMinRepeats), so one pathological baseline
// cannot blow the run's time budget; the row records its repeat count.
constexpr double kMaxSecondsPerMethod = 3.0;
constexpr int kMinRepeats = 5;

using Launch = std::function<std::string(int frame)>;  // "" on success

// What a Launch returns for a CUDA call's result.
inline std::string ErrorText(cudaError_t e) { return e == cudaSuccess ? std::string() : cudaGetErrorString(e); }

struct Timing {
  std::string error;
  double microseconds = 0;  // median per frame
  int repeats = 0;
};

// Times passes of `launch` over frames 0..frames-1 with events; a pass counts
// `frames_per_launch` frames per launch (a graph of the whole rotation).
inline Timing TimePasses(const Launch& launch, int launches, int frames_per_pass, int repeats, cudaStream_t stream) {
  Timing t;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  auto pass = [&](float* ms) -> std::string {
    if (cudaEventRecord(start, stream) != cudaSuccess) return "cudaEventRecord failed";
    for (int i = 0; i < launches; ++i) {
      std::string err = launch(i);
      if (!err.empty()) return err;
    }
    cudaEventRecord(stop, stream);
    const cudaError_t e = cudaEventSynchronize(stop);
    if (e != cudaSuccess) return std::string("after the pass: ") + cudaGetErrorString(e);
    cudaEventElapsedTime(ms, start, stop);
    return "";
  };
  float ms = 0;
  double warm_ms = 0;
  for (int w = 0; w < kWarmupPasses && t.error.empty(); ++w) {
    t.error = pass(&ms);
    warm_ms = ms;
  }
  if (warm_ms * repeats > kMaxSecondsPerMethod * 1e3) {
    repeats = std::max(kMinRepeats, int(kMaxSecondsPerMethod * 1e3 / std::max(warm_ms, 1e-3)));
  }
  std::vector<double> per_frame_us;
  for (int r = 0; r < repeats && t.error.empty(); ++r) {
    t.error = pass(&ms);
    per_frame_us.push_back(double(ms) * 1e3 / frames_per_pass);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  t.microseconds = Median(per_frame_us);
  t.repeats = int(per_frame_us.size());
  return t;
}

// Captures one pass over all frames into a CUDA graph and times its replays.
inline Timing TimeGraph(const Launch& launch, int frames, int repeats, cudaStream_t stream) {
  Timing t;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
    t.error = "cudaStreamBeginCapture failed";
    return t;
  }
  std::string err;
  for (int f = 0; f < frames && err.empty(); ++f) err = launch(f);
  const cudaError_t end = cudaStreamEndCapture(stream, &graph);
  if (err.empty() && end != cudaSuccess) err = std::string("capture: ") + cudaGetErrorString(end);
  if (err.empty() && cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) err = "cudaGraphInstantiate failed";
  if (err.empty()) {
    t = TimePasses([&](int) { return ErrorText(cudaGraphLaunch(exec, stream)); }, 1, frames, repeats, stream);
  } else {
    t.error = err;
  }
  cudaGetLastError();  // a failed capture leaves a sticky-free error behind
  if (exec != nullptr) cudaGraphExecDestroy(exec);
  if (graph != nullptr) cudaGraphDestroy(graph);
  return t;
}

}  // namespace bench
