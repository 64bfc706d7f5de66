#include "cudahistogram/frame_regions.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#if CUDAHISTOGRAM_HAVE_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

namespace cudahistogram {
namespace {

std::string Trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at = text.find(separator); at != std::string::npos; at = text.find(separator, start)) {
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

// A decimal integer of 0 to G_MAXINT, digits only.
bool ParseCoordinate(const std::string& text, guint* value) {
  if (text.empty() || text.size() > 10 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (v > unsigned(G_MAXINT)) return false;
  *value = guint(v);
  return true;
}

bool ParseRegion(const std::string& part, NamedRegion* region, std::string* why) {
  const std::vector<std::string> name_and_box = Split(part, ':');
  if (name_and_box.size() != 2) {
    *why = name_and_box.size() < 2 ? "no ':' between the name and the box" : "more than one ':'";
    return false;
  }
  region->name = Trimmed(name_and_box[0]);
  if (region->name.empty()) {
    *why = "the name is empty";
    return false;
  }
  if (region->name.find(',') != std::string::npos) {
    *why = "the name holds a ','";
    return false;
  }
  const std::vector<std::string> numbers = Split(name_and_box[1], ',');
  if (numbers.size() != 4) {
    *why = std::to_string(numbers.size()) + " numbers where X,Y,W,H are 4";
    return false;
  }
  guint* fields[4] = {&region->box.x, &region->box.y, &region->box.width, &region->box.height};
  const char* names[4] = {"X", "Y", "W", "H"};
  for (int i = 0; i < 4; ++i) {
    if (!ParseCoordinate(Trimmed(numbers[i]), fields[i])) {
      *why = std::string(names[i]) + " \"" + Trimmed(numbers[i]) + "\" is not a whole number of pixels (0 to " +
             std::to_string(G_MAXINT) + ")";
      return false;
    }
  }
  if (region->box.width == 0 || region->box.height == 0) {
    *why = "its width or height is 0";
    return false;
  }
  return true;
}

std::string BoxText(gint64 x, gint64 y, gint64 w, gint64 h) {
  return std::to_string(x) + "," + std::to_string(y) + " " + std::to_string(w) + "x" + std::to_string(h);
}

// The part of [x, x + w) x [y, y + h) inside a width x height frame; false
// when none is.
bool Clip(gint64 x, gint64 y, gint64 w, gint64 h, guint width, guint height, cudahist::Roi* box) {
  const gint64 x0 = std::max<gint64>(0, x), y0 = std::max<gint64>(0, y);
  const gint64 x1 = std::min<gint64>(width, x + w), y1 = std::min<gint64>(height, y + h);
  if (x1 <= x0 || y1 <= y0) return false;
  *box = cudahist::Roi{guint(x0), guint(y0), guint(x1 - x0), guint(y1 - y0)};
  return true;
}

// The GStreamer version this plugin was built against, e.g. "1.22".
[[maybe_unused]] std::string BuiltAgainst() {
  return std::to_string(GST_VERSION_MAJOR) + "." + std::to_string(GST_VERSION_MINOR);
}

}  // namespace

bool ParseRegionList(const std::string& text, std::vector<NamedRegion>* regions, std::string* error) {
  regions->clear();
  std::vector<std::string> parts = Split(text, ';');
  if (!parts.empty() && Trimmed(parts.back()).empty()) parts.pop_back();  // a final ';'
  for (const std::string& raw : parts) {
    const std::string part = Trimmed(raw);
    NamedRegion region;
    std::string why;
    if (!ParseRegion(part, &region, &why)) {
      *error = "regions: \"" + part + "\" is not NAME:X,Y,W,H (" + why + ")";
      return false;
    }
    for (const NamedRegion& earlier : *regions) {
      if (earlier.name == region.name) {
        *error = "regions: the name \"" + region.name + "\" is given twice";
        return false;
      }
    }
    regions->push_back(region);
  }
  return true;
}

bool FrameRegions::Configure(const GstVideoInfo& info, const Settings& settings, std::string* error) {
  fixed_.clear();
  labels_.clear();
  matched_.clear();
  seen_.clear();
  detections_ = false;
  width_ = GST_VIDEO_INFO_WIDTH(&info);
  height_ = GST_VIDEO_INFO_HEIGHT(&info);
#if !CUDAHISTOGRAM_HAVE_ANALYTICS
  if (settings.objects == Objects::kDetections) {
    *error = "objects=detections needs GStreamer 1.24 or later (its analytics library, "
             "gstreamer-analytics-1.0): this cudahistogram was built against GStreamer " +
             BuiltAgainst() + " without it; fixed regions (the regions property) work";
    return false;
  }
#endif
#if !CUDAHISTOGRAM_HAVE_TENSOR_META
  if (settings.region_tensor) {
    *error = "region-tensor=true needs GStreamer 1.26 or later (GstTensorMeta): this cudahistogram was built "
             "against GStreamer " + BuiltAgainst();
    return false;
  }
#endif
  std::vector<NamedRegion> named;
  if (!ParseRegionList(settings.regions, &named, error)) return false;
  for (const NamedRegion& r : named) {
    RegionEntry entry;
    entry.name = g_quark_from_string(r.name.c_str());
    if (!Clip(r.box.x, r.box.y, r.box.width, r.box.height, width_, height_, &entry.box)) {
      *error = "regions: \"" + r.name + "\" at " + BoxText(r.box.x, r.box.y, r.box.width, r.box.height) +
               " lies outside the " + std::to_string(width_) + "x" + std::to_string(height_) +
               " frame: it would hold no pixel";
      return false;
    }
    fixed_.push_back(entry);
  }
  detections_ = settings.objects == Objects::kDetections;
  if (!settings.object_labels.empty()) {
    for (const std::string& label : Split(settings.object_labels, ',')) {
      if (!Trimmed(label).empty()) labels_.insert(g_quark_from_string(Trimmed(label).c_str()));
    }
  }
  min_confidence_ = settings.object_min_confidence;
  max_objects_ = settings.max_objects;
  return true;
}

void FrameRegions::Restart() {
  warned_skipped_ = false;
  warned_too_many_ = false;
  warned_no_relation_meta_ = false;
  matched_.clear();
  seen_.clear();
}

std::string FrameRegions::UnmatchedLabels() const {
  std::string unmatched, seen;
  for (GQuark label : labels_) {
    if (matched_.count(label) == 0) unmatched += std::string(unmatched.empty() ? "" : ", ") + g_quark_to_string(label);
  }
  if (unmatched.empty()) return "";
  for (GQuark label : seen_) {
    seen += std::string(seen.empty() ? "" : ", ") + (label != 0 ? g_quark_to_string(label) : "(no label)");
  }
  return "object-labels: no detection carried " + unmatched + " (the labels detections carried: " +
         (seen.empty() ? "none" : seen) + ")";
}

#if CUDAHISTOGRAM_HAVE_ANALYTICS
namespace {

// The track id of a tracking Mtd related to the detection either way.
bool TrackOf(GstAnalyticsRelationMeta* rmeta, guint od_id, guint64* track_id) {
  GstAnalyticsMtd track;
  gpointer state = nullptr;
  bool found = gst_analytics_relation_meta_get_direct_related(rmeta, od_id, GST_ANALYTICS_REL_TYPE_ANY,
                                                              gst_analytics_tracking_mtd_get_mtd_type(), &state,
                                                              &track);
  state = nullptr;
  while (!found && gst_analytics_relation_meta_iterate(rmeta, &state, gst_analytics_tracking_mtd_get_mtd_type(),
                                                       &track)) {
    found = gst_analytics_relation_meta_get_relation(rmeta, track.id, od_id) != GST_ANALYTICS_REL_TYPE_NONE;
  }
  if (!found) return false;
  GstClockTime first_seen, last_seen;
  gboolean lost;
  return gst_analytics_tracking_mtd_get_info(&track, track_id, &first_seen, &last_seen, &lost);
}

}  // namespace
#endif

void FrameRegions::Gather(GstBuffer* buffer, std::vector<RegionEntry>* entries, std::vector<std::string>* warnings) {
  *entries = fixed_;
#if CUDAHISTOGRAM_HAVE_ANALYTICS
  if (!detections_) return;
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(buffer);
  if (rmeta == nullptr) {
    if (!warned_no_relation_meta_) {
      warned_no_relation_meta_ = true;
      warnings->push_back(
          "objects=detections, but a frame carries no GstAnalyticsRelationMeta: it has no detections to count "
          "(is there a detector upstream?); said once per stream");
    }
    return;
  }
  gpointer state = nullptr;
  GstAnalyticsMtd od;
  guint objects = 0, beyond = 0;
  while (gst_analytics_relation_meta_iterate(rmeta, &state, gst_analytics_od_mtd_get_mtd_type(), &od)) {
    gint x = 0, y = 0, w = 0, h = 0;
    gfloat confidence = 0;
    std::string why;
#if GST_CHECK_VERSION(1, 26, 0)
    gfloat rotation = 0;
    gst_analytics_od_mtd_get_oriented_location(&od, &x, &y, &w, &h, &rotation, &confidence);
    if (!std::isfinite(rotation)) {
      why = "its rotation is not a finite number";
    } else if (rotation != 0) {  // counted: the rotated box's axis-aligned bounding box
      gst_analytics_od_mtd_get_location(&od, &x, &y, &w, &h, &confidence);
    }
#else
    gst_analytics_od_mtd_get_location(&od, &x, &y, &w, &h, &confidence);
#endif
    const GQuark label = gst_analytics_od_mtd_get_obj_type(&od);
    seen_.insert(label);
    if (!labels_.empty() && labels_.count(label) == 0) continue;
    matched_.insert(label);
    if (why.empty() && !std::isfinite(confidence)) why = "its confidence is not a number";
    if (why.empty() && confidence < min_confidence_) continue;
    RegionEntry entry;
    if (why.empty() && (w <= 0 || h <= 0)) why = "its width or height is zero or negative";
    if (why.empty() && !Clip(x, y, w, h, width_, height_, &entry.box)) {
      why = "it lies outside the " + std::to_string(width_) + "x" + std::to_string(height_) + " frame";
    }
    if (!why.empty()) {
      if (!warned_skipped_) {
        warned_skipped_ = true;
        warnings->push_back("objects=detections: the detection \"" +
                            std::string(label != 0 ? g_quark_to_string(label) : "") + "\" at " +
                            BoxText(x, y, w, h) + " is not counted: " + why +
                            "; later detections skipped for the same reasons are not warned about");
      }
      continue;
    }
    if (objects == max_objects_) {
      ++beyond;
      continue;
    }
    ++objects;
    entry.name = label;
    entry.object = true;
    entry.confidence = confidence;
    entry.od_id = od.id;
    entry.has_track_id = TrackOf(rmeta, od.id, &entry.track_id);
    entries->push_back(entry);
  }
  if (beyond > 0 && !warned_too_many_) {
    warned_too_many_ = true;
    warnings->push_back("objects=detections: a frame carries " + std::to_string(objects + beyond) +
                        " detections to count, more than max-objects (" + std::to_string(max_objects_) +
                        "): the first " + std::to_string(max_objects_) + " are counted, the other " +
                        std::to_string(beyond) + " skipped; said once per stream");
  }
#else
  (void)buffer;
  (void)warnings;
#endif
}

}  // namespace cudahistogram
