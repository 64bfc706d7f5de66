// ReferenceSignalStats and ReferenceQcCounts: the oracles of the signalstats
// tests. One pixel at a time, straight from the definitions in
// cudahist/signalstats.h; sat and hue from the shared tables
// (signalstats/sat_hue_tables.h), the one place their formula lives.
#include <cstdlib>
#include <cstring>

#include "cudahist/signalstats.h"
#include "cpu/sample_access.h"
#include "signalstats/qc_rules.cuh"
#include "signalstats/sat_hue_tables.h"

namespace cudahist {

using cpu_detail::SampleValue;

namespace {

uint32_t Diff(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

// Luma of region pixel (x, y) (coordinates relative to the region).
struct RegionLuma {
  const PlaneView& plane;
  Roi region;
  int Value(int x, int y) const {
    return int(SampleValue(plane, region.x + uint32_t(x), region.y + uint32_t(y)));
  }
};

bool ToutPixel(const RegionLuma& l, int x, int y, int h) {
  bool near = true, far = true;
  for (int i = -1; i <= 1; ++i) {
    near = near && detail::ToutOutlier(l.Value(x + i, y - 1), l.Value(x + i, y), l.Value(x + i, y + 1));
    if (detail::ToutUsesFarRows(y, h)) {
      far = far && detail::ToutOutlier(l.Value(x + i, y - 2), l.Value(x + i, y), l.Value(x + i, y + 2));
    }
  }
  return near && far;
}

// Squared differences of rows 2k and 2k + 1 of a plane's region; a last
// row without a partner against zeros.
uint64_t FieldSse(const PlaneView& plane) {
  const Roi r = CountedRegion(plane);
  uint64_t sse = 0;
  for (uint32_t y = 0; y < r.height; y += 2) {
    for (uint32_t x = 0; x < r.width; ++x) {
      const int64_t top = SampleValue(plane, r.x + x, r.y + y);
      const int64_t bottom = y + 1 < r.height ? int64_t(SampleValue(plane, r.x + x, r.y + y + 1)) : 0;
      sse += uint64_t((top - bottom) * (top - bottom));
    }
  }
  return sse;
}

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

Status ReferenceQcCounts(const YuvPlanes& frame, QcCounts* counts) {
  CUDAHIST_RETURN_IF_ERROR(ValidateYuvPlanes(frame, nullptr));
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  std::memset(counts, 0, sizeof(*counts));
  const RegionLuma luma{frame.y, CountedRegion(frame.y)};
  const int w = int(luma.region.width), h = int(luma.region.height);
  counts->depth = frame.y.depth;
  counts->width = uint32_t(w);
  counts->height = uint32_t(h);
  counts->chroma_width = CountedRegion(frame.u).width;
  counts->chroma_height = CountedRegion(frame.u).height;
  counts->has_line_sums = w <= int(kQcMaxWidth) && h <= int(kQcMaxHeight) ? 1 : 0;
  for (int y = 1; y + 1 < h; ++y) {
    for (int x = 1; x + 1 < w; ++x) counts->tout += ToutPixel(luma, x, y, h) ? 1 : 0;
  }
  for (int y = detail::kVrepDistance; y < h; ++y) {
    uint64_t total = 0;
    for (int x = 0; x < w; ++x) total += uint64_t(std::abs(luma.Value(x, y - detail::kVrepDistance) - luma.Value(x, y)));
    if (total < uint64_t(w)) ++counts->vrep_rows;
  }
  if (counts->has_line_sums) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        counts->row_sums[y] += uint32_t(luma.Value(x, y));
        counts->column_sums[x] += uint32_t(luma.Value(x, y));
      }
    }
  }
  counts->field_sse[0] = FieldSse(frame.y);
  counts->field_sse[1] = FieldSse(frame.u);
  counts->field_sse[2] = FieldSse(frame.v);
  return Status::Ok();
}

}  // namespace cudahist
