// Checks of per-column and joint histogram requests (cudahist/scopes.h),
// shared by the reference, the CPU path and the GPU path. Messages name the
// field as the caller wrote it ("spec.groups", "spec.bins_a", "plane[1]").
#include <cstdint>
#include <string>

#include "cudahist/scopes.h"

namespace cudahist {
namespace {

std::string S(uint64_t v) { return std::to_string(v); }

// The GPU paths index counters with 32-bit integers.
constexpr uint64_t kMaxScopeCounters = uint64_t(1) << 31;

Status ValidateBinsAgainstDepth(const char* field, uint32_t bins, uint32_t limit, const PlaneView& plane,
                                int index) {
  if (bins == 0) return Status::InvalidArgument(std::string(field) + ": 0 (must be at least 1)");
  const uint64_t code_values = uint64_t(1) << plane.depth;
  if (bins > code_values) {
    return Status::InvalidArgument(std::string(field) + ": " + S(bins) + " is more than the " + S(code_values) +
                                   " code values of plane[" + std::to_string(index) + "] (depth " +
                                   S(plane.depth) + ")");
  }
  if (bins > limit) {
    return Status::InvalidArgument(std::string(field) + ": " + S(bins) + " is more than " + S(limit));
  }
  return Status::Ok();
}

}  // namespace

Status ValidateColumnRequest(const ColumnHistogramSpec& spec, const PlaneView& plane) {
  CUDAHIST_RETURN_IF_ERROR(ValidatePlane(plane, 0));
  const uint32_t width = CountedRegion(plane).width;
  if (spec.groups == 0) return Status::InvalidArgument("spec.groups: 0 (must be at least 1)");
  // An empty region (width 0) has no column to group: any groups >= 1 gives zero counts.
  if (width > 0 && spec.groups > width) {
    return Status::InvalidArgument("spec.groups: " + S(spec.groups) + " is more than the counted width " +
                                   S(width) + " of plane[0] (at least one column per group)");
  }
  CUDAHIST_RETURN_IF_ERROR(ValidateBinsAgainstDepth("spec.bins", spec.bins, uint32_t(1) << kMaxDepth, plane, 0));
  if (ColumnCountsLength(spec) > kMaxScopeCounters) {
    return Status::Unsupported("spec.groups: " + S(spec.groups) + " groups x " + S(spec.bins) + " bins = " +
                               S(ColumnCountsLength(spec)) + " counts is more than " + S(kMaxScopeCounters));
  }
  return Status::Ok();
}

Status ValidateJointRequest(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b) {
  CUDAHIST_RETURN_IF_ERROR(ValidatePlane(a, 0));
  CUDAHIST_RETURN_IF_ERROR(ValidatePlane(b, 1));
  const Roi ra = CountedRegion(a);
  const Roi rb = CountedRegion(b);
  if (ra.width != rb.width || ra.height != rb.height) {
    return Status::InvalidArgument("plane[1]: counted region " + S(rb.width) + "x" + S(rb.height) +
                                   " differs from plane[0]'s " + S(ra.width) + "x" + S(ra.height) +
                                   " (a joint histogram pairs the samples of one position)");
  }
  CUDAHIST_RETURN_IF_ERROR(ValidateBinsAgainstDepth("spec.bins_a", spec.bins_a, kMaxJointBins, a, 0));
  return ValidateBinsAgainstDepth("spec.bins_b", spec.bins_b, kMaxJointBins, b, 1);
}

}  // namespace cudahist
