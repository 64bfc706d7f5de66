// What cudahistogram counts besides the frame: the fixed regions of its
// `regions` property and, with objects=detections, the box of every object
// detection (GstAnalyticsODMtd) the buffer carries, filtered by label and
// confidence. All of them are counted in one launch (region_counter.h).
//
// Bad input never reaches the count:
//   `regions` that does not read as NAME:X,Y,W,H;...  refused, naming the part
//   a fixed region wholly outside the frame            refused, naming it
//   a fixed region partly outside                      clipped
//   a detection partly outside the frame               clipped
//   a detection wholly outside, of zero or negative
//   size, with a rotation or confidence that is not
//   a finite number                                    skipped, warned once per stream
//   a frame without a GstAnalyticsRelationMeta         no objects, warned once per stream
//   more detections than max-objects (10,000 ...)      the rest skipped, warned once per stream
//   object-labels naming a label no detection carried  warned at the end of the stream
//   objects=detections or region-tensor=true where the
//   build has no analytics library (GStreamer 1.22)   refused: needs GStreamer 1.24 / 1.26
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "common/video_planes.h"
#include "cudahist/plane_view.h"
#include "cudahistogram/settings.h"

namespace cudahistogram {

// One fixed region of the `regions` property, as written.
struct NamedRegion {
  std::string name;
  FrameRegion box;
};

// Parses `text` ("NAME:X,Y,W,H;NAME:X,Y,W,H", spaces around the parts
// allowed, a final ';' too). False with `error` quoting the offending part.
bool ParseRegionList(const std::string& text, std::vector<NamedRegion>* regions, std::string* error);

// One region of one frame, as counted.
struct RegionEntry {
  cudahist::Roi box;       // clipped to the frame, in its pixels
  GQuark name = 0;         // the fixed region's name, or the object's label (0: none)
  bool object = false;     // a detection's box (else a fixed region)
  float confidence = 0;    // objects: the detection's
  bool has_track_id = false;
  guint64 track_id = 0;    // objects: the id of a tracking Mtd related to the detection
  guint od_id = 0;         // objects: the GstAnalyticsODMtd's id in the buffer's relation meta
};

class FrameRegions {
 public:
  // From the settings and the negotiated frame: the fixed regions parsed and
  // clipped, the label filter. False with `error` (a refusal: bad `regions`,
  // a region outside the frame, objects=detections or region-tensor without
  // the analytics library).
  bool Configure(const GstVideoInfo& info, const Settings& settings, std::string* error);
  // Whether there is anything to count besides the frame.
  bool active() const { return !fixed_.empty() || detections_; }

  // The frame's regions: the fixed ones, then the detections of `buffer`
  // that pass the filters. Warnings to post (once per stream each) are
  // appended to `warnings`.
  void Gather(GstBuffer* buffer, std::vector<RegionEntry>* entries, std::vector<std::string>* warnings);

  // At the end of the stream: a warning for the labels of object-labels
  // that no detection carried, or "".
  std::string UnmatchedLabels() const;
  // A new stream: the once-per-stream warnings may come again.
  void Restart();

 private:
  std::vector<RegionEntry> fixed_;
  bool detections_ = false;
  std::set<GQuark> labels_;   // object-labels; empty: every label
  std::set<GQuark> matched_;  // labels of labels_ that a detection carried
  std::set<GQuark> seen_;     // every label a detection carried
  double min_confidence_ = 0;
  guint max_objects_ = 0;
  guint width_ = 0, height_ = 0;
  bool warned_skipped_ = false;
  bool warned_too_many_ = false;
  bool warned_no_relation_meta_ = false;
};

}  // namespace cudahistogram
