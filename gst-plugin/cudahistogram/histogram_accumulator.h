// Counts added up over the `interval`, the way `level` accumulates its
// sums between messages: the timestamps are those of the first frame of the
// interval, the duration is the sum of the frames' durations. signalstats'
// figures and the QC figures do not add up: the interval's are those of its
// last frame.
#pragma once

#include <gst/gst.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "cudahist/signalstats.h"

#include "common/video_planes.h"
#include "cudahistogram/signalstats_message.h"

namespace cudahistogram {

struct FrameTiming {
  GstClockTime timestamp = GST_CLOCK_TIME_NONE;
  GstClockTime stream_time = GST_CLOCK_TIME_NONE;
  GstClockTime running_time = GST_CLOCK_TIME_NONE;
  GstClockTime duration = GST_CLOCK_TIME_NONE;  // NONE: unknown (no buffer duration, no framerate)
};

class HistogramAccumulator {
 public:
  bool empty() const { return frames_ == 0; }
  // False when frames of another layout (format, size, ROI, bins, components)
  // are pending: they must be posted first, counts of two layouts do not add.
  bool Accepts(const HistogramLayout& layout) const { return empty() || layout == layout_; }
  // `figures`: the frame's signalstats figures, or null when it has none;
  // `qc` the same for its QC figures.
  void Add(const HistogramLayout& layout, const uint32_t* counts, const FrameTiming& timing,
           const cudahist::SignalStatsFigures* figures = nullptr, const QcFields* qc = nullptr);
  // Interval 0 wants every frame; a frame of unknown duration cannot be
  // measured against the interval, so it ends the interval too.
  bool Due(guint64 interval) const;
  void Reset();

  const HistogramLayout& layout() const { return layout_; }
  const std::vector<uint64_t>& counts() const { return counts_; }  // component-major
  guint frames() const { return frames_; }
  const FrameTiming& first() const { return first_; }
  // NONE when a frame of unknown duration was added.
  GstClockTime duration() const { return unknown_duration_ ? GST_CLOCK_TIME_NONE : duration_; }
  // The last frame's signalstats figures, or null when it had none.
  const cudahist::SignalStatsFigures* last_figures() const {
    return last_figures_ ? &*last_figures_ : nullptr;
  }
  // The last frame's QC figures, or null when it had none.
  const QcFields* last_qc() const { return last_qc_ ? &*last_qc_ : nullptr; }

 private:
  HistogramLayout layout_;
  std::vector<uint64_t> counts_;
  guint frames_ = 0;
  FrameTiming first_;
  GstClockTime duration_ = 0;
  bool unknown_duration_ = false;
  std::optional<cudahist::SignalStatsFigures> last_figures_;
  std::optional<QcFields> last_qc_;
};

}  // namespace cudahistogram
