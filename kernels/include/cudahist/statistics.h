// cudahist: what a histogram says about its samples, read back from the
// counts on the host. The element's bus message and the examples' detectors
// both take their statistics from here.
#pragma once

#include <cmath>
#include <cstdint>

#include "cudahist/histogram_spec.h"

namespace cudahist {

// Highest code value that falls in `bin`: one below the next bin's lowest.
inline uint32_t BinHighestValue(uint32_t bin, uint32_t bins, uint32_t depth) {
  return BinLowestValue(bin + 1, bins, depth) - 1;
}

// The value a bin stands for: the middle of its code values (the value itself
// when bins == 2^depth).
inline double BinCentre(uint32_t bin, uint32_t bins, uint32_t depth) {
  return (double(BinLowestValue(bin, bins, depth)) + double(BinHighestValue(bin, bins, depth))) / 2;
}

// Sample statistics of one component. Exact with bins == 2^depth; with fewer
// bins every sample counts as its bin's centre, and min / max are the lowest
// value of the lowest non-empty bin and the highest of the highest. All zero
// when the counts hold no sample.
struct HistogramStatistics {
  uint64_t samples = 0;
  double mean = 0;
  double stddev = 0;
  uint32_t min = 0;
  uint32_t max = 0;
  double clipped_low = 0;   // fraction of the samples in the lowest bin
  double clipped_high = 0;  // fraction of the samples in the highest bin
};

// `bins` counts of `depth`-bit samples: 32-bit (one frame, as the meta and
// Histogrammer give them) or 64-bit (summed over an interval, as the message).
template <typename Count>
HistogramStatistics Statistics(const Count* counts, uint32_t bins, uint32_t depth) {
  HistogramStatistics s;
  // A bin per code value (the usual case) stands for its own value: no
  // division per bin. The element reads a hundred regions' statistics a frame.
  const bool bin_per_value = depth < 32 && bins == (uint32_t(1) << depth);
  auto centre = [&](uint32_t b) { return bin_per_value ? double(b) : BinCentre(b, bins, depth); };
  double sum = 0;
  uint32_t lowest = bins, highest = 0;
  for (uint32_t b = 0; b < bins; ++b) {
    if (counts[b] == 0) continue;
    s.samples += counts[b];
    sum += centre(b) * double(counts[b]);
    if (lowest == bins) lowest = b;
    highest = b;
  }
  if (s.samples == 0) return s;
  const double total = double(s.samples);
  s.mean = sum / total;
  double squares = 0;
  for (uint32_t b = lowest; b <= highest; ++b) {
    if (counts[b] == 0) continue;
    const double d = centre(b) - s.mean;
    squares += d * d * double(counts[b]);
  }
  s.stddev = std::sqrt(squares / total);
  s.min = BinLowestValue(lowest, bins, depth);
  s.max = BinHighestValue(highest, bins, depth);
  s.clipped_low = double(counts[0]) / total;
  s.clipped_high = double(counts[bins - 1]) / total;
  return s;
}

}  // namespace cudahist
