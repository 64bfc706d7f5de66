// FiguresOf and RebinCounts: the host half of signalstats, from the counts.
// FiguresOf follows filter_frame of FFmpeg 5.1's vf_signalstats.c line for
// line (the loop over 2^depth code values, the -1 starting values, the
// percentile thresholds rounded with lrint, HUEMED's strict > N / 2), so an
// empty region gives what signalstats would give for one.
#include <cmath>

#include "cudahist/histogram_spec.h"
#include "cudahist/signalstats.h"

namespace cudahist {
namespace {

struct Percentiles {
  int min = -1, low = -1, high = -1, max = -1;
  uint64_t total = 0;  // sum of value x count
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
    p.total += uint64_t(n) * value;
    accumulated += n;
    if (p.low == -1 && accumulated >= uint64_t(low_threshold)) p.low = int(value);
    if (p.high == -1 && accumulated >= uint64_t(high_threshold)) p.high = int(value);
  }
  return p;
}

}  // namespace

SignalStatsFigures FiguresOf(const SignalStatsCounts& counts) {
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
  return f;
}

void RebinCounts(const uint32_t* fine, uint32_t depth, uint32_t bins, uint32_t* coarse) {
  for (uint32_t b = 0; b < bins; ++b) coarse[b] = 0;
  for (uint32_t value = 0; value < (1u << depth); ++value) coarse[BinOf(value, bins, depth)] += fine[value];
}

}  // namespace cudahist
