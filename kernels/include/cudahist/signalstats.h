// cudahist: FFmpeg signalstats' figures of a YUV frame, counted in ONE launch.
//
//   std::unique_ptr<cudahist::SignalStatsCounter> s;
//   cudahist::SignalStatsCounter::Create(&s);                         // once
//   s->Compute(frame, &previous_or_null, stream, counts);             // every frame
//   s->Compute(frame, &previous_or_null, stream, counts, qc_counts);  // ... with QcCounts
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
// frame with signalstats needs no second launch, and neither do the QC
// counts below (TOUT, VREP, cropdetect, field PSNR): the same launch counts
// them when asked.
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
// (device or pinned host memory: Pinned<SignalStatsCounts>, cudahist/pinned.h).
// Arrays are sized for 10 bits; with depth d only the first 2^d entries of y,
// u, v and sat are used (the rest are zero).
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

// signalstats' figures: the SignalStats and BitDepth figures of
// cudahist/figures.def, in its order, each a member of the type it gives
// (y_min ... v_bitdepth): the integers are what signalstats prints with %d,
// the doubles what it prints with %g. BRNG is a fraction of the luma pixels
// (0..1); YBITDEPTH, UBITDEPTH, VBITDEPTH are the bits set in the OR of every
// sample value of the component (8 for 10-bit video that uses only multiples
// of 4).
struct SignalStatsFigures {
#define SIGNALSTATS_FIGURE(group, member, name, ffmpeg_key, type, unit) type member;
#include "cudahist/figures.def"
};

// The rest of QCTools' graph (qcli's
//   signalstats=stat=tout+vrep+brng,cropdetect=reset=1,split[a][b];
//   [a]field=top[a1];[b]field=bottom[b1],[a1][b1]psnr
// ): TOUT and VREP of signalstats, cropdetect's borders and the PSNR between
// a frame's two fields, as exact integers counted over the region (the ROI,
// or the frame) taken as the frame FFmpeg sees. Definitions (FFmpeg 5.1 and
// 7.1 alike, libavfilter/vf_signalstats.c, vf_cropdetect.c, vf_field.c,
// vf_psnr.c), luma Y(x, y) of a w x h region:
//   TOUT: pixels (x, y), 1 <= x < w - 1, 1 <= y < h - 1, where
//         outlier(a, b, c) = (|a - b| + |c - b|) / 2 - |c - a| > 4 (integer
//         division) holds for the three columns x - 1, x, x + 1 with
//         (a, b, c) = (Y(., y - 1), Y(., y), Y(., y + 1)) and, where rows
//         y - 2 and y + 2 exist, with (Y(., y - 2), Y(., y), Y(., y + 2))
//         too. Deeper than 8 bits, FFmpeg passes the samples through its
//         uint8_t parameters: the test sees their low 8 bits (value & 255),
//         and so does this count.
//   VREP: rows y >= 4 whose sum over x of |Y(x, y - 4) - Y(x, y)| is below w.
//   cropdetect: the luma sum of every row and of every column (its
//         checkline; a line is bright when sum / length > limit).
//   field PSNR: per plane, the sum of squared differences between rows 2k
//         (top field) and 2k + 1 (bottom field) of that plane. A plane with an
//         odd number of rows (4:2:0 chroma of a frame whose height is 2 mod 4)
//         leaves its last row without a partner: FFmpeg's bottom field then
//         reads one row past the plane, memory that reads 0 after FFmpeg's
//         FFV1 decoder but holds the decoder's padding rows after its H.264
//         one. The count compares that row with zeros: FFmpeg's figure in the
//         first case only (docs/qc-figures.md says by how much).
constexpr uint32_t kQcMaxWidth = 8192;   // columns of QcCounts' column sums (8K DCI)
constexpr uint32_t kQcMaxHeight = 8192;  // rows of its row sums
constexpr int kCropDetectSkippedFrames = 2;  // cropdetect's skip: frames it leaves without figures

// What one frame's QC count holds: plain data (device memory or
// Pinned<QcCounts> for the GPU), written whole by every computation. Regions
// wider than kQcMaxWidth or taller than kQcMaxHeight get everything but the
// line sums (has_line_sums 0, cropdetect unknown).
struct QcCounts {
  uint32_t depth;
  uint32_t width, height;                // the luma region
  uint32_t chroma_width, chroma_height;  // its chroma samples
  uint32_t has_line_sums;                // row_sums and column_sums are filled
  uint64_t tout;                         // pixels TOUT flags
  uint64_t vrep_rows;                    // rows VREP flags (FFmpeg counts each as w pixels)
  uint64_t field_sse[3];                 // Y, U, V: squared differences of row 2k and 2k + 1
  uint32_t row_sums[kQcMaxHeight];       // luma sum of region row y (height entries)
  uint32_t column_sums[kQcMaxWidth];     // luma sum of region column x (width entries)
};

// cropdetect's figures of one frame (lavfi.cropdetect.*).
struct CropFigures {
  int x1, x2, y1, y2, w, h, x, y;
};

// The QC figures: the ToutVrep, CropDetect and FieldPsnr figures of
// cudahist/figures.def, in its order (tout, vrep, crop_x1 ... crop_y,
// psnr_mse_y ... psnr_avg). tout and vrep are what signalstats prints with
// %g. The PSNR figures are what psnr prints with %f after its own conversion
// to float: each double here holds that float's value, so "%f" of it prints
// FFmpeg's text; an mse of 0 gives psnr +inf ("inf").
struct QcFigures {
  bool has_crop;        // the line sums were counted (QcCounts::has_line_sums)
  bool has_field_psnr;  // even height: FFmpeg's graph refuses odd heights
                        // (field=top and field=bottom differ in height)
#define QC_FIGURE(group, has_flag, member, name, ffmpeg_key, type, unit) type member;
#include "cudahist/figures.def"
};

// cropdetect=reset=1's rule for a frame it does not skip (reset=1 starts
// every such frame from the whole frame, so the figures depend on this frame
// only), with limit 24/255 of the full scale ((2^depth - 1) x 24/255 in
// float, rounded: 24 at 8 bits, 96 at 10) and round 16.
CropFigures CropDetectOf(const QcCounts& counts);

// TOUT, VREP, cropdetect (when has_line_sums) and the field PSNR (when the
// height is even) from the counts, with FFmpeg's arithmetic.
QcFigures QcFiguresOf(const QcCounts& counts);

// The reference: one pixel at a time, straight from the definitions above.
Status ReferenceQcCounts(const YuvPlanes& frame, QcCounts* counts);

// The figures from the counts, by signalstats' rules: low/high are the first
// code values whose running count reaches lrint(N * 10 / 100.) and
// lrint(N * 90 / 100.) of the N samples; HUEMED the first hue whose running
// count exceeds N / 2 (integer division); averages and DIF divide by N.
SignalStatsFigures FiguresOf(const SignalStatsCounts& counts);

// What FiguresOf reads, wherever the counts lie (a SignalStatsCounts, or one
// region's words: cudahist/regions.h): y, u, v and sat hold 2^depth counts,
// hue kHueBins.
struct SignalStatsView {
  uint32_t depth;
  uint64_t luma_samples, chroma_samples;
  const uint32_t *y, *u, *v, *sat, *hue;
  uint64_t dif_y, dif_u, dif_v, brng;
};
SignalStatsFigures FiguresOf(const SignalStatsView& counts);

// Sums the full-depth histogram `fine` (2^depth entries) into `bins` equal
// bins (bin = value * bins >> depth): exactly what counting with `bins` bins
// gives. `coarse` receives `bins` counts.
void RebinCounts(const uint32_t* fine, uint32_t depth, uint32_t bins, uint32_t* coarse);

// The reference: one pixel at a time, straight from the definitions above.
// `previous` may be null (dif sums 0, has_previous 0).
Status ReferenceSignalStats(const YuvPlanes& frame, const YuvPlanes* previous,
                            SignalStatsCounts* counts);

// The fast CPU path (system memory in the element). Same contract, and,
// when `qc_counts` is given, the QC counts too (ReferenceQcCounts' contract,
// in the same walk), as SignalStatsCounter::Compute. Owns its scratch
// (decoded rows, flags, histogram copies), as CpuHistogrammer does: create
// once, reuse per frame.
class CpuSignalStats {
 public:
  Status Compute(const YuvPlanes& frame, const YuvPlanes* previous, SignalStatsCounts* counts,
                 QcCounts* qc_counts = nullptr);

 private:
  std::vector<uint16_t> rows_;    // decoded rows: the luma ring, chroma rows, the previous frame's
  std::vector<uint8_t> flags_;    // chroma range flags, spread to luma width, TOUT's tests
  std::vector<uint32_t> copies_;  // the histograms' round-robin copies
};

// The GPU path: owns the device copies of the sat/hue tables (made once, in
// Create, for 8 and 10 bits) and its scratch. Compute enqueues ONE launch on
// `stream` that writes *counts whole (device memory or Pinned<SignalStatsCounts>)
// and, when `qc_counts` is given, *qc_counts whole too (ReferenceQcCounts'
// contract; device memory or Pinned<QcCounts>): no memset, copy or second
// kernel. It allocates nothing and synchronises nothing. Frame and previous
// are device pointers in the current context. One counter serves one stream
// at a time. The launch may be captured into a CUDA graph: every launch of
// the graph counts the frame again.
class SignalStatsCounter {
 public:
  static Status Create(std::unique_ptr<SignalStatsCounter>* out);
  ~SignalStatsCounter();
  SignalStatsCounter(const SignalStatsCounter&) = delete;
  SignalStatsCounter& operator=(const SignalStatsCounter&) = delete;

  Status Compute(const YuvPlanes& frame, const YuvPlanes* previous, cudaStream_t stream,
                 SignalStatsCounts* counts, QcCounts* qc_counts = nullptr);

  struct Impl;

 private:
  explicit SignalStatsCounter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cudahist
