// ReferenceSignalStats: the oracle of the signalstats tests. One pixel at a
// time, straight from the definitions in cudahist/signalstats.h; sat and hue
// from the shared tables (signalstats_tables.h), the one place their formula
// lives.
#include <cstring>

#include "cudahist/signalstats.h"
#include "cpu/sample_access.h"
#include "signalstats/sat_hue_tables.h"

namespace cudahist {

using cpu_detail::SampleValue;

namespace {

uint32_t Diff(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

}  // namespace

Status ReferenceSignalStats(const YuvPlanes& frame, const YuvPlanes* previous, SignalStatsCounts* counts) {
  CUDAHIST_RETURN_IF_ERROR(ValidateYuvPlanes(frame, previous));
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  std::memset(counts, 0, sizeof(*counts));
  const uint32_t depth = frame.y.depth;
  const uint32_t mult = 1u << (depth - 8);
  const std::vector<uint32_t>& table = detail::SatHueTable(depth);
  counts->depth = depth;
  counts->has_previous = previous != nullptr ? 1 : 0;
  counts->luma_samples = CountedSamples(frame.y);
  counts->chroma_samples = CountedSamples(frame.u);

  const Roi luma = CountedRegion(frame.y);
  for (uint32_t y = luma.y; y < luma.y + luma.height; ++y) {
    for (uint32_t x = luma.x; x < luma.x + luma.width; ++x) {
      const uint32_t value = SampleValue(frame.y, x, y);
      ++counts->y[value];
      if (previous != nullptr) counts->dif_y += Diff(value, SampleValue(previous->y, x, y));
      const uint32_t u = SampleValue(frame.u, x >> frame.log2_hsub, y >> frame.log2_vsub);
      const uint32_t v = SampleValue(frame.v, x >> frame.log2_hsub, y >> frame.log2_vsub);
      const bool out_of_range = value < 16 * mult || value > 235 * mult || u < 16 * mult || u > 240 * mult ||
                                v < 16 * mult || v > 240 * mult;
      if (out_of_range) ++counts->brng;
    }
  }

  const Roi chroma = CountedRegion(frame.u);
  for (uint32_t y = chroma.y; y < chroma.y + chroma.height; ++y) {
    for (uint32_t x = chroma.x; x < chroma.x + chroma.width; ++x) {
      const uint32_t u = SampleValue(frame.u, x, y);
      const uint32_t v = SampleValue(frame.v, x, y);
      ++counts->u[u];
      ++counts->v[v];
      const uint32_t entry = table[detail::SatHueIndex(u, v, depth)];
      ++counts->sat[detail::SatOfEntry(entry)];
      ++counts->hue[detail::HueOfEntry(entry)];
      if (previous != nullptr) {
        counts->dif_u += Diff(u, SampleValue(previous->u, x, y));
        counts->dif_v += Diff(v, SampleValue(previous->v, x, y));
      }
    }
  }
  return Status::Ok();
}

}  // namespace cudahist
