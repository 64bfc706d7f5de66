// The scope counts on the CPU (cudahist/scopes.h): the references against
// hand-computed frames, the fast paths against the references over the shared
// case matrix (tests/support/scope_cases.h), and every bad request refused
// with a message naming the field, counts untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cudahist/scopes.h"
#include "scope_cases.h"
#include "seeded_rng.h"
#include "test_planes.h"

namespace cudahist_test {
namespace {

using cudahist::ColumnHistogramSpec;
using cudahist::JointHistogramSpec;
using cudahist::PlaneView;
using cudahist::Status;
using cudahist::StatusCode;

// 5 x 2 8-bit samples, pitch 6 (the sixth byte of a row is garbage).
//   row 0:   0  64 128 192 255
//   row 1: 255   0  63  64 128
const uint8_t kTiny[12] = {0, 64, 128, 192, 255, 0xEE, 255, 0, 63, 64, 128, 0xEE};

PlaneView View(const void* data, uint32_t width, uint32_t height, size_t pitch, uint32_t stride = 1,
               uint32_t sample_size = 1, uint32_t shift = 0, uint32_t depth = 8) {
  return PlaneView{data, width, height, pitch, stride, /*offset=*/0, sample_size, shift, depth};
}

PlaneView TinyPlane() { return View(kTiny, 5, 2, 6); }

std::vector<uint32_t> Column(const ColumnHistogramSpec& spec, const PlaneView& plane, bool fast) {
  std::vector<uint32_t> counts(cudahist::ColumnCountsLength(spec), kPoison);
  const Status s = fast ? cudahist::CpuColumnHistogram(spec, plane, counts.data())
                        : cudahist::ReferenceColumnHistogram(spec, plane, counts.data());
  EXPECT_TRUE(s.ok()) << s.message();
  return counts;
}

std::vector<uint32_t> Joint(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b, bool fast) {
  std::vector<uint32_t> counts(cudahist::JointCountsLength(spec), kPoison);
  const Status s = fast ? cudahist::CpuJointHistogram(spec, a, b, counts.data())
                        : cudahist::ReferenceJointHistogram(spec, a, b, counts.data());
  EXPECT_TRUE(s.ok()) << s.message();
  return counts;
}

class ScopesByPath : public ::testing::TestWithParam<bool> {};  // false: reference, true: fast path

// groups 2 of width 5: columns 0-2 and 3-4 (x * 2 / 5); 4 bins: value / 64.
TEST_P(ScopesByPath, ColumnGroupsThatDoNotDivideTheWidth) {
  const ColumnHistogramSpec spec{/*groups=*/2, /*bins=*/4};
  EXPECT_EQ(Column(spec, TinyPlane(), GetParam()), (std::vector<uint32_t>{3, 1, 1, 1, 0, 1, 1, 2}));
}

// ROI x 1..3 of row 1 (0, 63, 64), one group per column.
TEST_P(ScopesByPath, ColumnRoi) {
  PlaneView p = TinyPlane();
  p.has_roi = true;
  p.roi = cudahist::Roi{1, 1, 3, 1};
  const ColumnHistogramSpec spec{/*groups=*/3, /*bins=*/4};
  EXPECT_EQ(Column(spec, p, GetParam()), (std::vector<uint32_t>{1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0}));
}

// P010-like words: 10 bits above 6 bits of garbage; 2 bins split at 512.
TEST_P(ScopesByPath, ColumnShiftedWords) {
  alignas(4) const uint16_t words[2] = {uint16_t(1023u << 6 | 0x15u), uint16_t(511u << 6 | 0x2Au)};
  const PlaneView p = View(words, 2, 1, 4, 2, 2, 6, 10);
  const ColumnHistogramSpec spec{/*groups=*/2, /*bins=*/2};
  EXPECT_EQ(Column(spec, p, GetParam()), (std::vector<uint32_t>{0, 1, 1, 0}));
}

TEST_P(ScopesByPath, ColumnEmptyRoiCountsNothing) {
  PlaneView p = TinyPlane();
  p.has_roi = true;
  p.roi = cudahist::Roi{2, 0, 0, 2};
  const ColumnHistogramSpec spec{/*groups=*/4, /*bins=*/3};
  EXPECT_EQ(Column(spec, p, GetParam()), std::vector<uint32_t>(12, 0));
}

// NV12-like UV pairs (0, 255), (128, 128), (255, 0).
const uint8_t kUv[8] = {0, 255, 128, 128, 255, 0, 0xEE, 0xEE};

TEST_P(ScopesByPath, JointPairsOfInterleavedComponents) {
  const PlaneView u = View(kUv, 3, 1, 8, 2);
  PlaneView v = u;
  v.offset = 1;
  JointHistogramSpec spec{/*bins_a=*/2, /*bins_b=*/2};
  // (a, b) bins: (0, 1), (1, 1), (1, 0) -> counts[b * 2 + a].
  EXPECT_EQ(Joint(spec, u, v, GetParam()), (std::vector<uint32_t>{0, 1, 1, 1}));
  spec.bins_a = 4;
  spec.bins_b = 1;
  EXPECT_EQ(Joint(spec, u, v, GetParam()), (std::vector<uint32_t>{1, 0, 1, 1}));
}

INSTANTIATE_TEST_SUITE_P(Scopes, ScopesByPath, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "Fast" : "Reference");
                         });

TEST(ScopeGroups, ColumnGroupOfCutsEqualGroups) {
  EXPECT_EQ(cudahist::ColumnGroupOf(0, 480, 1920), 0u);
  EXPECT_EQ(cudahist::ColumnGroupOf(3, 480, 1920), 0u);
  EXPECT_EQ(cudahist::ColumnGroupOf(4, 480, 1920), 1u);
  EXPECT_EQ(cudahist::ColumnGroupOf(1919, 480, 1920), 479u);
  std::vector<uint32_t> widths(1024, 0);
  for (uint32_t x = 0; x < 1920; ++x) ++widths[cudahist::ColumnGroupOf(x, 1024, 1920)];
  for (uint32_t w : widths) EXPECT_TRUE(w == 1 || w == 2) << w;
}

// --- the fast paths against the references, over the shared matrix ----------------

class CpuColumnMatrix : public ::testing::TestWithParam<ColumnCase> {};

TEST_P(CpuColumnMatrix, FastPathEqualsReference) {
  SeededRng rng;
  const ColumnCase& c = GetParam();
  const Frame f = MakeColumnFrame(c, rng);
  const std::vector<uint32_t> reference = Column(ColumnSpecOf(c), f.views[0], false);
  EXPECT_EQ(Column(ColumnSpecOf(c), f.views[0], true), reference);
  EXPECT_EQ(std::accumulate(reference.begin(), reference.end(), uint64_t(0)), cudahist::CountedSamples(f.views[0]));
}

INSTANTIATE_TEST_SUITE_P(Cases, CpuColumnMatrix, ::testing::ValuesIn(ColumnCases()));

class CpuJointMatrix : public ::testing::TestWithParam<JointCase> {};

TEST_P(CpuJointMatrix, FastPathEqualsReference) {
  SeededRng rng;
  const JointCase& c = GetParam();
  const Frame f = MakeJointFrame(c, rng);
  const std::vector<uint32_t> reference = Joint(JointSpecOf(c), f.views[0], f.views[1], false);
  EXPECT_EQ(Joint(JointSpecOf(c), f.views[0], f.views[1], true), reference);
  EXPECT_EQ(std::accumulate(reference.begin(), reference.end(), uint64_t(0)), cudahist::CountedSamples(f.views[0]));
}

INSTANTIATE_TEST_SUITE_P(Cases, CpuJointMatrix, ::testing::ValuesIn(JointCases()));

// --- bad requests ---------------------------------------------------------------

// Every entry point refuses with `code` and a message starting with `prefix`,
// leaving the counts untouched.
void ExpectColumnRefused(const ColumnHistogramSpec& spec, const PlaneView& plane, StatusCode code,
                         const std::string& prefix) {
  EXPECT_EQ(cudahist::ValidateColumnRequest(spec, plane).code(), code);
  EXPECT_EQ(cudahist::ValidateColumnRequest(spec, plane).message().rfind(prefix, 0), 0u)
      << cudahist::ValidateColumnRequest(spec, plane).message();
  std::vector<uint32_t> counts(64, kPoison);
  EXPECT_EQ(cudahist::ReferenceColumnHistogram(spec, plane, counts.data()).code(), code);
  EXPECT_EQ(cudahist::CpuColumnHistogram(spec, plane, counts.data()).code(), code);
  EXPECT_EQ(counts, std::vector<uint32_t>(64, kPoison));
}

void ExpectJointRefused(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b, StatusCode code,
                        const std::string& prefix) {
  const Status s = cudahist::ValidateJointRequest(spec, a, b);
  EXPECT_EQ(s.code(), code);
  EXPECT_EQ(s.message().rfind(prefix, 0), 0u) << s.message();
  std::vector<uint32_t> counts(64, kPoison);
  EXPECT_EQ(cudahist::ReferenceJointHistogram(spec, a, b, counts.data()).code(), code);
  EXPECT_EQ(cudahist::CpuJointHistogram(spec, a, b, counts.data()).code(), code);
  EXPECT_EQ(counts, std::vector<uint32_t>(64, kPoison));
}

TEST(ScopeValidation, ColumnRequestsNameTheField) {
  const auto invalid = StatusCode::kInvalidArgument;
  ColumnHistogramSpec spec;
  spec.bins = 4;
  spec.groups = 0;
  ExpectColumnRefused(spec, TinyPlane(), invalid, "spec.groups: 0");
  spec.groups = 6;
  ExpectColumnRefused(spec, TinyPlane(), invalid, "spec.groups: 6 is more than the counted width 5");
  PlaneView roi = TinyPlane();
  roi.has_roi = true;
  roi.roi = cudahist::Roi{0, 0, 1, 2};
  spec.groups = 2;
  ExpectColumnRefused(spec, roi, invalid, "spec.groups: 2 is more than the counted width 1");
  spec.groups = 1;
  spec.bins = 0;
  ExpectColumnRefused(spec, TinyPlane(), invalid, "spec.bins: 0");
  spec.bins = 512;
  ExpectColumnRefused(spec, TinyPlane(), invalid, "spec.bins: 512 is more than the 256 code values");
  spec.bins = 4;
  PlaneView narrow = TinyPlane();
  narrow.pitch = 4;
  ExpectColumnRefused(spec, narrow, invalid, "plane[0].pitch");
  EXPECT_EQ(cudahist::CpuColumnHistogram(spec, TinyPlane(), nullptr).message(), "counts: null");
  EXPECT_EQ(cudahist::ReferenceColumnHistogram(spec, TinyPlane(), nullptr).message(), "counts: null");
}

TEST(ScopeValidation, JointRequestsNameTheField) {
  const auto invalid = StatusCode::kInvalidArgument;
  const PlaneView u = View(kUv, 3, 1, 8, 2);
  PlaneView v = u;
  v.offset = 1;
  JointHistogramSpec spec;
  PlaneView short_v = v;
  short_v.width = 2;
  ExpectJointRefused(spec, u, short_v, invalid, "plane[1]: counted region 2x1 differs from plane[0]'s 3x1");
  spec.bins_a = 0;
  ExpectJointRefused(spec, u, v, invalid, "spec.bins_a: 0");
  spec.bins_a = 512;
  ExpectJointRefused(spec, u, v, invalid, "spec.bins_a: 512 is more than the 256 code values");
  spec.bins_a = 256;
  alignas(4) const uint16_t words[4] = {};
  const PlaneView deep = View(words, 3, 1, 8, 2, 2, 0, 16);
  spec.bins_b = 300;
  ExpectJointRefused(spec, u, deep, invalid, "spec.bins_b: 300 is more than 256");
  spec.bins_b = 256;
  PlaneView bad_b = v;
  bad_b.offset = 2;
  ExpectJointRefused(spec, u, bad_b, invalid, "plane[1].offset");
  EXPECT_EQ(cudahist::CpuJointHistogram(spec, u, v, nullptr).message(), "counts: null");
  EXPECT_EQ(cudahist::ReferenceJointHistogram(spec, u, v, nullptr).message(), "counts: null");
}

}  // namespace
}  // namespace cudahist_test
