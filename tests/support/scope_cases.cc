#include "scope_cases.h"

#include <sstream>

namespace cudahist_test {
namespace {

PlaneLayout Layout(uint32_t width, uint32_t height, uint32_t stride, uint32_t sample_size, uint32_t shift,
                   uint32_t depth, size_t padding, size_t base) {
  return PlaneLayout{width, height, stride, /*offset=*/0, sample_size, shift, depth, padding, base};
}

ColumnCase WithRoi(ColumnCase c, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  c.has_roi = true;
  c.roi = cudahist::Roi{x, y, w, h};
  return c;
}

JointCase TwoPlanes(std::string name, PlaneLayout layout, size_t b_padding, size_t b_base, uint32_t bins_a,
                    uint32_t bins_b) {
  JointCase j{std::move(name), layout, 1, 0, 0, bins_a, bins_b, Distribution::kPeaked};
  j.two_planes = true;
  j.b_pitch_padding = b_padding;
  j.b_base_offset = b_base;
  return j;
}

}  // namespace

std::vector<ColumnCase> ColumnCases() {
  using D = Distribution;
  std::vector<ColumnCase> c;
  // 8-bit planes (GRAY8, I420 Y): groups = width, 1, non-dividing; bins 256, 100, 7.
  c.push_back({"gray8", Layout(333, 77, 1, 1, 0, 8, 3, 1), 1, 0, 333, 256});
  c.push_back({"gray8", Layout(333, 77, 1, 1, 0, 8, 3, 1), 1, 0, 1, 256, D::kPeaked});
  c.push_back({"gray8", Layout(333, 77, 1, 1, 0, 8, 3, 1), 1, 0, 100, 100, D::kPeaked});
  c.push_back({"gray8", Layout(17, 3, 1, 1, 0, 8, 0, 5), 1, 0, 5, 7});
  // Groups of 37 columns: wider than a band, so groups straddle bands (partials).
  c.push_back({"gray8", Layout(333, 77, 1, 1, 0, 8, 3, 1), 1, 0, 9, 256});
  c.push_back({"gray8", Layout(1, 7, 1, 1, 0, 8, 1, 0), 1, 0, 1, 256});
  c.push_back({"gray8 one value", Layout(64, 40, 1, 1, 0, 8, 0, 0), 1, 0, 64, 256, D::kOneValue, 201});
  // NV12's U and V (stride 2, offsets 0 and 1), RGBA's B (stride 4, offset 2).
  c.push_back({"nv12 u", Layout(167, 39, 2, 1, 0, 8, 5, 3), 2, 0, 167, 256});
  c.push_back({"nv12 v", Layout(167, 39, 2, 1, 0, 8, 5, 3), 2, 1, 40, 64, D::kPeaked});
  c.push_back({"rgba b", Layout(333, 20, 4, 1, 0, 8, 4, 0), 4, 2, 111, 256});
  // P010 Y (16-bit words, 10 bits shifted by 6): 1024 bins (tiles of 256), 1000 bins, 256.
  c.push_back({"p010 y", Layout(333, 77, 2, 2, 6, 10, 2, 2), 1, 0, 333, 1024});
  c.push_back({"p010 y", Layout(333, 77, 2, 2, 6, 10, 2, 2), 1, 0, 50, 1000, D::kPeaked});
  c.push_back({"p010 v", Layout(101, 13, 4, 2, 6, 10, 6, 4), 2, 1, 101, 256});
  c.push_back({"gray12", Layout(65, 9, 2, 2, 0, 12, 0, 0), 1, 0, 65, 4096});
  c.push_back({"gray16", Layout(65, 9, 2, 2, 0, 16, 2, 0), 1, 0, 13, 300});
  // 32-bit words (RGB10A2's B: 10 bits at bit 20).
  c.push_back({"rgb10a2 b", Layout(70, 11, 4, 4, 20, 10, 8, 4), 1, 0, 7, 1024});
  // ROI inside, empty width, empty height.
  c.push_back(WithRoi(ColumnCase{"gray8", Layout(333, 77, 1, 1, 0, 8, 3, 1), 1, 0, 33, 256}, 3, 2, 100, 50));
  c.push_back(WithRoi(ColumnCase{"gray8", Layout(333, 77, 1, 1, 0, 8, 3, 1), 1, 0, 1, 256}, 5, 5, 0, 10));
  c.push_back(WithRoi(ColumnCase{"gray8", Layout(333, 77, 1, 1, 0, 8, 3, 1), 1, 0, 10, 256}, 5, 5, 10, 0));
  // Tall planes (4100 rows >= the kernels' wide_min_rows): 128-column
  // bands, row slices and the second phase; 32-bit loads (pitch 200) or not.
  c.push_back({"tall gray8", Layout(200, 4100, 1, 1, 0, 8, 0, 0), 1, 0, 200, 256});
  c.push_back({"tall gray8", Layout(200, 4100, 1, 1, 0, 8, 3, 1), 1, 0, 64, 256, D::kPeaked});
  c.push_back({"tall gray8", Layout(131, 4100, 1, 1, 0, 8, 1, 0), 1, 0, 1, 100});
  // 32-bit loads (pitch 204) over 203 columns: the band's last lane holds 3.
  c.push_back({"tall gray8", Layout(203, 4100, 1, 1, 0, 8, 1, 0), 1, 0, 203, 256, D::kPeaked});
  c.push_back({"tall p010", Layout(130, 4200, 2, 2, 6, 10, 0, 0), 1, 0, 130, 1024});
  return c;
}

std::vector<JointCase> JointCases() {
  using D = Distribution;
  std::vector<JointCase> j;
  // NV12 U/V: one 16-bit word (even start) or two byte loads (odd start).
  j.push_back({"nv12 u/v", Layout(167, 39, 2, 1, 0, 8, 5, 2), 2, 0, 1, 256, 256});
  j.push_back({"nv12 u/v", Layout(167, 39, 2, 1, 0, 8, 5, 1), 2, 0, 1, 256, 256, D::kPeaked});
  j.push_back({"nv12 u/v", Layout(960, 270, 2, 1, 0, 8, 0, 0), 2, 0, 1, 64, 100});
  // Even pitch (the paired load; 16-byte chunks of rows that start and end
  // anywhere in a chunk), bins that do not divide into parts, a flat one
  // (chunks of equal pairs), and its ROI.
  j.push_back({"nv12 u/v", Layout(173, 41, 2, 1, 0, 8, 6, 2), 2, 0, 1, 256, 256});
  j.push_back({"nv12 u/v", Layout(173, 41, 2, 1, 0, 8, 6, 2), 2, 0, 1, 77, 100, D::kPeaked});
  j.push_back({"nv12 u/v", Layout(173, 41, 2, 1, 0, 8, 6, 2), 2, 0, 1, 256, 256, D::kOneValue});
  j.push_back({"nv21 v/u", Layout(61, 17, 2, 1, 0, 8, 3, 0), 2, 1, 0, 256, 256});
  // I420 U/V and Y444 U/V: planes of their own, different paddings.
  j.push_back(TwoPlanes("i420 u/v", Layout(167, 39, 1, 1, 0, 8, 3, 1), 9, 6, 256, 256));
  j.push_back(TwoPlanes("y444 u/v", Layout(333, 77, 1, 1, 0, 8, 0, 0), 5, 3, 256, 128));
  // P010 U/V: 16-bit words at stride 4, 10 bits shifted by 6.
  j.push_back({"p010 u/v", Layout(167, 39, 4, 2, 6, 10, 4, 2), 2, 0, 1, 256, 256});
  j.push_back({"p010 u/v", Layout(167, 39, 4, 2, 6, 10, 4, 2), 2, 0, 1, 200, 50, D::kPeaked});
  // RGBA pairs.
  j.push_back({"rgba r/g", Layout(333, 20, 4, 1, 0, 8, 4, 0), 4, 0, 1, 256, 256});
  j.push_back({"rgba b/r", Layout(333, 20, 4, 1, 0, 8, 4, 0), 4, 2, 0, 32, 16});
  j.push_back({"rgba g/b", Layout(100, 10, 4, 1, 0, 8, 0, 0), 4, 1, 2, 256, 7, D::kOneValue});
  // ROI on both planes; an empty one.
  JointCase roi{"nv12 u/v", Layout(167, 39, 2, 1, 0, 8, 5, 2), 2, 0, 1, 256, 256};
  roi.has_roi = true;
  roi.roi = cudahist::Roi{3, 4, 100, 30};
  j.push_back(roi);
  roi.roi = cudahist::Roi{3, 4, 0, 30};
  j.push_back(roi);
  JointCase even_roi{"nv12 u/v", Layout(173, 41, 2, 1, 0, 8, 6, 2), 2, 0, 1, 256, 256};
  even_roi.has_roi = true;
  even_roi.roi = cudahist::Roi{5, 3, 101, 33};
  j.push_back(even_roi);
  return j;
}

std::vector<JointCase> JointShapeChanges() {
  using D = Distribution;
  std::vector<JointCase> j;
  j.push_back({"nv12 u/v", Layout(960, 540, 2, 1, 0, 8, 0, 0), 2, 0, 1, 256, 256});  // 1080p's chroma
  j.push_back({"nv12 u/v", Layout(61, 3, 2, 1, 0, 8, 2, 0), 2, 0, 1, 256, 256});     // 3 rows
  j.push_back({"nv12 u/v", Layout(173, 41, 2, 1, 0, 8, 6, 2), 2, 0, 1, 77, 100});    // 7700 counts
  j.push_back({"nv12 u/v", Layout(4000, 600, 2, 1, 0, 8, 0, 0), 2, 0, 1, 256, 256}); // slices of 64K+
  j.push_back({"nv12 u/v", Layout(960, 540, 2, 1, 0, 8, 0, 0), 2, 0, 1, 256, 256, D::kPeaked});
  j.push_back({"nv12 u/v", Layout(167, 39, 2, 1, 0, 8, 5, 1), 2, 0, 1, 256, 7});     // odd start
  j.push_back({"nv12 u/v", Layout(61, 3, 2, 1, 0, 8, 2, 0), 2, 0, 1, 256, 256, D::kOneValue});
  return j;
}

Frame MakeColumnFrame(const ColumnCase& c, std::mt19937_64& rng) {
  Frame f;
  f.planes.push_back(MakeInterleavedPlane(c.layout, c.components, c.distribution, rng, c.one_value));
  f.views.push_back(ComponentViews(f.planes[0], c.components)[size_t(c.component)]);
  if (c.has_roi) RestrictToRoi(f, c.roi);
  return f;
}

Frame MakeJointFrame(const JointCase& c, std::mt19937_64& rng) {
  Frame f;
  if (c.two_planes) {
    PlaneLayout b = c.layout;
    b.pitch_padding = c.b_pitch_padding;
    b.base_offset = c.b_base_offset;
    f.planes.push_back(MakePlane(c.layout, c.distribution, rng));
    f.planes.push_back(MakePlane(b, c.distribution, rng));
    f.views = {f.planes[0].view, f.planes[1].view};
  } else {
    f.planes.push_back(MakeInterleavedPlane(c.layout, c.components, c.distribution, rng));
    const std::vector<cudahist::PlaneView> v = ComponentViews(f.planes[0], c.components);
    f.views = {v[size_t(c.component_a)], v[size_t(c.component_b)]};
  }
  if (c.has_roi) RestrictToRoi(f, c.roi);
  return f;
}

cudahist::ColumnHistogramSpec ColumnSpecOf(const ColumnCase& c) {
  return cudahist::ColumnHistogramSpec{c.groups, c.bins};
}

cudahist::JointHistogramSpec JointSpecOf(const JointCase& c) {
  return cudahist::JointHistogramSpec{c.bins_a, c.bins_b};
}

std::string Describe(const ColumnCase& c) {
  std::ostringstream s;
  const PlaneLayout& l = c.layout;
  s << c.name << " " << l.width << "x" << l.height << " stride " << l.pixel_stride << " comp " << c.component
    << " size " << l.sample_size << " shift " << l.shift << " depth " << l.depth << " pad " << l.pitch_padding
    << " base " << l.base_offset << " groups " << c.groups << " bins " << c.bins << " "
    << DistributionName(c.distribution);
  if (c.has_roi) s << " roi " << c.roi.x << "," << c.roi.y << " " << c.roi.width << "x" << c.roi.height;
  return s.str();
}

std::string Describe(const JointCase& c) {
  std::ostringstream s;
  const PlaneLayout& l = c.layout;
  s << c.name << " " << l.width << "x" << l.height << " stride " << l.pixel_stride << " size " << l.sample_size
    << " depth " << l.depth << " pad " << l.pitch_padding << " base " << l.base_offset << " bins " << c.bins_a
    << "x" << c.bins_b << " " << DistributionName(c.distribution);
  if (c.has_roi) s << " roi " << c.roi.x << "," << c.roi.y << " " << c.roi.width << "x" << c.roi.height;
  return s.str();
}

}  // namespace cudahist_test
