// The oracle of every test: one sample at a time, straight from the
// PlaneView definition in plane_view.h. Kept plain on purpose; speed lives in
// histogram_backend.cc.
#include <cstdint>

#include "cudahist/cpu.h"
#include "cpu/sample_access.h"
#include "cpu/start_counts.h"

namespace cudahist {
using cpu_detail::SampleValue;

Status ReferenceHistogram(const HistogramSpec& spec, const PlaneView* planes, int num_planes,
                          uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(cpu_detail::StartCounts(spec, planes, num_planes, counts));
  for (int c = 0; c < num_planes; ++c) {
    const PlaneView& plane = planes[c];
    const Roi region = CountedRegion(plane);
    uint32_t* histogram = counts + size_t(c) * spec.bins;
    for (uint32_t y = region.y; y < region.y + region.height; ++y) {
      for (uint32_t x = region.x; x < region.x + region.width; ++x) {
        ++histogram[BinOf(SampleValue(plane, x, y), spec.bins, plane.depth)];
      }
    }
  }
  return Status::Ok();
}

}  // namespace cudahist
