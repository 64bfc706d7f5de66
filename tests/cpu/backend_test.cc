// The CPU backend equals the CPU reference bit for bit over the layouts,
// bins, sizes, alignments, ROIs and distributions the library supports.
// Outputs are poisoned before every run; the seed is printed on failure
// (replay with CUDAHIST_TEST_SEED=<seed>).
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "cudahist/cpu.h"
#include "seeded_rng.h"
#include "test_planes.h"

namespace {

using cudahist::PlaneView;
using cudahist::Roi;
using cudahist_test::Distribution;
using cudahist_test::HostPlane;
using cudahist_test::PlaneLayout;

using cudahist_test::kPoison;
constexpr uint32_t kAllBins[] = {1, 2, 7, 64, 256, 1000, 1024, 4096, 65536};
constexpr Distribution kAllDistributions[] = {Distribution::kUniform, Distribution::kOneValue,
                                              Distribution::kPeaked};

std::string Describe(const PlaneLayout& l, Distribution dist, uint32_t bins) {
  std::ostringstream s;
  s << l.width << "x" << l.height << " stride " << l.pixel_stride << " offset " << l.offset
    << " sample " << l.sample_size << " shift " << l.shift << " depth " << l.depth << " padding "
    << l.pitch_padding << " base+" << l.base_offset << " " << cudahist_test::DistributionName(dist)
    << " bins " << bins;
  return s.str();
}

// Both engines on the same planes, both outputs poisoned first. The reference's
// totals are checked against the sample count, so a reference that lost
// samples cannot agree with a backend that lost the same ones unnoticed.
// Returns the reference counts.
std::vector<uint32_t> ExpectBackendEqualsReference(cudahist::CpuHistogrammer& backend,
                                                   const std::vector<PlaneView>& planes) {
  cudahist::HistogramSpec spec;
  spec.bins = backend.bins();
  const int n = int(planes.size());
  std::vector<uint32_t> expected(cudahist::CountsLength(spec, n), kPoison);
  const cudahist::Status ref =
      cudahist::ReferenceHistogram(spec, planes.data(), n, expected.data());
  EXPECT_TRUE(ref.ok()) << ref.message();
  for (int c = 0; c < n; ++c) {
    const auto first = expected.begin() + size_t(c) * spec.bins;
    EXPECT_EQ(std::accumulate(first, first + spec.bins, uint64_t(0)),
              cudahist::CountedSamples(planes[c]))
        << "component " << c;
  }
  std::vector<uint32_t> actual(expected.size(), kPoison);
  const cudahist::Status fast = backend.Compute(planes.data(), n, actual.data());
  EXPECT_TRUE(fast.ok()) << fast.message();
  size_t mismatches = 0, first_mismatch = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] != actual[i] && mismatches++ == 0) first_mismatch = i;
  }
  EXPECT_EQ(mismatches, 0u) << "first at component " << first_mismatch / spec.bins << " bin "
                            << first_mismatch % spec.bins << ": reference "
                            << expected[first_mismatch] << ", backend " << actual[first_mismatch];
  return expected;
}

class CpuBackend : public ::testing::Test {
 protected:
  uint32_t RandomValue(uint32_t depth) { return uint32_t(rng_() >> (64 - depth)); }
  HostPlane Make(const PlaneLayout& layout, Distribution dist) {
    return cudahist_test::MakePlane(layout, dist, rng_, RandomValue(layout.depth));
  }

  cudahist_test::SeededRng rng_;
};

struct Format {
  uint32_t pixel_stride, offset, sample_size, shift, depth;
};

// Every specialised loop of the backend and the general one.
const Format kFormats[] = {
    {1, 0, 1, 0, 8},  {2, 0, 1, 0, 8},   {2, 1, 1, 0, 8},  {3, 0, 1, 0, 8},   {3, 1, 1, 0, 8},
    {3, 2, 1, 0, 8},  {4, 0, 1, 0, 8},   {4, 1, 1, 0, 8},  {4, 2, 1, 0, 8},   {4, 3, 1, 0, 8},
    {5, 4, 1, 0, 8},  {1, 0, 1, 4, 4},   {6, 3, 1, 1, 7},  {2, 0, 2, 6, 10},  {2, 0, 2, 0, 10},
    {2, 0, 2, 4, 12}, {2, 0, 2, 0, 12},  {2, 0, 2, 0, 16}, {4, 2, 2, 0, 16},  {4, 0, 2, 6, 10},
    {6, 2, 2, 0, 16}, {4, 0, 4, 20, 10}, {4, 0, 4, 0, 10}, {4, 0, 4, 10, 10}, {8, 4, 4, 16, 16},
};

// Walks through base offsets 0..15 and three paddings with `variant`, keeping wide samples aligned.
PlaneLayout LayoutOf(const Format& f, uint32_t width, uint32_t height, size_t variant) {
  const size_t paddings[] = {0, 3 * size_t(f.sample_size), 64};
  return PlaneLayout{width,
                     height,
                     f.pixel_stride,
                     f.offset,
                     f.sample_size,
                     f.shift,
                     f.depth,
                     paddings[variant % 3],
                     (variant % 16) / f.sample_size * f.sample_size};
}

TEST_F(CpuBackend, SmallPlanesEveryFormatBinsAndDistribution) {
  const std::pair<uint32_t, uint32_t> sizes[] = {{1, 1}, {1, 7}, {7, 1}, {17, 3}, {333, 77}};
  size_t variant = 0;
  for (uint32_t bins : kAllBins) {
    cudahist::CpuHistogrammer backend(bins);  // reused over depths: its scratch grows and is reused
    for (const Format& f : kFormats) {
      if (bins > (1u << f.depth)) continue;
      for (const auto& [w, h] : sizes) {
        for (Distribution dist : kAllDistributions) {
          const PlaneLayout layout = LayoutOf(f, w, h, variant++);
          SCOPED_TRACE(Describe(layout, dist, bins));
          const HostPlane plane = Make(layout, dist);
          ExpectBackendEqualsReference(backend, {plane.view});
          if (HasFailure()) return;
        }
      }
    }
  }
}

TEST_F(CpuBackend, RegionsOfInterest) {
  const Roi rois[] = {
      {5, 3, 100, 50}, {1, 1, 1, 1},    {333 - 17, 77 - 5, 17, 5}, {0, 0, 10, 10},
      {0, 0, 333, 77}, {332, 0, 1, 77}, {0, 76, 333, 1},           {10, 10, 0, 5},
      {10, 10, 5, 0},  {333, 77, 0, 0},
  };
  const Format formats[] = {{1, 0, 1, 0, 8}, {2, 1, 1, 0, 8}, {3, 2, 1, 0, 8}, {2, 0, 2, 6, 10}};
  cudahist::CpuHistogrammer backend(64);
  size_t variant = 0;
  for (const Format& f : formats) {
    for (const Roi& roi : rois) {
      const PlaneLayout layout = LayoutOf(f, 333, 77, variant++);
      SCOPED_TRACE(Describe(layout, Distribution::kUniform, 64) + " roi " + std::to_string(roi.x) +
                   "," + std::to_string(roi.y) + " " + std::to_string(roi.width) + "x" +
                   std::to_string(roi.height));
      HostPlane plane = Make(layout, Distribution::kUniform);
      plane.view.has_roi = true;
      plane.view.roi = roi;
      const std::vector<uint32_t> counts = ExpectBackendEqualsReference(backend, {plane.view});
      if (roi.width == 0 || roi.height == 0) {
        EXPECT_EQ(counts, std::vector<uint32_t>(64, 0));
      }
    }
  }
}

// One bin passes 2^8 and 2^16 samples: 17x17 = 289 and 300x300 = 90000 of one value.
TEST_F(CpuBackend, OneBinPastTwoToTheEightAndSixteen) {
  for (uint32_t side : {17u, 300u}) {
    for (const Format& f : {Format{1, 0, 1, 0, 8}, Format{4, 3, 1, 0, 8}, Format{2, 0, 2, 6, 10}}) {
      const PlaneLayout layout = LayoutOf(f, side, side, side);
      const uint32_t value = RandomValue(f.depth);
      SCOPED_TRACE(Describe(layout, Distribution::kOneValue, 1u << f.depth) + " value " +
                   std::to_string(value));
      const HostPlane plane =
          cudahist_test::MakePlane(layout, Distribution::kOneValue, rng_, value);
      cudahist::CpuHistogrammer backend(1u << f.depth);
      const std::vector<uint32_t> counts = ExpectBackendEqualsReference(backend, {plane.view});
      EXPECT_EQ(counts[value], side * side);
    }
  }
}

// Frame sizes of real video, a few cases only (the reference is slow on purpose).
TEST_F(CpuBackend, FullHdNv12AllComponentsInOneCall) {
  for (Distribution dist : kAllDistributions) {
    SCOPED_TRACE(cudahist_test::DistributionName(dist));
    PlaneLayout y;
    y.width = 1920;
    y.height = 1080;
    y.pitch_padding = 128;
    PlaneLayout uv = y;
    uv.width = 960;
    uv.height = 540;
    uv.pixel_stride = 2;
    uv.base_offset = 3;
    const HostPlane luma = Make(y, dist);
    const HostPlane chroma = cudahist_test::MakeInterleavedPlane(uv, 2, dist, rng_, RandomValue(8));
    std::vector<PlaneView> planes = cudahist_test::ComponentViews(chroma, 2);
    planes.insert(planes.begin(), luma.view);
    cudahist::CpuHistogrammer backend(256);
    ExpectBackendEqualsReference(backend, planes);
  }
}

TEST_F(CpuBackend, FullHdRgbaFourComponents) {
  const PlaneLayout rgba = LayoutOf({4, 0, 1, 0, 8}, 1920, 1080, 5);
  const HostPlane plane = cudahist_test::MakeInterleavedPlane(rgba, 4, Distribution::kPeaked, rng_);
  cudahist::CpuHistogrammer backend(233);  // not a power of two
  ExpectBackendEqualsReference(backend, cudahist_test::ComponentViews(plane, 4));
}

TEST_F(CpuBackend, UltraHdP010And16Bit) {
  const PlaneLayout p010 = LayoutOf({2, 0, 2, 6, 10}, 3840, 2160, 2);
  cudahist::CpuHistogrammer backend(1024);
  ExpectBackendEqualsReference(backend, {Make(p010, Distribution::kUniform).view});

  const PlaneLayout gray16 = LayoutOf({2, 0, 2, 0, 16}, 1920, 1080, 14);
  for (uint32_t bins : {4096u, 65536u}) {
    cudahist::CpuHistogrammer wide(bins);
    ExpectBackendEqualsReference(wide, {Make(gray16, Distribution::kPeaked).view});
  }
}

TEST_F(CpuBackend, UltraHdGray8) {
  const PlaneLayout gray = LayoutOf({1, 0, 1, 0, 8}, 3840, 2160, 9);
  cudahist::CpuHistogrammer backend(256);
  ExpectBackendEqualsReference(backend, {Make(gray, Distribution::kOneValue).view});
}

// Writes `word` as the little-endian sample word of column x, row y of the
// component `plane.view` describes.
void PutWord(HostPlane& plane, uint32_t x, uint32_t y, uint32_t word) {
  const PlaneView& v = plane.view;
  uint8_t* p = plane.storage.data() + plane.data_offset + size_t(y) * v.pitch + size_t(x) * v.pixel_stride + v.offset;
  for (uint32_t b = 0; b < v.sample_size; ++b) p[b] = uint8_t(word >> (8 * b));
}

// Stretches of 16 samples that are one value but for one place: a sample one
// more, another byte of its pixel (another component) changed, or bits outside
// the value (below the shift, above the depth) set; every fourth stretch is
// flat. Each of the backend's loops against the reference.
TEST_F(CpuBackend, EqualsReferenceWhereStretchesAreAlmostFlat) {
  constexpr uint32_t kStretch = 16, kWidth = 7 * kStretch + 5, kHeight = 4;
  size_t variant = 0;
  for (const Format& f : kFormats) {
    const uint32_t value = (1u << (f.depth - 1)) + 1;
    const PlaneLayout layout = LayoutOf(f, kWidth, kHeight, variant++);
    SCOPED_TRACE(Describe(layout, Distribution::kOneValue, 1u << f.depth));
    HostPlane plane = cudahist_test::MakePlane(layout, Distribution::kOneValue, rng_, value);
    const uint32_t value_bits = f.depth + f.shift, word_bits = 8 * f.sample_size;
    const uint32_t outside = f.shift > 0 ? 1u : value_bits < word_bits ? 1u << value_bits : 0u;
    for (uint32_t y = 0; y < kHeight; ++y) {
      for (uint32_t s = 0; s * kStretch < kWidth; ++s) {
        const uint32_t x = s * kStretch + (y * 3 + s * 7) % kStretch;
        if (x >= kWidth) continue;
        switch (s % 4) {
          case 1:
            PutWord(plane, x, y, (value + 1) << f.shift);
            break;
          case 2:
            if (f.pixel_stride > f.sample_size) {
              // A byte of the pixel outside this component's word.
              uint8_t* pixel = plane.storage.data() + plane.data_offset + size_t(y) * plane.view.pitch +
                               size_t(x) * f.pixel_stride;
              pixel[(f.offset + f.sample_size) % f.pixel_stride] ^= 0x5a;
            } else {
              PutWord(plane, x, y, (value - 1) << f.shift);
            }
            break;
          case 3:
            PutWord(plane, x, y, (value << f.shift) | outside);
            break;
          default:
            break;
        }
      }
    }
    cudahist::CpuHistogrammer backend(1u << f.depth);
    ExpectBackendEqualsReference(backend, {plane.view});
    if (HasFailure()) return;
  }
}

// Wide samples must start naturally aligned: odd starts are refused, not misread.
TEST_F(CpuBackend, MisalignedWideSamplesAreRefused) {
  for (uint32_t sample_size : {2u, 4u}) {
    for (size_t base = 1; base < 16; ++base) {
      if (base % sample_size == 0) continue;
      PlaneLayout l = LayoutOf({sample_size, 0, sample_size, 0, 10}, 17, 3, 0);
      l.base_offset = base;
      SCOPED_TRACE(Describe(l, Distribution::kUniform, 16));
      const HostPlane plane = Make(l, Distribution::kUniform);
      std::vector<uint32_t> counts(16, kPoison);
      cudahist::CpuHistogrammer backend(16);
      const cudahist::Status s = backend.Compute(&plane.view, 1, counts.data());
      EXPECT_EQ(s.code(), cudahist::StatusCode::kInvalidArgument);
      EXPECT_NE(s.message().find("plane[0].data"), std::string::npos) << s.message();
      EXPECT_EQ(counts, std::vector<uint32_t>(16, kPoison));
    }
  }
}

}  // namespace
