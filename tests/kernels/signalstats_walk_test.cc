// The signalstats kernel's walk (kernels/signalstats/signalstats_walk.cuh) run on the host,
// unit by unit as the kernel's threads take them, against the reference over
// the format matrix: the units' chroma runs, luma blocks, ROI clipping, table
// lookups and the compact counter numbering, checked without a GPU; and the
// QC blocks' bands (qc_band.cuh) over the same matrix.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cudahist/signalstats.h"
#include "seeded_rng.h"
#include "signalstats/qc_band.cuh"
#include "signalstats/signalstats_walk.cuh"
#include "test_planes.h"
#include "yuv_frames.h"

namespace cudahist_test {
namespace {

using namespace cudahist::detail;

// Counts into the compact numbering (the kernel's shared counters, one copy).
struct PlainCounter {
  using Slot = uint32_t;
  uint32_t* counters;
  Slot SlotFor(uint32_t base) const { return base; }
  void Add(Slot slot, uint32_t bin) { ++counters[slot + bin]; }
};

// What the kernel's last block writes, from the walk of every unit (wide:
// with wide loads where the frame and unit allow them, as the kernel walks;
// otherwise every unit sample by sample, as the kernel walks the units that
// do not allow them).
enum class Loads { kWide, kBySample };
cudahist::SignalStatsCounts WalkOnHost(const cudahist::YuvPlanes& frame, const cudahist::YuvPlanes* previous,
                                       Loads loads = Loads::kWide) {
  const uint32_t depth = frame.y.depth;
  SignalStatsParams p = SignalStatsParamsOf(frame, previous, SatHueTable(depth).data());
  if (loads == Loads::kBySample) p.wide = 0;
  std::vector<uint32_t> compact(SignalStatsCounters(depth), 0);
  UnitCounter<PlainCounter> c(PlainCounter{compact.data()}, depth);
  for (uint32_t unit = 0; unit < p.units; ++unit) CountUnit(p, unit, c);
  cudahist::SignalStatsCounts counts;
  std::memset(&counts, 0xAB, sizeof(counts));
  uint32_t* bins = counts.y;
  for (uint32_t i = 0; i < kCountsBins; ++i) {
    const uint32_t at = CompactIndexOf(i, depth);
    bins[i] = at != ~0u ? compact[at] : 0;
  }
  counts.depth = p.depth;
  counts.has_previous = p.has_previous;
  counts.luma_samples = p.luma_samples;
  counts.chroma_samples = p.chroma_samples;
  counts.dif_y = c.sums[kDifY];
  counts.dif_u = c.sums[kDifU];
  counts.dif_v = c.sums[kDifV];
  counts.brng = c.sums[kBrng];
  return counts;
}

TEST(SignalStatsWalk, EqualsReferenceOverTheMatrix) {
  SeededRng rng;
  for (const auto& [spec, frame, previous] : SignalStatsMatrixFrames(rng)) {
    SCOPED_TRACE(Describe(spec));
    for (const cudahist::YuvPlanes* prev : {static_cast<const cudahist::YuvPlanes*>(nullptr), &previous.view}) {
      ASSERT_TRUE(cudahist::ValidateYuvPlanes(frame.view, prev).ok());
      cudahist::SignalStatsCounts want;
      ASSERT_TRUE(cudahist::ReferenceSignalStats(frame.view, prev, &want).ok());
      EXPECT_EQ(CountsDifference(WalkOnHost(frame.view, prev, Loads::kBySample), want), "");
      EXPECT_EQ(CountsDifference(WalkOnHost(frame.view, prev), want), "");
    }
  }
}

// Units that LoadUnitWide reads (UnitIsWide) in a frame.
uint32_t WideUnits(const SignalStatsParams& p) {
  uint32_t wide = 0;
  for (uint32_t unit = 0; unit < p.units; ++unit) {
    wide += UnitIsWide(p, PositionOf(p, unit).cx_first) ? 1 : 0;
  }
  return wide;
}

// The wide loads on frames whose rows are aligned for them: 8-bit layouts
// with columns subsampled by 2 and U, V planar or interleaved as U,V take
// them for every unit wholly inside the region (regions with odd first
// rows and columns, odd heights and ends keep edge units sample by sample);
// the others never do. Either way the counts equal the reference's, with a
// previous frame that also fits and with one that does not (an odd offset:
// the whole frame then goes sample by sample).
TEST(SignalStatsWalk, WideLoadsEqualReference) {
  SeededRng rng;
  // The last region starts on a wide run (luma column kWideLumaBytes) with an
  // odd first row, height and end.
  const cudahist::Roi rois[] = {
      {0, 0, 128, 9}, {1, 0, 50, 4}, {16, 3, 96, 5}, {kWideLumaBytes, 1, 125 - kWideLumaBytes, 6}};
  for (YuvFormat format : AllYuvFormats()) {
    const bool fits = format == YuvFormat::kNv12 || format == YuvFormat::kI420 || format == YuvFormat::kYv12 ||
                      format == YuvFormat::kY42b;
    for (const cudahist::Roi& roi : rois) {
      YuvFrameSpec spec;
      spec.format = format;
      spec.width = 128;
      spec.height = 9;
      spec.distribution = Distribution::kPeaked;
      spec.has_roi = roi.x != 0 || roi.width != spec.width;
      spec.roi = roi;
      SCOPED_TRACE(Describe(spec));
      const YuvFrame frame = MakeYuvFrame(spec, rng);
      YuvFrameSpec aligned_spec = spec, odd_spec = spec;
      aligned_spec.distribution = Distribution::kUniform;
      aligned_spec.pitch_padding = 16;
      odd_spec.base_offset = 1;
      const YuvFrame aligned = MakeYuvFrame(aligned_spec, rng), odd = MakeYuvFrame(odd_spec, rng);
      const uint32_t wide = WideUnits(SignalStatsParamsOf(frame.view, nullptr, SatHueTable(8).data()));
      if (fits) {
        EXPECT_GT(wide, 0u);
      } else {
        EXPECT_EQ(wide, 0u);
      }
      EXPECT_EQ(WideUnits(SignalStatsParamsOf(frame.view, &aligned.view, SatHueTable(8).data())), wide);
      EXPECT_EQ(WideUnits(SignalStatsParamsOf(frame.view, &odd.view, SatHueTable(8).data())), 0u);
      for (const YuvFrame* prev : {static_cast<const YuvFrame*>(nullptr), &aligned, &odd}) {
        const cudahist::YuvPlanes* pv = prev != nullptr ? &prev->view : nullptr;
        ASSERT_TRUE(cudahist::ValidateYuvPlanes(frame.view, pv).ok());
        cudahist::SignalStatsCounts want;
        ASSERT_TRUE(cudahist::ReferenceSignalStats(frame.view, pv, &want).ok());
        EXPECT_EQ(CountsDifference(WalkOnHost(frame.view, pv), want), "");
      }
    }
  }
}

// Every bin of SignalStatsCounts maps to a distinct compact counter below
// SignalStatsCounters(depth), and every compact counter is reached once.
TEST(SignalStatsWalk, CompactNumberingIsOneToOne) {
  for (uint32_t depth = cudahist::kSignalStatsMinDepth; depth <= cudahist::kSignalStatsMaxDepth; ++depth) {
    std::vector<int> seen(SignalStatsCounters(depth), 0);
    for (uint32_t i = 0; i < kCountsBins; ++i) {
      const uint32_t at = CompactIndexOf(i, depth);
      if (at == ~0u) continue;
      ASSERT_LT(at, seen.size());
      ++seen[at];
    }
    for (size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], 1) << "depth " << depth << " counter " << k;
  }
}

// A direct launch adds compact counter pair (2k, 2k + 1) to bins
// OutputIndexOf(2k) and the one after: CompactIndexOf's inverse, pairs kept.
TEST(SignalStatsWalk, OutputIndexInvertsTheCompactNumberingInPairs) {
  for (uint32_t depth = cudahist::kSignalStatsMinDepth; depth <= cudahist::kSignalStatsMaxDepth; ++depth) {
    for (uint32_t compact = 0; compact < SignalStatsCounters(depth); ++compact) {
      const uint32_t i = OutputIndexOf(compact, depth);
      ASSERT_LT(i, kCountsBins) << "depth " << depth << " counter " << compact;
      EXPECT_EQ(CompactIndexOf(i, depth), compact) << "depth " << depth << " counter " << compact;
      if (compact % 2 == 1) {
        EXPECT_EQ(i, OutputIndexOf(compact - 1, depth) + 1) << "depth " << depth;
      }
    }
  }
}

// The packed table's 16-bit entries give back every 8-bit pair's sat and hue.
TEST(SignalStatsWalk, PackedTableRoundTripsDepth8) {
  const std::vector<uint32_t>& table = SatHueTable(8);
  for (size_t k = 0; k < table.size(); ++k) {
    ASSERT_LT(SatOfEntry(table[k]), kPackedSats) << "entry " << k;
    ASSERT_EQ(UnpackSatHue(PackSatHue(table[k])), table[k]) << "entry " << k;
  }
}

// The QC blocks of a launch (QcParamsOf, QcBandOf): every luma and chroma
// row of the region in exactly one band, each field pair of a chroma plane
// (rows 2k, 2k + 1) in one band, and no block beyond the last band (one for
// an empty region).
TEST(QcBands, CoverEveryRowOnceWithFieldPairsTogether) {
  SeededRng rng;
  std::vector<YuvFrameSpec> specs = SignalStatsMatrix();
  for (const uint32_t height : {1u, 2u, 15u, 16u, 17u, 33u, 34u, 1080u, 1082u}) {
    for (const YuvFormat format : {YuvFormat::kNv12, YuvFormat::kI422_10, YuvFormat::kY444}) {
      YuvFrameSpec spec;
      spec.format = format;
      spec.width = 7;
      spec.height = height;
      specs.push_back(spec);
    }
  }
  for (const YuvFrameSpec& spec : specs) {
    SCOPED_TRACE(Describe(spec));
    const YuvFrame frame = MakeYuvFrame(spec, rng);
    const QcParams p = QcParamsOf(frame.view);
    ASSERT_GE(p.blocks, 1u);
    std::vector<int> luma_seen(p.height, 0), chroma_seen(p.chroma_height, 0);
    for (uint32_t band = 0; band < p.blocks; ++band) {
      const QcBand b = QcBandOf(p, band);
      for (uint32_t y = b.first; y < b.end; ++y) ++luma_seen[y];
      for (uint32_t y = b.chroma_first; y < b.chroma_end; ++y) ++chroma_seen[y];
      EXPECT_EQ(b.chroma_first % 2, 0u) << "band " << band << " splits a field pair";
    }
    for (uint32_t y = 0; y < p.height; ++y) EXPECT_EQ(luma_seen[y], 1) << "luma row " << y;
    for (uint32_t y = 0; y < p.chroma_height; ++y) EXPECT_EQ(chroma_seen[y], 1) << "chroma row " << y;
    if (p.height > 0) {
      const QcBand last = QcBandOf(p, p.blocks - 1);
      EXPECT_TRUE(last.first < last.end || last.chroma_first < last.chroma_end) << "an idle QC block";
    }
  }
}

}  // namespace
}  // namespace cudahist_test

// The CPU backend's 8-bit form of TOUT's outlier test against the rule as
// FFmpeg writes it, on every (above, at, below) of low bytes; the high bits
// of deeper samples are dropped by both.
TEST(QcRules, ByteArithmeticOutlierEqualsTheRuleOnEveryTriple) {
  uint64_t differ = 0, outliers = 0;
  for (uint32_t a = 0; a < 256; ++a) {
    for (uint32_t b = 0; b < 256; ++b) {
      for (uint32_t c = 0; c < 256; ++c) {
        const bool want = cudahist::detail::ToutOutlier(a, b, c);
        outliers += want;
        differ += want != (cudahist::detail::ToutOutlierBytes(a, b, c) != 0);
      }
    }
  }
  EXPECT_EQ(differ, 0u);
  EXPECT_GT(outliers, 0u);
  // Deeper samples: only the low bytes count, in both forms.
  EXPECT_EQ(cudahist::detail::ToutOutlierBytes(0x1F0, 0x100, 0x2F0) != 0,
            cudahist::detail::ToutOutlier(0x1F0, 0x100, 0x2F0));
}
