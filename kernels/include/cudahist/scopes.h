// cudahist: the counts behind video scopes, one launch per frame each.
//
//   waveform / parade   per-column histograms of a component:
//                       counts[group * bins + bin], the counted columns cut
//                       into `groups` groups
//   vectorscope         the joint histogram of two components of the same
//                       samples (U and V, or two of R, G, B):
//                       counts[bin_b * bins_a + bin_a]
//
// The two-phase per-column workload ([length, channels] rows of 8-bit samples, one 256-bin
// histogram per channel) is a per-column histogram of a plane whose width is
// the channel count and whose height is the length: pixel stride 1, pitch =
// channels, groups = channels.
//
// Bins are equal width over the full code range, as everywhere in cudahist:
// bin = value * bins >> depth.
#pragma once

#include <cstdint>
#include <memory>

#include "cudahist/histogrammer.h"
#include "cudahist/plane_view.h"
#include "cudahist/status.h"

namespace cudahist {

// --- per-column histograms ----------------------------------------------------

struct ColumnHistogramSpec {
  uint32_t groups = 1;  // 1 to the counted width
  uint32_t bins = 256;  // 1 to 2^depth of the plane
};

// Column x of the counted region (0 <= x < region width W) belongs to group
// x * groups / W (integer division): groups of equal width when groups
// divides W, widths differing by at most one otherwise.
inline uint32_t ColumnGroupOf(uint32_t x, uint32_t groups, uint32_t width) {
  return uint32_t((uint64_t(x) * groups) / width);
}

inline size_t ColumnCountsLength(const ColumnHistogramSpec& spec) {
  return size_t(spec.groups) * spec.bins;
}

// Checks the plane (ValidatePlane) and the spec against it: groups 1 to the
// counted width, bins 1 to 2^depth. Messages name the field.
Status ValidateColumnRequest(const ColumnHistogramSpec& spec, const PlaneView& plane);

// The reference: one sample at a time. Writes ColumnCountsLength(spec) counts.
Status ReferenceColumnHistogram(const ColumnHistogramSpec& spec, const PlaneView& plane,
                                uint32_t* counts);

// --- joint histograms -----------------------------------------------------------

struct JointHistogramSpec {
  uint32_t bins_a = 256;  // 1 to min(2^depth of a, 256)
  uint32_t bins_b = 256;  // 1 to min(2^depth of b, 256)
};

constexpr uint32_t kMaxJointBins = 256;

inline size_t JointCountsLength(const JointHistogramSpec& spec) {
  return size_t(spec.bins_a) * spec.bins_b;
}

// Checks both planes, that they have the same counted size (the same
// samples: NV12's U and V, two of RGBA's components), and the bins.
Status ValidateJointRequest(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b);

// The reference: counts[bin_b * bins_a + bin_a] for every sample position.
Status ReferenceJointHistogram(const JointHistogramSpec& spec, const PlaneView& a,
                               const PlaneView& b, uint32_t* counts);

// --- the CPU and GPU paths ------------------------------------------------------

// The fast CPU path (system memory in the element). Counts fully overwritten.
Status CpuColumnHistogram(const ColumnHistogramSpec& spec, const PlaneView& plane, uint32_t* counts);
Status CpuJointHistogram(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b,
                         uint32_t* counts);

// The GPU paths. Create once (scratch sized for the device, whatever the
// frame); Compute enqueues ONE launch on `stream` that zeroes, counts and
// writes every count (device or pinned host memory), allocating nothing and
// synchronising nothing. One object serves one stream at a time.
class ColumnHistogrammer {
 public:
  static Status Create(std::unique_ptr<ColumnHistogrammer>* out);
  ~ColumnHistogrammer();
  ColumnHistogrammer(const ColumnHistogrammer&) = delete;
  ColumnHistogrammer& operator=(const ColumnHistogrammer&) = delete;

  Status Compute(const ColumnHistogramSpec& spec, const PlaneView& plane, cudaStream_t stream,
                 uint32_t* counts);

  struct Impl;

 private:
  explicit ColumnHistogrammer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class JointHistogrammer {
 public:
  static Status Create(std::unique_ptr<JointHistogrammer>* out);
  ~JointHistogrammer();
  JointHistogrammer(const JointHistogrammer&) = delete;
  JointHistogrammer& operator=(const JointHistogrammer&) = delete;

  Status Compute(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b,
                 cudaStream_t stream, uint32_t* counts);

  struct Impl;

 private:
  explicit JointHistogrammer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cudahist
