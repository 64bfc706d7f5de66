// bench/common/bench_stats.h: order statistics of timing samples, shared by every
// benchmark, and the exit status of a benchmark that cannot run here.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace bench {

// No GPU (or no GStreamer CUDA elements): meson counts the run as skipped.
constexpr int kExitSkip = 77;

// Timed repeats of a kernel benchmark's method, whose median it reports.
constexpr int kDefaultRepeats = 25;

// The q-quantile (0..1) of `samples`, nearest rank; 0 for no samples.
inline double Quantile(std::vector<double> samples, double q) {
  if (samples.empty()) return 0.0;
  const double rank = std::ceil(q * double(samples.size()));
  const size_t index = std::min(rank < 1.0 ? 0 : size_t(rank) - 1, samples.size() - 1);
  std::nth_element(samples.begin(), samples.begin() + std::ptrdiff_t(index), samples.end());
  return samples[index];
}

inline double Median(const std::vector<double>& samples) { return Quantile(samples, 0.5); }

}  // namespace bench
