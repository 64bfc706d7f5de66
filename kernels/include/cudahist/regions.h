// cudahist: the histograms of many regions of one frame, all in ONE launch.
//
//   auto h = cudahist::RegionHistogrammer::Create(spec, num_components);  // once
//   h->Compute(frame, regions, num_regions, stream, counts);              // every frame
//
// A region is a rectangle of the frame in pixels (detected objects, fixed
// areas); regions may overlap, touch the frame's edges, hold one pixel or the
// whole frame. Every component counts the samples of its own plane that the
// region touches (RegionOnPlane, plane_view.h), as the element's roi-* and
// signalstats' chroma do. An empty
// region (width or height 0) gets zero counts.
//
// The GPU path is a segmented histogram: each region is cut into tiles (a
// run of rows of one plane group), the blocks of one launch take tiles, count
// each into shared-memory copies and add them to the region's counts (in
// device memory; counts in pinned host memory through totals that the last
// tile of a region to finish moves there). No launch per region,
// and no more work per region than its samples and one merge per tile. The
// CPU backend reads the frame once too: a row of a plane is decoded once and
// added to every region that covers it.
//
// Counts are region-major, then component-major, bins last:
//   counts[(region * num_components + component) * bins + bin]
// (RegionCountsLength), the layout of a [regions, components, bins] tensor.
//
// With signalstats (YUV frames of 8 to 10 bits), RegionSignalStats counts per
// region what FFmpeg's signalstats counts for a frame that is the region:
// the Y, U, V, saturation and hue histograms at full depth and the pixels
// outside the broadcast range (not the differences to a previous frame: a
// region of one frame has none in the next). RegionFiguresOf turns them into
// signalstats' figures (YMIN ... SATMAX, HUEMED, HUEAVG, BRNG).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "cudahist/histogram_spec.h"
#include "cudahist/histogrammer.h"
#include "cudahist/plane_view.h"
#include "cudahist/signalstats.h"
#include "cudahist/status.h"

namespace cudahist {

// The largest frame side a region count reads: region tiles keep their
// coordinates in 16 bits (8K is 7680 x 4320).
constexpr uint32_t kMaxRegionFrameSide = 65535;

// The planes a region count reads: whole planes (has_roi false), and each
// component's subsampling against the frame's pixel grid (log2: 1 for the
// chroma of 4:2:0 in both directions, of 4:2:2 across only).
struct RegionFrame {
  PlaneView planes[kMaxComponents];
  uint32_t log2_hsub[kMaxComponents] = {};
  uint32_t log2_vsub[kMaxComponents] = {};
  int num_planes = 0;
};

// Checks the frame (every plane through ValidatePlane, no ROI, log2
// subsampling 0 to 2, sides up to kMaxRegionFrameSide) and that every region
// lies inside every plane once mapped by RegionOnPlane. Messages name the
// field: "regions[3]: x 1900 + width 40 reaches past plane[0]'s 1920 columns".
Status ValidateRegionFrame(const RegionFrame& frame);
Status ValidateRegions(const RegionFrame& frame, const Roi* regions, uint32_t num_regions);

inline size_t RegionCountsLength(const HistogramSpec& spec, int num_components, uint32_t num_regions) {
  return size_t(num_regions) * CountsLength(spec, num_components);
}

// The reference: ReferenceHistogram of every region, one after the other.
// Writes RegionCountsLength counts; spec.algorithm is ignored.
Status ReferenceRegionHistograms(const HistogramSpec& spec, const RegionFrame& frame, const Roi* regions,
                                 uint32_t num_regions, uint32_t* counts);

// The fast CPU path (system memory in the element): every row of a plane
// decoded once, then added to each region that covers it. Same contract as
// ReferenceRegionHistograms. Owns its scratch: create once, reuse per frame.
class CpuRegionHistogrammer {
 public:
  explicit CpuRegionHistogrammer(uint32_t bins) : bins_(bins) {}
  Status Compute(const RegionFrame& frame, const Roi* regions, uint32_t num_regions, uint32_t* counts);
  uint32_t bins() const { return bins_; }

 private:
  uint32_t bins_;
  std::vector<uint32_t> row_bins_;       // one decoded row, as bins
  std::vector<uint32_t> order_;          // regions by first row, for the sweep
  std::vector<uint32_t> active_;         // regions covering the current row
};

// The GPU path. Compute enqueues ONE kernel launch on `stream` (and, for
// frames of more regions than the launch carries in its parameters, one copy
// of the region table before it), allocates nothing unless a frame has more regions
// than any before (the per-region totals grow then, with a synchronisation of
// the device), and writes the counts whole (device memory, or pinned host
// memory: Pinned<uint32_t> of RegionCountsLength). Frame pointers are device
// pointers in the current context. One RegionHistogrammer serves one stream
// at a time; the counts are complete when the stream reaches that point.
class RegionHistogrammer {
 public:
  // `spec.bins` and `num_components` (1 to 4) are fixed for the object's life.
  // spec.algorithm is not used: the segmented kernel is the one algorithm.
  static Status Create(const HistogramSpec& spec, int num_components, std::unique_ptr<RegionHistogrammer>* out);
  ~RegionHistogrammer();
  RegionHistogrammer(const RegionHistogrammer&) = delete;
  RegionHistogrammer& operator=(const RegionHistogrammer&) = delete;

  // Bad frames or regions return kInvalidArgument before anything is enqueued.
  Status Compute(const RegionFrame& frame, const Roi* regions, uint32_t num_regions, cudaStream_t stream,
                 uint32_t* counts);

  const HistogramSpec& spec() const;
  int num_components() const;
  // The tiles the last Compute cut its regions into (for benchmarks and tests).
  uint32_t last_tiles() const;

  struct Impl;

 private:
  explicit RegionHistogrammer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// --- signalstats per region -------------------------------------------------

// 32-bit words of one region's signalstats counts at `depth`:
//   y[2^depth] u[2^depth] v[2^depth] sat[2^depth] hue[360] brng
// (the histograms a bin per code value, then the pixels outside the broadcast
// range), region after region.
inline uint32_t RegionSignalStatsWords(uint32_t depth) { return (4u << depth) + kHueBins + 1; }

// signalstats' figures of one region from its words (RegionSignalStatsWords
// of them); the DIF figures are 0 and the sample counts are the histograms'.
SignalStatsFigures RegionFiguresOf(const uint32_t* words, uint32_t depth);

// A frame for signalstats per region: `frame` without ROIs (ValidateYuvPlanes'
// rules otherwise), each region checked as ValidateRegions does.
Status ValidateRegionSignalStats(const YuvPlanes& frame, const Roi* regions, uint32_t num_regions);

// The reference: ReferenceSignalStats of the frame restricted to each region.
// Writes num_regions * RegionSignalStatsWords(depth) words.
Status ReferenceRegionSignalStats(const YuvPlanes& frame, const Roi* regions, uint32_t num_regions,
                                  uint32_t* words);

// The fast CPU path: each chroma row decoded once (with its sat, hue and
// range flags) and each luma row once, then added to every region that covers
// them. Same contract as ReferenceRegionSignalStats.
class CpuRegionSignalStats {
 public:
  Status Compute(const YuvPlanes& frame, const Roi* regions, uint32_t num_regions, uint32_t* words);

 private:
  std::vector<uint16_t> u_, v_, y_;       // one decoded chroma row, one luma row
  std::vector<uint16_t> sat_, hue_;       // the chroma row's sat and hue
  std::vector<uint8_t> chroma_out_;       // its samples outside the broadcast range
  std::vector<uint32_t> order_, active_;  // the sweep's regions, as CpuRegionHistogrammer's
};

// The GPU path: ONE launch per frame (and a copy of the tile table when it
// does not fit the launch's parameters), as RegionHistogrammer. `words` in
// device or pinned host memory (Pinned<uint32_t> of num_regions *
// RegionSignalStatsWords(depth) words).
class RegionSignalStatsCounter {
 public:
  static Status Create(std::unique_ptr<RegionSignalStatsCounter>* out);
  ~RegionSignalStatsCounter();
  RegionSignalStatsCounter(const RegionSignalStatsCounter&) = delete;
  RegionSignalStatsCounter& operator=(const RegionSignalStatsCounter&) = delete;

  Status Compute(const YuvPlanes& frame, const Roi* regions, uint32_t num_regions, cudaStream_t stream,
                 uint32_t* words);

  struct Impl;

 private:
  explicit RegionSignalStatsCounter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cudahist
