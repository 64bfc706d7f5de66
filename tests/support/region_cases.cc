#include "region_cases.h"

#include <algorithm>
#include <utility>

namespace cudahist_test {
namespace {

using cudahist::Roi;

bool Fits(const Roi& r, uint32_t width, uint32_t height) {
  return uint64_t(r.x) + r.width <= width && uint64_t(r.y) + r.height <= height;
}

PlaneLayout Layout(uint32_t w, uint32_t h, uint32_t stride, uint32_t sample_size, uint32_t shift, uint32_t depth,
                   size_t padding, size_t base_offset) {
  return PlaneLayout{w, h, stride, /*offset=*/0, sample_size, shift, depth, padding, base_offset};
}

// A frame of components without subsampling: `n` components interleaved in
// one plane of `layout` (n = 1: a plane of its own), each with `shifts[k]`
// when they share a word (packed 10-bit words).
RegionCase Unsubsampled(const std::string& name, const PlaneLayout& layout, int n, Distribution d,
                        std::mt19937_64& rng, const std::vector<uint32_t>& shifts = {}) {
  RegionCase c;
  c.name = name;
  c.width = layout.width;
  c.height = layout.height;
  if (shifts.empty()) {
    c.planes.push_back(MakeInterleavedPlane(layout, n, d, rng, 200));
    const std::vector<cudahist::PlaneView> views = ComponentViews(c.planes[0], n);
    for (int k = 0; k < n; ++k) c.frame.planes[k] = views[k];
  } else {
    c.planes.push_back(MakePlane(layout, d, rng, 200));
    for (int k = 0; k < n; ++k) {
      c.frame.planes[k] = c.planes[0].view;
      c.frame.planes[k].shift = shifts[k];
    }
  }
  c.frame.num_planes = n;
  return c;
}

RegionCase FromYuv(const YuvFrameSpec& spec, std::mt19937_64& rng) {
  YuvFrame yuv = MakeYuvFrame(spec, rng);
  RegionCase c;
  c.name = Describe(spec);
  c.width = spec.width;
  c.height = spec.height;
  c.frame = RegionFrameOf(yuv.view);
  c.planes = std::move(yuv.planes);  // the views keep pointing into the moved storage
  return c;
}

// The case with `bins` and the edge regions of its frame.
RegionCase& WithRegions(RegionCase& c, uint32_t bins, uint32_t random_boxes, std::mt19937_64& rng) {
  c.bins = bins;
  c.regions = EdgeRegions(c.width, c.height, random_boxes, rng);
  return c;
}

}  // namespace

YuvFrameSpec YuvSpec(YuvFormat format, uint32_t width, uint32_t height) {
  YuvFrameSpec spec;
  spec.format = format;
  spec.width = width;
  spec.height = height;
  return spec;
}

cudahist::RegionFrame RegionFrameOf(const cudahist::YuvPlanes& yuv) {
  cudahist::RegionFrame f;
  f.planes[0] = yuv.y;
  f.planes[1] = yuv.u;
  f.planes[2] = yuv.v;
  for (int k = 0; k < 3; ++k) f.planes[k].has_roi = false;
  f.log2_hsub[1] = f.log2_hsub[2] = yuv.log2_hsub;
  f.log2_vsub[1] = f.log2_vsub[2] = yuv.log2_vsub;
  f.num_planes = 3;
  return f;
}

std::vector<Roi> RandomRegions(uint32_t width, uint32_t height, uint32_t count, uint32_t min_side, uint32_t max_side,
                               std::mt19937_64& rng) {
  std::vector<Roi> regions;
  const auto side = [&](uint32_t frame_side) {
    const uint32_t lo = std::min(min_side, frame_side), hi = std::min(max_side, frame_side);
    return lo + uint32_t(rng() % (hi - lo + 1));
  };
  for (uint32_t i = 0; i < count; ++i) {
    Roi r;
    r.width = side(width);
    r.height = side(height);
    r.x = uint32_t(rng() % (width - r.width + 1));
    r.y = uint32_t(rng() % (height - r.height + 1));
    regions.push_back(r);
  }
  return regions;
}

std::vector<Roi> EdgeRegions(uint32_t width, uint32_t height, uint32_t random_boxes, std::mt19937_64& rng) {
  const uint32_t w = width, h = height;
  const std::vector<Roi> candidates = {
      {0, 0, w, h},                                  // the whole frame
      {0, 0, 1, 1}, {w - 1, 0, 1, 1}, {0, h - 1, 1, 1}, {w - 1, h - 1, 1, 1},  // a pixel in each corner
      {w / 2, 0, w - w / 2, h},                      // touching the right edge
      {0, h / 2, w, h - h / 2},                      // touching the bottom edge
      {0, 0, w / 2 + 1, h / 2 + 1},                  // two that overlap
      {w / 3, h / 3, w - w / 3, h - h / 3},
      {1, 1, w - 2, h - 2},                          // odd corners inside
      {0, h / 2, w, 1},                              // a row
      {w / 2, 0, 1, h},                              // a column
      {w / 2, h / 2, 0, 5},                          // empty
      {1, 0, 3, 0},
  };
  std::vector<Roi> regions;
  for (const Roi& r : candidates) {
    if (r.width <= w && r.height <= h && Fits(r, w, h)) regions.push_back(r);
  }
  const std::vector<Roi> random = RandomRegions(w, h, random_boxes, 1, std::max(w, h), rng);
  regions.insert(regions.end(), random.begin(), random.end());
  return regions;
}

// Frames whose pitches are multiples of 16, as CUDA allocations' are: rows
// at one place in their chunks, which the region kernels walk by column steps
// (tile_walk.cuh; the cases above have odd pitches and take the unit walk).
// Every YUV format, rows starting on a chunk and inside one; then the pixel
// strides and sample sizes the YUV formats do not have.
void AddColumnStepCases(std::mt19937_64& rng, std::vector<RegionCase>* cases) {
  for (YuvFormat format : AllYuvFormats()) {
    for (const size_t base : {size_t(0), size_t(6)}) {
      YuvFrameSpec spec = YuvSpec(format, 333, 77);
      spec.pitch_alignment = 64;
      spec.base_offset = base;
      const uint32_t depth = YuvFormatDepth(format);
      cases->push_back(FromYuv(spec, rng));
      WithRegions(cases->back(), base == 0 ? 1u << depth : 7, 20, rng);
    }
  }
  const auto padded_to_16 = [](uint32_t row_bytes) { return size_t((16 - row_bytes % 16) % 16); };
  RegionCase& gray = cases->emplace_back(Unsubsampled(
      "gray8, pitch 16n", Layout(333, 77, 1, 1, 0, 8, padded_to_16(333), 3), 1, Distribution::kUniform, rng));
  WithRegions(gray, 256, 30, rng);
  RegionCase& rgba = cases->emplace_back(Unsubsampled(
      "rgba, pitch 16n", Layout(333, 77, 4, 1, 0, 8, padded_to_16(4 * 333), 0), 4, Distribution::kPeaked, rng));
  WithRegions(rgba, 256, 30, rng);
  RegionCase& rgba7 = cases->emplace_back(Unsubsampled(
      "rgba, pitch 16n", Layout(333, 77, 4, 1, 0, 8, padded_to_16(4 * 333), 4), 4, Distribution::kUniform, rng));
  WithRegions(rgba7, 7, 30, rng);
  RegionCase& words = cases->emplace_back(Unsubsampled("words16 shift 6 depth 10, pitch 16n",
                                                       Layout(333, 77, 2, 2, 6, 10, padded_to_16(2 * 333), 2), 1,
                                                       Distribution::kUniform, rng));
  WithRegions(words, 1024, 30, rng);
  RegionCase& flat = cases->emplace_back(Unsubsampled(
      "gray8 flat, pitch 16n", Layout(333, 77, 1, 1, 0, 8, padded_to_16(333), 0), 1, Distribution::kOneValue, rng));
  WithRegions(flat, 256, 30, rng);
}

std::vector<RegionCase> RegionCases(std::mt19937_64& rng) {
  std::vector<RegionCase> cases;
  struct Size {
    uint32_t w, h;
  };
  for (YuvFormat format : AllYuvFormats()) {
    for (const Size& s : {Size{1, 1}, Size{3, 5}, Size{18, 4}, Size{333, 77}}) {
      YuvFrameSpec spec = YuvSpec(format, s.w, s.h);
      spec.pitch_padding = s.w % 2 == 1 ? 7 : 3;
      spec.base_offset = s.h % 2 == 1 ? 5 : 1;
      const uint32_t depth = YuvFormatDepth(format);
      cases.push_back(FromYuv(spec, rng));
      WithRegions(cases.back(), 1u << depth, 20, rng);
      if (s.w == 333) {
        cases.push_back(FromYuv(spec, rng));
        WithRegions(cases.back(), 7, 20, rng);
        spec.distribution = Distribution::kOneValue;
        spec.one_value = 77;
        cases.push_back(FromYuv(spec, rng));
        WithRegions(cases.back(), 64, 20, rng);
      }
    }
  }
  for (const Size& s : {Size{1, 1}, Size{17, 3}, Size{333, 77}}) {
    const size_t padding = s.w % 3, base = (s.w * 7) % 16;
    RegionCase& gray = cases.emplace_back(Unsubsampled("gray8", Layout(s.w, s.h, 1, 1, 0, 8, padding, base), 1,
                                                       Distribution::kUniform, rng));
    WithRegions(gray, 256, 30, rng);
    RegionCase& rgba = cases.emplace_back(Unsubsampled("rgba", Layout(s.w, s.h, 4, 1, 0, 8, padding, base + 1), 4,
                                                       Distribution::kPeaked, rng));
    WithRegions(rgba, 256, 30, rng);
    RegionCase& rgb = cases.emplace_back(Unsubsampled("rgb stride 3", Layout(s.w, s.h, 3, 1, 0, 8, padding, base), 3,
                                                      Distribution::kUniform, rng));
    WithRegions(rgb, 7, 30, rng);
    RegionCase& p10 = cases.emplace_back(Unsubsampled("words16 shift 6 depth 10",
                                                      Layout(s.w, s.h, 2, 2, 6, 10, 2 * padding, 2 * (base / 2)),
                                                      1, Distribution::kUniform, rng));
    WithRegions(p10, s.w == 17 ? 1000 : 1024, 30, rng);
    RegionCase& w12 = cases.emplace_back(Unsubsampled("words16 depth 12", Layout(s.w, s.h, 2, 2, 0, 12, 0, 0), 1,
                                                      Distribution::kPeaked, rng));
    WithRegions(w12, 4096, 30, rng);
    RegionCase& w16 = cases.emplace_back(Unsubsampled("words16 depth 16", Layout(s.w, s.h, 2, 2, 0, 16, 0, 2), 1,
                                                      Distribution::kUniform, rng));
    WithRegions(w16, 65536, 10, rng);
    RegionCase& packed = cases.emplace_back(Unsubsampled("packed 10-bit words", Layout(s.w, s.h, 4, 4, 20, 10, 4, 4),
                                                         3, Distribution::kUniform, rng, {0, 10, 20}));
    WithRegions(packed, 1024, 30, rng);
  }
  RegionCase& flat = cases.emplace_back(
      Unsubsampled("gray8 flat", Layout(333, 77, 1, 1, 0, 8, 3, 0), 1, Distribution::kOneValue, rng));
  WithRegions(flat, 1, 30, rng);
  AddColumnStepCases(rng, &cases);
  return cases;
}

std::string Describe(const Roi& r) {
  return "(" + std::to_string(r.x) + "," + std::to_string(r.y) + " " + std::to_string(r.width) + "x" +
         std::to_string(r.height) + ")";
}

std::string Describe(const RegionCase& c) {
  return c.name + " " + std::to_string(c.width) + "x" + std::to_string(c.height) + " bins " + std::to_string(c.bins) +
         ", " + std::to_string(c.regions.size()) + " regions";
}

}  // namespace cudahist_test
