// signalstats on the CPU: the reference against hand-worked frames (the sat
// and hue of chosen pairs are the values Debian's ffmpeg 5.1 printed for
// 1x1 yuv444p frames of those pairs), FiguresOf and RebinCounts against
// hand-built histograms, validation messages, and the CPU backend against
// the reference over the format matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "cudahist/cpu.h"
#include "cudahist/signalstats.h"
#include "seeded_rng.h"
#include "test_planes.h"
#include "yuv_frames.h"

namespace {

using cudahist::PlaneView;
using cudahist::QcCounts;
using cudahist::QcFigures;
using cudahist::SignalStatsCounts;
using cudahist::YuvPlanes;

// A planar frame written sample by sample: 8-bit samples in bytes, deeper
// ones in little-endian 16-bit words; rows without padding.
struct TinyFrame {
  std::vector<uint16_t> y16, u16, v16;
  std::vector<uint8_t> y8, u8, v8;
  YuvPlanes view;

  TinyFrame(uint32_t depth, uint32_t width, uint32_t height, uint32_t hsub, uint32_t vsub,
            const std::vector<uint32_t>& y, const std::vector<uint32_t>& u, const std::vector<uint32_t>& v) {
    const uint32_t cw = (width + (1u << hsub) - 1) >> hsub, ch = (height + (1u << vsub) - 1) >> vsub;
    EXPECT_EQ(y.size(), size_t(width) * height);
    EXPECT_EQ(u.size(), size_t(cw) * ch);
    EXPECT_EQ(v.size(), size_t(cw) * ch);
    view.log2_hsub = hsub;
    view.log2_vsub = vsub;
    view.y = Plane(depth, width, height, y, y8, y16);
    view.u = Plane(depth, cw, ch, u, u8, u16);
    view.v = Plane(depth, cw, ch, v, v8, v16);
  }

 private:
  static PlaneView Plane(uint32_t depth, uint32_t w, uint32_t h, const std::vector<uint32_t>& values,
                         std::vector<uint8_t>& b8, std::vector<uint16_t>& b16) {
    PlaneView p;
    p.width = w;
    p.height = h;
    p.depth = depth;
    p.sample_size = depth > 8 ? 2 : 1;
    p.pixel_stride = p.sample_size;
    p.pitch = size_t(w) * p.sample_size;
    if (depth > 8) {
      b16.assign(values.begin(), values.end());
      p.data = b16.data();
    } else {
      b8.assign(values.begin(), values.end());
      p.data = b8.data();
    }
    return p;
  }
};

SignalStatsCounts Reference(const YuvPlanes& frame, const YuvPlanes* previous = nullptr) {
  SignalStatsCounts c;
  std::memset(&c, 0xAB, sizeof(c));  // poison: everything must be written
  const cudahist::Status s = cudahist::ReferenceSignalStats(frame, previous, &c);
  EXPECT_TRUE(s.ok()) << s.message();
  return c;
}

// The sat and hue of a 4:4:4 frame of one chroma pair.
std::pair<int, int> SatHue(uint32_t depth, uint32_t u, uint32_t v) {
  const uint32_t mid = 1u << (depth - 1);
  TinyFrame f(depth, 1, 1, 0, 0, {mid}, {u}, {v});
  const SignalStatsCounts c = Reference(f.view);
  int sat = -1, hue = -1;
  for (uint32_t i = 0; i < (1u << depth); ++i) {
    if (c.sat[i] == 1) sat = int(i);
  }
  for (uint32_t i = 0; i < cudahist::kHueBins; ++i) {
    if (c.hue[i] == 1) hue = int(i);
  }
  return {sat, hue};
}

TEST(SignalStatsReference, SatAndHueOfKnownPairs8Bit) {
  EXPECT_EQ(SatHue(8, 128, 128), std::make_pair(0, 180));  // atan2f(0, 0) = 0
  EXPECT_EQ(SatHue(8, 100, 128), std::make_pair(28, 90));  // 89.9999975 as a double; floorf sees 90.f
  EXPECT_EQ(SatHue(8, 0, 128), std::make_pair(128, 90));
  EXPECT_EQ(SatHue(8, 128, 100), std::make_pair(28, 0));    // atan2f = the float above pi: 360 -> fmodf 0
  EXPECT_EQ(SatHue(8, 200, 128), std::make_pair(72, 270));
  EXPECT_EQ(SatHue(8, 0, 0), std::make_pair(181, 45));      // hypotf(128, 128) = 181.02
  EXPECT_EQ(SatHue(8, 255, 255), std::make_pair(179, 225)); // hypotf(127, 127) = 179.6
}

TEST(SignalStatsReference, SatAndHueOfKnownPairs10Bit) {
  EXPECT_EQ(SatHue(10, 512, 512), std::make_pair(0, 180));
  EXPECT_EQ(SatHue(10, 0, 512), std::make_pair(512, 90));
  EXPECT_EQ(SatHue(10, 512, 0), std::make_pair(512, 0));
  EXPECT_EQ(SatHue(10, 1023, 1023), std::make_pair(722, 225));  // hypotf(511, 511) = 722.66
  EXPECT_EQ(SatHue(10, 0, 0), std::make_pair(724, 45));         // hypotf(512, 512) = 724.08
}

// Luma 15 16 235 236 240 241 on neutral chroma: 15, 236, 240 and 241 are out.
TEST(SignalStatsReference, BrngLumaEdges8Bit) {
  TinyFrame f(8, 6, 1, 0, 0, {15, 16, 235, 236, 240, 241}, {128, 128, 128, 128, 128, 128},
              {128, 128, 128, 128, 128, 128});
  EXPECT_EQ(Reference(f.view).brng, 4u);
}

// Chroma 15 16 235 236 240 241 (U, then V) under luma 128: only 15 and 241 are out.
TEST(SignalStatsReference, BrngChromaEdges8Bit) {
  const std::vector<uint32_t> edges = {15, 16, 235, 236, 240, 241}, neutral(6, 128);
  TinyFrame in_u(8, 6, 1, 0, 0, neutral, edges, neutral);
  EXPECT_EQ(Reference(in_u.view).brng, 2u);
  TinyFrame in_v(8, 6, 1, 0, 0, neutral, neutral, edges);
  EXPECT_EQ(Reference(in_v.view).brng, 2u);
}

// 10 bits: mult 4, so 64 .. 940 for luma and 64 .. 960 for chroma are in range.
TEST(SignalStatsReference, BrngEdges10Bit) {
  const std::vector<uint32_t> neutral(6, 512);
  TinyFrame luma(10, 6, 1, 0, 0, {63, 64, 940, 941, 960, 961}, neutral, neutral);
  EXPECT_EQ(Reference(luma.view).brng, 4u);  // 63, 941, 960, 961
  TinyFrame chroma(10, 6, 1, 0, 0, neutral, {63, 64, 940, 941, 960, 961}, neutral);
  EXPECT_EQ(Reference(chroma.view).brng, 2u);  // 63, 961
}

// 4:2:0, 3x3 luma: chroma is 2x2. The out-of-range chroma sample (1, 0)
// covers luma (2, 0) and (2, 1) only; luma (0, 2) = 250 is out by itself.
TEST(SignalStatsReference, BrngTakesChromaAtTheSubsampledPosition) {
  TinyFrame f(8, 3, 3, 1, 1, {100, 100, 100, 100, 100, 100, 250, 100, 100}, {128, 10, 128, 128},
              {128, 128, 128, 128});
  const SignalStatsCounts c = Reference(f.view);
  EXPECT_EQ(c.brng, 3u);
  EXPECT_EQ(c.luma_samples, 9u);
  EXPECT_EQ(c.chroma_samples, 4u);
  EXPECT_EQ(c.y[100], 8u);
  EXPECT_EQ(c.y[250], 1u);
  EXPECT_EQ(c.u[10], 1u);
  EXPECT_EQ(c.u[128], 3u);
  EXPECT_EQ(c.v[128], 4u);
  EXPECT_EQ(c.depth, 8u);
}

TEST(SignalStatsReference, DifWithAndWithoutPrevious) {
  // 4:2:2, 3x2 luma, chroma 2x2.
  TinyFrame now(8, 3, 2, 1, 0, {10, 20, 30, 40, 50, 60}, {100, 110, 120, 130}, {200, 190, 180, 170});
  TinyFrame before(8, 3, 2, 1, 0, {12, 18, 30, 45, 50, 0}, {100, 100, 100, 100}, {200, 200, 200, 200});
  const SignalStatsCounts alone = Reference(now.view);
  EXPECT_EQ(alone.has_previous, 0u);
  EXPECT_EQ(alone.dif_y, 0u);
  EXPECT_EQ(alone.dif_u, 0u);
  EXPECT_EQ(alone.dif_v, 0u);
  const SignalStatsCounts c = Reference(now.view, &before.view);
  EXPECT_EQ(c.has_previous, 1u);
  EXPECT_EQ(c.dif_y, 2u + 2 + 0 + 5 + 0 + 60);
  EXPECT_EQ(c.dif_u, 0u + 10 + 20 + 30);
  EXPECT_EQ(c.dif_v, 0u + 10 + 20 + 30);
  // Against itself: 0, as signalstats' first frame.
  const SignalStatsCounts self = Reference(now.view, &now.view);
  EXPECT_EQ(self.dif_y + self.dif_u + self.dif_v, 0u);
}

// Only the ROI's luma and the chroma samples it touches count.
TEST(SignalStatsReference, RoiCountsTheRegionOnly) {
  // 4:2:0 4x2 luma, chroma 2x1; ROI luma x 1..2, row 0: touches both chroma samples.
  TinyFrame f(8, 4, 2, 1, 1, {1, 2, 3, 4, 5, 6, 7, 8}, {20, 30}, {40, 50});
  for (PlaneView* p : {&f.view.y, &f.view.u, &f.view.v}) p->has_roi = true;
  f.view.y.roi = {1, 0, 2, 1};
  f.view.u.roi = f.view.v.roi = {0, 0, 2, 1};
  const SignalStatsCounts c = Reference(f.view);
  EXPECT_EQ(c.luma_samples, 2u);
  EXPECT_EQ(c.y[2] + c.y[3], 2u);
  EXPECT_EQ(c.chroma_samples, 2u);
  EXPECT_EQ(c.u[20] + c.u[30], 2u);
  EXPECT_EQ(c.brng, 2u);  // luma 2 and 3 are below 16
}

SignalStatsCounts EmptyCounts(uint32_t depth) {
  SignalStatsCounts c;
  std::memset(&c, 0, sizeof(c));
  c.depth = depth;
  return c;
}

// N = 25: lrint(2.5) = 2 and lrint(22.5) = 22 (round half to even).
TEST(SignalStatsFigures, PercentilesRoundAsLrint) {
  SignalStatsCounts c = EmptyCounts(8);
  c.luma_samples = 25;
  c.y[5] = 2;    // running 2: reaches lrint(2.5) = 2 (half up would need 3)
  c.y[6] = 1;    // 3
  c.y[50] = 19;  // 22: reaches lrint(22.5) = 22
  c.y[60] = 3;   // 25
  c.dif_y = 50;
  c.brng = 5;
  const cudahist::SignalStatsFigures f = cudahist::FiguresOf(c);
  EXPECT_EQ(f.y_min, 5);
  EXPECT_EQ(f.y_low, 5);
  EXPECT_EQ(f.y_high, 50);
  EXPECT_EQ(f.y_max, 60);
  EXPECT_DOUBLE_EQ(f.y_avg, (5.0 * 2 + 6 + 50.0 * 19 + 60.0 * 3) / 25);
  EXPECT_DOUBLE_EQ(f.y_dif, 2.0);
  EXPECT_DOUBLE_EQ(f.brng, 0.2);
}

// N = 15: lrint(1.5) = 2 and lrint(13.5) = 14 (both rounding to even, upwards).
TEST(SignalStatsFigures, ChromaPercentilesAndSat) {
  SignalStatsCounts c = EmptyCounts(10);
  c.chroma_samples = 15;
  c.u[100] = 1;
  c.u[101] = 1;   // running 2
  c.u[900] = 12;  // 14
  c.u[1000] = 1;  // 15
  c.v[512] = 15;
  c.sat[0] = 15;
  c.hue[180] = 15;
  c.dif_u = 30;
  const cudahist::SignalStatsFigures f = cudahist::FiguresOf(c);
  EXPECT_EQ(f.u_min, 100);
  EXPECT_EQ(f.u_low, 101);
  EXPECT_EQ(f.u_high, 900);
  EXPECT_EQ(f.u_max, 1000);
  EXPECT_EQ(f.v_min, 512);
  EXPECT_EQ(f.v_low, 512);
  EXPECT_EQ(f.v_high, 512);
  EXPECT_EQ(f.sat_max, 0);
  EXPECT_DOUBLE_EQ(f.v_avg, 512.0);
  EXPECT_DOUBLE_EQ(f.u_dif, 2.0);
  EXPECT_EQ(f.hue_med, 180);
  EXPECT_DOUBLE_EQ(f.hue_avg, 180.0);
}

// HUEMED: the first hue whose running count EXCEEDS N / 2 (integer division).
TEST(SignalStatsFigures, HueMedianIsStrictlyAboveHalf) {
  SignalStatsCounts c = EmptyCounts(8);
  c.chroma_samples = 4;
  c.hue[10] = 2;  // running 2: not > 2
  c.hue[20] = 2;  // 4
  EXPECT_EQ(cudahist::FiguresOf(c).hue_med, 20);
  c.chroma_samples = 5;
  c.hue[20] = 3;  // 5 / 2 = 2: 10 still not enough
  EXPECT_EQ(cudahist::FiguresOf(c).hue_med, 20);
  c.hue[10] = 3;  // running 3 > 2 at 10
  c.hue[20] = 2;
  EXPECT_EQ(cudahist::FiguresOf(c).hue_med, 10);
  EXPECT_DOUBLE_EQ(cudahist::FiguresOf(c).hue_avg, (3.0 * 10 + 2.0 * 20) / 5);
}

// Nothing counted: signalstats' starting values (-1) stay for min and max.
TEST(SignalStatsFigures, EmptyHistograms) {
  SignalStatsCounts c = EmptyCounts(8);
  const cudahist::SignalStatsFigures f = cudahist::FiguresOf(c);
  EXPECT_EQ(f.y_min, -1);
  EXPECT_EQ(f.y_max, -1);
  EXPECT_EQ(f.y_low, 0);  // lrint(0) = 0 is reached at once
  EXPECT_EQ(f.hue_med, -1);
}

TEST(SignalStatsRebin, EqualsCountingWithCoarserBins) {
  cudahist_test::SeededRng rng;
  for (uint32_t depth : {8u, 10u}) {
    cudahist_test::PlaneLayout l;
    l.width = 97;
    l.height = 31;
    l.depth = depth;
    l.sample_size = depth > 8 ? 2 : 1;
    l.pixel_stride = l.sample_size;
    l.pitch_padding = 6;
    const cudahist_test::HostPlane plane = cudahist_test::MakePlane(l, cudahist_test::Distribution::kPeaked, rng);
    cudahist::HistogramSpec full;
    full.bins = 1u << depth;
    std::vector<uint32_t> fine(full.bins);
    ASSERT_TRUE(cudahist::ReferenceHistogram(full, &plane.view, 1, fine.data()).ok());
    for (uint32_t bins : {1u, 7u, 64u, 100u, 256u, 1u << depth}) {
      SCOPED_TRACE("depth " + std::to_string(depth) + " bins " + std::to_string(bins));
      cudahist::HistogramSpec spec;
      spec.bins = bins;
      std::vector<uint32_t> want(bins), got(bins, 0xDEADBEEFu);
      ASSERT_TRUE(cudahist::ReferenceHistogram(spec, &plane.view, 1, want.data()).ok());
      cudahist::RebinCounts(fine.data(), depth, bins, got.data());
      EXPECT_EQ(got, want);
    }
  }
}

// --- Validation ------------------------------------------------------------

cudahist::Status Validate(const YuvPlanes& f, const YuvPlanes* previous = nullptr) {
  return cudahist::ValidateYuvPlanes(f, previous);
}

// Validates `f` (against `previous`), expects a refusal whose message starts
// with `prefix` (the field's name) and gives the status back for more checks.
cudahist::Status ExpectRefusedNaming(const char* prefix, const YuvPlanes& f, const YuvPlanes* previous = nullptr) {
  const cudahist::Status s = Validate(f, previous);
  EXPECT_EQ(s.message().rfind(prefix, 0), 0u) << s.message();
  return s;
}

TEST(SignalStatsValidate, NamesTheField) {
  TinyFrame good(8, 3, 3, 1, 1, std::vector<uint32_t>(9, 100), std::vector<uint32_t>(4, 128),
                 std::vector<uint32_t>(4, 128));
  ASSERT_TRUE(Validate(good.view).ok());
  ASSERT_TRUE(Validate(good.view, &good.view).ok());

  YuvPlanes f = good.view;
  f.u.pitch = 1;
  EXPECT_EQ(ExpectRefusedNaming("u.pitch: ", f).code(), cudahist::StatusCode::kInvalidArgument);

  f = good.view;
  f.v.width = 1;
  ExpectRefusedNaming("v.width: ", f);

  TinyFrame wide(10, 3, 3, 1, 1, std::vector<uint32_t>(9, 100), std::vector<uint32_t>(4, 512),
                 std::vector<uint32_t>(4, 512));
  f = wide.view;
  f.y.depth = 12;
  EXPECT_EQ(ExpectRefusedNaming("y.depth: 12 bits is outside 8 to 10", f).code(), cudahist::StatusCode::kUnsupported);

  f = wide.view;
  f.v.depth = 9;
  ExpectRefusedNaming("v.depth: ", f);

  f = good.view;
  f.log2_hsub = 2;
  ExpectRefusedNaming("log2_hsub: ", f);

  f = good.view;
  f.y.has_roi = true;
  f.y.roi = {0, 0, 2, 2};
  ExpectRefusedNaming("u.has_roi: ", f);
  f.u.has_roi = f.v.has_roi = true;
  f.u.roi = f.v.roi = {0, 0, 2, 1};  // should be 1x1
  ExpectRefusedNaming("u.roi: ", f);
  f.u.roi = f.v.roi = {0, 0, 1, 1};
  EXPECT_TRUE(Validate(f).ok());

  f = good.view;
  f.u.data = nullptr;
  ExpectRefusedNaming("u.data: ", f);
}

TEST(SignalStatsValidate, PreviousMustMatch) {
  TinyFrame now(8, 3, 3, 1, 1, std::vector<uint32_t>(9, 100), std::vector<uint32_t>(4, 128),
                std::vector<uint32_t>(4, 128));
  TinyFrame other_size(8, 4, 3, 1, 1, std::vector<uint32_t>(12, 100), std::vector<uint32_t>(4, 128),
                       std::vector<uint32_t>(4, 128));
  ExpectRefusedNaming("previous.y.width: ", now.view, &other_size.view);

  TinyFrame deeper(10, 3, 3, 1, 1, std::vector<uint32_t>(9, 100), std::vector<uint32_t>(4, 128),
                   std::vector<uint32_t>(4, 128));
  ExpectRefusedNaming("previous.y.sample_size: ", now.view, &deeper.view);

  YuvPlanes p = now.view;
  p.u.pitch = 0;
  ExpectRefusedNaming("previous.u.pitch: ", now.view, &p);

  p = now.view;
  p.log2_vsub = 0;
  p.u.height = p.v.height = 3;
  ExpectRefusedNaming("previous.log2_hsub: ", now.view, &p);

  SignalStatsCounts c;
  EXPECT_EQ(cudahist::ReferenceSignalStats(now.view, nullptr, nullptr).message(), "counts: null");
  cudahist::CpuSignalStats cpu;
  EXPECT_EQ(cpu.Compute(now.view, &other_size.view, &c).message().rfind("previous.y.width: ", 0), 0u);
}

// --- The CPU backend against the reference ------------------------------

TEST(SignalStatsCpuBackend, EqualsReferenceOverTheMatrix) {
  cudahist_test::SeededRng rng;
  cudahist::CpuSignalStats cpu;
  for (const auto& [spec, frame, previous] : cudahist_test::SignalStatsMatrixFrames(rng)) {
    SCOPED_TRACE(cudahist_test::Describe(spec));
    for (const YuvPlanes* prev : {static_cast<const YuvPlanes*>(nullptr), &previous.view}) {
      SignalStatsCounts got;
      std::memset(&got, 0xCD, sizeof(got));
      const cudahist::Status s = cpu.Compute(frame.view, prev, &got);
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(cudahist_test::CountsDifference(got, Reference(frame.view, prev)), "");
    }
  }
}

// The counts are exact integers: the figures of equal counts are equal, and a
// flat frame's figures are the flat value.
TEST(SignalStatsCpuBackend, FlatFrameFigures) {
  std::mt19937_64 rng(1);
  cudahist_test::YuvFrameSpec spec;
  spec.format = cudahist_test::YuvFormat::kNv12;
  spec.width = 64;
  spec.height = 36;
  spec.distribution = cudahist_test::Distribution::kOneValue;
  spec.one_value = 128;
  const cudahist_test::YuvFrame frame = cudahist_test::MakeYuvFrame(spec, rng);
  SignalStatsCounts c;
  cudahist::CpuSignalStats cpu;
  ASSERT_TRUE(cpu.Compute(frame.view, &frame.view, &c).ok());
  const cudahist::SignalStatsFigures f = cudahist::FiguresOf(c);
  EXPECT_EQ(f.y_min, 128);
  EXPECT_EQ(f.y_low, 128);
  EXPECT_EQ(f.y_high, 128);
  EXPECT_EQ(f.u_max, 128);
  EXPECT_EQ(f.sat_max, 0);
  EXPECT_EQ(f.hue_med, 180);
  EXPECT_DOUBLE_EQ(f.y_avg, 128.0);
  EXPECT_DOUBLE_EQ(f.y_dif, 0.0);
  EXPECT_DOUBLE_EQ(f.brng, 0.0);
}

// --- The QC counts: TOUT, VREP, cropdetect, field PSNR -----------------

QcCounts ReferenceQc(const YuvPlanes& frame) {
  static QcCounts c;  // 64 KB: not on the stack
  std::memset(&c, 0xAB, sizeof(c));
  const cudahist::Status s = cudahist::ReferenceQcCounts(frame, &c);
  EXPECT_TRUE(s.ok()) << s.message();
  return c;
}

// A 4:4:4 frame of `rows` (one value a row), chroma at mid grey.
TinyFrame RowsFrame(uint32_t depth, uint32_t width, const std::vector<uint32_t>& rows) {
  std::vector<uint32_t> y;
  for (uint32_t v : rows) y.insert(y.end(), width, v);
  const std::vector<uint32_t> grey(y.size(), 1u << (depth - 1));
  return TinyFrame(depth, width, uint32_t(rows.size()), 0, 0, y, grey, grey);
}

TEST(QcReference, ToutFlagsASpikeRowAwayFromTheEdges) {
  // Row 2 of 5 stands out from rows 0, 1, 3 and 4: its pixels x = 1 to 3
  // (not the edge columns) are outliers against both pairs of rows.
  TinyFrame f = RowsFrame(8, 5, {10, 10, 200, 10, 10});
  const QcCounts c = ReferenceQc(f.view);
  EXPECT_EQ(c.tout, 3u);
  EXPECT_DOUBLE_EQ(cudahist::QcFiguresOf(c).tout, 3.0 / 25);
  // A spike of 4 or less is no outlier.
  EXPECT_EQ(ReferenceQc(RowsFrame(8, 5, {10, 10, 14, 10, 10}).view).tout, 0u);
  EXPECT_EQ(ReferenceQc(RowsFrame(8, 5, {10, 10, 16, 10, 10}).view).tout, 3u);
}

TEST(QcReference, ToutNearTheTopAndBottomUsesTheNeighbouringRowsOnly) {
  // Rows 1 and 2 of 4: no row two away on one side, so only rows y - 1 and
  // y + 1 are asked; row 1 (between 10 and 10) is flagged, row 2 (between
  // 200 and 10) is not.
  EXPECT_EQ(ReferenceQc(RowsFrame(8, 4, {10, 200, 10, 10}).view).tout, 2u);
}

TEST(QcReference, ToutOfDeeperSamplesSeesTheirLowEightBits) {
  // 10 bits: 512 against 256 differs only above bit 7, so FFmpeg's uint8_t
  // parameters see no spike; 300 against 256 is 44 against 0.
  EXPECT_EQ(ReferenceQc(RowsFrame(10, 5, {256, 256, 512, 256, 256}).view).tout, 0u);
  EXPECT_EQ(ReferenceQc(RowsFrame(10, 5, {256, 256, 300, 256, 256}).view).tout, 3u);
}

TEST(QcReference, VrepCountsRowsEqualToTheRowFourAbove) {
  // Rows 4 to 8 of a flat frame repeat row y - 4: 5 rows of 3 pixels.
  const QcCounts flat = ReferenceQc(RowsFrame(8, 3, std::vector<uint32_t>(9, 50)).view);
  EXPECT_EQ(flat.vrep_rows, 5u);
  EXPECT_DOUBLE_EQ(cudahist::QcFiguresOf(flat).vrep, 15.0 / 27);
  // A row whose summed difference reaches the width is not a repeat; one
  // below it is. Row 4 against row 0: 3 x 1 = 3, not below 3.
  std::vector<uint32_t> y(15, 50);
  y[12] = 51;  // row 4, column 0: the sum is 1
  TinyFrame below(8, 3, 5, 0, 0, y, std::vector<uint32_t>(15, 128), std::vector<uint32_t>(15, 128));
  EXPECT_EQ(ReferenceQc(below.view).vrep_rows, 1u);
  const QcCounts reaches = ReferenceQc(RowsFrame(8, 3, {50, 50, 50, 50, 51}).view);
  EXPECT_EQ(reaches.vrep_rows, 0u);
}

// A 40x36 4:2:0 frame, luma 200 in columns 5 to 30 of rows 3 to 28 and 0
// elsewhere, or all 0; the figures are those Debian's ffmpeg 5.1 printed for
// these frames with cropdetect=reset=1.
TEST(QcReference, CropDetectOfABoxAndOfABlackFrame) {
  std::vector<uint32_t> box(40 * 36, 0);
  for (uint32_t y = 3; y <= 28; ++y) {
    for (uint32_t x = 5; x <= 30; ++x) box[y * 40 + x] = 200;
  }
  const std::vector<uint32_t> grey(20 * 18, 128);
  TinyFrame f(8, 40, 36, 1, 1, box, grey, grey);
  const QcCounts c = ReferenceQc(f.view);
  EXPECT_EQ(c.row_sums[3], 26u * 200);
  EXPECT_EQ(c.column_sums[5], 26u * 200);
  QcFigures q = cudahist::QcFiguresOf(c);
  ASSERT_TRUE(q.has_crop);
  EXPECT_EQ(q.crop_x1, 5);
  EXPECT_EQ(q.crop_x2, 30);
  EXPECT_EQ(q.crop_y1, 3);
  EXPECT_EQ(q.crop_y2, 28);
  EXPECT_EQ(q.crop_w, 16);
  EXPECT_EQ(q.crop_h, 16);
  EXPECT_EQ(q.crop_x, 10);
  EXPECT_EQ(q.crop_y, 8);

  TinyFrame black(8, 40, 36, 1, 1, std::vector<uint32_t>(40 * 36, 0), grey, grey);
  q = cudahist::QcFiguresOf(ReferenceQc(black.view));
  EXPECT_EQ(q.crop_x1, 39);
  EXPECT_EQ(q.crop_x2, 0);
  EXPECT_EQ(q.crop_y1, 35);
  EXPECT_EQ(q.crop_y2, 0);
  EXPECT_EQ(q.crop_w, -32);
  EXPECT_EQ(q.crop_h, -32);
  EXPECT_EQ(q.crop_x, 38);
  EXPECT_EQ(q.crop_y, 36);
}

TEST(QcReference, CropLimitScalesWithTheDepth) {
  // 24 at 8 bits, round(24 / 255 x 1023) = 96 at 10: a line of mean 96 is
  // dark, 97 bright.
  TinyFrame dark = RowsFrame(10, 4, {96, 96, 96, 96});
  EXPECT_EQ(cudahist::QcFiguresOf(ReferenceQc(dark.view)).crop_y1, 3);
  TinyFrame bright = RowsFrame(10, 4, {96, 97, 96, 96});
  EXPECT_EQ(cudahist::QcFiguresOf(ReferenceQc(bright.view)).crop_y1, 1);
}

TEST(QcReference, FieldPsnrComparesRowPairsOfEachPlane) {
  // 4x4 4:2:0: luma rows 10, 12, 10, 12; U rows 100, 100; V rows 100, 103.
  std::vector<uint32_t> y;
  for (uint32_t v : {10u, 12u, 10u, 12u}) y.insert(y.end(), 4, v);
  TinyFrame f(8, 4, 4, 1, 1, y, {100, 100, 100, 100}, {100, 100, 103, 103});
  const QcCounts c = ReferenceQc(f.view);
  EXPECT_EQ(c.field_sse[0], 2u * 4 * 4);
  EXPECT_EQ(c.field_sse[1], 0u);
  EXPECT_EQ(c.field_sse[2], 2u * 9);
  const QcFigures q = cudahist::QcFiguresOf(c);
  ASSERT_TRUE(q.has_field_psnr);
  EXPECT_EQ(q.psnr_mse_y, 4.0);
  EXPECT_EQ(q.psnr_mse_u, 0.0);
  EXPECT_EQ(q.psnr_mse_v, 9.0);
  // Planes of 8, 2 and 2 samples per field: weights 8/12, 2/12, 2/12.
  EXPECT_EQ(q.psnr_mse_avg, double(float(4.0 * (8.0 / 12) + 0.0 * (2.0 / 12) + 9.0 * (2.0 / 12))));
  EXPECT_EQ(q.psnr_y, double(float(10.0 * std::log10(65025.0 / 4))));
  EXPECT_EQ(q.psnr_u, std::numeric_limits<double>::infinity());
  // Odd heights: FFmpeg's graph refuses them (the fields differ in height).
  TinyFrame odd = RowsFrame(8, 4, {1, 2, 3});
  EXPECT_FALSE(cudahist::QcFiguresOf(ReferenceQc(odd.view)).has_field_psnr);
}

TEST(QcReference, AChromaRowWithoutPartnerComparesWithZeros) {
  // 2x6 4:2:0: 3 chroma rows; the last one (U = 5) has no bottom-field row.
  TinyFrame f(8, 2, 6, 1, 1, std::vector<uint32_t>(12, 16), {7, 7, 5}, {128, 128, 128});
  const QcCounts c = ReferenceQc(f.view);
  EXPECT_EQ(c.field_sse[1], 25u);
  EXPECT_EQ(c.field_sse[2], 128u * 128);
}

TEST(QcCpuBackend, EqualsReferenceOverTheMatrix) {
  cudahist_test::SeededRng rng;
  cudahist::CpuSignalStats cpu;
  static QcCounts got;
  static SignalStatsCounts counts;
  for (const cudahist_test::YuvFrameSpec& spec : cudahist_test::SignalStatsMatrix()) {
    SCOPED_TRACE(cudahist_test::Describe(spec));
    const cudahist_test::YuvFrame frame = cudahist_test::MakeYuvFrame(spec, rng);
    for (int structured = 0; structured < 2; ++structured) {
      if (structured) cudahist_test::AddQcStructure(frame, rng);
      std::memset(&got, 0xCD, sizeof(got));
      std::memset(&counts, 0xCD, sizeof(counts));
      const cudahist::Status s = cpu.Compute(frame.view, nullptr, &counts, &got);
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(cudahist_test::QcCountsDifference(got, ReferenceQc(frame.view)), "");
      EXPECT_EQ(cudahist_test::CountsDifference(counts, Reference(frame.view, nullptr)), "");
    }
  }
}

// Planar frames of every depth and vertical subsampling with structure
// (repeated rows, spikes, dark rows) as well as noise, so that every count is
// non-zero somewhere.
TEST(QcCpuBackend, EqualsReferenceOnStructuredFrames) {
  cudahist_test::SeededRng rng;
  cudahist::CpuSignalStats cpu;
  static QcCounts got;
  static SignalStatsCounts counts;
  uint64_t tout = 0, vrep = 0;
  for (uint32_t depth : {8u, 9u, 10u}) {
    for (uint32_t vsub : {0u, 1u}) {
      for (auto [w, h] : {std::pair<uint32_t, uint32_t>{33, 21}, {64, 38}, {7, 5}, {3, 9}, {1, 1}, {2, 2}}) {
        const uint32_t cw = (w + 1) / 2, ch = (h + vsub) >> vsub;
        std::vector<uint32_t> y(size_t(w) * h), u(size_t(cw) * ch), v(size_t(cw) * ch);
        std::uniform_int_distribution<uint32_t> any(0, (1u << depth) - 1);
        for (uint32_t r = 0; r < h; ++r) {
          const uint32_t kind = r % 4;  // 0 noise, 1 a copy of row r - 4 (or flat), 2 dark, 3 spikes
          for (uint32_t x = 0; x < w; ++x) {
            uint32_t value = any(rng);
            if (kind == 1) value = r >= 4 ? y[(r - 4) * w + x] : 40;
            if (kind == 2) value = x % 5 == 0 ? 0 : 3;
            if (kind == 3) value = x % 2 ? 255 : 10;
            y[size_t(r) * w + x] = value;
          }
        }
        for (uint32_t& s : u) s = any(rng);
        for (uint32_t& s : v) s = any(rng);
        TinyFrame f(depth, w, h, 1, vsub, y, u, v);
        SCOPED_TRACE(std::to_string(depth) + " bits " + std::to_string(w) + "x" + std::to_string(h));
        const QcCounts want = ReferenceQc(f.view);
        tout += want.tout;
        vrep += want.vrep_rows;
        ASSERT_TRUE(cpu.Compute(f.view, nullptr, &counts, &got).ok());
        EXPECT_EQ(cudahist_test::QcCountsDifference(got, want), "");
      }
    }
  }
  EXPECT_GT(tout, 0u);
  EXPECT_GT(vrep, 0u);
}

// Rows of flat stretches where one sample, at a different place in each
// stretch, differs: the backend counts a stretch of one value with one add,
// and must see a difference in any of its 16 places, in U alone, in V alone,
// and in the samples after the last whole stretch.
TEST(SignalStatsCpuBackend, EqualsReferenceWhereStretchesAreAlmostFlat) {
  constexpr uint32_t kStretch = 16;
  for (uint32_t depth : {8u, 10u}) {
    const uint32_t width = 5 * kStretch + 7, height = 2 * kStretch, cw = (width + 1) / 2;
    const uint32_t max = (1u << depth) - 1;
    // Sample x of row r: the row's value, but the stretch's odd place (one per
    // stretch, moving with the row) is one more; every third stretch is flat.
    auto almost_flat = [&](uint32_t r, uint32_t x, uint32_t base, uint32_t step) {
      const uint32_t stretch = x / kStretch, place = (r * step + stretch * 7) % kStretch;
      const bool odd = stretch % 3 != 2 && x % kStretch == place;
      return std::min(max, base + r + (odd ? 1u : 0u));
    };
    std::vector<uint32_t> y(size_t(width) * height), u(size_t(cw) * height), v(size_t(cw) * height);
    for (uint32_t r = 0; r < height; ++r) {
      for (uint32_t x = 0; x < width; ++x) y[size_t(r) * width + x] = almost_flat(r, x, 20, 1);
      for (uint32_t x = 0; x < cw; ++x) {
        // U differs in odd rows only, V in even rows only.
        u[size_t(r) * cw + x] = r % 2 ? almost_flat(r, x, 100, 3) : 100 + r;
        v[size_t(r) * cw + x] = r % 2 ? 200 + r : almost_flat(r, x, 200, 5);
      }
    }
    TinyFrame frame(depth, width, height, 1, 0, y, u, v);
    std::vector<uint32_t> flat_y(y.size(), 30), flat_c(u.size(), 110);
    TinyFrame previous(depth, width, height, 1, 0, flat_y, flat_c, flat_c);
    SCOPED_TRACE(std::to_string(depth) + " bits");
    cudahist::CpuSignalStats cpu;
    SignalStatsCounts got;
    static QcCounts qc;
    ASSERT_TRUE(cpu.Compute(frame.view, &previous.view, &got, &qc).ok());
    EXPECT_EQ(cudahist_test::CountsDifference(got, Reference(frame.view, &previous.view)), "");
    EXPECT_EQ(cudahist_test::QcCountsDifference(qc, ReferenceQc(frame.view)), "");
  }
}

TEST(QcCpuBackend, RefusesBadFrames) {
  TinyFrame f = RowsFrame(8, 3, {1, 2, 3});
  cudahist::CpuSignalStats cpu;
  static QcCounts c;
  EXPECT_EQ(cpu.Compute(f.view, nullptr, nullptr, &c).message(), "counts: null");
  YuvPlanes bad = f.view;
  bad.u.pitch = 1;
  static SignalStatsCounts counts;
  EXPECT_EQ(cpu.Compute(bad, nullptr, &counts, &c).message().rfind("u.pitch: ", 0), 0u);
  EXPECT_EQ(cudahist::ReferenceQcCounts(bad, &c).message().rfind("u.pitch: ", 0), 0u);
}

}  // namespace
