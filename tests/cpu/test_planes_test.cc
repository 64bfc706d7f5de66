// The shared test planes do what every suite relies on: samples where the
// view says, garbage everywhere else, exact alignment of the start.
#include "test_planes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>

#include "seeded_rng.h"

namespace {

using cudahist_test::Distribution;
using cudahist_test::HostPlane;
using cudahist_test::PlaneLayout;

uint32_t WordAt(const uint8_t* p, uint32_t size) {
  uint32_t word = 0;
  for (uint32_t b = 0; b < size; ++b) word |= uint32_t(p[b]) << (8 * b);
  return word;
}

// The luma of a Y416-like layout: 10 bits at shift 6 of the second 16-bit word of each pixel.
PlaneLayout HighBitsOfSecondWord(uint32_t width, uint32_t height, size_t pitch_padding) {
  return PlaneLayout{width, height, /*pixel_stride=*/4, /*offset=*/2, /*sample_size=*/2, /*shift=*/6,
                     /*depth=*/10, pitch_padding};
}

TEST(TestPlanes, LayoutAlignmentAndSizes) {
  cudahist_test::SeededRng rng;
  PlaneLayout l = HighBitsOfSecondWord(33, 5, 10);
  for (size_t base = 0; base < 20; base += 2) {
    l.base_offset = base;
    const HostPlane p = cudahist_test::MakePlane(l, Distribution::kUniform, rng);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p.storage.data()) % 256, 0u);
    EXPECT_EQ(static_cast<const uint8_t*>(p.view.data), p.storage.data() + base);
    EXPECT_EQ(p.data_offset, base);
    EXPECT_EQ(p.view.pitch, 33u * 4 + 10);
    EXPECT_EQ(p.bytes, p.view.pitch * 5);
    EXPECT_GE(p.storage.size(), base + p.bytes);
    EXPECT_EQ(p.view.offset, 2u);
    EXPECT_EQ(p.view.shift, 6u);
    EXPECT_EQ(p.view.depth, 10u);
  }
}

// kOneValue writes exactly the component's bits; every other bit stays random
// (so across the plane the garbage takes many values).
TEST(TestPlanes, OneValueTouchesOnlyTheComponentBits) {
  cudahist_test::SeededRng rng;
  const PlaneLayout l = HighBitsOfSecondWord(40, 6, 8);
  const HostPlane p = cudahist_test::MakePlane(l, Distribution::kOneValue, rng, 777);
  const auto* data = static_cast<const uint8_t*>(p.view.data);
  std::set<uint32_t> low_bits, other_component, padding;
  for (uint32_t y = 0; y < l.height; ++y) {
    const uint8_t* row = data + y * p.view.pitch;
    for (uint32_t x = 0; x < l.width; ++x) {
      const uint32_t word = WordAt(row + x * 4 + 2, 2);
      ASSERT_EQ((word >> 6) & 1023u, 777u) << x << "," << y;
      low_bits.insert(word & 63u);
      other_component.insert(WordAt(row + x * 4, 2));
    }
    for (size_t b = l.width * 4; b < p.view.pitch; ++b) padding.insert(row[b]);
  }
  EXPECT_GT(low_bits.size(), 16u);
  EXPECT_GT(other_component.size(), 100u);
  EXPECT_GT(padding.size(), 16u);
}

TEST(TestPlanes, InterleavedComponentsAndTheirViews) {
  cudahist_test::SeededRng rng;
  PlaneLayout l;
  l.width = 5;
  l.height = 2;
  l.pixel_stride = 4;
  const HostPlane p = cudahist_test::MakeInterleavedPlane(l, 4, Distribution::kOneValue, rng, 42);
  const auto views = cudahist_test::ComponentViews(p, 4);
  ASSERT_EQ(views.size(), 4u);
  for (uint32_t k = 0; k < 4; ++k) {
    EXPECT_EQ(views[k].offset, k);
    const auto* d = static_cast<const uint8_t*>(views[k].data);
    for (uint32_t y = 0; y < 2; ++y) {
      for (uint32_t x = 0; x < 5; ++x) EXPECT_EQ(d[y * views[k].pitch + x * 4 + k], 42);
    }
  }
}

TEST(TestPlanes, PeakedIsCentredAndUniformSpreads) {
  cudahist_test::SeededRng rng;
  PlaneLayout l;
  l.width = 4096;
  const HostPlane peaked = cudahist_test::MakePlane(l, Distribution::kPeaked, rng);
  const HostPlane uniform = cudahist_test::MakePlane(l, Distribution::kUniform, rng);
  auto in_middle = [](const HostPlane& p) {
    const auto* d = static_cast<const uint8_t*>(p.view.data);
    size_t n = 0;
    for (size_t i = 0; i < p.view.width; ++i) n += d[i] >= 64 && d[i] < 192;
    return n;
  };
  // Mean of four uniform draws lies in [64, 192) with probability 11/12, about 92%, one draw 50%.
  EXPECT_GT(in_middle(peaked), 4096u * 85 / 100);
  EXPECT_LT(in_middle(uniform), 4096u * 60 / 100);
}

TEST(TestPlanes, BadLayoutsThrow) {
  std::mt19937_64 rng(1);
  PlaneLayout l;
  l.offset = 1;  // past a 1-byte pixel
  EXPECT_THROW(cudahist_test::MakePlane(l, Distribution::kUniform, rng), std::invalid_argument);
  l = PlaneLayout{};
  EXPECT_THROW(cudahist_test::MakePlane(l, Distribution::kOneValue, rng, 256),
               std::invalid_argument);
}

TEST(TestPlanes, DistributionNames) {
  EXPECT_STREQ(cudahist_test::DistributionName(Distribution::kUniform), "uniform");
  EXPECT_STREQ(cudahist_test::DistributionName(Distribution::kOneValue), "one-value");
  EXPECT_STREQ(cudahist_test::DistributionName(Distribution::kPeaked), "peaked");
}

}  // namespace
