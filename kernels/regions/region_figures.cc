// RegionFiguresOf: signalstats' figures of one region from its words.
#include <numeric>

#include "cudahist/regions.h"

namespace cudahist {

SignalStatsFigures RegionFiguresOf(const uint32_t* words, uint32_t depth) {
  const uint32_t values = 1u << depth;
  const uint32_t* y = words;
  const uint32_t* u = y + values;
  const uint32_t* v = u + values;
  const uint32_t* sat = v + values;
  const uint32_t* hue = sat + values;
  const uint32_t brng = hue[kHueBins];
  const uint64_t luma = std::accumulate(y, y + values, uint64_t(0));
  const uint64_t chroma = std::accumulate(u, u + values, uint64_t(0));
  return FiguresOf(SignalStatsView{depth, luma, chroma, y, u, v, sat, hue, 0, 0, 0, brng});
}

}  // namespace cudahist
