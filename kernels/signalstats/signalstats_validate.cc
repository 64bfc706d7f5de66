// ValidateYuvPlanes: the checks of a signalstats frame (and its previous
// frame) before anything is counted or launched. Each view goes through
// ValidatePlane; its "plane[0]." prefix becomes the view's own name
// ("previous.u.pitch: ...").
#include <string>

#include "cudahist/signalstats.h"

namespace cudahist {
namespace {

std::string S(uint64_t v) { return std::to_string(v); }

Status Named(const Status& status, const std::string& name) {
  if (status.ok()) return status;
  static const std::string kGeneric = "plane[0]";
  std::string message = status.message();
  if (message.compare(0, kGeneric.size(), kGeneric) == 0) message.replace(0, kGeneric.size(), name);
  return Status(status.code(), message);
}

uint32_t CeilShift(uint32_t v, uint32_t shift) { return uint32_t((uint64_t(v) + (1u << shift) - 1) >> shift); }

bool SameRoi(const Roi& a, const Roi& b) {
  // Empty rectangles are equal whatever their corner.
  if ((a.width == 0 || a.height == 0) && (b.width == 0 || b.height == 0)) return true;
  return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}

std::string Describe(const Roi& r) {
  return "(" + S(r.x) + ", " + S(r.y) + ") " + S(r.width) + "x" + S(r.height);
}

Status ValidateOne(const YuvPlanes& f, const std::string& prefix) {
  const PlaneView* views[3] = {&f.y, &f.u, &f.v};
  const char* names[3] = {"y", "u", "v"};
  for (int i = 0; i < 3; ++i) {
    CUDAHIST_RETURN_IF_ERROR(Named(ValidatePlane(*views[i], 0), prefix + names[i]));
    const uint32_t depth = views[i]->depth;
    if (depth < kSignalStatsMinDepth || depth > kSignalStatsMaxDepth) {
      return Status::Unsupported(prefix + names[i] + ".depth: " + S(depth) + " bits is outside " +
                                 S(kSignalStatsMinDepth) + " to " + S(kSignalStatsMaxDepth) +
                                 " (signalstats' tables)");
    }
    if (depth != f.y.depth) {
      return Status::InvalidArgument(prefix + names[i] + ".depth: " + S(depth) + " bits differs from " + prefix +
                                     "y.depth " + S(f.y.depth));
    }
  }
  if (f.v.sample_size != f.u.sample_size) {
    return Status::InvalidArgument(prefix + "v.sample_size: " + S(f.v.sample_size) + " bytes differs from " + prefix +
                                   "u.sample_size " + S(f.u.sample_size));
  }
  if (f.log2_hsub > 1) {
    return Status::Unsupported(prefix + "log2_hsub: " + S(f.log2_hsub) + " is not supported (0 or 1)");
  }
  if (f.log2_vsub > 1) {
    return Status::Unsupported(prefix + "log2_vsub: " + S(f.log2_vsub) + " is not supported (0 or 1)");
  }
  const uint32_t cw = CeilShift(f.y.width, f.log2_hsub), ch = CeilShift(f.y.height, f.log2_vsub);
  for (int i = 1; i < 3; ++i) {
    if (views[i]->width != cw || views[i]->height != ch) {
      return Status::InvalidArgument(prefix + names[i] + ".width: " + S(views[i]->width) + "x" +
                                     S(views[i]->height) + " chroma samples, but " + prefix + "y's " +
                                     S(f.y.width) + "x" + S(f.y.height) + " with log2_hsub " + S(f.log2_hsub) +
                                     " and log2_vsub " + S(f.log2_vsub) + " needs " + S(cw) + "x" + S(ch));
    }
  }
  if (f.u.has_roi != f.y.has_roi || f.v.has_roi != f.y.has_roi) {
    return Status::InvalidArgument(prefix + (f.u.has_roi != f.y.has_roi ? "u" : "v") +
                                   ".has_roi: differs from " + prefix + "y.has_roi (all three or none)");
  }
  if (f.y.has_roi) {
    const Roi want = RegionOnPlane(f.y.roi, f.log2_hsub, f.log2_vsub);
    for (int i = 1; i < 3; ++i) {
      if (!SameRoi(views[i]->roi, want)) {
        return Status::InvalidArgument(prefix + names[i] + ".roi: " + Describe(views[i]->roi) +
                                       ", but the chroma samples of " + prefix + "y.roi " + Describe(f.y.roi) +
                                       " are " + Describe(want));
      }
    }
  }
  return Status::Ok();
}

Status SameShape(const PlaneView& a, const PlaneView& p, const std::string& name) {
  if (p.width != a.width || p.height != a.height) {
    return Status::InvalidArgument("previous." + name + ".width: " + S(p.width) + "x" + S(p.height) +
                                   " differs from the frame's " + S(a.width) + "x" + S(a.height));
  }
  if (p.sample_size != a.sample_size) {
    return Status::InvalidArgument("previous." + name + ".sample_size: " + S(p.sample_size) +
                                   " bytes differs from the frame's " + S(a.sample_size));
  }
  if (p.depth != a.depth) {
    return Status::InvalidArgument("previous." + name + ".depth: " + S(p.depth) + " bits differs from the frame's " +
                                   S(a.depth));
  }
  if (!SameRoi(CountedRegion(p), CountedRegion(a))) {
    return Status::InvalidArgument("previous." + name + ".roi: " + Describe(CountedRegion(p)) +
                                   " differs from the frame's " + Describe(CountedRegion(a)));
  }
  return Status::Ok();
}

}  // namespace

Status ValidateYuvPlanes(const YuvPlanes& frame, const YuvPlanes* previous) {
  CUDAHIST_RETURN_IF_ERROR(ValidateOne(frame, ""));
  if (previous == nullptr) return Status::Ok();
  CUDAHIST_RETURN_IF_ERROR(ValidateOne(*previous, "previous."));
  if (previous->log2_hsub != frame.log2_hsub || previous->log2_vsub != frame.log2_vsub) {
    return Status::InvalidArgument("previous.log2_hsub: subsampling " + S(previous->log2_hsub) + "/" +
                                   S(previous->log2_vsub) + " differs from the frame's " + S(frame.log2_hsub) +
                                   "/" + S(frame.log2_vsub));
  }
  CUDAHIST_RETURN_IF_ERROR(SameShape(frame.y, previous->y, "y"));
  CUDAHIST_RETURN_IF_ERROR(SameShape(frame.u, previous->u, "u"));
  return SameShape(frame.v, previous->v, "v");
}

}  // namespace cudahist
