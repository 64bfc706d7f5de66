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

// --- the picture display ---------------------------------------------------------

using cudahist::PictureColour;
using cudahist::PictureScope;
using cudahist::PlaneView;

// A tight 8-bit plane of `width` x `height` samples holding `values` row by row.
struct BytePlane {
  std::vector<uint8_t> bytes;
  PlaneView view;
  BytePlane(uint32_t width, uint32_t height, std::vector<uint8_t> values) : bytes(std::move(values)) {
    view.data = bytes.data();
    view.width = width;
    view.height = height;
    view.pitch = width;
  }
};

PictureScope GrayPicture(const PlaneView& y) {
  PictureScope s;
  s.colour = PictureColour::kGray;
  s.components[0] = y;
  return s;
}

std::vector<int32_t> Coefficients(const cudahist::PictureMatrix& m) {
  return {m.y_gain, m.y_offset, m.v_to_r, m.u_to_g, m.v_to_g, m.u_to_b};
}

TEST(PictureMapping, MatricesAreTheQ8InversesOfTheirKrKb) {
  // BT.601 limited range: the classic 298 (Y - 16), 409, 100, 208, 516.
  EXPECT_EQ(Coefficients(cudahist::PictureMatrixOf(0.299, 0.114, false)),
            (std::vector<int32_t>{298, 16, 409, 100, 208, 516}));
  // BT.709 full range: 1.5748, 0.1873, 0.4681, 1.8556 in Q8.
  EXPECT_EQ(Coefficients(cudahist::PictureMatrixOf(0.2126, 0.0722, true)),
            (std::vector<int32_t>{256, 0, 403, 48, 120, 475}));
}

TEST(PictureMapping, EachPixelIsTheRoundedMeanOfItsBox) {
  // 4 x 2 to 2 x 1: boxes of 2 x 2 samples; (1 + 2 + 5 + 6) / 4 = 3.5 rounds up.
  BytePlane y(4, 2, {1, 2, 10, 20, 5, 6, 30, 41});
  HostImage image(2, 1);
  ASSERT_TRUE(cudahist::DrawPictureCpu(GrayPicture(y.view), image.view()).ok());
  EXPECT_EQ(image.pixel(0, 0), Rgba(4, 4, 4));
  EXPECT_EQ(image.pixel(1, 0), Rgba(25, 25, 25));  // 101 / 4 = 25.25
  // Enlarged, a pixel shows the one sample under it: 2 x 1 to 4 x 2.
  BytePlane small(2, 1, {7, 200});
  HostImage big(4, 2);
  ASSERT_TRUE(cudahist::DrawPictureCpu(GrayPicture(small.view), big.view()).ok());
  for (uint32_t row = 0; row < 2; ++row) {
    EXPECT_EQ(big.pixel(0, row), Rgba(7, 7, 7));
    EXPECT_EQ(big.pixel(1, row), Rgba(7, 7, 7));
    EXPECT_EQ(big.pixel(3, row), Rgba(200, 200, 200));
  }
}

TEST(PictureMapping, LargeBoxesAreReadAtAStepOfBoxOverSixteen) {
  // 64 columns into one pixel: every 4th sample (0, 4, 8, ...) is read.
  std::vector<uint8_t> values(64);
  for (size_t x = 0; x < values.size(); ++x) values[x] = x % 4 == 0 ? 200 : 0;
  BytePlane y(64, 1, values);
  HostImage image(1, 1);
  ASSERT_TRUE(cudahist::DrawPictureCpu(GrayPicture(y.view), image.view()).ok());
  EXPECT_EQ(image.pixel(0, 0), Rgba(200, 200, 200));
}

TEST(PictureMapping, YuvBecomesRgbThroughTheMatrix) {
  // Limited-range BT.601 black, white and red (Y 81, U 90, V 240).
  const cudahist::PictureMatrix m = cudahist::PictureMatrixOf(0.299, 0.114, false);
  const auto pixel = [&](uint8_t y, uint8_t u, uint8_t v) {
    BytePlane py(1, 1, {y}), pu(1, 1, {u}), pv(1, 1, {v});
    PictureScope s;
    s.colour = PictureColour::kYuv;
    s.components[0] = py.view;
    s.components[1] = pu.view;
    s.components[2] = pv.view;
    s.matrix = m;
    HostImage image(1, 1);
    EXPECT_TRUE(cudahist::DrawPictureCpu(s, image.view()).ok());
    return image.pixel(0, 0);
  };
  EXPECT_EQ(pixel(16, 128, 128), Rgba(0, 0, 0));
  EXPECT_EQ(pixel(235, 128, 128), Rgba(255, 255, 255));
  // R = (298 * 65 + 128 + 409 * 112) >> 8 = 255, G = (19498 - 100 * -38 - 208 * 112) >> 8 = 0,
  // B = (19498 + 516 * -38) >> 8 = -1, clamped to 0; a bluish grey shows the rounding.
  EXPECT_EQ(pixel(81, 90, 240), Rgba(255, 0, 0));
  // Y 100, U 140, V 120: luma 298 * 84 + 128 = 25160; R = (25160 - 3272) >> 8 = 85,
  // G = (25160 - 1200 + 1664) >> 8 = 100, B = (25160 + 6192) >> 8 = 122.
  EXPECT_EQ(pixel(100, 140, 120), Rgba(85, 100, 122));
}

TEST(PictureMapping, DeepSamplesKeepTheirPrecisionUntilTheLastRounding) {
  // P010-like, 10 bits high in 16, full range: (v << 6) * 256 + 32768 >> 16 is
  // 1023 -> 256.25, clamped to 255; 514 -> 129.0; 3 -> 1.25 -> 1.
  std::vector<uint8_t> bytes;
  for (uint16_t v : {1023, 514, 3}) {
    const uint16_t word = uint16_t(v << 6);
    bytes.push_back(uint8_t(word));
    bytes.push_back(uint8_t(word >> 8));
  }
  BytePlane y(3, 1, bytes);
  y.view.pitch = 6;
  y.view.pixel_stride = 2;
  y.view.sample_size = 2;
  y.view.shift = 6;
  y.view.depth = 10;
  HostImage image(3, 1);
  ASSERT_TRUE(cudahist::DrawPictureCpu(GrayPicture(y.view), image.view()).ok());
  EXPECT_EQ(image.pixel(0, 0), Rgba(255, 255, 255));
  EXPECT_EQ(image.pixel(1, 0), Rgba(129, 129, 129));
  EXPECT_EQ(image.pixel(2, 0), Rgba(1, 1, 1));
}

TEST(PictureMapping, BadRequestsNameTheField) {
  BytePlane y(2, 2, {1, 2, 3, 4});
  HostImage image(2, 2);
  PictureScope s = GrayPicture(y.view);
  s.components[0].data = nullptr;
  EXPECT_NE(cudahist::DrawPictureCpu(s, image.view()).message().find("plane[0].data"), std::string::npos);
  s = GrayPicture(y.view);
  s.components[0].width = 0;
  EXPECT_NE(cudahist::DrawPictureCpu(s, image.view()).message().find("components[0]: a picture needs samples"),
            std::string::npos);
  s = GrayPicture(y.view);
  s.components[0].has_roi = true;
  EXPECT_NE(cudahist::DrawPictureCpu(s, image.view()).message().find("has_roi"), std::string::npos);
  s = GrayPicture(y.view);
  s.colour = PictureColour(7);
  EXPECT_NE(cudahist::DrawPictureCpu(s, image.view()).message().find("colour"), std::string::npos);
  s = GrayPicture(y.view);
  s.components[0].depth = 0;
  EXPECT_NE(cudahist::DrawPictureCpu(s, image.view()).message().find("plane[0].depth"), std::string::npos);
  EXPECT_NE(cudahist::DrawPictureCpu(GrayPicture(y.view), ScopeImage{image.bytes.data(), 0, 2, 8}).message().find(
                "image.width"),
            std::string::npos);
}

// A frame's planes copied to the device, and the picture's views rebased onto them.
struct DevicePicture {
  std::vector<void*> allocations;
  PictureScope scope;
  DevicePicture(const std::vector<cudahist_test::HostPlane>& planes, const PictureScope& host) : scope(host) {
    for (const cudahist_test::HostPlane& p : planes) {
      void* d = nullptr;
      EXPECT_EQ(cudaMalloc(&d, p.storage.size()), cudaSuccess);
      EXPECT_EQ(cudaMemcpy(d, p.storage.data(), p.storage.size(), cudaMemcpyHostToDevice), cudaSuccess);
      allocations.push_back(d);
    }
    for (PlaneView& v : scope.components) {
      if (!v.data) continue;
      const cudahist_test::ViewAnchor a = cudahist_test::AnchorOf(planes, v);
      v.data = static_cast<uint8_t*>(allocations[a.plane]) + a.offset;
    }
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  ~DevicePicture() {
    for (void* d : allocations) cudaFree(d);
  }
};

TEST(PictureGpu, PicturesEqualTheCpuByteForByte) {
  SKIP_WITHOUT_CUDA_DEVICE();
  const uint64_t seed = cudahist_test::FreshSeed();
  SCOPED_TRACE("CUDAHIST_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  using cudahist_test::PlaneLayout;
  struct Case {
    const char* name;
    PictureColour colour;
    uint32_t width, height;  // of the frame
    bool semi_planar, deep, interleaved_rgb;
  };
  for (const Case& c : {Case{"I420 1920x1080", PictureColour::kYuv, 1920, 1080, false, false, false},
                        Case{"NV12 333x187", PictureColour::kYuv, 333, 187, true, false, false},
                        Case{"P010 1280x720", PictureColour::kYuv, 1280, 720, true, true, false},
                        Case{"RGBA 641x363", PictureColour::kRgb, 641, 363, false, false, true},
                        Case{"GRAY 4096x2160", PictureColour::kGray, 4096, 2160, false, false, false}}) {
    SCOPED_TRACE(c.name);
    std::vector<cudahist_test::HostPlane> planes;
    PictureScope s;
    s.colour = c.colour;
    s.matrix = cudahist::PictureMatrixOf(0.2126, 0.0722, false);
    PlaneLayout luma;
    luma.width = c.width;
    luma.height = c.height;
    luma.pitch_padding = 64;
    if (c.deep) {
      luma.pixel_stride = luma.sample_size = 2;
      luma.shift = 6;
      luma.depth = 10;
    }
    if (c.interleaved_rgb) {
      luma.pixel_stride = 4;
      planes.push_back(cudahist_test::MakeInterleavedPlane(luma, 4, cudahist_test::Distribution::kUniform, rng));
      const std::vector<PlaneView> rgb = cudahist_test::ComponentViews(planes[0], 3);
      for (int i = 0; i < 3; ++i) s.components[i] = rgb[i];
    } else {
      planes.push_back(cudahist_test::MakePlane(luma, cudahist_test::Distribution::kUniform, rng));
      s.components[0] = planes[0].view;
      if (c.colour == PictureColour::kYuv) {
        PlaneLayout chroma = luma;
        chroma.width = (c.width + 1) / 2;
        chroma.height = (c.height + 1) / 2;
        if (c.semi_planar) {
          chroma.pixel_stride *= 2;
          planes.push_back(cudahist_test::MakeInterleavedPlane(chroma, 2, cudahist_test::Distribution::kUniform, rng));
          const std::vector<PlaneView> uv = cudahist_test::ComponentViews(planes[1], 2);
          s.components[1] = uv[0];
          s.components[2] = uv[1];
        } else {
          planes.push_back(cudahist_test::MakePlane(chroma, cudahist_test::Distribution::kUniform, rng));
          planes.push_back(cudahist_test::MakePlane(chroma, cudahist_test::Distribution::kUniform, rng));
          s.components[1] = planes[1].view;
          s.components[2] = planes[2].view;
        }
      }
    }
    DevicePicture device(planes, s);
    // A thumbnail, an odd size, a 1 x 1 (the step bounds its read), and larger than the frame.
    for (const auto& [w, h] : {std::pair<uint32_t, uint32_t>{320, 180}, {301, 203}, {1, 1}, {c.width + 77, 5}}) {
      HostImage cpu(w, h, 96);
      ASSERT_TRUE(cudahist::DrawPictureCpu(s, cpu.view()).ok());
      const std::vector<uint8_t> gpu =
          DrawOnGpu(cpu, [&](const ScopeImage& image) { return cudahist::DrawPicture(device.scope, image, nullptr); });
      EXPECT_TRUE(gpu == cpu.bytes) << w << "x" << h;
    }
  }
}

}  // namespace
