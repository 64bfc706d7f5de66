// The regions in the "cudahistogram" message, added up over `interval` as
// the frame's counts are (histogram_accumulator.h):
//   regions   GValueArray of "region" structures, one per fixed region, in
//             the `regions` order: name (string), x, y, width, height (guint,
//             the box clipped to the frame), then the frame's count fields
//             (histograms, mean, stddev, min, max, clipped-low, clipped-high:
//             histogram_message.h) summed over the interval, and with
//             signalstats y-min ... brng of its last frame (signalstats_message.h;
//             the DIF figures are 0: a region has no previous frame)
//   objects   GValueArray of "object" structures (objects=detections), one
//             per detection counted in each frame of the interval: timestamp
//             (guint64, its frame's), label (string, "" when none),
//             confidence (gdouble), x, y, width, height, track-id (guint64,
//             only when a tracking Mtd relates to it), then that frame's
//             count fields and figures as above
#pragma once

#include <gst/gst.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "common/video_planes.h"
#include "cudahist/signalstats.h"
#include "cudahistogram/frame_regions.h"
#include "cudahistogram/region_counter.h"

namespace cudahistogram {

class RegionAccumulator {
 public:
  bool empty() const { return frames_ == 0; }
  // False when pending frames were counted with other fixed regions (names
  // or boxes), with or without objects where this frame is not, or with
  // regions where this one has none: they must be posted first.
  bool Accepts(bool counting_regions, const std::vector<RegionEntry>& entries, bool objects) const;
  // One frame's regions (`entries`, counted by `counted`).
  void Add(const HistogramLayout& layout, GstClockTime timestamp, const std::vector<RegionEntry>& entries,
           const RegionCounter& counted, bool objects);
  void Reset();
  // Sets the "regions" (when there are fixed regions) and "objects" (with
  // objects=detections) fields on the message structure `s`.
  void SetFields(GstStructure* s) const;

 private:
  struct Record {
    RegionEntry entry;
    GstClockTime timestamp = GST_CLOCK_TIME_NONE;
    std::vector<uint64_t> counts;
    std::optional<cudahist::SignalStatsFigures> figures;
  };
  GstStructure* StructureOf(const Record& r) const;

  HistogramLayout layout_;
  std::vector<Record> fixed_;
  std::vector<Record> objects_;
  bool with_objects_ = false;
  guint frames_ = 0;
};

}  // namespace cudahistogram
