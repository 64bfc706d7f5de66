// The oracle of the scope counts (cudahist/scopes.h): one sample at a time,
// the group of every column and the bin of every sample computed afresh.
// Kept plain on purpose; speed lives in scopes_backend.cc.
#include <cstdint>

#include "cudahist/histogram_spec.h"
#include "cudahist/scopes.h"
#include "cpu/sample_access.h"
#include "cpu/start_counts.h"

namespace cudahist {
using cpu_detail::SampleValue;

Status ReferenceColumnHistogram(const ColumnHistogramSpec& spec, const PlaneView& plane, uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(cpu_detail::StartCounts(spec, plane, counts));
  const Roi r = CountedRegion(plane);
  for (uint32_t y = r.y; y < r.y + r.height; ++y) {
    for (uint32_t x = 0; x < r.width; ++x) {
      const uint32_t group = ColumnGroupOf(x, spec.groups, r.width);
      ++counts[size_t(group) * spec.bins + BinOf(SampleValue(plane, r.x + x, y), spec.bins, plane.depth)];
    }
  }
  return Status::Ok();
}

Status ReferenceJointHistogram(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b,
                               uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(cpu_detail::StartCounts(spec, a, b, counts));
  const Roi ra = CountedRegion(a);
  const Roi rb = CountedRegion(b);
  for (uint32_t y = 0; y < ra.height; ++y) {
    for (uint32_t x = 0; x < ra.width; ++x) {
      const uint32_t bin_a = BinOf(SampleValue(a, ra.x + x, ra.y + y), spec.bins_a, a.depth);
      const uint32_t bin_b = BinOf(SampleValue(b, rb.x + x, rb.y + y), spec.bins_b, b.depth);
      ++counts[size_t(bin_b) * spec.bins_a + bin_a];
    }
  }
  return Status::Ok();
}

}  // namespace cudahist
