// An application of the installed cudahist library, built outside the source
// tree with nothing but `pkg-config --cflags --libs cudahist`: it counts one
// 1080p NV12 frame in host memory on the CPU backend and asks for a GPU
// Histogrammer. Built where the CUDA toolkit's <cuda_runtime_api.h> is on
// the include path (and the application links its own CUDA runtime, as any
// CUDA application does), it also counts the frame on the GPU.
//
// The frame is made so that its histograms are known without counting:
//   Y(x, y) = x % 256        1920 columns: values 0-127 appear 8 times a row, 128-255 7 times
//   U(x, y) = y % 256        540 rows: values 0-27 appear in 3 rows, 28-255 in 2; 960 a row
//   V(x, y) = 255 - U(x, y)
// and each row's padding up to its pitch holds bytes that must not be counted.
//
// Prints one line per backend; exits 1 when a count differs from those, 0
// otherwise (no CUDA device is not an error: the line says so).
#include <cudahist/cudahist.h>

#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#define COUNT_FRAME_WITH_CUDA 1
#endif

#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

constexpr uint32_t kWidth = 1920, kHeight = 1080, kBins = 256;
constexpr size_t kPitch = 2048;  // 128 bytes of padding a row
constexpr uint8_t kPadding = 0xAB;

struct Frame {
  std::vector<uint8_t> luma = std::vector<uint8_t>(kPitch * kHeight, kPadding);
  std::vector<uint8_t> chroma = std::vector<uint8_t>(kPitch * kHeight / 2, kPadding);

  Frame() {
    for (uint32_t y = 0; y < kHeight; ++y)
      for (uint32_t x = 0; x < kWidth; ++x) luma[y * kPitch + x] = uint8_t(x % 256);
    for (uint32_t y = 0; y < kHeight / 2; ++y)
      for (uint32_t x = 0; x < kWidth / 2; ++x) {
        chroma[y * kPitch + 2 * x] = uint8_t(y % 256);
        chroma[y * kPitch + 2 * x + 1] = uint8_t(255 - y % 256);
      }
  }
};

// Y, U and V of an NV12 frame whose planes start at `luma` and `chroma`.
void DescribeNv12(const void* luma, const void* chroma, cudahist::PlaneView views[3]) {
  views[0].data = luma;
  views[0].width = kWidth;
  views[0].height = kHeight;
  views[0].pitch = kPitch;
  for (int c = 1; c < 3; ++c) {
    views[c].data = chroma;
    views[c].width = kWidth / 2;
    views[c].height = kHeight / 2;
    views[c].pitch = kPitch;
    views[c].pixel_stride = 2;
    views[c].offset = uint32_t(c - 1);
  }
}

// The counts the frame's construction implies (see the top of the file).
std::vector<uint32_t> ExpectedCounts() {
  std::vector<uint32_t> counts(3 * kBins);
  for (uint32_t v = 0; v < kBins; ++v) {
    counts[v] = (v < 128 ? 8 : 7) * kHeight;
    counts[kBins + v] = (v < 28 ? 3 : 2) * (kWidth / 2);
    counts[2 * kBins + (255 - v)] = counts[kBins + v];
  }
  return counts;
}

int Report(const char* backend, const std::vector<uint32_t>& counts) {
  const std::vector<uint32_t> expected = ExpectedCounts();
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] != expected[i]) {
      std::printf("%s: component %zu bin %zu holds %u, expected %u\n", backend, i / kBins, i % kBins,
                  counts[i], expected[i]);
      return 1;
    }
  }
  std::printf("%s: %ux%u NV12 counted, Y U V equal the expected counts\n", backend, kWidth, kHeight);
  return 0;
}

int CountOnCpu(const Frame& frame) {
  cudahist::PlaneView views[3];
  DescribeNv12(frame.luma.data(), frame.chroma.data(), views);
  cudahist::CpuHistogrammer histogrammer(kBins);
  std::vector<uint32_t> counts(3 * kBins);
  const cudahist::Status status = histogrammer.Compute(views, 3, counts.data());
  if (!status.ok()) {
    std::printf("cpu: %s\n", status.message().c_str());
    return 1;
  }
  return Report("cpu", counts);
}

#ifdef COUNT_FRAME_WITH_CUDA
int Fail(const char* what, cudaError_t error) {
  std::printf("gpu: %s: %s\n", what, cudaGetErrorString(error));
  return 1;
}

int CountOnGpu(const Frame& frame, cudahist::Histogrammer* histogrammer) {
  void *luma = nullptr, *chroma = nullptr;
  uint32_t* counts = nullptr;
  cudaError_t e = cudaMalloc(&luma, frame.luma.size());
  if (e == cudaSuccess) e = cudaMalloc(&chroma, frame.chroma.size());
  if (e == cudaSuccess) e = cudaMalloc(reinterpret_cast<void**>(&counts), 3 * kBins * sizeof(uint32_t));
  if (e != cudaSuccess) return Fail("cudaMalloc", e);
  cudaStream_t stream = nullptr;
  if ((e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) != cudaSuccess)
    return Fail("cudaStreamCreate", e);
  // On the counting stream, so that the count comes after the copies (a
  // plain cudaMemcpy is not ordered with a non-blocking stream).
  cudaMemcpyAsync(luma, frame.luma.data(), frame.luma.size(), cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(chroma, frame.chroma.data(), frame.chroma.size(), cudaMemcpyHostToDevice, stream);

  cudahist::PlaneView views[3];
  DescribeNv12(luma, chroma, views);
  const cudahist::Status status = histogrammer->Compute(views, 3, stream, counts);
  std::vector<uint32_t> host(3 * kBins);
  e = cudaStreamSynchronize(stream);
  if (e == cudaSuccess) e = cudaMemcpy(host.data(), counts, host.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  cudaStreamDestroy(stream);
  cudaFree(counts);
  cudaFree(chroma);
  cudaFree(luma);
  if (!status.ok()) {
    std::printf("gpu: %s\n", status.message().c_str());
    return 1;
  }
  if (e != cudaSuccess) return Fail("counting", e);
  return Report("gpu", host);
}
#endif

}  // namespace

int main() {
  const Frame frame;
  int failed = CountOnCpu(frame);

  std::unique_ptr<cudahist::Histogrammer> histogrammer;
  const cudahist::Status created = cudahist::Histogrammer::Create(cudahist::HistogramSpec{}, 3, &histogrammer);
  if (created.code() == cudahist::StatusCode::kNoDevice) {
    std::printf("gpu: none here (%s)\n", created.message().c_str());
  } else if (!created.ok()) {
    std::printf("gpu: Histogrammer::Create: %s\n", created.message().c_str());
    failed = 1;
  } else {
#ifdef COUNT_FRAME_WITH_CUDA
    failed |= CountOnGpu(frame, histogrammer.get());
#else
    std::printf("gpu: Histogrammer created; built without <cuda_runtime_api.h>, so no device frame to count\n");
#endif
  }
  return failed;
}
