#include "frames.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

namespace cudahist_test {
namespace {

PlaneLayout Bytes(uint32_t width, uint32_t height, uint32_t stride, const PlaneLayout& like) {
  return PlaneLayout{width, height, stride, /*offset=*/0, /*sample_size=*/1, /*shift=*/0, /*depth=*/8,
                     like.pitch_padding, like.base_offset};
}

// NV12: a W x H luma plane and a (W+1)/2 x (H+1)/2 plane of interleaved U, V.
void AddNv12(const FrameSpec& spec, std::mt19937_64& rng, Frame& frame) {
  const PlaneLayout& l = spec.layout;
  frame.planes.push_back(MakePlane(Bytes(l.width, l.height, 1, l), spec.distribution, rng, spec.one_value));
  frame.planes.push_back(MakeInterleavedPlane(Bytes((l.width + 1) / 2, (l.height + 1) / 2, 2, l), 2,
                                              spec.distribution, rng, spec.one_value));
  frame.views.push_back(frame.planes[0].view);
  for (const cudahist::PlaneView& v : ComponentViews(frame.planes[1], 2)) frame.views.push_back(v);
}

// YUY2: one plane of 2W bytes per row; Y every 2 bytes, U at 1 and V at 3 of every 4.
void AddYuy2(const FrameSpec& spec, std::mt19937_64& rng, Frame& frame) {
  const PlaneLayout& l = spec.layout;
  const uint32_t pairs = (l.width + 1) / 2;
  frame.planes.push_back(MakePlane(Bytes(4 * pairs, l.height, 1, l), spec.distribution, rng, spec.one_value));
  cudahist::PlaneView y = frame.planes[0].view;
  y.width = 2 * pairs;
  y.pixel_stride = 2;
  cudahist::PlaneView u = y;
  u.width = pairs;
  u.pixel_stride = 4;
  u.offset = 1;
  cudahist::PlaneView v = u;
  v.offset = 3;
  frame.views = {y, u, v};
}

// RGB10A2-like: 32-bit words, three 10-bit components at shifts 0, 10, 20.
void AddPackedWords(const FrameSpec& spec, std::mt19937_64& rng, Frame& frame) {
  PlaneLayout l = spec.layout;
  l.pixel_stride = 4;
  l.offset = 0;
  l.sample_size = 4;
  l.shift = 20;
  l.depth = 10;
  frame.planes.push_back(MakePlane(l, spec.distribution, rng, spec.one_value));
  for (uint32_t shift : {0u, 10u, 20u}) {
    cudahist::PlaneView v = frame.planes[0].view;
    v.shift = shift;
    frame.views.push_back(v);
  }
}

}  // namespace

Frame MakeFrame(const FrameSpec& spec, std::mt19937_64& rng) {
  Frame frame;
  switch (spec.kind) {
    case FrameSpec::Kind::kSingle:
      frame.planes.push_back(MakePlane(spec.layout, spec.distribution, rng, spec.one_value));
      frame.views.push_back(frame.planes[0].view);
      break;
    case FrameSpec::Kind::kInterleaved:
      frame.planes.push_back(
          MakeInterleavedPlane(spec.layout, spec.components, spec.distribution, rng, spec.one_value));
      frame.views = ComponentViews(frame.planes[0], spec.components);
      break;
    case FrameSpec::Kind::kNv12:
      AddNv12(spec, rng, frame);
      break;
    case FrameSpec::Kind::kYuy2:
      AddYuy2(spec, rng, frame);
      break;
    case FrameSpec::Kind::kPackedWords:
      AddPackedWords(spec, rng, frame);
      break;
  }
  if (spec.has_roi) RestrictToRoi(frame, spec.roi);
  return frame;
}

cudaError_t CopyToDevice(void* device, const void* host, size_t bytes) {
  const cudaError_t e = cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice);
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

DeviceFrame::~DeviceFrame() {
  for (void* p : buffers_) cudaFree(p);
}

cudaError_t DeviceFrame::Upload(const std::vector<HostPlane>& planes,
                                const std::vector<cudahist::PlaneView>& views, size_t slack) {
  for (const HostPlane& p : planes) {
    void* d = nullptr;
    cudaError_t e = cudaMalloc(&d, p.storage.size() + slack);
    if (e != cudaSuccess) return e;
    buffers_.push_back(d);
    e = CopyToDevice(d, p.storage.data(), p.storage.size());
    if (e != cudaSuccess) return e;
  }
  for (const cudahist::PlaneView& v : views) {
    const ViewAnchor a = AnchorOf(planes, v);
    cudahist::PlaneView d = v;
    d.data = static_cast<const uint8_t*>(buffers_[a.plane]) + a.offset;
    views_.push_back(d);
  }
  return cudaSuccess;
}

PoisonedCounts::PoisonedCounts(size_t n) : n_(n) {
  cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
  cudaMalloc(reinterpret_cast<void**>(&device_), n * sizeof(uint32_t));
  cudahist::Pinned<uint32_t>::Create(n, &pinned_);
}

PoisonedCounts::~PoisonedCounts() {
  cudaFree(device_);
  cudaStreamDestroy(stream_);
}

uint32_t* PoisonedCounts::Poisoned(bool pinned) {
  std::vector<uint32_t> poison(n_, kPoison);
  if (pinned) {
    std::copy(poison.begin(), poison.end(), pinned_->data());
    return pinned_->data();
  }
  EXPECT_EQ(CopyToDevice(device_, poison.data(), n_ * sizeof(uint32_t)), cudaSuccess);
  return device_;
}

std::vector<uint32_t> PoisonedCounts::Read(bool pinned) {
  EXPECT_EQ(cudaStreamSynchronize(stream_), cudaSuccess) << cudaGetErrorString(cudaGetLastError());
  std::vector<uint32_t> counts(n_);
  if (pinned) {
    std::copy(pinned_->data(), pinned_->data() + n_, counts.begin());
  } else {
    EXPECT_EQ(cudaMemcpy(counts.data(), device_, n_ * sizeof(uint32_t), cudaMemcpyDeviceToHost), cudaSuccess);
  }
  return counts;
}

PaddedCopy CopyWithSlack(const Frame& frame) {
  std::vector<size_t> starts;
  size_t total = 0;
  for (const HostPlane& p : frame.planes) {
    starts.push_back(total);
    total += (p.storage.size() + 16 + kAllocationAlignment - 1) / kAllocationAlignment * kAllocationAlignment;
  }
  PaddedCopy copy;
  copy.bytes.assign(total, 0);
  for (size_t i = 0; i < frame.planes.size(); ++i) {
    std::copy(frame.planes[i].storage.begin(), frame.planes[i].storage.end(), copy.bytes.begin() + starts[i]);
  }
  for (const cudahist::PlaneView& v : frame.views) {
    const ViewAnchor a = AnchorOf(frame.planes, v);
    cudahist::PlaneView rebased = v;
    rebased.data = copy.bytes.data() + starts[a.plane] + a.offset;
    copy.views.push_back(rebased);
  }
  return copy;
}

}  // namespace cudahist_test

namespace cudahist_test {
namespace {

FrameSpec Gray8(uint32_t w, uint32_t h, uint32_t bins, size_t base_offset, size_t padding) {
  FrameSpec s;
  s.name = "gray8";
  s.layout.width = w;
  s.layout.height = h;
  s.layout.base_offset = base_offset;
  s.layout.pitch_padding = padding;
  s.bins = bins;
  return s;
}

FrameSpec Words16(uint32_t w, uint32_t h, uint32_t shift, uint32_t depth, uint32_t bins, size_t base_offset,
                  size_t padding) {
  FrameSpec s = Gray8(w, h, bins, base_offset, padding);
  s.name = "words16 shift " + std::to_string(shift) + " depth " + std::to_string(depth);
  s.layout.pixel_stride = 2;
  s.layout.sample_size = 2;
  s.layout.shift = shift;
  s.layout.depth = depth;
  return s;
}

FrameSpec Interleaved(const char* name, uint32_t w, uint32_t h, uint32_t stride, uint32_t offset, int components,
                      uint32_t bins, size_t base_offset, size_t padding) {
  FrameSpec s = Gray8(w, h, bins, base_offset, padding);
  s.name = name;
  s.kind = FrameSpec::Kind::kInterleaved;
  s.layout.pixel_stride = stride;
  s.layout.offset = offset;
  s.components = components;
  return s;
}

FrameSpec Of(FrameSpec::Kind kind, const char* name, uint32_t w, uint32_t h, uint32_t bins, size_t base_offset,
             size_t padding) {
  FrameSpec s = Gray8(w, h, bins, base_offset, padding);
  s.kind = kind;
  s.name = name;
  return s;
}

FrameSpec WithRoi(FrameSpec s, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  s.has_roi = true;
  s.roi = cudahist::Roi{x, y, w, h};
  s.name += " roi " + std::to_string(x) + "," + std::to_string(y) + " " + std::to_string(w) + "x" +
            std::to_string(h);
  return s;
}

FrameSpec WithDistribution(FrameSpec s, Distribution d, uint32_t one_value = 0) {
  s.distribution = d;
  s.one_value = one_value;
  return s;
}

}  // namespace

std::vector<FrameSpec> CoverageFrames() {
  using K = FrameSpec::Kind;
  std::vector<FrameSpec> f;
  // Sizes and every unaligned start.
  for (size_t off = 0; off < 16; ++off) {
    f.push_back(Gray8(1, 1, 256, off, off % 3));
    f.push_back(Gray8(1, 7, 256, off, 15 - off));
    f.push_back(Gray8(17, 3, 64, off, off));
    f.push_back(Gray8(333, 77, 256, off, 13));
  }
  for (uint32_t bins : {1u, 2u, 7u, 64u, 256u}) f.push_back(Gray8(333, 77, bins, 5, 7));
  f.push_back(WithDistribution(Gray8(333, 77, 256, 3, 1), Distribution::kOneValue, 200));
  f.push_back(WithDistribution(Gray8(333, 77, 7, 9, 0), Distribution::kPeaked));
  // 10-bit P010 (high 10 of 16), 12-bit low and high, 16-bit.
  for (size_t off : {0u, 2u, 6u, 14u}) f.push_back(Words16(333, 77, 6, 10, 1024, off, 2 * off));
  f.push_back(Words16(333, 77, 6, 10, 1000, 4, 6));
  f.push_back(Words16(17, 3, 6, 10, 64, 2, 0));
  f.push_back(Words16(333, 77, 0, 12, 4096, 8, 10));
  f.push_back(Words16(333, 77, 4, 12, 64, 10, 0));
  f.push_back(Words16(333, 77, 0, 16, 65536, 2, 4));
  f.push_back(Words16(333, 77, 0, 16, 4096, 0, 0));
  f.push_back(WithDistribution(Words16(333, 77, 6, 10, 1024, 2, 2), Distribution::kPeaked));
  // Strides 1 to 4 with offsets, interleaved components.
  f.push_back(Interleaved("rgba", 333, 77, 4, 0, 4, 256, 3, 5));
  f.push_back(Interleaved("rgba", 17, 3, 4, 0, 4, 7, 13, 1));
  f.push_back(Interleaved("rgbx (x not counted)", 333, 77, 4, 0, 3, 256, 1, 0));
  f.push_back(Interleaved("xrgb", 333, 77, 4, 1, 3, 64, 2, 3));
  f.push_back(Interleaved("alpha only", 333, 77, 4, 3, 1, 256, 7, 9));
  f.push_back(Interleaved("rgb stride 3", 333, 77, 3, 0, 3, 256, 1, 2));
  f.push_back(Interleaved("bgr stride 3 offset 1", 17, 3, 3, 1, 2, 7, 0, 0));
  f.push_back(Interleaved("uv stride 2", 333, 77, 2, 0, 2, 256, 11, 1));
  f.push_back(Interleaved("v only stride 2 offset 1", 333, 77, 2, 1, 1, 64, 4, 4));
  {
    FrameSpec s = Interleaved("two 16-bit per stride 4", 333, 77, 4, 0, 2, 1024, 4, 4);
    s.layout.sample_size = 2;
    s.layout.shift = 6;
    s.layout.depth = 10;
    f.push_back(s);
  }
  f.push_back(Of(K::kNv12, "nv12", 333, 77, 256, 0, 3));
  f.push_back(Of(K::kNv12, "nv12", 17, 3, 7, 5, 0));
  f.push_back(Of(K::kYuy2, "yuy2", 334, 77, 256, 1, 5));
  f.push_back(Of(K::kPackedWords, "rgb10a2", 333, 77, 1024, 4, 8));
  f.push_back(Of(K::kPackedWords, "rgb10a2", 17, 3, 1000, 0, 0));
  // ROI inside, on the edges, the whole plane, empty.
  f.push_back(WithRoi(Gray8(333, 77, 256, 1, 3), 3, 2, 100, 50));
  f.push_back(WithRoi(Gray8(333, 77, 256, 1, 3), 323, 67, 10, 10));
  f.push_back(WithRoi(Gray8(333, 77, 256, 1, 3), 0, 0, 333, 77));
  f.push_back(WithRoi(Gray8(333, 77, 256, 1, 3), 0, 76, 1, 1));
  f.push_back(WithRoi(Gray8(333, 77, 256, 1, 3), 5, 5, 0, 10));
  f.push_back(WithRoi(Interleaved("rgba", 333, 77, 4, 0, 4, 256, 3, 5), 7, 1, 326, 76));
  f.push_back(WithRoi(Words16(333, 77, 6, 10, 1024, 2, 2), 1, 1, 331, 75));
  f.push_back(WithRoi(Interleaved("rgb stride 3", 333, 77, 3, 0, 3, 64, 0, 0), 300, 0, 33, 5));
  f.push_back(WithRoi(Of(K::kNv12, "nv12", 333, 77, 256, 0, 3), 10, 10, 0, 0));
  return f;
}

std::vector<FrameSpec> LargeFrames() {
  using K = FrameSpec::Kind;
  std::vector<FrameSpec> f;
  for (Distribution d : {Distribution::kUniform, Distribution::kOneValue, Distribution::kPeaked}) {
    f.push_back(WithDistribution(Gray8(1920, 1080, 256, 0, 128), d, 77));
  }
  f.push_back(Gray8(3840, 2160, 256, 3, 0));
  f.push_back(Of(K::kNv12, "nv12", 1920, 1080, 256, 0, 128));
  f.push_back(WithDistribution(Of(K::kNv12, "nv12", 3840, 2160, 64, 0, 256), Distribution::kPeaked));
  f.push_back(WithDistribution(Interleaved("rgba", 1920, 1080, 4, 0, 4, 256, 0, 0), Distribution::kOneValue, 255));
  f.push_back(Interleaved("rgba", 3840, 2160, 4, 0, 4, 256, 0, 64));
  f.push_back(Words16(1920, 1080, 6, 10, 1024, 0, 256));
  f.push_back(WithDistribution(Words16(1920, 1080, 6, 10, 1000, 2, 6), Distribution::kPeaked));
  f.push_back(Words16(1920, 1080, 0, 12, 4096, 0, 0));
  f.push_back(Words16(1920, 1080, 0, 16, 4096, 0, 0));
  f.push_back(Words16(1920, 1080, 0, 16, 65536, 0, 0));
  f.push_back(WithDistribution(Words16(1920, 1080, 0, 16, 65536, 0, 0), Distribution::kOneValue, 65535));
  // Large enough (256 MiB) for the privatized deep kernel (row walk, histogram/histogram_tuning.h).
  f.push_back(Gray8(16384, 16384, 256, 5, 48));
  f.push_back(WithDistribution(Interleaved("rgba", 8192, 8192, 4, 0, 4, 256, 0, 0), Distribution::kOneValue, 7));
  return f;
}

std::string Describe(const FrameSpec& s) {
  const PlaneLayout& l = s.layout;
  return s.name + " " + std::to_string(l.width) + "x" + std::to_string(l.height) + " bins " +
         std::to_string(s.bins) + " base_offset " + std::to_string(l.base_offset) + " padding " +
         std::to_string(l.pitch_padding) + " " + DistributionName(s.distribution);
}

}  // namespace cudahist_test
