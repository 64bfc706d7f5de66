// The scope drawing (cudahist/scope_render.h): the count -> pixel mapping that
// docs/scopes.md states, checked exactly on hand-worked cases and against a plain
// restatement of it here; the GPU's images byte for byte against the CPU's
// (GTEST_SKIP without a CUDA device).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "cudahist/histogrammer.h"
#include "cudahist/scope_render.h"
#include "cuda_test.h"
#include "render/scope_pixels.cuh"
#include "seeded_rng.h"
#include "test_planes.h"

namespace {

using cudahist::ColumnScope;
using cudahist::ColumnScopeStyle;
using cudahist::ScopeImage;
using cudahist::ScopeScale;
using cudahist::VectorScope;

struct HostImage {
  uint32_t width, height;
  size_t pitch;
  std::vector<uint8_t> bytes;
  HostImage(uint32_t w, uint32_t h, size_t extra_pitch = 0)
      : width(w), height(h), pitch(size_t(w) * 4 + extra_pitch), bytes(pitch * h, 0xAB) {}
  ScopeImage view() { return ScopeImage{bytes.data(), width, height, pitch}; }
  uint32_t pixel(uint32_t x, uint32_t y) const {
    uint32_t v;
    std::memcpy(&v, bytes.data() + y * pitch + x * 4, 4);
    return v;
  }
};

uint32_t Rgba(uint32_t r, uint32_t g, uint32_t b) { return r | g << 8 | b << 16 | 0xffu << 24; }
constexpr uint32_t kBlack = 0xff000000u;

TEST(ScopeMapping, Log2Q16IsFloorOfLog2Times65536) {
  EXPECT_EQ(cudahist::detail::Log2Q16(1), 0u);
  EXPECT_EQ(cudahist::detail::Log2Q16(2), 65536u);
  EXPECT_EQ(cudahist::detail::Log2Q16(1024), 10u * 65536u);
  EXPECT_EQ(cudahist::detail::Log2Q16(uint64_t(1) << 40), 40u * 65536u);
  // floor(log2(3) * 65536) = floor(103872.46...) and log2(10) * 65536 = 217705.2...
  EXPECT_EQ(cudahist::detail::Log2Q16(3), 103872u);
  EXPECT_EQ(cudahist::detail::Log2Q16(10), 217705u);
  // Away from the integer boundaries it agrees with long double everywhere.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t x = 1 + (rng() >> (rng() % 60));
    const long double exact = std::log2((long double)x) * 65536.0L;
    const uint32_t got = cudahist::detail::Log2Q16(x);
    EXPECT_LE(std::fabs((long double)got - std::floor(exact)), 1.0L) << x;
  }
}

TEST(ScopeMapping, IntensityFollowsTheReadme) {
  using cudahist::detail::Intensity;
  EXPECT_EQ(Intensity(0, 100, 1, ScopeScale::kLinear), 0u);
  EXPECT_EQ(Intensity(100, 100, 1, ScopeScale::kLinear), 255u);
  EXPECT_EQ(Intensity(50, 100, 1, ScopeScale::kLinear), 127u);  // 50 * 255 / 100
  EXPECT_EQ(Intensity(1, 1000, 1, ScopeScale::kLinear), 1u);     // any count lights
  EXPECT_EQ(Intensity(1, 1000, 8, ScopeScale::kLinear), 2u);     // 8 * 255 / 1000
  EXPECT_EQ(Intensity(900, 1000, 2, ScopeScale::kLinear), 255u); // clamped
  EXPECT_EQ(Intensity(0, 3, 1, ScopeScale::kLogarithmic), 0u);
  EXPECT_EQ(Intensity(3, 3, 1, ScopeScale::kLogarithmic), 255u);
  EXPECT_EQ(Intensity(1, 3, 1, ScopeScale::kLogarithmic), 127u);  // 255 * 65536 / 131072
  EXPECT_EQ(Intensity(1, 1023, 1, ScopeScale::kLogarithmic), 25u); // 255 * 1 / 10
}

// A plain restatement of the waveform rule of docs/scopes.md for one trace, linear scale.
uint32_t ExpectedWaveformPixel(const std::vector<uint32_t>& counts, uint32_t groups, uint32_t bins,
                               uint32_t counted_width, uint32_t rows, uint32_t W, uint32_t H, uint32_t x,
                               uint32_t y) {
  const uint32_t group = uint64_t(x) * groups / W;
  const uint32_t bin = uint64_t(H - 1 - y) * bins / H;
  uint32_t columns = 0;
  for (uint32_t c = 0; c < counted_width; ++c) columns += (uint64_t(c) * groups / counted_width) == group;
  const uint64_t n = uint64_t(columns) * rows;
  const uint32_t c = counts[group * bins + bin];
  const uint32_t v = c == 0 ? 0 : uint32_t(std::clamp<uint64_t>(uint64_t(c) * 255 / n, 1, 255));
  return Rgba((255 * v + 127) / 255, (255 * v + 127) / 255, (255 * v + 127) / 255);
}

TEST(ScopeMapping, WaveformEveryPixelAsTheReadmeSays) {
  const uint32_t groups = 7, bins = 16, width = 20, rows = 9;
  std::mt19937_64 rng(3);
  std::vector<uint32_t> counts(groups * bins);
  for (uint32_t& c : counts) c = rng() % 4 == 0 ? uint32_t(rng() % 27) : 0;
  ColumnScope s;
  s.style = ColumnScopeStyle::kWaveform;
  s.num_traces = 1;
  s.traces[0] = {counts.data(), groups, bins, width, rows, 8, {255, 255, 255}};
  s.scale = ScopeScale::kLinear;
  HostImage image(23, 37, 12);
  ASSERT_TRUE(cudahist::DrawColumnScopeCpu(s, image.view()).ok());
  for (uint32_t y = 0; y < image.height; ++y) {
    for (uint32_t x = 0; x < image.width; ++x) {
      ASSERT_EQ(image.pixel(x, y), ExpectedWaveformPixel(counts, groups, bins, width, rows, 23, 37, x, y))
          << x << "," << y;
    }
  }
}

TEST(ScopeMapping, LegalLinesSitOnTheRowsOfTheirLevels) {
  // 10-bit, 512 bins on 512 rows: 64 -> bin 32, 940 -> bin 470.
  std::vector<uint32_t> counts(512, 0);
  ColumnScope s;
  s.num_traces = 1;
  s.traces[0] = {counts.data(), 1, 512, 1, 1, 10, {255, 255, 255}};
  s.num_levels = 2;
  s.levels[0] = 16;
  s.levels[1] = 235;
  s.graticule = {1, 2, 3};
  HostImage image(4, 512);
  ASSERT_TRUE(cudahist::DrawColumnScopeCpu(s, image.view()).ok());
  for (uint32_t y = 0; y < 512; ++y) {
    const uint32_t r = 511 - y;
    EXPECT_EQ(image.pixel(2, y), (r == 32 || r == 470) ? Rgba(1, 2, 3) : kBlack) << "row " << r;
  }
}

TEST(ScopeMapping, HistogramBarsScaleToTheTallestBin) {
  std::vector<uint32_t> counts = {0, 10, 5, 1};
  ColumnScope s;
  s.style = ColumnScopeStyle::kHistogram;
  s.num_traces = 1;
  s.traces[0] = {counts.data(), 1, 4, 8, 2, 2, {255, 0, 0}};
  s.scale = ScopeScale::kLinear;
  HostImage image(4, 10);
  ASSERT_TRUE(cudahist::DrawColumnScopeCpu(s, image.view()).ok());
  for (uint32_t x = 0; x < 4; ++x) {
    const uint32_t rows = counts[x];  // height 10 * c / 10
    for (uint32_t y = 0; y < 10; ++y) {
      EXPECT_EQ(image.pixel(x, y), (9 - y) < rows ? Rgba(255, 0, 0) : kBlack) << x << "," << y;
    }
  }
}

TEST(ScopeMapping, VectorscopeTargetsAreOutlinedUnderTheTrace) {
  std::vector<uint32_t> counts(16 * 16, 0);
  counts[3 * 16 + 12] = 5;  // b = 3, a = 12
  VectorScope s;
  s.counts = counts.data();
  s.bins_a = s.bins_b = 16;
  s.samples = 5;
  s.scale = ScopeScale::kLinear;
  s.tint = {10, 20, 30};
  s.num_targets = 1;
  s.targets[0] = {4, 4};
  s.target_half_size = 2;
  s.graticule = {7, 8, 9};
  HostImage image(16, 16);
  ASSERT_TRUE(cudahist::DrawVectorScopeCpu(s, image.view()).ok());
  for (uint32_t y = 0; y < 16; ++y) {
    for (uint32_t x = 0; x < 16; ++x) {
      const int dx = std::abs(int(x) - 4), dy = std::abs(int(y) - 4);
      const bool outline = (dx == 2 && dy <= 2) || (dy == 2 && dx <= 2);
      const uint32_t want = (x == 12 && y == 15 - 3) ? Rgba(10, 20, 30) : outline ? Rgba(7, 8, 9) : kBlack;
      EXPECT_EQ(image.pixel(x, y), want) << x << "," << y;
    }
  }
}

TEST(ScopeValidation, BadRequestsNameTheField) {
  std::vector<uint32_t> counts(256, 0);
  ColumnScope s;
  s.num_traces = 1;
  s.traces[0] = {counts.data(), 1, 256, 100, 10, 8, {}};
  HostImage image(8, 8);
  ScopeImage zero = image.view();
  zero.width = 0;
  EXPECT_NE(cudahist::DrawColumnScopeCpu(s, zero).message().find("image.width"), std::string::npos);
  ScopeImage huge = image.view();
  huge.height = cudahist::kMaxScopeDimension + 1;
  EXPECT_NE(cudahist::DrawColumnScopeCpu(s, huge).message().find("image.height"), std::string::npos);
  s.traces[0].groups = 101;
  EXPECT_NE(cudahist::DrawColumnScopeCpu(s, image.view()).message().find("traces[0].groups"), std::string::npos);
  s.traces[0].groups = 2;
  s.style = ColumnScopeStyle::kHistogram;
  EXPECT_NE(cudahist::DrawColumnScopeCpu(s, image.view()).message().find("one group"), std::string::npos);
  s.style = ColumnScopeStyle::kWaveform;
  s.traces[0].bins = 512;
  EXPECT_NE(cudahist::DrawColumnScopeCpu(s, image.view()).message().find("traces[0].bins"), std::string::npos);
  s.traces[0].bins = 256;
  s.style = ColumnScopeStyle::kParade;
  s.num_traces = 3;
  s.traces[1] = s.traces[2] = s.traces[0];
  HostImage narrow(2, 8);
  EXPECT_NE(cudahist::DrawColumnScopeCpu(s, narrow.view()).message().find("narrower than the parade's 3 panels"),
            std::string::npos);
  VectorScope v;
  EXPECT_NE(cudahist::DrawVectorScopeCpu(v, image.view()).message().find("counts"), std::string::npos);
}

// --- GPU == CPU ---------------------------------------------------------------------

template <typename T>
T* ToDevice(const std::vector<T>& host) {
  T* device = nullptr;
  EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&device), host.size() * sizeof(T)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  // The DMA of a pageable copy may still be on its way when cudaMemcpy
  // returns, and the drawing runs on a non-blocking stream.
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  return device;
}

// Draws on the GPU into a pitched image and returns its bytes laid out as `like`.
template <typename Draw>
std::vector<uint8_t> DrawOnGpu(const HostImage& like, Draw draw) {
  uint8_t* device = nullptr;
  EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&device), like.bytes.size()), cudaSuccess);
  EXPECT_EQ(cudaMemset(device, 0xAB, like.bytes.size()), cudaSuccess);
  const cudahist::Status status = draw(ScopeImage{device, like.width, like.height, like.pitch});
  EXPECT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<uint8_t> out(like.bytes.size());
  EXPECT_EQ(cudaMemcpy(out.data(), device, out.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(device);
  return out;
}

std::vector<uint32_t> RandomCounts(size_t n, std::mt19937_64& rng) {
  std::vector<uint32_t> counts(n);
  for (uint32_t& c : counts) c = rng() % 3 == 0 ? uint32_t(rng() >> (rng() % 64)) : 0;
  return counts;
}

TEST(ScopeGpu, ColumnScopesEqualTheCpuByteForByte) {
  SKIP_WITHOUT_CUDA_DEVICE();
  cudahist_test::SeededRng rng;
  for (ColumnScopeStyle style : {ColumnScopeStyle::kHistogram, ColumnScopeStyle::kWaveform, ColumnScopeStyle::kParade}) {
    for (ScopeScale scale : {ScopeScale::kLinear, ScopeScale::kLogarithmic}) {
      const bool histogram = style == ColumnScopeStyle::kHistogram;
      ColumnScope s;
      s.style = style;
      s.scale = scale;
      s.gain = 1 + uint32_t(rng() % 5);
      s.num_traces = 3;
      s.num_levels = 2;
      s.levels[0] = 16;
      s.levels[1] = 235;
      s.graticule = {200, 150, 0};
      std::vector<std::vector<uint32_t>> host(3);
      std::vector<uint32_t*> device(3);
      const ScopeImage shape{nullptr, 333 + uint32_t(rng() % 700), 101 + uint32_t(rng() % 500), 0};
      for (int i = 0; i < 3; ++i) {
        cudahist::ColumnTrace& t = s.traces[i];
        t.depth = i == 0 ? 8 : 10;
        t.bins = histogram ? std::min<uint32_t>(1u << t.depth, shape.width) : std::min<uint32_t>(1u << t.depth, shape.height);
        t.counted_width = 1920 >> i;
        t.counted_height = 1080;
        t.groups = histogram ? 1 : std::min<uint32_t>(t.counted_width, shape.width / 3);
        t.tint = {uint8_t(rng()), uint8_t(rng()), uint8_t(rng())};
        host[i] = RandomCounts(size_t(t.groups) * t.bins, rng);
        device[i] = ToDevice(host[i]);
      }
      HostImage cpu(shape.width, shape.height, 64);
      for (int i = 0; i < 3; ++i) s.traces[i].counts = host[i].data();
      ASSERT_TRUE(cudahist::DrawColumnScopeCpu(s, cpu.view()).ok());
      for (int i = 0; i < 3; ++i) s.traces[i].counts = device[i];
      const std::vector<uint8_t> gpu =
          DrawOnGpu(cpu, [&](const ScopeImage& image) { return cudahist::DrawColumnScope(s, image, nullptr); });
      EXPECT_TRUE(gpu == cpu.bytes) << "style " << int(style) << " scale " << int(scale);
      for (uint32_t* d : device) cudaFree(d);
    }
  }
}

TEST(ScopeGpu, VectorscopeEqualsTheCpuByteForByte) {
  SKIP_WITHOUT_CUDA_DEVICE();
  cudahist_test::SeededRng rng;
  for (ScopeScale scale : {ScopeScale::kLinear, ScopeScale::kLogarithmic}) {
    VectorScope s;
    s.bins_a = 256;
    s.bins_b = 200;
    s.samples = 960 * 540;
    s.scale = scale;
    s.gain = 3;
    s.tint = {150, 255, 150};
    s.num_targets = 6;
    for (int i = 0; i < 6; ++i) s.targets[i] = {uint32_t(rng() % 512), uint32_t(rng() % 300)};
    const std::vector<uint32_t> host = RandomCounts(size_t(s.bins_a) * s.bins_b, rng);
    uint32_t* device = ToDevice(host);
    HostImage cpu(512, 300, 32);
    s.counts = host.data();
    ASSERT_TRUE(cudahist::DrawVectorScopeCpu(s, cpu.view()).ok());
    s.counts = device;
    const std::vector<uint8_t> gpu =
        DrawOnGpu(cpu, [&](const ScopeImage& image) { return cudahist::DrawVectorScope(s, image, nullptr); });
    EXPECT_TRUE(gpu == cpu.bytes) << "scale " << int(scale);
    cudaFree(device);
  }
}

}  // namespace
