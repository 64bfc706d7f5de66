// The checks of a region count before anything is counted or launched: the
// frame (whole planes, subsampling, sides that tiles can address) and every
// region against every plane it maps onto.
#include <string>

#include "cudahist/regions.h"

namespace cudahist {
namespace {

std::string S(uint64_t v) { return std::to_string(v); }

Status CheckSide(uint32_t side, const std::string& field) {
  if (side <= kMaxRegionFrameSide) return Status::Ok();
  return Status::Unsupported(field + ": " + S(side) + " samples; regions are counted on planes of at most " +
                             S(kMaxRegionFrameSide));
}

// Whether `length` samples from `first` reach past a side of `extent`.
bool ReachesPast(uint32_t first, uint32_t length, uint32_t extent) { return uint64_t(first) + length > extent; }

// Region `index` mapped onto a plane of width x height subsampled by 2^h x
// 2^v: its samples there (RegionOnPlane; an empty region's corner) lie inside
// the plane.
Status CheckRegionOnPlane(const Roi& region, uint32_t index, uint32_t plane, uint32_t width, uint32_t height,
                          uint32_t h, uint32_t v) {
  const Roi on_plane = RegionOnPlane(region, h, v);
  // Named only on failure: a frame's regions are checked on every call.
  const auto name = [index] { return "regions[" + S(index) + "]"; };
  const auto subsampled = [](uint32_t log2) { return log2 > 0 ? " (subsampled by " + S(1u << log2) + ")" : ""; };
  if (ReachesPast(on_plane.x, on_plane.width, width)) {
    return Status::InvalidArgument(name() + ": x " + S(region.x) + " + width " + S(region.width) +
                                   " reaches past plane[" + S(plane) + "]'s " + S(width) + " columns" +
                                   subsampled(h));
  }
  if (ReachesPast(on_plane.y, on_plane.height, height)) {
    return Status::InvalidArgument(name() + ": y " + S(region.y) + " + height " + S(region.height) +
                                   " reaches past plane[" + S(plane) + "]'s " + S(height) + " rows" +
                                   subsampled(v));
  }
  return Status::Ok();
}

}  // namespace

Status ValidateRegionFrame(const RegionFrame& frame) {
  if (frame.num_planes < 1 || frame.num_planes > kMaxComponents) {
    return Status::InvalidArgument("num_planes: " + S(uint64_t(frame.num_planes < 0 ? 0 : frame.num_planes)) +
                                   " is outside 1 to " + S(kMaxComponents));
  }
  for (int c = 0; c < frame.num_planes; ++c) {
    const PlaneView& p = frame.planes[c];
    // Named only on failure: a frame is checked on every call.
    const auto name = [c] { return "plane[" + S(uint64_t(c)) + "]"; };
    CUDAHIST_RETURN_IF_ERROR(ValidatePlane(p, c));
    if (p.has_roi) {
      return Status::InvalidArgument(name() + ".has_roi: a region count reads whole planes (the regions say what)");
    }
    if (frame.log2_hsub[c] > 2 || frame.log2_vsub[c] > 2) {
      return Status::InvalidArgument(name() + ": log2 subsampling " + S(frame.log2_hsub[c]) + "/" +
                                     S(frame.log2_vsub[c]) + " is outside 0 to 2");
    }
    if (p.width > kMaxRegionFrameSide) return CheckSide(p.width, name() + ".width");
    if (p.height > kMaxRegionFrameSide) return CheckSide(p.height, name() + ".height");
  }
  return Status::Ok();
}

Status ValidateRegions(const RegionFrame& frame, const Roi* regions, uint32_t num_regions) {
  CUDAHIST_RETURN_IF_ERROR(ValidateRegionFrame(frame));
  if (num_regions > 0 && regions == nullptr) return Status::InvalidArgument("regions: null");
  for (uint32_t r = 0; r < num_regions; ++r) {
    for (int c = 0; c < frame.num_planes; ++c) {
      const PlaneView& p = frame.planes[c];
      // The Status with its message is made only for a region that fails: a
      // frame's regions are checked on every call.
      const Roi on_plane = RegionOnPlane(regions[r], frame.log2_hsub[c], frame.log2_vsub[c]);
      if (!ReachesPast(on_plane.x, on_plane.width, p.width) && !ReachesPast(on_plane.y, on_plane.height, p.height)) {
        continue;
      }
      return CheckRegionOnPlane(regions[r], r, uint32_t(c), p.width, p.height, frame.log2_hsub[c],
                                frame.log2_vsub[c]);
    }
  }
  return Status::Ok();
}

Status ValidateRegionSignalStats(const YuvPlanes& frame, const Roi* regions, uint32_t num_regions) {
  CUDAHIST_RETURN_IF_ERROR(ValidateYuvPlanes(frame, nullptr));
  if (frame.y.has_roi) {
    return Status::InvalidArgument("y.has_roi: a region count reads whole planes (the regions say what)");
  }
  CUDAHIST_RETURN_IF_ERROR(CheckSide(frame.y.width, "y.width"));
  CUDAHIST_RETURN_IF_ERROR(CheckSide(frame.y.height, "y.height"));
  if (num_regions > 0 && regions == nullptr) return Status::InvalidArgument("regions: null");
  for (uint32_t r = 0; r < num_regions; ++r) {
    CUDAHIST_RETURN_IF_ERROR(CheckRegionOnPlane(regions[r], r, 0, frame.y.width, frame.y.height, 0, 0));
  }
  return Status::Ok();
}

}  // namespace cudahist
