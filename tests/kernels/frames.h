// tests/kernels: frames of several components, as video formats lay them out,
// built from the shared synthetic planes (tests/support/test_planes.h).
#pragma once

#include <cuda_runtime_api.h>
#include <cudahist/histogrammer.h>
#include <cudahist/plane_view.h>

#include <cstdint>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "test_planes.h"

namespace cudahist_test {

struct FrameSpec {
  std::string name;
  enum class Kind { kSingle, kInterleaved, kNv12, kYuy2, kPackedWords } kind = Kind::kSingle;
  PlaneLayout layout;      // kSingle / kInterleaved (components at offset + k * sample_size)
  int components = 1;      // kInterleaved
  uint32_t bins = 256;
  Distribution distribution = Distribution::kUniform;
  uint32_t one_value = 0;
  bool has_roi = false;    // applied to every view
  cudahist::Roi roi{};
};

// Builds the frame of `spec` (kNv12 / kYuy2 / kPackedWords use layout.width,
// height, pitch_padding and base_offset only).
Frame MakeFrame(const FrameSpec& spec, std::mt19937_64& rng);

// Whole allocation of `plane` copied into a buffer 16 bytes longer, so that a
// 16-byte chunk load near the end stays inside it; views rebased onto it.
struct PaddedCopy {
  AlignedBytes bytes;
  std::vector<cudahist::PlaneView> views;
};
PaddedCopy CopyWithSlack(const Frame& frame);

// cudaMemcpy of `bytes` from host to device that returns once they have
// landed. From pageable memory cudaMemcpy may return while its DMA is still
// on the way, and the libraries' kernels run on non-blocking streams, which
// are not ordered after it: a count could read the frame, or a poison could
// land on the counts, too late (GpuColumnMatrix's 4096-bin case failed on
// about one run in four on an H100).
cudaError_t CopyToDevice(void* device, const void* host, size_t bytes);

// Device copies of a frame's allocations (256-byte aligned, as cudaMalloc
// gives them, plus 16 bytes of slack), with the views rebased onto them so
// that every base offset keeps its alignment.
class DeviceFrame {
 public:
  DeviceFrame() = default;
  DeviceFrame(const DeviceFrame&) = delete;
  DeviceFrame& operator=(const DeviceFrame&) = delete;
  ~DeviceFrame();
  cudaError_t Upload(const Frame& frame) { return Upload(frame.planes, frame.views, 16); }
  // Any frame's allocations and the views into them (a YuvFrame's y, u, v),
  // each allocation `slack` bytes longer on the device.
  cudaError_t Upload(const std::vector<HostPlane>& planes, const std::vector<cudahist::PlaneView>& views,
                     size_t slack);
  const std::vector<cudahist::PlaneView>& views() const { return views_; }

 private:
  std::vector<void*> buffers_;
  std::vector<cudahist::PlaneView> views_;
};

// `n` counts in device memory and `n` in pinned host memory, poisoned
// (kPoison) before a launch, on a non-blocking stream of their own: where a
// kernel test's launches write, and what they left.
class PoisonedCounts {
 public:
  explicit PoisonedCounts(size_t n);
  ~PoisonedCounts();
  PoisonedCounts(const PoisonedCounts&) = delete;
  PoisonedCounts& operator=(const PoisonedCounts&) = delete;
  bool ok() const { return stream_ != nullptr && device_ != nullptr && pinned_ != nullptr; }
  // The pinned or the device counts, every word kPoison.
  uint32_t* Poisoned(bool pinned);
  // After the stream's work: the counts as the kernel left them.
  std::vector<uint32_t> Read(bool pinned);
  cudaStream_t stream() const { return stream_; }

 private:
  size_t n_;
  cudaStream_t stream_ = nullptr;
  uint32_t* device_ = nullptr;
  std::unique_ptr<cudahist::Pinned<uint32_t>> pinned_;
};

}  // namespace cudahist_test

namespace cudahist_test {

// Frames up to 333 x 77 that exercise every layout and edge of the walk:
// sizes 1x1, 1x7, 17x3, 333x77; base offsets 0 to 15; pitch padding;
// 8, 10 (P010), 12 and 16-bit samples; pixel strides 1 to 4 with offsets;
// interleaved and multi-plane components; ROI inside, on the edges, empty;
// bins 1, 2, 7, 64, 256, 1000, 1024, 4096, 65536; all three distributions.
std::vector<FrameSpec> CoverageFrames();

// Human-readable one-liner for SCOPED_TRACE (and gtest's parameter printing).
std::string Describe(const FrameSpec& spec);
inline void PrintTo(const FrameSpec& spec, std::ostream* os) { *os << Describe(spec); }

// Full HD and 4K frames: every bin count the issue names, and one value
// everywhere so that a bin passes 2^16 (RGBA: four components at once).
std::vector<FrameSpec> LargeFrames();

}  // namespace cudahist_test
