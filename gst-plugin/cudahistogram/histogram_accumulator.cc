#include "cudahistogram/histogram_accumulator.h"

namespace cudahistogram {

void HistogramAccumulator::Add(const HistogramLayout& layout, const uint32_t* counts,
                               const FrameTiming& timing,
                               const cudahist::SignalStatsFigures* figures, const QcFields* qc) {
  if (frames_ == 0) {
    layout_ = layout;
    counts_.assign(size_t(layout.bins) * size_t(layout.n_components), 0);
    first_ = timing;
  }
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += counts[i];
  if (GST_CLOCK_TIME_IS_VALID(timing.duration)) {
    duration_ += timing.duration;
  } else {
    unknown_duration_ = true;
  }
  if (figures != nullptr) {
    last_figures_ = *figures;
  } else {
    last_figures_.reset();
  }
  if (qc != nullptr) {
    last_qc_ = *qc;
  } else {
    last_qc_.reset();
  }
  ++frames_;
}

bool HistogramAccumulator::Due(guint64 interval) const {
  if (empty()) return false;
  return interval == 0 || unknown_duration_ || duration_ >= interval;
}

void HistogramAccumulator::Reset() {
  frames_ = 0;
  duration_ = 0;
  unknown_duration_ = false;
  first_ = FrameTiming();
  counts_.clear();
  last_figures_.reset();
  last_qc_.reset();
}

}  // namespace cudahistogram
