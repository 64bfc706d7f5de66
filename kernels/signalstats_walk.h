// cudahist: the walk of the signalstats kernel (signalstats.cu), written once
// and compiled as plain C++ too, so that the host tests run the very same
// index math (units, luma blocks, ROI clipping, table lookups) against the
// reference (tests/kernels/signalstats_walk_test.cc), as plan_walk_test does
// for the histogram walk.
//
// A unit is kSignalStatsRun consecutive chroma samples of one chroma row of
// the region, with the luma pixels each covers (2x2 for 4:2:0, 2x1 for 4:2:2,
// 1x1 for 4:4:4), clipped to the luma region, and the previous frame's
// samples at the same places. Histogram counters are numbered compactly:
// (component << depth) + value for Y, U, V and sat (components 0 to 3), hue
// at (4 << depth) + hue.
#pragma once

#include <cstdint>

#include "cudahist/signalstats.h"
#include "device_helpers.cuh"
#include "signalstats_tables.h"
#include "signalstats_tuning.h"

namespace cudahist::detail {

enum SignalStatsSum : uint32_t { kDifY = 0, kDifU, kDifV, kBrng, kSignalStatsSums };

// Counters of one depth's compact numbering.
CUDAHIST_HD uint32_t SignalStatsCounters(uint32_t depth) { return (4u << depth) + kHueBins; }

// Counters in SignalStatsCounts' y, u, v, sat and hue arrays (contiguous).
constexpr uint32_t kCountsBins = 4 * kSignalStatsMaxBins + kHueBins;

// Index i of SignalStatsCounts' bins (y[0] .. hue[359]) in the compact
// numbering, or ~0u for a bin beyond 2^depth (always zero).
CUDAHIST_HD uint32_t CompactIndexOf(uint32_t i, uint32_t depth) {
  const uint32_t component = i / kSignalStatsMaxBins, value = i % kSignalStatsMaxBins;
  if (component < 4 && value >= (1u << depth)) return ~0u;
  return (component << depth) + value;
}

// How the walk reads one component: sample (x, y) is the word at
// origin + y * pitch + x * stride (absolute plane coordinates).
struct SignalStatsPlane {
  const uint8_t* origin = nullptr;  // data + offset
  uint64_t pitch = 0;
  uint32_t stride = 0;
  uint32_t sample_size = 1;
  uint32_t shift = 0;
  uint32_t mask = 0;
};

struct SignalStatsParams {
  SignalStatsPlane y, u, v, py, pu, pv;  // p*: the previous frame's (unused without one)
  uint32_t has_previous;
  uint32_t lx0, ly0, lx1, ly1;  // luma region [lx0, lx1) x [ly0, ly1)
  uint32_t cx0, cy0, cx1;       // chroma region's first column, row and end column
  uint32_t hsub, vsub;
  uint32_t depth;
  uint32_t units;
  uint32_t units_per_row;
  FastDivisor row_of_unit;
  const uint32_t* table;                 // SatHueTable(depth), where the walk runs
  uint32_t low, luma_high, chroma_high;  // 16, 235 and 240 x 2^(depth - 8)
  unsigned long long luma_samples, chroma_samples;
};

inline SignalStatsPlane SignalStatsPlaneOf(const PlaneView& v) {
  SignalStatsPlane a;
  a.origin = static_cast<const uint8_t*>(v.data) + v.offset;
  a.pitch = v.pitch;
  a.stride = v.pixel_stride;
  a.sample_size = v.sample_size;
  a.shift = v.shift;
  a.mask = (1u << v.depth) - 1;
  return a;
}

// The walk's parameters of a validated frame (ValidateYuvPlanes).
inline SignalStatsParams SignalStatsParamsOf(const YuvPlanes& f, const YuvPlanes* previous, const uint32_t* table) {
  SignalStatsParams p = {};
  p.y = SignalStatsPlaneOf(f.y);
  p.u = SignalStatsPlaneOf(f.u);
  p.v = SignalStatsPlaneOf(f.v);
  p.has_previous = previous != nullptr ? 1 : 0;
  if (previous != nullptr) {
    p.py = SignalStatsPlaneOf(previous->y);
    p.pu = SignalStatsPlaneOf(previous->u);
    p.pv = SignalStatsPlaneOf(previous->v);
  }
  const Roi luma = CountedRegion(f.y), chroma = CountedRegion(f.u);
  p.lx0 = luma.x;
  p.ly0 = luma.y;
  p.lx1 = luma.x + luma.width;
  p.ly1 = luma.y + luma.height;
  p.cx0 = chroma.x;
  p.cy0 = chroma.y;
  p.cx1 = chroma.x + chroma.width;
  p.hsub = f.log2_hsub;
  p.vsub = f.log2_vsub;
  p.depth = f.y.depth;
  const bool empty = luma.width == 0 || luma.height == 0;
  p.units_per_row = empty ? 0 : (chroma.width + kSignalStatsRun - 1) / kSignalStatsRun;
  p.units = p.units_per_row * (empty ? 0 : chroma.height);
  p.row_of_unit = FastDivisor::For(p.units_per_row > 0 ? p.units_per_row : 1);
  p.table = table;
  const uint32_t mult = 1u << (p.depth - 8);
  p.low = 16 * mult;
  p.luma_high = 235 * mult;
  p.chroma_high = 240 * mult;
  p.luma_samples = CountedSamples(f.y);
  p.chroma_samples = CountedSamples(f.u);
  return p;
}

CUDAHIST_HD uint32_t SignalStatsValueAt(const SignalStatsPlane& a, uint32_t x, uint32_t y) {
  return (LoadSample(a.origin + y * a.pitch + uint64_t(x) * a.stride, a.sample_size) >> a.shift) & a.mask;
}

CUDAHIST_HD uint32_t SatHueEntry(const uint32_t* table, uint32_t u, uint32_t v, uint32_t depth) {
#if defined(__CUDA_ARCH__)
  return __ldg(table + ((u << depth) | v));
#else
  return table[SatHueIndex(u, v, depth)];
#endif
}

CUDAHIST_HD uint32_t AbsoluteDifference(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

// The samples of one unit, all loaded before anything is counted (the loads
// of a unit are independent, so a thread has them all in flight at once).
struct UnitSamples {
  uint32_t u[kSignalStatsRun], v[kSignalStatsRun], pu[kSignalStatsRun], pv[kSignalStatsRun];
  uint32_t y[kSignalStatsRun][2][2], py[kSignalStatsRun][2][2];  // [sample][dy][dx]
  bool chroma[kSignalStatsRun];
  bool luma[kSignalStatsRun][2][2];
};

CUDAHIST_HD void LoadUnit(const SignalStatsParams& p, uint32_t unit, UnitSamples& s) {
  const uint32_t row = p.row_of_unit.Divide(unit);
  const uint32_t cy = p.cy0 + row;
  const uint32_t cx_first = p.cx0 + (unit - row * p.units_per_row) * kSignalStatsRun;
  CUDAHIST_UNROLL
  for (uint32_t k = 0; k < kSignalStatsRun; ++k) {
    const uint32_t cx = cx_first + k;
    s.chroma[k] = cx < p.cx1;
    s.u[k] = s.chroma[k] ? SignalStatsValueAt(p.u, cx, cy) : 0;
    s.v[k] = s.chroma[k] ? SignalStatsValueAt(p.v, cx, cy) : 0;
    s.pu[k] = s.chroma[k] && p.has_previous ? SignalStatsValueAt(p.pu, cx, cy) : s.u[k];
    s.pv[k] = s.chroma[k] && p.has_previous ? SignalStatsValueAt(p.pv, cx, cy) : s.v[k];
    CUDAHIST_UNROLL
    for (uint32_t dy = 0; dy < 2; ++dy) {
      const uint32_t ly = (cy << p.vsub) + dy;
      const bool row_in = dy <= p.vsub && ly >= p.ly0 && ly < p.ly1;
      CUDAHIST_UNROLL
      for (uint32_t dx = 0; dx < 2; ++dx) {
        const uint32_t lx = (cx << p.hsub) + dx;
        const bool in = s.chroma[k] && row_in && dx <= p.hsub && lx >= p.lx0 && lx < p.lx1;
        s.luma[k][dy][dx] = in;
        s.y[k][dy][dx] = in ? SignalStatsValueAt(p.y, lx, ly) : 0;
        s.py[k][dy][dx] = in && p.has_previous ? SignalStatsValueAt(p.py, lx, ly) : s.y[k][dy][dx];
      }
    }
  }
}

// Counts units into a Counter (device_helpers.cuh's interface: SlotFor(base),
// Add(slot, bin)) and the four sums, which stay in the thread's registers.
template <class Counter>
struct UnitCounter {
  Counter counter;
  typename Counter::Slot slot_y, slot_u, slot_v, slot_sat, slot_hue;
  unsigned long long sums[kSignalStatsSums];

  CUDAHIST_HD UnitCounter(const Counter& c, uint32_t depth) : counter(c) {
    slot_y = counter.SlotFor(0);
    slot_u = counter.SlotFor(1u << depth);
    slot_v = counter.SlotFor(2u << depth);
    slot_sat = counter.SlotFor(3u << depth);
    slot_hue = counter.SlotFor(4u << depth);
    for (uint32_t i = 0; i < kSignalStatsSums; ++i) sums[i] = 0;
  }

  CUDAHIST_HD void Count(const SignalStatsParams& p, const UnitSamples& s) {
    CUDAHIST_UNROLL
    for (uint32_t k = 0; k < kSignalStatsRun; ++k) {
      if (!s.chroma[k]) continue;
      counter.Add(slot_u, s.u[k]);
      counter.Add(slot_v, s.v[k]);
      const uint32_t entry = SatHueEntry(p.table, s.u[k], s.v[k], p.depth);
      counter.Add(slot_sat, entry & kSatHueSatMask);
      counter.Add(slot_hue, entry >> kSatHueHueShift);
      sums[kDifU] += AbsoluteDifference(s.u[k], s.pu[k]);
      sums[kDifV] += AbsoluteDifference(s.v[k], s.pv[k]);
      const bool chroma_out = s.u[k] < p.low || s.u[k] > p.chroma_high || s.v[k] < p.low || s.v[k] > p.chroma_high;
      uint32_t dif_y = 0, brng = 0;
      CUDAHIST_UNROLL
      for (uint32_t dy = 0; dy < 2; ++dy) {
        CUDAHIST_UNROLL
        for (uint32_t dx = 0; dx < 2; ++dx) {
          if (!s.luma[k][dy][dx]) continue;
          const uint32_t y = s.y[k][dy][dx];
          counter.Add(slot_y, y);
          dif_y += AbsoluteDifference(y, s.py[k][dy][dx]);
          brng += uint32_t(chroma_out || y < p.low || y > p.luma_high);
        }
      }
      sums[kDifY] += dif_y;
      sums[kBrng] += brng;
    }
  }
};

}  // namespace cudahist::detail
