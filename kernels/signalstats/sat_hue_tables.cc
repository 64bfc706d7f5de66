// The sat/hue tables. The expressions are FFmpeg 5.1's
// (libavfilter/vf_signalstats.c, compute_sat_hue_metrics8/16) with their
// types spelt out: (180.f / M_PI) is a double, so the product and the sum are
// doubles, which floorf receives converted to float (that conversion, not the
// floor, is what puts u < mid, v = mid at hue 90 and not 89); fmodf keeps 360
// (atan2f of (0, -x) is the float just above pi) at 0. sat is stored into a
// uint8_t (8-bit) or uint16_t: a truncation.
#include "signalstats/sat_hue_tables.h"

#include <cmath>
#include <mutex>

#include "cudahist/signalstats.h"

namespace cudahist::detail {

uint32_t SignalStatsSat(uint32_t u, uint32_t v, uint32_t depth) {
  const int mid = 1 << (depth - 1);
  const float sat = hypotf(float(int(u) - mid), float(int(v) - mid));
  return depth > 8 ? uint32_t(uint16_t(sat)) : uint32_t(uint8_t(sat));
}

uint32_t SignalStatsHue(uint32_t u, uint32_t v, uint32_t depth) {
  const int mid = 1 << (depth - 1);
  const double degrees = (180.f / M_PI) * atan2f(float(int(u) - mid), float(int(v) - mid)) + 180.f;
  const float hue = fmodf(floorf(float(degrees)), 360.f);
  return uint32_t(int16_t(hue));
}

namespace {

std::vector<uint32_t> BuildTable(uint32_t depth) {
  const uint32_t values = 1u << depth;
  std::vector<uint32_t> table(size_t(values) * values);
  for (uint32_t u = 0; u < values; ++u) {
    for (uint32_t v = 0; v < values; ++v) {
      table[SatHueIndex(u, v, depth)] = SignalStatsSat(u, v, depth) | (SignalStatsHue(u, v, depth) << kSatHueHueShift);
    }
  }
  return table;
}

}  // namespace

const std::vector<uint32_t>& SatHueTable(uint32_t depth) {
  static std::vector<uint32_t> tables[kSignalStatsMaxDepth - kSignalStatsMinDepth + 1];
  static std::once_flag built[kSignalStatsMaxDepth - kSignalStatsMinDepth + 1];
  const uint32_t i = depth - kSignalStatsMinDepth;
  std::call_once(built[i], [&] { tables[i] = BuildTable(depth); });
  return tables[i];
}

}  // namespace cudahist::detail
