// The oracle of the region tests: each region counted on its own by the
// frame references (ReferenceHistogram, ReferenceSignalStats) with the region
// as the planes' ROI. Plain on purpose; one pass over the frame lives in
// regions_backend.cc.
#include <vector>

#include "cudahist/cpu.h"
#include "cudahist/regions.h"
#include "cpu/start_counts.h"

namespace cudahist {

Status ReferenceRegionHistograms(const HistogramSpec& spec, const RegionFrame& frame, const Roi* regions,
                                 uint32_t num_regions, uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(ValidateRequest(spec, frame.planes, frame.num_planes));
  CUDAHIST_RETURN_IF_ERROR(ValidateRegions(frame, regions, num_regions));
  const size_t per_region = CountsLength(spec, frame.num_planes);
  CUDAHIST_RETURN_IF_ERROR(cpu_detail::ZeroCounts(counts, per_region * num_regions));
  for (uint32_t r = 0; r < num_regions; ++r) {
    PlaneView planes[kMaxComponents];
    for (int c = 0; c < frame.num_planes; ++c) {
      planes[c] = frame.planes[c];
      planes[c].has_roi = true;
      planes[c].roi = RegionOnPlane(regions[r], frame.log2_hsub[c], frame.log2_vsub[c]);
    }
    CUDAHIST_RETURN_IF_ERROR(ReferenceHistogram(spec, planes, frame.num_planes, counts + r * per_region));
  }
  return Status::Ok();
}

Status ReferenceRegionSignalStats(const YuvPlanes& frame, const Roi* regions, uint32_t num_regions,
                                  uint32_t* words) {
  CUDAHIST_RETURN_IF_ERROR(ValidateRegionSignalStats(frame, regions, num_regions));
  const uint32_t depth = frame.y.depth, values = 1u << depth;
  const uint32_t per_region = RegionSignalStatsWords(depth);
  CUDAHIST_RETURN_IF_ERROR(cpu_detail::ZeroCounts(words, size_t(per_region) * num_regions));
  auto counts = std::make_unique<SignalStatsCounts>();
  for (uint32_t r = 0; r < num_regions; ++r) {
    YuvPlanes f = frame;
    f.y.has_roi = f.u.has_roi = f.v.has_roi = true;
    f.y.roi = regions[r];
    f.u.roi = f.v.roi = RegionOnPlane(regions[r], frame.log2_hsub, frame.log2_vsub);
    CUDAHIST_RETURN_IF_ERROR(ReferenceSignalStats(f, nullptr, counts.get()));
    uint32_t* w = words + size_t(r) * per_region;
    for (const uint32_t* histogram : {counts->y, counts->u, counts->v, counts->sat}) {
      std::copy(histogram, histogram + values, w);
      w += values;
    }
    std::copy(counts->hue, counts->hue + kHueBins, w);
    w[kHueBins] = uint32_t(counts->brng);
  }
  return Status::Ok();
}

}  // namespace cudahist
