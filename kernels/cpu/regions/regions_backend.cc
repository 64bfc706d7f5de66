// The fast CPU path of the region counts (system-memory frames in the
// element): one sweep down each plane. A row is decoded once (its samples'
// bins; for signalstats a chroma row's U, V, sat, hue and range flags and a
// luma row's Y), then every region that covers the row adds its columns of
// it. Overlapping regions therefore share the decoding, as the GPU's tiles
// share the frame through L2, and a region costs its own samples' increments.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "cpu/sample_access.h"
#include "cpu/start_counts.h"
#include "cudahist/cpu.h"
#include "cudahist/regions.h"
#include "signalstats/sat_hue_tables.h"

namespace cudahist {
namespace {

using cpu_detail::LoadWord;

// Rows [first[r], end[r]) of each region r. Calls visit(row, active) for every
// row some region covers, top to bottom, with `active` the regions covering
// it. `order` and `active` are the caller's scratch.
template <typename Visit>
void SweepRows(const std::vector<uint32_t>& first, const std::vector<uint32_t>& end, std::vector<uint32_t>& order,
               std::vector<uint32_t>& active, Visit visit) {
  order.resize(first.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return first[a] < first[b]; });
  active.clear();
  size_t next = 0;
  uint32_t row = 0;
  while (next < order.size() || !active.empty()) {
    if (active.empty()) row = std::max(row, first[order[next]]);
    while (next < order.size() && first[order[next]] <= row) {
      if (end[order[next]] > first[order[next]]) active.push_back(order[next]);
      ++next;
    }
    if (!active.empty()) visit(row, active);
    ++row;
    active.erase(std::remove_if(active.begin(), active.end(), [&](uint32_t r) { return end[r] <= row; }),
                 active.end());
  }
}

// The values of row y, columns [x0, x1), of `plane` into out[x0 .. x1).
template <typename Out, typename Map>
void DecodeRow(const PlaneView& plane, uint32_t y, uint32_t x0, uint32_t x1, Out* out, Map map) {
  const uint8_t* row = static_cast<const uint8_t*>(plane.data) + size_t(y) * plane.pitch + plane.offset;
  const uint32_t mask = uint32_t((uint64_t(1) << plane.depth) - 1), shift = plane.shift;
  const size_t stride = plane.pixel_stride;
  switch (plane.sample_size) {
    case 1:
      for (uint32_t x = x0; x < x1; ++x) out[x] = Out(map((LoadWord<1>(row + x * stride) >> shift) & mask));
      break;
    case 2:
      for (uint32_t x = x0; x < x1; ++x) out[x] = Out(map((LoadWord<2>(row + x * stride) >> shift) & mask));
      break;
    default:
      for (uint32_t x = x0; x < x1; ++x) out[x] = Out(map((LoadWord<4>(row + x * stride) >> shift) & mask));
      break;
  }
}

// The columns [lo, hi) that the regions in `active` cover together.
template <typename Columns>
void Span(const std::vector<uint32_t>& active, Columns columns, uint32_t* lo, uint32_t* hi) {
  *lo = UINT32_MAX;
  *hi = 0;
  for (uint32_t r : active) {
    const auto [x0, x1] = columns(r);
    *lo = std::min(*lo, x0);
    *hi = std::max(*hi, x1);
  }
}

}  // namespace

Status CpuRegionHistogrammer::Compute(const RegionFrame& frame, const Roi* regions, uint32_t num_regions,
                                      uint32_t* counts) {
  HistogramSpec spec;
  spec.bins = bins_;
  CUDAHIST_RETURN_IF_ERROR(ValidateRequest(spec, frame.planes, frame.num_planes));
  CUDAHIST_RETURN_IF_ERROR(ValidateRegions(frame, regions, num_regions));
  const size_t per_region = CountsLength(spec, frame.num_planes);
  CUDAHIST_RETURN_IF_ERROR(cpu_detail::ZeroCounts(counts, per_region * num_regions));
  std::vector<Roi> on_plane(num_regions);
  std::vector<uint32_t> first(num_regions), end(num_regions);
  for (int c = 0; c < frame.num_planes; ++c) {
    const PlaneView& plane = frame.planes[c];
    for (uint32_t r = 0; r < num_regions; ++r) {
      on_plane[r] = RegionOnPlane(regions[r], frame.log2_hsub[c], frame.log2_vsub[c]);
      first[r] = on_plane[r].y;
      end[r] = on_plane[r].width == 0 ? on_plane[r].y : on_plane[r].y + on_plane[r].height;
    }
    row_bins_.resize(plane.width);
    const auto columns = [&](uint32_t r) { return std::pair(on_plane[r].x, on_plane[r].x + on_plane[r].width); };
    const auto bin = [&](uint32_t value) { return BinOf(value, bins_, plane.depth); };
    SweepRows(first, end, order_, active_, [&](uint32_t y, const std::vector<uint32_t>& active) {
      uint32_t lo, hi;
      Span(active, columns, &lo, &hi);
      DecodeRow(plane, y, lo, hi, row_bins_.data(), bin);
      for (uint32_t r : active) {
        uint32_t* histogram = counts + r * per_region + size_t(c) * bins_;
        const auto [x0, x1] = columns(r);
        for (uint32_t x = x0; x < x1; ++x) ++histogram[row_bins_[x]];
      }
    });
  }
  return Status::Ok();
}

Status CpuRegionSignalStats::Compute(const YuvPlanes& frame, const Roi* regions, uint32_t num_regions,
                                     uint32_t* words) {
  CUDAHIST_RETURN_IF_ERROR(ValidateRegionSignalStats(frame, regions, num_regions));
  const uint32_t depth = frame.y.depth, values = 1u << depth;
  const uint32_t per_region = RegionSignalStatsWords(depth);
  CUDAHIST_RETURN_IF_ERROR(cpu_detail::ZeroCounts(words, size_t(per_region) * num_regions));
  const uint32_t hsub = frame.log2_hsub, vsub = frame.log2_vsub;
  const uint32_t low = 16u << (depth - 8), luma_high = 235u << (depth - 8), chroma_high = 240u << (depth - 8);
  const std::vector<uint32_t>& table = detail::SatHueTable(depth);
  std::vector<Roi> chroma(num_regions);
  std::vector<uint32_t> first(num_regions), end(num_regions);
  for (uint32_t r = 0; r < num_regions; ++r) {
    chroma[r] = RegionOnPlane(regions[r], hsub, vsub);
    first[r] = chroma[r].y;
    end[r] = chroma[r].width == 0 ? chroma[r].y : chroma[r].y + chroma[r].height;
  }
  u_.resize(frame.u.width);
  v_.resize(frame.u.width);
  sat_.resize(frame.u.width);
  hue_.resize(frame.u.width);
  chroma_out_.resize(frame.u.width);
  y_.resize(frame.y.width);
  const auto same = [](uint32_t value) { return value; };
  const auto chroma_columns = [&](uint32_t r) { return std::pair(chroma[r].x, chroma[r].x + chroma[r].width); };
  const auto luma_columns = [&](uint32_t r) { return std::pair(regions[r].x, regions[r].x + regions[r].width); };
  SweepRows(first, end, order_, active_, [&](uint32_t cy, const std::vector<uint32_t>& active) {
    uint32_t lo, hi;
    Span(active, chroma_columns, &lo, &hi);
    DecodeRow(frame.u, cy, lo, hi, u_.data(), same);
    DecodeRow(frame.v, cy, lo, hi, v_.data(), same);
    for (uint32_t x = lo; x < hi; ++x) {
      const uint32_t entry = table[detail::SatHueIndex(u_[x], v_[x], depth)];
      sat_[x] = uint16_t(detail::SatOfEntry(entry));
      hue_[x] = uint16_t(detail::HueOfEntry(entry));
      chroma_out_[x] = u_[x] < low || u_[x] > chroma_high || v_[x] < low || v_[x] > chroma_high;
    }
    for (uint32_t r : active) {
      uint32_t* w = words + size_t(r) * per_region;
      uint32_t *u = w + values, *v = u + values, *sat = v + values, *hue = sat + values;
      for (uint32_t x = chroma[r].x; x < chroma[r].x + chroma[r].width; ++x) {
        ++u[u_[x]];
        ++v[v_[x]];
        ++sat[sat_[x]];
        ++hue[hue_[x]];
      }
    }
    // The luma rows of chroma row cy, each in the regions whose rows hold it.
    for (uint32_t ly = cy << vsub; ly < std::min((cy + 1) << vsub, frame.y.height); ++ly) {
      Span(active, luma_columns, &lo, &hi);
      DecodeRow(frame.y, ly, lo, hi, y_.data(), same);
      for (uint32_t r : active) {
        const Roi& box = regions[r];
        if (ly < box.y || ly >= box.y + box.height) continue;
        uint32_t* w = words + size_t(r) * per_region;
        uint32_t brng = 0;
        for (uint32_t x = box.x; x < box.x + box.width; ++x) {
          ++w[y_[x]];
          brng += y_[x] < low || y_[x] > luma_high || chroma_out_[x >> hsub];
        }
        w[4 * values + kHueBins] += brng;
      }
    }
  });
  return Status::Ok();
}

}  // namespace cudahist
