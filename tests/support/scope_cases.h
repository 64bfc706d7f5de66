// tests/support/scope_cases.h: the frames the scope counts are checked on
// (cudahist/scopes.h), shared by the CPU suite (fast path == reference) and
// the kernel suite (GPU == reference): 8, 10, 12 and 16-bit samples, 32-bit
// words, pixel strides 1, 2 and 4 with offsets, shifts, pitch padding with
// garbage, unaligned starts, ROI (inside, empty), odd sizes, groups 1, the
// width and in between (non-dividing), bins that are not powers of two,
// tall planes (the kernels' 128-column bands, row slices and second phase);
// joint pairs of NV12, I420, P010, Y444 and RGBA.
#pragma once

#include <cudahist/plane_view.h>
#include <cudahist/scopes.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "test_planes.h"

namespace cudahist_test {

// A request's planes and views (Frame, test_planes.h): column requests one
// view, joint requests two (a, b). The fields' order is the tables' column
// order (aggregate initialisation).

struct ColumnCase {
  std::string name;
  PlaneLayout layout;
  int components = 1;      // interleaved in the pixel, all drawn from `distribution`
  int component = 0;       // the one counted
  uint32_t groups = 1;
  uint32_t bins = 256;
  Distribution distribution = Distribution::kUniform;
  uint32_t one_value = 0;
  bool has_roi = false;
  cudahist::Roi roi{};
};

struct JointCase {
  std::string name;
  PlaneLayout layout;      // of plane a (two_planes: plane b too, with b_pitch_padding)
  int components = 2;      // interleaved (two_planes false): a and b are components of one plane
  int component_a = 0, component_b = 1;
  uint32_t bins_a = 256, bins_b = 256;
  Distribution distribution = Distribution::kUniform;
  bool two_planes = false; // I420 / Y444: a and b in planes of their own
  size_t b_pitch_padding = 0, b_base_offset = 0;
  bool has_roi = false;
  cudahist::Roi roi{};
};

std::vector<ColumnCase> ColumnCases();
cudahist::ColumnHistogramSpec ColumnSpecOf(const ColumnCase& c);
cudahist::JointHistogramSpec JointSpecOf(const JointCase& c);
std::vector<JointCase> JointCases();
// NV12 U-V frames whose joint plans change from one launch to the next, for
// back-to-back launches: many slices, then fewer rows than those slices,
// counts that are not a multiple of 8, slices of more than 65535 samples,
// b bins fewer than the parts.
std::vector<JointCase> JointShapeChanges();
Frame MakeColumnFrame(const ColumnCase& c, std::mt19937_64& rng);
Frame MakeJointFrame(const JointCase& c, std::mt19937_64& rng);

std::string Describe(const ColumnCase& c);
std::string Describe(const JointCase& c);
inline void PrintTo(const ColumnCase& c, std::ostream* os) { *os << Describe(c); }
inline void PrintTo(const JointCase& c, std::ostream* os) { *os << Describe(c); }

}  // namespace cudahist_test
