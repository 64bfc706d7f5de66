// The element's region counts: the boxes of one frame (frame_regions.h)
// counted where the frame lives, all in one launch (cudahist/regions.h): the
// plan's components at the plan's bins and, with signalstats, signalstats'
// figures of each box. With signalstats the histograms of Y, U and V come
// from signalstats' full-depth counts (RebinCounts), as for the frame, so a
// frame's regions take one launch either way.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <memory>
#include <string>
#include <vector>

#include "common/cuda_element_stream.h"
#include "common/video_planes.h"
#include "cudahist/regions.h"
#include "cudahist/signalstats.h"
#include "cudahistogram/cuda_counter.h"

namespace cudahistogram {

class RegionCounter {
 public:
  // For `plan` (components, bins) on frames of `info`; with signalstats'
  // figures when `with_signalstats` (the element found the format readable).
  bool Configure(const GstVideoInfo& info, const CountPlan& plan, bool with_signalstats, std::string* error);

  // Counts `boxes` of `frame`: the mapping of `buffer` to host memory, or to
  // device memory of cuda->context() when `cuda` is given.
  bool Count(const GstVideoFrame& frame, GstBuffer* buffer, const std::vector<cudahist::Roi>& boxes,
             ElementCuda<CudaCounter>* cuda, std::string* error);

  // After a successful Count, until the next: box r's counts (the plan's
  // n_components * bins, component-major) and figures (null without
  // signalstats).
  const uint32_t* counts(size_t r) const { return counts_.data() + r * per_region_; }
  const cudahist::SignalStatsFigures* figures(size_t r) const {
    return with_signalstats_ ? &figures_[r] : nullptr;
  }
  // With signalstats, box r's hue histogram (cudahist::kHueBins degrees); else null.
  const uint32_t* hue(size_t r) const {
    return with_signalstats_ ? words_.data() + r * cudahist::RegionSignalStatsWords(depth_) + (4u << depth_) : nullptr;
  }
  // All boxes' counts, box after box: a [boxes, components, bins] array.
  const std::vector<uint32_t>& all_counts() const { return counts_; }

 private:
  bool CountHistograms(const GstVideoFrame& frame, GstBuffer* buffer, const std::vector<cudahist::Roi>& boxes,
                       ElementCuda<CudaCounter>* cuda, std::string* error);
  bool CountSignalStats(const GstVideoFrame& frame, GstBuffer* buffer, const std::vector<cudahist::Roi>& boxes,
                        ElementCuda<CudaCounter>* cuda, std::string* error);
  // Where component k of the plan lies among signalstats' words (Y, U, V),
  // or -1 for a component signalstats does not count.
  int WordsComponent(int k) const;

  CountPlan plan_;
  CountPlan yuv_plan_;  // Y, U, V as signalstats reads them
  bool with_signalstats_ = false;
  bool histograms_from_signalstats_ = false;
  size_t per_region_ = 0;
  uint32_t depth_ = 0;  // signalstats' words: the frame's Y, U, V depth
  std::unique_ptr<cudahist::CpuRegionHistogrammer> cpu_;
  cudahist::CpuRegionSignalStats cpu_signalstats_;
  std::vector<uint32_t> counts_;
  std::vector<uint32_t> words_;
  std::vector<cudahist::SignalStatsFigures> figures_;
};

}  // namespace cudahistogram
