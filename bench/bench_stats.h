// bench/bench_stats.h: order statistics of timing samples, shared by every benchmark.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace bench {

// The q-quantile (0..1) of `samples`, nearest rank; 0 for no samples.
inline double Quantile(std::vector<double> samples, double q) {
  if (samples.empty()) return 0.0;
  std::sort(samples.begin(), samples.end());
  const double rank = std::ceil(q * double(samples.size()));
  const size_t index = rank < 1.0 ? 0 : size_t(rank) - 1;
  return samples[std::min(index, samples.size() - 1)];
}

inline double Median(const std::vector<double>& samples) { return Quantile(samples, 0.5); }

}  // namespace bench
