// From GStreamer's description of a frame to the library's: each colour
// component of a GstVideoInfo becomes a cudahist::PlaneView, mechanically,
// from its GstVideoFormatInfo (plane, poffset, pixel stride, depth, shift,
// subsampling). No format is special-cased.
#pragma once

#include <gst/video/video.h>

#include <string>

#include "cudahist/plane_view.h"
#include "cudahist/regions.h"

namespace cudahistogram {

constexpr int kMaxComponents = 4;
constexpr const char* kAllComponents = "all";

// A rectangle of the full-resolution frame in pixels; a width or height of 0
// reaches to the right or bottom edge of the frame.
struct FrameRegion {
  guint x = 0;
  guint y = 0;
  guint width = 0;
  guint height = 0;

  bool operator==(const FrameRegion& o) const {
    return x == o.x && y == o.y && width == o.width && height == o.height;
  }
};

// What a count asks of every frame: the components (in the words of the
// elements' `components` property), the region and the bins per component.
// Its error texts name the elements' properties: components, bins, roi-*.
struct CountRequest {
  std::string components = kAllComponents;  // "all" or names such as "Y,U"
  guint bins = 1;
  FrameRegion region;

  bool operator==(const CountRequest& o) const {
    return components == o.components && bins == o.bins && region == o.region;
  }
  bool operator!=(const CountRequest& o) const { return !(*this == o); }
};

// What one frame's histograms describe; the meta and the message both carry it.
struct HistogramLayout {
  GstVideoFormat format = GST_VIDEO_FORMAT_UNKNOWN;
  guint width = 0;
  guint height = 0;
  // The counted rectangle in pixels of the full-resolution frame, clipped.
  guint roi_x = 0;
  guint roi_y = 0;
  guint roi_width = 0;
  guint roi_height = 0;
  guint bins = 0;
  int n_components = 0;
  const char* names[kMaxComponents] = {};  // static strings: "Y", "U", "V", "R", "G", "B", "A"
  guint depths[kMaxComponents] = {};

  bool operator==(const HistogramLayout& other) const;
  bool operator!=(const HistogramLayout& other) const { return !(*this == other); }
};

// The layout plus, per counted component, its plane and a view with every
// field but the frame's pointer and pitch, which FramePlaneViews fills in.
struct CountPlan {
  HistogramLayout layout;
  guint planes[kMaxComponents] = {};
  cudahist::PlaneView views[kMaxComponents];
  // Each component's subsampling against the frame's pixels (log2).
  guint log2_hsub[kMaxComponents] = {};
  guint log2_vsub[kMaxComponents] = {};
};

// The plan of `request` for frames described by `info`. Returns false with
// `error` naming the property and the format when the request cannot be met
// (unknown component, bins above a component's code values, a region outside
// the frame, a format the library cannot read).
bool MakeCountPlan(const GstVideoInfo& info, const CountRequest& request, CountPlan* plan,
                   std::string* error);

// The views of the plan's components in `frame`, mapped either to host memory
// or (GST_MAP_CUDA) to device memory: the pointers are used as they are.
void FramePlaneViews(const CountPlan& plan, const GstVideoFrame& frame,
                     cudahist::PlaneView views[kMaxComponents]);

// "Y", "U", "V" (also for GRAY), "R", "G", "B" or "A".
const char* ComponentName(const GstVideoFormatInfo* finfo, guint component);

// The plan's components in `frame` as whole planes (no ROI) with their
// subsampling: what a region count reads.
cudahist::RegionFrame FrameRegionViews(const CountPlan& plan, const GstVideoFrame& frame);

}  // namespace cudahistogram
