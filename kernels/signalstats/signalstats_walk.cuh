// cudahist: the walk of the signalstats kernel (signalstats_counter.cu), written once
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
//
// Wide loads: 8-bit frames with aligned rows read a unit wholly inside the
// region one luma row and one chroma run per load (WideSamples: 6 loads
// instead of 48, unpacked with PRMT); UnitCounter::Count reads both kinds of
// samples through the same accessors, so the counting is written once.
#pragma once

#include <cstdint>

#include "cudahist/signalstats.h"
#include "device/plan_walk.cuh"
#include "signalstats/signalstats_byte_lanes.cuh"
#include "signalstats/sat_hue_tables.h"
#include "signalstats/signalstats_tuning.h"

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

// Index of compact counter `compact` in SignalStatsCounts' bins (y[0] ..
// hue[359]): CompactIndexOf's inverse. Even counters map to even indices
// (components start at even counters and even bins), so a pair of the compact
// numbering is a pair of the counts' bins.
CUDAHIST_HD uint32_t OutputIndexOf(uint32_t compact, uint32_t depth) {
  const uint32_t component = compact >> depth;
  if (component < 4) return component * kSignalStatsMaxBins + (compact & ((1u << depth) - 1));
  return 4 * kSignalStatsMaxBins + (compact - (4u << depth));
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
  const uint16_t* packed_table;          // PackedSatHueTable8 where the walk runs, or null
  uint32_t low, luma_high, chroma_high;  // 16, 235 and 240 x 2^(depth - 8)
  unsigned long long luma_samples, chroma_samples;
  uint32_t wide;         // LoadUnitWide may read this frame's interior units (WideLoadsFit)
  uint32_t interleaved;  // ... with U and V interleaved (NV12), else planar (I420)
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

// Bytes of a unit's luma row and of its chroma run (one plane's, or the
// interleaved pair's) that LoadUnitWide reads in one load each.
constexpr uint32_t kWideLumaBytes = 2 * kSignalStatsRun;
CUDAHIST_HD uint32_t WideChromaBytes(bool interleaved) { return interleaved ? 2 * kSignalStatsRun : kSignalStatsRun; }

inline bool IsWholeBytePlane(const SignalStatsPlane& a) {
  return a.sample_size == 1 && a.shift == 0 && a.mask == 0xffu;
}

// The first unit's run of plane a (column x0 of the region, any row) starts
// `bytes`-aligned, and so do all others: the pitch keeps it from row to row,
// and a unit's step along a row is its run's `bytes`.
inline bool RunsAligned(const SignalStatsPlane& a, uint32_t x0, uint32_t bytes) {
  return (reinterpret_cast<uintptr_t>(a.origin) + uint64_t(x0) * a.stride) % bytes == 0 && a.pitch % bytes == 0;
}

// Whether LoadUnitWide can read frame f (8 bits in whole bytes, luma packed,
// chroma interleaved U,V (stride 2) or planar (stride 1), every run aligned
// for its one load, columns subsampled by 2); *interleaved says which.
inline bool WideLoadsFit(const SignalStatsPlane& y, const SignalStatsPlane& u, const SignalStatsPlane& v,
                         uint32_t cx0, bool* interleaved) {
  if (!IsWholeBytePlane(y) || !IsWholeBytePlane(u) || !IsWholeBytePlane(v) || y.stride != 1) return false;
  if (u.stride == 2 && v.stride == 2 && v.origin == u.origin + 1) {
    *interleaved = true;
  } else if (u.stride == 1 && v.stride == 1) {
    *interleaved = false;
  } else {
    return false;
  }
  const uint32_t chroma = WideChromaBytes(*interleaved);
  return RunsAligned(y, 2 * cx0, kWideLumaBytes) && RunsAligned(u, cx0, chroma) &&
         (*interleaved || RunsAligned(v, cx0, chroma));
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
  bool interleaved = false, previous_interleaved = false;
  p.wide = p.hsub == 1 && WideLoadsFit(p.y, p.u, p.v, p.cx0, &interleaved) &&
           (previous == nullptr ||
            (WideLoadsFit(p.py, p.pu, p.pv, p.cx0, &previous_interleaved) && previous_interleaved == interleaved));
  p.interleaved = interleaved;
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

// Depth 8's sat (<= 181) and hue (<= 359) in 16 bits: hue * kPackedSats + sat
// (182 x 360 = 65520 values): a table of 128 KB instead of 256, so that more
// of it stays in L1 beside the shared copies; 9 and 10 bits keep 32-bit tables.
constexpr uint32_t kPackedSats = 182;
inline uint16_t PackSatHue(uint32_t entry) {
  return uint16_t(HueOfEntry(entry) * kPackedSats + SatOfEntry(entry));
}
CUDAHIST_HD uint32_t UnpackSatHue(uint32_t packed) {
  const uint32_t hue = packed / kPackedSats;  // a multiply-shift: kPackedSats is a constant
  return (hue << kSatHueHueShift) | (packed - hue * kPackedSats);
}

// Sat and hue of (u, v) as a SatHueTable entry, from the packed table where
// there is one.
CUDAHIST_HD uint32_t SatHueOf(const SignalStatsParams& p, uint32_t u, uint32_t v) {
#if defined(__CUDA_ARCH__)
  if (p.packed_table != nullptr) return UnpackSatHue(__ldg(p.packed_table + ((u << 8) | v)));
#endif
  return SatHueEntry(p.table, u, v, p.depth);
}

CUDAHIST_HD uint32_t AbsoluteDifference(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

// Chroma samples that the sample-by-sample walk loads before it counts them:
// a unit of kSignalStatsRun is taken in groups of this many, since its
// unpacked samples (and their previous-frame twins) held at once would spill
// at runs of 4 under the 64-register cap (ptxas: 160 bytes, all of it on this
// path: the wide path alone uses 60 registers); 2 is what runs of 2 held.
constexpr uint32_t kBySampleGroup = kSignalStatsRun < 2 ? kSignalStatsRun : 2;
static_assert(kSignalStatsRun % kBySampleGroup == 0, "whole groups a unit");

// kRun consecutive chroma samples' values, all loaded before anything is
// counted (the loads are independent, so a thread has them all in flight at
// once). UnitCounter::Count reads them (and WideSamples') through the accessors.
template <uint32_t kRun>
struct UnitSamples {
  static constexpr uint32_t kSamples = kRun;
  uint32_t u[kRun], v[kRun], pu[kRun], pv[kRun];
  uint32_t y[kRun][2][2], py[kRun][2][2];  // [sample][dy][dx]
  bool chroma[kRun];
  bool luma[kRun][2][2];

  CUDAHIST_HD bool Chroma(uint32_t k) const { return chroma[k]; }
  CUDAHIST_HD bool Luma(uint32_t k, uint32_t dy, uint32_t dx) const { return luma[k][dy][dx]; }
  CUDAHIST_HD uint32_t U(uint32_t k) const { return u[k]; }
  CUDAHIST_HD uint32_t V(uint32_t k) const { return v[k]; }
  CUDAHIST_HD uint32_t PU(uint32_t k) const { return pu[k]; }
  CUDAHIST_HD uint32_t PV(uint32_t k) const { return pv[k]; }
  CUDAHIST_HD uint32_t Y(uint32_t k, uint32_t dy, uint32_t dx) const { return y[k][dy][dx]; }
  CUDAHIST_HD uint32_t PY(uint32_t k, uint32_t dy, uint32_t dx) const { return py[k][dy][dx]; }
};

// The kRun chroma samples from (cx_first, cy) on, clipped to the region.
template <uint32_t kRun>
CUDAHIST_HD void LoadSamplesBySample(const SignalStatsParams& p, uint32_t cx_first, uint32_t cy, UnitSamples<kRun>& s) {
  CUDAHIST_UNROLL
  for (uint32_t k = 0; k < kRun; ++k) {
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

// kBytes consecutive bytes from a kBytes-aligned address, in little-endian
// words: one load on the device.
template <uint32_t kBytes>
struct ByteRun {
  static_assert(kBytes == 1 || kBytes == 2 || kBytes == 4 || kBytes == 8 || kBytes == 16, "one load");
  uint32_t w[(kBytes + 3) / 4];
  CUDAHIST_HD uint32_t operator[](uint32_t i) const { return ByteOf(w[i / 4], i % 4); }
};

template <uint32_t kBytes>
CUDAHIST_HD ByteRun<kBytes> LoadByteRun(const uint8_t* p) {
  ByteRun<kBytes> r;
#if defined(__CUDA_ARCH__)
  if constexpr (kBytes == 1) {
    r.w[0] = __ldg(p);
  } else if constexpr (kBytes == 2) {
    r.w[0] = __ldg(reinterpret_cast<const unsigned short*>(p));
  } else if constexpr (kBytes == 4) {
    r.w[0] = __ldg(reinterpret_cast<const unsigned int*>(p));
  } else if constexpr (kBytes == 8) {
    const uint2 v = __ldg(reinterpret_cast<const uint2*>(p));
    r.w[0] = v.x;
    r.w[1] = v.y;
  } else {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(p));
    r.w[0] = v.x;
    r.w[1] = v.y;
    r.w[2] = v.z;
    r.w[3] = v.w;
  }
#else
  for (uint32_t i = 0; i < (kBytes + 3) / 4; ++i) r.w[i] = 0;
  for (uint32_t i = 0; i < kBytes; ++i) r.w[i / 4] |= uint32_t(p[i]) << (8 * (i % 4));
#endif
  return r;
}

// A unit that LoadUnitWide may read: the frame fits (p.wide), its chroma run
// is whole and its luma columns (hsub = 1) all inside the region. Rows
// outside the region (an odd first or last luma row) are masked, not read.
CUDAHIST_HD bool UnitIsWide(const SignalStatsParams& p, uint32_t cx_first) {
  return p.wide && cx_first + kSignalStatsRun <= p.cx1 && 2 * cx_first >= p.lx0 &&
         2 * (cx_first + kSignalStatsRun) <= p.lx1;
}

// The bytes of one frame's chroma run at (cx_first, cy): U,V pairs in one
// load (interleaved) or U and V in one load each (planar).
template <bool kInterleaved>
struct ChromaRun {
  static constexpr uint32_t kBytes = kInterleaved ? 2 * kSignalStatsRun : kSignalStatsRun;
  ByteRun<kBytes> u, v;  // interleaved: both in u

  CUDAHIST_HD uint32_t U(uint32_t k) const { return kInterleaved ? u[2 * k] : u[k]; }
  CUDAHIST_HD uint32_t V(uint32_t k) const { return kInterleaved ? u[2 * k + 1] : v[k]; }
};

template <bool kInterleaved>
CUDAHIST_HD ChromaRun<kInterleaved> LoadChromaRun(const SignalStatsPlane& u, const SignalStatsPlane& v,
                                                  uint32_t cx_first, uint32_t cy) {
  constexpr uint32_t kBytes = ChromaRun<kInterleaved>::kBytes;
  ChromaRun<kInterleaved> r = {};
  r.u = LoadByteRun<kBytes>(u.origin + cy * u.pitch + uint64_t(cx_first) * u.stride);
  if constexpr (!kInterleaved) {
    r.v = LoadByteRun<kBytes>(v.origin + cy * v.pitch + cx_first);
  }
  return r;
}

// A wide unit's samples (UnitIsWide), kept as the loaded words and taken out
// a byte at a time (PRMT) as UnitCounter::Count reads them, so that a thread
// holds 6 words of a 4:2:0 NV12 unit of 2 (frame and previous) instead of 40
// unpacked values. Without a previous frame, the previous is the frame.
template <bool kInterleaved>
struct WideSamples {
  static constexpr uint32_t kSamples = kSignalStatsRun;
  ChromaRun<kInterleaved> c, pc;
  ByteRun<kWideLumaBytes> y[2], py[2];  // [dy]
  bool row_in[2];

  CUDAHIST_HD bool Chroma(uint32_t) const { return true; }
  CUDAHIST_HD bool Luma(uint32_t, uint32_t dy, uint32_t) const { return row_in[dy]; }
  CUDAHIST_HD uint32_t U(uint32_t k) const { return c.U(k); }
  CUDAHIST_HD uint32_t V(uint32_t k) const { return c.V(k); }
  CUDAHIST_HD uint32_t PU(uint32_t k) const { return pc.U(k); }
  CUDAHIST_HD uint32_t PV(uint32_t k) const { return pc.V(k); }
  CUDAHIST_HD uint32_t Y(uint32_t k, uint32_t dy, uint32_t dx) const { return y[dy][2 * k + dx]; }
  CUDAHIST_HD uint32_t PY(uint32_t k, uint32_t dy, uint32_t dx) const { return py[dy][2 * k + dx]; }
};

// The samples of a wide unit in one load per luma row and chroma run (frame
// and previous); rows outside the region are masked, not read.
template <bool kInterleaved>
CUDAHIST_HD WideSamples<kInterleaved> LoadWideSamples(const SignalStatsParams& p, uint32_t cx_first, uint32_t cy) {
  WideSamples<kInterleaved> s = {};
  s.c = LoadChromaRun<kInterleaved>(p.u, p.v, cx_first, cy);
  s.pc = p.has_previous ? LoadChromaRun<kInterleaved>(p.pu, p.pv, cx_first, cy) : s.c;
  CUDAHIST_UNROLL
  for (uint32_t dy = 0; dy < 2; ++dy) {
    const uint32_t ly = (cy << p.vsub) + dy;
    s.row_in[dy] = dy <= p.vsub && ly >= p.ly0 && ly < p.ly1;
    if (!s.row_in[dy]) continue;
    const uint64_t at = 2 * uint64_t(cx_first);
    s.y[dy] = LoadByteRun<kWideLumaBytes>(p.y.origin + ly * p.y.pitch + at);
    s.py[dy] = p.has_previous ? LoadByteRun<kWideLumaBytes>(p.py.origin + ly * p.py.pitch + at) : s.y[dy];
  }
  return s;
}

// Counts units into a Counter (device/plan_walk.cuh's interface: SlotFor(base),
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

  template <class Samples>
  CUDAHIST_HD void Count(const SignalStatsParams& p, const Samples& s) {
    CountEachSample(p, s);
  }

  // A wide unit: its DIF sums and BRNG tests a word of four samples at a time
  // (signalstats_byte_lanes.cuh; the counting is as much instructions as
  // latency); the counts are CountEachSample's.
  template <bool kInterleaved>
  CUDAHIST_HD void Count(const SignalStatsParams& p, const WideSamples<kInterleaved>& s) {
    CountByteLanes(p, s);
  }

  // One chroma sample: its U and V, and the sat and hue of the pair.
  CUDAHIST_HD void CountChromaPair(const SignalStatsParams& p, uint32_t u, uint32_t v) {
    counter.Add(slot_u, u);
    counter.Add(slot_v, v);
    const uint32_t entry = SatHueOf(p, u, v);
    counter.Add(slot_sat, entry & kSatHueSatMask);
    counter.Add(slot_hue, entry >> kSatHueHueShift);
  }

  template <class Samples>
  CUDAHIST_HD void CountEachSample(const SignalStatsParams& p, const Samples& s) {
    CUDAHIST_UNROLL
    for (uint32_t k = 0; k < Samples::kSamples; ++k) {
      if (!s.Chroma(k)) continue;
      const uint32_t u = s.U(k), v = s.V(k);
      CountChromaPair(p, u, v);
      sums[kDifU] += AbsoluteDifference(u, s.PU(k));
      sums[kDifV] += AbsoluteDifference(v, s.PV(k));
      const bool chroma_out = u < p.low || u > p.chroma_high || v < p.low || v > p.chroma_high;
      uint32_t dif_y = 0, brng = 0;
      CUDAHIST_UNROLL
      for (uint32_t dy = 0; dy < 2; ++dy) {
        CUDAHIST_UNROLL
        for (uint32_t dx = 0; dx < 2; ++dx) {
          if (!s.Luma(k, dy, dx)) continue;
          const uint32_t y = s.Y(k, dy, dx);
          counter.Add(slot_y, y);
          dif_y += AbsoluteDifference(y, s.PY(k, dy, dx));
          brng += uint32_t(chroma_out || y < p.low || y > p.luma_high);
        }
      }
      sums[kDifY] += dif_y;
      sums[kBrng] += brng;
    }
  }

  template <bool kInterleaved>
  CUDAHIST_HD void CountByteLanes(const SignalStatsParams& p, const WideSamples<kInterleaved>& s) {
    constexpr uint32_t kLumaWords = kWideLumaBytes / 4;  // a luma row's: samples 2j and 2j + 1 in word j
    constexpr uint32_t kChromaWords = (ChromaRun<kInterleaved>::kBytes + 3) / 4;
    static_assert(kWideLumaBytes % 4 == 0, "whole luma words");
    const uint32_t low = EveryByte(p.low), chroma_high = EveryByte(p.chroma_high);
    // chroma_out[j]: 0xff in the luma bytes of word j whose chroma sample is out of range.
    uint32_t chroma_out[kLumaWords];
    uint32_t dif_u = 0, dif_v = 0;
    if constexpr (kInterleaved) {  // word j: U, V of sample 2j, then of 2j + 1
      static_assert(kChromaWords == kLumaWords, "an interleaved chroma word per luma word");
      CUDAHIST_UNROLL
      for (uint32_t j = 0; j < kChromaWords; ++j) {
        const uint32_t w = s.c.u.w[j], previous = s.pc.u.w[j];
        dif_u += SumAbsDiff4(w & 0x00ff00ffu, previous & 0x00ff00ffu);
        dif_v += SumAbsDiff4((w >> 8) & 0x00ff00ffu, (previous >> 8) & 0x00ff00ffu);
        const uint32_t out = BytesOutside(w, low, chroma_high);
        chroma_out[j] = BytePerm(out | (out >> 8), 0, 0x2200);  // U or V, each to its two luma bytes
      }
    } else {  // planar: sample k in byte k % 4 of word k / 4 (bytes beyond the run are zero in both frames)
      uint32_t out[kChromaWords];
      CUDAHIST_UNROLL
      for (uint32_t q = 0; q < kChromaWords; ++q) {
        dif_u += SumAbsDiff4(s.c.u.w[q], s.pc.u.w[q]);
        dif_v += SumAbsDiff4(s.c.v.w[q], s.pc.v.w[q]);
        out[q] = BytesOutside(s.c.u.w[q], low, chroma_high) | BytesOutside(s.c.v.w[q], low, chroma_high);
      }
      CUDAHIST_UNROLL
      for (uint32_t j = 0; j < kLumaWords; ++j) chroma_out[j] = BytePerm(out[j / 2], 0, j % 2 == 0 ? 0x1100 : 0x3322);
    }
    const uint32_t luma_high = EveryByte(p.luma_high);
    uint32_t dif_y = 0, brng = 0;
    CUDAHIST_UNROLL
    for (uint32_t dy = 0; dy < 2; ++dy) {
      if (!s.row_in[dy]) continue;
      CUDAHIST_UNROLL
      for (uint32_t j = 0; j < kLumaWords; ++j) {
        const uint32_t w = s.y[dy].w[j];
        dif_y += SumAbsDiff4(w, s.py[dy].w[j]);
        brng += FlaggedBytes(BytesOutside(w, low, luma_high) | chroma_out[j]);
        CUDAHIST_UNROLL
        for (uint32_t b = 0; b < 4; ++b) counter.Add(slot_y, ByteOf(w, b));
      }
    }
    CUDAHIST_UNROLL
    for (uint32_t k = 0; k < kSignalStatsRun; ++k) CountChromaPair(p, s.U(k), s.V(k));
    sums[kDifY] += dif_y;
    sums[kDifU] += dif_u;
    sums[kDifV] += dif_v;
    sums[kBrng] += brng;
  }
};

// Where unit `unit` starts: its first chroma column and its chroma row.
struct UnitPosition {
  uint32_t cx_first, cy;
};
CUDAHIST_HD UnitPosition PositionOf(const SignalStatsParams& p, uint32_t unit) {
  const uint32_t row = p.row_of_unit.Divide(unit);
  return {p.cx0 + (unit - row * p.units_per_row) * kSignalStatsRun, p.cy0 + row};
}

// Counts unit `unit` into c: with wide loads where the unit is wide
// (UnitIsWide), else sample by sample; the counts are the same.
template <class Counter>
CUDAHIST_HD void CountUnit(const SignalStatsParams& p, uint32_t unit, UnitCounter<Counter>& c) {
  const UnitPosition at = PositionOf(p, unit);
  if (UnitIsWide(p, at.cx_first)) {
    if (p.interleaved) {
      c.Count(p, LoadWideSamples<true>(p, at.cx_first, at.cy));
    } else {
      c.Count(p, LoadWideSamples<false>(p, at.cx_first, at.cy));
    }
    return;
  }
  for (uint32_t k = 0; k < kSignalStatsRun; k += kBySampleGroup) {
    UnitSamples<kBySampleGroup> s;
    LoadSamplesBySample(p, at.cx_first + k, at.cy, s);
    c.Count(p, s);
  }
}

}  // namespace cudahist::detail
