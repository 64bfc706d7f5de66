// tests/support/region_cases.h: frames and region lists for the region
// counts (cudahist/regions.h), shared by the CPU, host-walk and GPU suites:
// every layout the frame tests cover (YUV formats with their subsampling,
// RGBA, stride-3 RGB, 16-bit words, packed 10-bit words) with boxes that
// overlap, touch each edge, hold one pixel, the whole frame, nothing.
#pragma once

#include <cudahist/regions.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "test_planes.h"
#include "yuv_frames.h"

namespace cudahist_test {

// A frame for a region count, owning its planes (views point into them;
// moving keeps them valid, copying does not).
struct RegionCase {
  std::string name;
  std::vector<HostPlane> planes;
  cudahist::RegionFrame frame;
  uint32_t width = 0, height = 0;  // the frame's pixels (its full-resolution grid)
  uint32_t bins = 256;
  std::vector<cudahist::Roi> regions;

  RegionCase() = default;
  RegionCase(RegionCase&&) = default;
  RegionCase& operator=(RegionCase&&) = default;
  RegionCase(const RegionCase&) = delete;
  RegionCase& operator=(const RegionCase&) = delete;
};

// A YuvFrameSpec of `format` and size, every other field its default.
YuvFrameSpec YuvSpec(YuvFormat format, uint32_t width, uint32_t height);

// The Y, U and V of a YuvFrame with its subsampling.
cudahist::RegionFrame RegionFrameOf(const cudahist::YuvPlanes& yuv);

// The boxes every case gets on a width x height frame: the whole frame, a
// pixel in each corner, boxes touching the right and the bottom edge, two
// that overlap, one inside at odd corners, a row, a column, two empty ones,
// then `random_boxes` random ones (sides 1 to the frame's, anywhere inside).
std::vector<cudahist::Roi> EdgeRegions(uint32_t width, uint32_t height, uint32_t random_boxes, std::mt19937_64& rng);

// Random boxes of sides min_side to max_side (clipped to the frame), anywhere inside.
std::vector<cudahist::Roi> RandomRegions(uint32_t width, uint32_t height, uint32_t count, uint32_t min_side,
                                         uint32_t max_side, std::mt19937_64& rng);

// YUV formats at sizes 1x1 to 333x77 (NV12, I420, P010, Y444, YUY2 ... with
// padding and unaligned starts), gray, RGBA, stride-3 RGB, 16-bit words
// (4096 and 65536 bins), packed 10-bit words, each with EdgeRegions and
// several bin counts (1, 7, 64, 256, 1024, 4096, 65536).
std::vector<RegionCase> RegionCases(std::mt19937_64& rng);

std::string Describe(const RegionCase& c);
std::string Describe(const cudahist::Roi& r);

}  // namespace cudahist_test
