// Bad plane views and specs: every one is refused with kInvalidArgument and a
// message naming the field, by ValidateRequest and by both CPU entry points,
// which leave the counts untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cudahist/cpu.h"
#include "test_planes.h"

namespace {

using cudahist::Algorithm;
using cudahist::HistogramSpec;
using cudahist::PlaneView;
using cudahist::StatusCode;

using cudahist_test::kPoison;

// Never read: every view built on it is either refused or counts nothing.
alignas(16) const uint8_t kBytes[4096] = {};

PlaneView GoodPlane8() { return PlaneView{kBytes, /*width=*/30, /*height=*/20, /*pitch=*/32}; }

PlaneView GoodPlane16() {
  PlaneView p = GoodPlane8();
  p.width = 10;
  p.pitch = 48;
  p.pixel_stride = 4;
  p.offset = 2;
  p.sample_size = 2;
  p.shift = 6;
  p.depth = 10;
  return p;
}

struct BadPlaneCase {
  const char* what;
  std::function<void(PlaneView&)> spoil;
  const char* field;  // must appear in the message
};

void ExpectRefusedEverywhere(const HistogramSpec& spec, const std::vector<PlaneView>& planes,
                             StatusCode code, const std::string& field) {
  const int n = int(planes.size());
  const cudahist::Status checked = cudahist::ValidateRequest(spec, planes.data(), n);
  EXPECT_EQ(checked.code(), code) << checked.message();
  EXPECT_NE(checked.message().find(field), std::string::npos)
      << "message \"" << checked.message() << "\" does not name " << field;

  std::vector<uint32_t> counts(size_t(spec.bins) * 4 + 1, kPoison);
  const cudahist::Status reference =
      cudahist::ReferenceHistogram(spec, planes.data(), n, counts.data());
  EXPECT_EQ(reference.code(), code);
  EXPECT_EQ(reference.message(), checked.message());
  cudahist::CpuHistogrammer backend(spec.bins);
  const cudahist::Status fast = backend.Compute(planes.data(), n, counts.data());
  EXPECT_EQ(fast.code(), code);
  EXPECT_EQ(fast.message(), checked.message());
  for (uint32_t c : counts) ASSERT_EQ(c, kPoison) << "a refused call wrote counts";
}

// Each case's spoiled copy of `good` is refused everywhere, with a spec of `bins` bins.
void ExpectEachRefused(const std::vector<BadPlaneCase>& cases, const PlaneView& good, uint32_t bins) {
  for (const BadPlaneCase& c : cases) {
    SCOPED_TRACE(c.what);
    PlaneView p = good;
    c.spoil(p);
    HistogramSpec spec;
    spec.bins = bins;
    ExpectRefusedEverywhere(spec, {p}, StatusCode::kInvalidArgument, c.field);
  }
}

TEST(Validate, GoodPlanesPass) {
  for (const PlaneView& p : {GoodPlane8(), GoodPlane16()}) {
    const cudahist::Status s = cudahist::ValidatePlane(p, 0);
    EXPECT_TRUE(s.ok()) << s.message();
  }
}

TEST(Validate, BadPlanesNameTheField) {
  const std::vector<BadPlaneCase> cases = {
      {"null data", [](PlaneView& p) { p.data = nullptr; }, "plane[0].data"},
      {"null data, ROI with samples",
       [](PlaneView& p) {
         p.data = nullptr;
         p.has_roi = true;
         p.roi = {1, 1, 2, 2};
       },
       "plane[0].data"},
      {"pitch one byte short", [](PlaneView& p) { p.pitch = 29; }, "plane[0].pitch"},
      {"pitch 0", [](PlaneView& p) { p.pitch = 0; }, "plane[0].pitch"},
      {"offset past the pixel",
       [](PlaneView& p) {
         p.pixel_stride = 2;
         p.offset = 2;
         p.pitch = 64;
       },
       "plane[0].offset"},
      {"sample_size 3", [](PlaneView& p) { p.sample_size = 3; }, "plane[0].sample_size"},
      {"sample_size 0", [](PlaneView& p) { p.sample_size = 0; }, "plane[0].sample_size"},
      {"sample_size 8", [](PlaneView& p) { p.sample_size = 8; }, "plane[0].sample_size"},
      {"depth 0", [](PlaneView& p) { p.depth = 0; }, "plane[0].depth"},
      {"depth 17", [](PlaneView& p) { p.depth = 17; }, "plane[0].depth"},
      {"shift + depth past 8 bits", [](PlaneView& p) { p.shift = 1; }, "plane[0].shift"},
      {"huge shift", [](PlaneView& p) { p.shift = 0xFFFFFFFFu; }, "plane[0].shift"},
      {"pixel_stride 0", [](PlaneView& p) { p.pixel_stride = 0; }, "plane[0].pixel_stride"},
      {"ROI past the right edge",
       [](PlaneView& p) {
         p.has_roi = true;
         p.roi = {25, 0, 6, 1};
       },
       "plane[0].roi"},
      {"ROI past the bottom edge",
       [](PlaneView& p) {
         p.has_roi = true;
         p.roi = {0, 19, 1, 2};
       },
       "plane[0].roi"},
      {"ROI x + width wraps around",
       [](PlaneView& p) {
         p.has_roi = true;
         p.roi = {0xFFFFFFFFu, 0, 2, 1};
       },
       "plane[0].roi"},
      {"ROI y + height wraps around",
       [](PlaneView& p) {
         p.has_roi = true;
         p.roi = {0, 0xFFFFFFF0u, 1, 0x20};
       },
       "plane[0].roi"},
      {"empty ROI outside the plane",
       [](PlaneView& p) {
         p.has_roi = true;
         p.roi = {31, 0, 0, 1};
       },
       "plane[0].roi"},
      {"rows beyond the address space",
       [](PlaneView& p) {
         p.pitch = SIZE_MAX / 2;
         p.height = 3;
       },
       "plane[0].pitch"},
  };
  ExpectEachRefused(cases, GoodPlane8(), 2);
}

TEST(Validate, WideSamplesMustBeNaturallyAligned) {
  const std::vector<BadPlaneCase> cases = {
      {"odd data address", [](PlaneView& p) { p.data = kBytes + 1; }, "plane[0].data"},
      {"odd pitch", [](PlaneView& p) { p.pitch = 47; }, "plane[0].pitch"},
      {"odd pixel_stride",
       [](PlaneView& p) {
         p.pixel_stride = 5;
         p.pitch = 64;
       },
       "plane[0].pixel_stride"},
      {"odd offset", [](PlaneView& p) { p.offset = 1; }, "plane[0].offset"},
      {"4-byte word at a 2-byte offset",
       [](PlaneView& p) {
         p.sample_size = 4;
         p.pixel_stride = 8;
         p.offset = 2;
         p.pitch = 80;
       },
       "plane[0].offset"},
  };
  ExpectEachRefused(cases, GoodPlane16(), 4);
}

TEST(Validate, PitchMessageGivesTheValues) {
  PlaneView p = GoodPlane8();
  p.width = 333;
  p.height = 1;
  p.pitch = 300;
  EXPECT_EQ(cudahist::ValidatePlane(p, 0).message(),
            "plane[0].pitch: 300 bytes is smaller than a row of 333 samples (stride 1, offset 0, "
            "1-byte samples)");
}

TEST(Validate, EdgeCasesThatCountNothingOrExactlyFit) {
  std::vector<PlaneView> ok;
  PlaneView p = GoodPlane8();
  p.pitch = 30;  // exactly one row
  ok.push_back(p);
  p = GoodPlane16();
  p.pitch = (p.width - 1) * p.pixel_stride + p.offset + p.sample_size;  // 40: exact, even
  ok.push_back(p);
  p = GoodPlane8();
  p.width = 0;
  p.data = nullptr;
  p.pitch = 0;
  ok.push_back(p);
  p = GoodPlane8();
  p.height = 0;
  p.data = nullptr;
  ok.push_back(p);
  for (const cudahist::Roi roi : {cudahist::Roi{3, 4, 0, 5}, cudahist::Roi{3, 4, 5, 0},
                                  cudahist::Roi{30, 20, 0, 0}, cudahist::Roi{0, 0, 30, 20}}) {
    p = GoodPlane8();
    p.data = roi.width * roi.height == 0 ? nullptr : kBytes;
    p.has_roi = true;
    p.roi = roi;
    ok.push_back(p);
  }
  for (size_t i = 0; i < ok.size(); ++i) {
    const cudahist::Status s = cudahist::ValidatePlane(ok[i], 0);
    EXPECT_TRUE(s.ok()) << "case " << i << ": " << s.message();
  }
}

TEST(Validate, PlaneIndexIsTheOneThatFailed) {
  std::vector<PlaneView> planes(3, GoodPlane8());
  planes[2].pitch = 10;
  HistogramSpec spec;
  ExpectRefusedEverywhere(spec, planes, StatusCode::kInvalidArgument, "plane[2].pitch");
}

TEST(Validate, ComponentCount) {
  HistogramSpec spec;
  const std::vector<PlaneView> five(5, GoodPlane8());
  ExpectRefusedEverywhere(spec, five, StatusCode::kInvalidArgument, "num_planes");
  EXPECT_NE(cudahist::ValidateRequest(spec, five.data(), 0).message().find("num_planes: 0"),
            std::string::npos);
  EXPECT_NE(cudahist::ValidateRequest(spec, five.data(), -1).message().find("num_planes: -1"),
            std::string::npos);
  EXPECT_EQ(cudahist::ValidateRequest(spec, nullptr, 2).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(cudahist::ValidateRequest(spec, five.data(), 4).ok());
}

TEST(Validate, BinsFromOneToTwoToTheDepthOfEveryPlane) {
  const PlaneView ten_bit = GoodPlane16();
  const PlaneView eight_bit = GoodPlane8();
  HistogramSpec spec;
  spec.bins = 0;
  ExpectRefusedEverywhere(spec, {eight_bit}, StatusCode::kInvalidArgument, "spec.bins");
  spec.bins = 257;
  ExpectRefusedEverywhere(spec, {ten_bit, eight_bit}, StatusCode::kInvalidArgument, "spec.bins");
  const std::string message =
      cudahist::ValidateRequest(spec, std::vector<PlaneView>{ten_bit, eight_bit}.data(), 2)
          .message();
  EXPECT_NE(message.find("plane[1]"), std::string::npos) << message;
  EXPECT_NE(message.find("depth 8"), std::string::npos) << message;
  EXPECT_NE(message.find("257"), std::string::npos) << message;
  for (uint32_t bins : {1u, 256u}) {
    spec.bins = bins;
    const std::vector<PlaneView> planes{ten_bit, eight_bit};
    EXPECT_TRUE(cudahist::ValidateRequest(spec, planes.data(), 2).ok()) << bins;
  }
  spec.bins = 1024;
  EXPECT_TRUE(cudahist::ValidateRequest(spec, &ten_bit, 1).ok());
  spec.bins = 1025;
  EXPECT_EQ(cudahist::ValidateRequest(spec, &ten_bit, 1).code(), StatusCode::kInvalidArgument);
}

TEST(Validate, UnknownAlgorithmValue) {
  HistogramSpec spec;
  spec.algorithm = static_cast<Algorithm>(42);
  const PlaneView p = GoodPlane8();
  const cudahist::Status s = cudahist::ValidateRequest(spec, &p, 1);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "spec.algorithm: unknown value 42");
  std::vector<uint32_t> counts(spec.bins, kPoison);
  EXPECT_EQ(cudahist::ReferenceHistogram(spec, &p, 1, counts.data()).message(), s.message());
  EXPECT_EQ(counts, std::vector<uint32_t>(spec.bins, kPoison));
}

TEST(Validate, NullCounts) {
  const PlaneView p = GoodPlane8();
  HistogramSpec spec;
  EXPECT_EQ(cudahist::ReferenceHistogram(spec, &p, 1, nullptr).code(),
            StatusCode::kInvalidArgument);
  cudahist::CpuHistogrammer backend(spec.bins);
  const cudahist::Status s = backend.Compute(&p, 1, nullptr);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("counts"), std::string::npos) << s.message();
}

// More samples than a 32-bit count holds: refused before anything is read
// (the view points at a small buffer on purpose).
TEST(Validate, MoreSamplesThanThirtyTwoBitCounts) {
  PlaneView p = GoodPlane8();
  p.width = 65536;
  p.height = 65536;
  p.pitch = 65536;
  HistogramSpec spec;
  ExpectRefusedEverywhere(spec, {p}, StatusCode::kUnsupported, "plane[0].width");
  p.has_roi = true;
  p.roi = {0, 0, 65536, 65536};
  ExpectRefusedEverywhere(spec, {p}, StatusCode::kUnsupported, "plane[0].roi");
}

TEST(AlgorithmNames, RoundTrip) {
  const std::vector<std::pair<Algorithm, std::string>> all = {
      {Algorithm::kAuto, "auto"},
      {Algorithm::kPrivatized, "privatized"},
      {Algorithm::kPrivatizedPacked, "privatized-packed"},
      {Algorithm::kPrivatizedSharedAtomic, "privatized-shared"},
      {Algorithm::kTwoPhase, "two-phase"},
  };
  for (const auto& [algorithm, name] : all) {
    EXPECT_EQ(cudahist::AlgorithmName(algorithm), name);
    Algorithm parsed = static_cast<Algorithm>(-1);
    ASSERT_TRUE(cudahist::AlgorithmFromName(name, &parsed)) << name;
    EXPECT_EQ(parsed, algorithm) << name;
  }
  Algorithm untouched = Algorithm::kTwoPhase;
  for (const char* bad : {"", "Auto", "two_phase", "privatized ", "cub"}) {
    EXPECT_FALSE(cudahist::AlgorithmFromName(bad, &untouched)) << '"' << bad << '"';
  }
  EXPECT_EQ(untouched, Algorithm::kTwoPhase);
}

}  // namespace
