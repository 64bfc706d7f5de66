// cudahist on the CPU: the reference (the oracle of every test) and the
// backend (fast), both reading host-memory PlaneViews.
#pragma once

#include <cstdint>
#include <vector>

#include "cudahist/histogram_spec.h"
#include "cudahist/plane_view.h"
#include "cudahist/status.h"

namespace cudahist {

// Plain and obviously right: one sample at a time, straight from the
// PlaneView definition. Writes num_planes * spec.bins counts (component-major);
// spec.algorithm is ignored.
Status ReferenceHistogram(const HistogramSpec& spec, const PlaneView* planes, int num_planes,
                          uint32_t* counts);

// The fast CPU path, used by the element for system memory. Keeps several
// counter arrays per component so that runs of equal samples do not serialise
// on one store-to-load chain. Owns that scratch: create once, reuse per frame.
class CpuHistogrammer {
 public:
  explicit CpuHistogrammer(uint32_t bins);

  // Same contract as ReferenceHistogram (counts fully overwritten).
  Status Compute(const PlaneView* planes, int num_planes, uint32_t* counts);

  uint32_t bins() const { return bins_; }

 private:
  uint32_t bins_;
  std::vector<uint32_t> scratch_;
};

}  // namespace cudahist
