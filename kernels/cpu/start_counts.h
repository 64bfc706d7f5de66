// cudahist CPU: how every CPU count starts, the references and the fast paths
// alike: the request checked, then the counts present and zeroed (a request
// that fails leaves them untouched).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cudahist/histogram_spec.h"
#include "cudahist/scopes.h"
#include "cudahist/status.h"

namespace cudahist::cpu_detail {

inline Status ZeroCounts(uint32_t* counts, size_t length) {
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  std::fill(counts, counts + length, 0u);
  return Status::Ok();
}

inline Status StartCounts(const HistogramSpec& spec, const PlaneView* planes, int num_planes, uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(ValidateRequest(spec, planes, num_planes));
  return ZeroCounts(counts, CountsLength(spec, num_planes));
}

inline Status StartCounts(const ColumnHistogramSpec& spec, const PlaneView& plane, uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(ValidateColumnRequest(spec, plane));
  return ZeroCounts(counts, ColumnCountsLength(spec));
}

inline Status StartCounts(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b, uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(ValidateJointRequest(spec, a, b));
  return ZeroCounts(counts, JointCountsLength(spec));
}

}  // namespace cudahist::cpu_detail
