// FiguresOf, QcFiguresOf and RebinCounts: the host half of signalstats and of
// the rest of QCTools' graph, from the counts.
// FiguresOf follows filter_frame of FFmpeg 5.1's vf_signalstats.c line for
// line (the loop over 2^depth code values, the -1 starting values, the
// percentile thresholds rounded with lrint, HUEMED's strict > N / 2), so an
// empty region gives what signalstats would give for one.
#include <algorithm>
#include <cmath>

#include "cudahist/histogram_spec.h"
#include "cudahist/signalstats.h"

namespace cudahist {
namespace {

struct Percentiles {
  int min = -1, low = -1, high = -1, max = -1;
  uint64_t total = 0;  // sum of value x count
  uint32_t used = 0;   // the OR of every value that occurs
};

Percentiles PercentilesOf(const uint32_t* histogram, uint32_t values, uint64_t samples) {
  const long low_threshold = lrint(double(samples * 10) / 100.);
  const long high_threshold = lrint(double(samples * 90) / 100.);
  Percentiles p;
  uint64_t accumulated = 0;
  for (uint32_t value = 0; value < values; ++value) {
    const uint32_t n = histogram[value];
    if (p.min < 0 && n != 0) p.min = int(value);
    if (n != 0) p.max = int(value);
    if (n != 0) p.used |= value;
    p.total += uint64_t(n) * value;
    accumulated += n;
    if (p.low == -1 && accumulated >= uint64_t(low_threshold)) p.low = int(value);
    if (p.high == -1 && accumulated >= uint64_t(high_threshold)) p.high = int(value);
  }
  return p;
}

}  // namespace

SignalStatsFigures FiguresOf(const SignalStatsCounts& counts) {
  return FiguresOf(SignalStatsView{counts.depth, counts.luma_samples, counts.chroma_samples, counts.y, counts.u,
                                   counts.v, counts.sat, counts.hue, counts.dif_y, counts.dif_u, counts.dif_v,
                                   counts.brng});
}

SignalStatsFigures FiguresOf(const SignalStatsView& counts) {
  const uint32_t values = 1u << counts.depth;
  const double fs = double(counts.luma_samples), cfs = double(counts.chroma_samples);
  const Percentiles y = PercentilesOf(counts.y, values, counts.luma_samples);
  const Percentiles u = PercentilesOf(counts.u, values, counts.chroma_samples);
  const Percentiles v = PercentilesOf(counts.v, values, counts.chroma_samples);
  const Percentiles sat = PercentilesOf(counts.sat, values, counts.chroma_samples);
  SignalStatsFigures f;
  f.y_min = y.min, f.y_low = y.low, f.y_high = y.high, f.y_max = y.max;
  f.u_min = u.min, f.u_low = u.low, f.u_high = u.high, f.u_max = u.max;
  f.v_min = v.min, f.v_low = v.low, f.v_high = v.high, f.v_max = v.max;
  f.sat_min = sat.min, f.sat_low = sat.low, f.sat_high = sat.high, f.sat_max = sat.max;
  f.y_avg = 1.0 * double(y.total) / fs;
  f.u_avg = 1.0 * double(u.total) / cfs;
  f.v_avg = 1.0 * double(v.total) / cfs;
  f.sat_avg = 1.0 * double(sat.total) / cfs;
  uint64_t hue_total = 0, hue_accumulated = 0;
  f.hue_med = -1;
  for (uint32_t hue = 0; hue < kHueBins; ++hue) {
    hue_total += uint64_t(counts.hue[hue]) * hue;
    hue_accumulated += counts.hue[hue];
    if (f.hue_med == -1 && hue_accumulated > counts.chroma_samples / 2) f.hue_med = int(hue);
  }
  f.hue_avg = 1.0 * double(hue_total) / cfs;
  f.y_dif = 1.0 * double(counts.dif_y) / fs;
  f.u_dif = 1.0 * double(counts.dif_u) / cfs;
  f.v_dif = 1.0 * double(counts.dif_v) / cfs;
  f.brng = 1.0 * double(counts.brng) / fs;
  f.y_bitdepth = __builtin_popcount(y.used);
  f.u_bitdepth = __builtin_popcount(u.used);
  f.v_bitdepth = __builtin_popcount(v.used);
  return f;
}

void RebinCounts(const uint32_t* fine, uint32_t depth, uint32_t bins, uint32_t* coarse) {
  for (uint32_t b = 0; b < bins; ++b) coarse[b] = 0;
  for (uint32_t value = 0; value < (1u << depth); ++value) coarse[BinOf(value, bins, depth)] += fine[value];
}

namespace {

// cropdetect's threshold: its float option 24/255 scaled by the full scale
// in float, then rounded (round() in 5.1, lrint() in 7.1: the same here).
int CropLimit(uint32_t depth) {
  const float limit = float(24.0 / 255) * float((1 << depth) - 1);
  return int(std::lrint(double(limit)));
}

// cropdetect's checkline: the line's integer mean against the limit.
bool Bright(uint32_t sum, uint32_t length, int limit) { return int(sum / length) > limit; }

// The first bright line from `from` towards `end` (exclusive), stepping
// `step`; `fallback` when none is.
int FirstBright(const uint32_t* sums, uint32_t length, int limit, int from, int end, int step, int fallback) {
  for (int i = from; step > 0 ? i < end : i > end; i += step) {
    if (Bright(sums[i], length, limit)) return i;
  }
  return fallback;
}

// psnr's figure: 10 log10(max^2 / mse), with its unsigned max^2.
double Psnr(double mse, int max) {
  const unsigned max_squared = unsigned(max) * unsigned(max);
  return 10.0 * std::log10(max_squared / (mse / 1));
}

// psnr stores every figure through a float parameter before printing it.
double AsPrinted(double v) { return double(float(v)); }

}  // namespace

CropFigures CropDetectOf(const QcCounts& counts) {
  const int w = int(counts.width), h = int(counts.height), limit = CropLimit(counts.depth);
  CropFigures c;
  // reset=1: every frame starts from the whole frame (x1 = w - 1, y1 = h - 1, x2 = y2 = 0).
  c.y1 = FirstBright(counts.row_sums, counts.width, limit, 0, h - 1, +1, h - 1);
  c.y2 = FirstBright(counts.row_sums, counts.width, limit, h - 1, std::max(0, c.y1), -1, 0);
  c.x1 = FirstBright(counts.column_sums, counts.height, limit, 0, w - 1, +1, w - 1);
  c.x2 = FirstBright(counts.column_sums, counts.height, limit, w - 1, std::max(0, c.x1), -1, 0);
  // Its rounding, negative widths of an all-dark frame included (C's / and %).
  constexpr int kRound = 16;
  c.x = (c.x1 + 1) & ~1;
  c.y = (c.y1 + 1) & ~1;
  c.w = c.x2 - c.x + 1;
  c.h = c.y2 - c.y + 1;
  int shrink_by = c.w % kRound;
  c.w -= shrink_by;
  c.x += (shrink_by / 2 + 1) & ~1;
  shrink_by = c.h % kRound;
  c.h -= shrink_by;
  c.y += (shrink_by / 2 + 1) & ~1;
  return c;
}

QcFigures QcFiguresOf(const QcCounts& counts) {
  QcFigures f = {};
  const int fs = int(counts.width * counts.height);
  f.tout = 1.0 * int(counts.tout) / fs;
  f.vrep = 1.0 * int(counts.vrep_rows * counts.width) / fs;
  f.has_crop = counts.has_line_sums != 0 && counts.width > 0 && counts.height > 0;
  if (f.has_crop) {
    const CropFigures crop = CropDetectOf(counts);
    f.crop_x1 = crop.x1, f.crop_x2 = crop.x2, f.crop_y1 = crop.y1, f.crop_y2 = crop.y2;
    f.crop_w = crop.w, f.crop_h = crop.h, f.crop_x = crop.x, f.crop_y = crop.y;
  }
  f.has_field_psnr = counts.height % 2 == 0 && counts.height > 0 && counts.width > 0;
  if (!f.has_field_psnr) return f;
  // The fields' planes: field=top/bottom halve the luma height; their chroma
  // is AV_CEIL_RSHIFT of that by the vertical subsampling, which is the
  // frame's chroma rows taken two at a time, rounded up.
  const uint32_t field_height = counts.height / 2;
  const uint32_t widths[3] = {counts.width, counts.chroma_width, counts.chroma_width};
  const uint32_t heights[3] = {field_height, (counts.chroma_height + 1) / 2, (counts.chroma_height + 1) / 2};
  unsigned sum = 0;
  for (int c = 0; c < 3; ++c) sum += heights[c] * widths[c];
  const int max = (1 << counts.depth) - 1;
  double comp_mse[3], weight[3], average_max = 0, mse = 0.;
  for (int c = 0; c < 3; ++c) {
    weight[c] = (double)heights[c] * widths[c] / sum;
    average_max += max * weight[c];
  }
  const int rounded_max = int(std::lrint(average_max));
  for (int c = 0; c < 3; ++c) comp_mse[c] = counts.field_sse[c] / ((double)widths[c] * heights[c]);
  for (int c = 0; c < 3; ++c) mse += comp_mse[c] * weight[c];
  f.psnr_mse_y = AsPrinted(comp_mse[0]);
  f.psnr_mse_u = AsPrinted(comp_mse[1]);
  f.psnr_mse_v = AsPrinted(comp_mse[2]);
  f.psnr_mse_avg = AsPrinted(mse);
  f.psnr_y = AsPrinted(Psnr(comp_mse[0], max));
  f.psnr_u = AsPrinted(Psnr(comp_mse[1], max));
  f.psnr_v = AsPrinted(Psnr(comp_mse[2], max));
  f.psnr_avg = AsPrinted(Psnr(mse, rounded_max));
  return f;
}

}  // namespace cudahist
