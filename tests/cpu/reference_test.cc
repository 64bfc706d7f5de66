// The oracle checked by something independent of it: tiny planes written
// byte by byte here, with counts worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cudahist/cpu.h"
#include "test_planes.h"

namespace {

using cudahist::PlaneView;

using cudahist_test::kPoison;

// One row of `width` samples, no padding.
PlaneView OneRow(const void* data, uint32_t width, uint32_t pixel_stride = 1,
                 uint32_t sample_size = 1) {
  return PlaneView{data, width, /*height=*/1, size_t(width) * pixel_stride, pixel_stride, /*offset=*/0, sample_size};
}

std::vector<uint32_t> Reference(uint32_t bins, const std::vector<PlaneView>& planes) {
  cudahist::HistogramSpec spec;
  spec.bins = bins;
  std::vector<uint32_t> counts(size_t(bins) * planes.size(), kPoison);
  const cudahist::Status s =
      cudahist::ReferenceHistogram(spec, planes.data(), int(planes.size()), counts.data());
  EXPECT_TRUE(s.ok()) << s.message();
  return counts;
}

std::vector<uint32_t> Sparse(uint32_t bins, std::vector<std::pair<uint32_t, uint32_t>> bin_counts) {
  std::vector<uint32_t> counts(bins, 0);
  for (const auto& [bin, n] : bin_counts) counts[bin] = n;
  return counts;
}

// 2x2 GRAY8 in a 3-byte pitch; the padding byte (value 7) is never counted.
TEST(Reference, Gray8WithPitchPadding) {
  const uint8_t bytes[] = {0,   255, 7,  //
                           128, 128, 7};
  PlaneView p{bytes, /*width=*/2, /*height=*/2, /*pitch=*/3};
  EXPECT_EQ(Reference(256, {p}), Sparse(256, {{0, 1}, {128, 2}, {255, 1}}));
  // 2 bins split at 128: {0} | {255, 128, 128}.
  EXPECT_EQ(Reference(2, {p}), (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(Reference(1, {p}), (std::vector<uint32_t>{4}));
}

// bin = v * 7 >> 8: 36 -> 252 >> 8 = 0, 37 -> 259 >> 8 = 1, 255 -> 1785 >> 8 = 6.
TEST(Reference, SevenBinsRoundDown) {
  const uint8_t bytes[] = {36, 37, 255};
  const PlaneView p = OneRow(bytes, 3);
  EXPECT_EQ(Reference(7, {p}), (std::vector<uint32_t>{1, 1, 0, 0, 0, 0, 1}));
}

// P010: 10 bits in the high end of little-endian 16-bit words.
// 0x0040 >> 6 = 1; 0xFFC0 >> 6 = 1023; 0x803F >> 6 = 512 (low 6 garbage bits dropped).
TEST(Reference, P010HighBits) {
  alignas(2) const uint8_t bytes[] = {0x40, 0x00, 0xC0, 0xFF, 0x3F, 0x80};
  PlaneView p = OneRow(bytes, 3, 2, 2);
  p.shift = 6;
  p.depth = 10;
  EXPECT_EQ(Reference(1024, {p}), Sparse(1024, {{1, 1}, {512, 1}, {1023, 1}}));
  // 4 bins of 256 codes: 1 -> 0, 512 -> 2, 1023 -> 3.
  EXPECT_EQ(Reference(4, {p}), (std::vector<uint32_t>{1, 0, 1, 1}));
}

// RGB10A2_LE-like 32-bit words: 10 bits at shift 20, bits above are another component.
// 0x3FF00000 -> 0x3FF = 1023; 0xC0100000 >> 20 = 0xC01, & 0x3FF = 1.
TEST(Reference, PackedThirtyTwoBitWords) {
  alignas(4) const uint8_t bytes[] = {0x00, 0x00, 0xF0, 0x3F, 0x00, 0x00, 0x10, 0xC0};
  PlaneView p = OneRow(bytes, 2, 4, 4);
  p.shift = 20;
  p.depth = 10;
  EXPECT_EQ(Reference(1024, {p}), Sparse(1024, {{1, 1}, {1023, 1}}));
}

// RGB, 3 pixels x 2 rows; B (offset 2) of the ROI x 1..2, row 1 only: 21, 24.
// Pixels outside the ROI and the other components hold values that would show.
TEST(Reference, StrideThreeOffsetAndRoi) {
  const uint8_t bytes[] = {
      1,  2,  3,  4,  5,  6,  7,  8,  9,  99,  //
      10, 11, 12, 13, 14, 21, 16, 17, 24, 99,
  };
  PlaneView p{bytes, /*width=*/3, /*height=*/2, /*pitch=*/10, /*pixel_stride=*/3, /*offset=*/2};
  p.has_roi = true;
  p.roi = {1, 1, 2, 1};
  EXPECT_EQ(Reference(256, {p}), Sparse(256, {{21, 1}, {24, 1}}));
  p.roi = {0, 0, 0, 2};
  EXPECT_EQ(Reference(256, {p}), Sparse(256, {}));
}

// NV12-like UV: two components of one interleaved plane, counts component-major.
TEST(Reference, TwoComponentsComponentMajor) {
  const uint8_t uv[] = {10, 200, 11, 201};
  const PlaneView u = OneRow(uv, 2, 2);
  PlaneView v = u;
  v.offset = 1;
  // 2 bins: U {10, 11} -> bin 0; V {200, 201} -> bin 1.
  EXPECT_EQ(Reference(2, {u, v}), (std::vector<uint32_t>{2, 0, 0, 2}));
}

// A 1-bit component (bit 3 of each byte) with a plane that counts nothing beside it.
TEST(Reference, OneBitDepthAndEmptyPlane) {
  const uint8_t bytes[] = {0x08, 0xF7, 0xFF, 0x00};
  PlaneView bit3 = OneRow(bytes, 4);
  bit3.shift = 3;
  bit3.depth = 1;
  PlaneView empty;
  empty.width = 0;
  empty.height = 5;
  EXPECT_EQ(Reference(2, {bit3, empty}), (std::vector<uint32_t>{2, 2, 0, 0}));
}

}  // namespace
