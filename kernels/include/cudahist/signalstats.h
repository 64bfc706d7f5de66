// cudahist: FFmpeg signalstats' figures of a YUV frame, counted in ONE launch.
//
//   std::unique_ptr<cudahist::SignalStatsCounter> s;
//   cudahist::SignalStatsCounter::Create(&s);                         // once
//   s->Compute(frame, &previous_or_null, stream, counts);             // every frame
//   ... synchronise the stream ...
//   cudahist::SignalStatsFigures f = cudahist::FiguresOf(*counts);
//
// One launch counts, for the frame: the Y, U and V histograms at full depth
// (a bin per code value), the saturation and hue histograms of the chroma
// pairs (U and V of the same chroma sample, read together), the sums of
// absolute differences to a previous frame of the same layout, and the luma
// pixels outside the broadcast range. Everything is an exact integer; the
// figures (min, low, avg, high, max, ...) follow from them on the host with
// signalstats' own rules (FiguresOf). The Y/U/V histograms are the element's
// histograms too (RebinCounts gives any coarser bin count exactly), so a
// frame with signalstats needs no second launch.
//
// Definitions (FFmpeg 5.1, libavfilter/vf_signalstats.c), depth d = 8 to 10,
// mid = 2^(d-1), mult = 2^(d-8):
//   sat(u, v) = hypotf(u - mid, v - mid) stored into a uint8_t (d = 8) or
//               uint16_t (d > 8): truncated
//   hue(u, v) = (int16_t) fmodf(floorf(h), 360.f), where
//               h = (180.f / M_PI) * atan2f(u - mid, v - mid) + 180.f is a
//               DOUBLE expression (M_PI is a double) that floorf receives
//               converted to float: u < mid, v = mid gives 90, not 89
//   BRNG      : luma pixel (x, y) counts when Y < 16 mult or Y > 235 mult, or
//               its chroma sample (x >> log2_hsub, y >> log2_vsub) has U or V
//               < 16 mult or > 240 mult
//   DIF       : sum over the samples of |sample - previous frame's sample|
// sat and hue come from a table of all 2^(2d) chroma pairs made on the host
// with the same float functions (kernels/signalstats/sat_hue_tables.h), so the GPU,
// the CPU paths and FFmpeg put every pair in the same bin (checked against
// Debian's ffmpeg 5.1.9: all 65536 8-bit pairs, 41960 10-bit ones).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cudahist/histogrammer.h"
#include "cudahist/plane_view.h"
#include "cudahist/status.h"

namespace cudahist {

constexpr uint32_t kSignalStatsMinDepth = 8;
constexpr uint32_t kSignalStatsMaxDepth = 10;
constexpr uint32_t kSignalStatsMaxBins = 1u << kSignalStatsMaxDepth;
constexpr uint32_t kHueBins = 360;

// The Y, U and V of one YUV frame as signalstats reads them. `y` is the luma
// at full resolution; `u` and `v` are the chroma samples at their own
// (subsampled) size: NV12's interleaved pair (pixel stride 2, offsets 0 and
// 1), I420's two planes, YUY2's packed words (stride 4, offsets 1 and 3).
// Luma pixel (x, y) takes the chroma sample (x >> log2_hsub, y >> log2_vsub).
// All three have the same depth, 8 to 10 bits, and u and v the same size,
// ceil(width / 2^log2_hsub) x ceil(height / 2^log2_vsub).
// ROI: y's roi (luma pixels) is the counted region; u's and v's rois must be
// the chroma samples that region touches (x0 >> hsub to (x0 + w - 1) >> hsub,
// the same for rows), as the element's plane views already have them. Either
// all three have a roi or none has.
struct YuvPlanes {
  PlaneView y;
  PlaneView u;
  PlaneView v;
  uint32_t log2_hsub = 0;  // 1 for 4:2:0 and 4:2:2, 0 for 4:4:4
  uint32_t log2_vsub = 0;  // 1 for 4:2:0, 0 for 4:2:2 and 4:4:4
};

// Checks the three views (ValidatePlane), the depth (8 to 10, the same for
// all three), u and v of one sample size, log2 subsampling 0 or 1, the
// chroma sizes against the luma size and subsampling, the chroma rois
// against the luma one, and that `previous`, when given, has the same
// subsampling, sizes, sample sizes, depth and region as `frame`. Messages
// name the field: "previous.y.width: ...".
Status ValidateYuvPlanes(const YuvPlanes& frame, const YuvPlanes* previous);

// What one frame's count holds: plain data, written whole by every Compute
// (device or pinned host memory; PinnedSignalStats below). Arrays are sized
// for 10 bits; with depth d only the first 2^d entries of y, u, v and sat are
// used (the rest are zero).
struct SignalStatsCounts {
  uint32_t depth;
  uint32_t has_previous;     // 0: the dif sums are 0 (no previous frame)
  uint64_t luma_samples;     // pixels counted in y (the region's)
  uint64_t chroma_samples;   // chroma pairs counted in u / v / sat / hue
  uint64_t dif_y;            // sum of |Y - previous Y| over the luma samples
  uint64_t dif_u;            // the same over the chroma samples
  uint64_t dif_v;
  uint64_t brng;             // luma pixels outside the broadcast range (see above)
  uint32_t y[kSignalStatsMaxBins];
  uint32_t u[kSignalStatsMaxBins];
  uint32_t v[kSignalStatsMaxBins];
  uint32_t sat[kSignalStatsMaxBins];
  uint32_t hue[kHueBins];
};

// signalstats' figures, with its names (YMIN ... BRNG). The integers are what
// it prints with %d, the doubles what it prints with %g.
struct SignalStatsFigures {
  int y_min, y_low, y_high, y_max;
  int u_min, u_low, u_high, u_max;
  int v_min, v_low, v_high, v_max;
  int sat_min, sat_low, sat_high, sat_max;
  int hue_med;
  double y_avg, u_avg, v_avg, sat_avg, hue_avg;
  double y_dif, u_dif, v_dif;
  double brng;  // fraction of the luma pixels (0..1)
};

// The figures from the counts, by signalstats' rules: low/high are the first
// code values whose running count reaches lrint(N * 10 / 100.) and
// lrint(N * 90 / 100.) of the N samples; HUEMED the first hue whose running
// count exceeds N / 2 (integer division); averages and DIF divide by N.
SignalStatsFigures FiguresOf(const SignalStatsCounts& counts);

// Sums the full-depth histogram `fine` (2^depth entries) into `bins` equal
// bins (bin = value * bins >> depth): exactly what counting with `bins` bins
// gives. `coarse` receives `bins` counts.
void RebinCounts(const uint32_t* fine, uint32_t depth, uint32_t bins, uint32_t* coarse);

// The reference: one pixel at a time, straight from the definitions above.
// `previous` may be null (dif sums 0, has_previous 0).
Status ReferenceSignalStats(const YuvPlanes& frame, const YuvPlanes* previous,
                            SignalStatsCounts* counts);

// The fast CPU path (system memory in the element). Same contract. Owns its
// scratch (a chroma row of range flags, a copy of the luma histogram), as
// CpuHistogrammer does: create once, reuse per frame.
class CpuSignalStats {
 public:
  Status Compute(const YuvPlanes& frame, const YuvPlanes* previous, SignalStatsCounts* counts);

 private:
  std::vector<uint8_t> chroma_flags_;
  std::vector<uint32_t> luma_copy_;
};

// The GPU path: owns the device copies of the sat/hue tables (made once, in
// Create, for 8 and 10 bits) and its scratch. Compute enqueues ONE launch on
// `stream` that writes *counts whole (device memory or PinnedSignalStats);
// it allocates nothing and synchronises nothing. Frame and previous are
// device pointers in the current context. One counter serves one stream at
// a time. The launch may be captured into a CUDA graph: every launch of the
// graph counts the frame again.
class SignalStatsCounter {
 public:
  static Status Create(std::unique_ptr<SignalStatsCounter>* out);
  ~SignalStatsCounter();
  SignalStatsCounter(const SignalStatsCounter&) = delete;
  SignalStatsCounter& operator=(const SignalStatsCounter&) = delete;

  Status Compute(const YuvPlanes& frame, const YuvPlanes* previous, cudaStream_t stream,
                 SignalStatsCounts* counts);

  struct Impl;

 private:
  explicit SignalStatsCounter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Page-locked SignalStatsCounts that a kernel writes directly.
class PinnedSignalStats {
 public:
  static Status Create(std::unique_ptr<PinnedSignalStats>* out);
  ~PinnedSignalStats();
  PinnedSignalStats(const PinnedSignalStats&) = delete;
  PinnedSignalStats& operator=(const PinnedSignalStats&) = delete;
  SignalStatsCounts* get() { return counts_; }

 private:
  explicit PinnedSignalStats(SignalStatsCounts* counts) : counts_(counts) {}
  SignalStatsCounts* counts_;
};

}  // namespace cudahist
