// What the examples learn from one frame's histograms, kept apart from any
// pipeline so that it is tested on plain arrays (examples/tests/).
//
// A histogram here is the counts of one component as GstCudaHistogramMeta or
// the cudahistogram message carry them: `bins` counts over the full code range
// of a `depth`-bit sample (bin = value * bins >> depth).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cudahist/statistics.h"

namespace monitor {

struct HistogramRef {
  const uint32_t* counts = nullptr;
  uint32_t bins = 0;
  uint32_t depth = 8;
};

// Sample statistics read back from the counts, as the element's message
// computes them (cudahist/statistics.h): exact with bins == 2^depth; with
// fewer bins a bin stands for the middle of its value range.
using ComponentSummary = cudahist::HistogramStatistics;

ComponentSummary Summarize(const HistogramRef& h);

// Fraction of samples whose value lies below `threshold8`, a threshold given
// in 8-bit code values (scaled to the component's depth, as FFmpeg's
// blackframe states its threshold). A bin counts when all of its values lie
// below the threshold.
double FractionBelow(const HistogramRef& h, uint32_t threshold8);

// Normalised L1 distance (total variation) between two histograms of the same
// bin count: 0 for equal shapes, 1 for disjoint ones, whatever the frame sizes.
double HistogramDistance(const HistogramRef& a, const HistogramRef& b);

// A unicode-block sketch (" ▁▂▃▄▅▆▇█") of `bins` counts in at most `columns`
// characters: bins are summed in equal groups, heights are relative to the
// fullest group, an empty group is a space. 64-bit counts: the message's
// counts, which add up over `interval`.
std::string Sketch(const uint64_t* counts, uint32_t bins, uint32_t columns);

struct DetectorOptions {
  double black_amount = 0.98;     // FFmpeg blackframe's default: 98% of luma...
  uint32_t black_threshold = 32;  // ...below 32 (8-bit code values)
  double clip_amount = 0.05;      // clipping when >= 5% of luma sits at an extreme bin
  double cut_threshold = 0.5;     // scene cut when the luma distance to the last frame exceeds this
};

// Returns an empty string when the options make sense, else what is wrong.
std::string ValidateOptions(const DetectorOptions& options);

struct FrameFindings {
  uint64_t frame = 0;
  double black_fraction = 0.0;  // fraction of luma below black_threshold
  bool black = false;
  ComponentSummary luma;
  bool clipped = false;
  bool has_previous = false;  // false on the first frame: no distance, no freeze, no cut
  double distance = 0.0;      // to the previous frame's luma
  bool frozen = false;        // luma counts equal the previous frame's, bin for bin
  bool cut = false;
};

// Feeds frames in order and remembers the previous luma histogram.
class FrameAnalyzer {
 public:
  explicit FrameAnalyzer(const DetectorOptions& options) : options_(options) {}
  FrameFindings Analyze(const HistogramRef& luma);

 private:
  DetectorOptions options_;
  std::vector<uint32_t> previous_;
  uint64_t frames_ = 0;
};

// The JSON lines (no newline) that a frame's findings give: one per event
// ("black", "clipping", "frozen", "cut"), in that order; with `summary`, a
// "frame" line first. `pts_seconds` < 0 means the frame had no timestamp.
std::vector<std::string> EventLines(const FrameFindings& f, double pts_seconds, bool summary);

}  // namespace monitor
