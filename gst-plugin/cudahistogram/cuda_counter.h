// The histogram element's device objects: the Histogrammer and pinned counts
// reused frame after frame and, with signalstats, the SignalStatsCounter and
// its pinned counts and the QC counts; for regions, the region counters and
// their pinned counts (grown with the most regions a frame had). They live in the element's ElementCuda (the context,
// the stream, the ordering after the producer and the wait are there), so
// every method is called with the context current and enqueues on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "cudahist/histogrammer.h"
#include "cudahist/regions.h"
#include "cudahist/signalstats.h"

namespace cudahistogram {

class CudaCounter {
 public:
  // Enqueues the count of `planes` (device pointers valid in the context).
  // The Histogrammer and the pinned counts are (re)built only when spec or
  // component count change. *counts points to n * spec.bins counts, filled
  // once the stream is done and valid until the next call.
  bool Count(cudaStream_t stream, const cudahist::HistogramSpec& spec, const cudahist::PlaneView* planes, int n,
             const uint32_t** counts, std::string* error);

  // Enqueues signalstats' counts of `planes` against `previous` (the
  // previous frame's, or null). `previous` needs no ordering of its own: it
  // was the frame of an earlier count, whose wait on this stream came first.
  // With `qc` (null: not wanted), the frame's QC counts too, on the same
  // stream. *counts (and *qc) are filled once the stream is done, valid until
  // the next call.
  bool CountSignalStats(cudaStream_t stream, const cudahist::YuvPlanes& planes, const cudahist::YuvPlanes* previous,
                        const cudahist::SignalStatsCounts** counts, const cudahist::QcCounts** qc,
                        std::string* error);

  // Enqueues the histograms of `num_regions` regions of `frame`, all in one
  // launch. *counts (RegionCountsLength of them) is filled once the stream
  // is done, valid until the next call.
  bool CountRegions(cudaStream_t stream, const cudahist::HistogramSpec& spec, const cudahist::RegionFrame& frame,
                    const cudahist::Roi* regions, uint32_t num_regions, const uint32_t** counts, std::string* error);
  // The same for signalstats' counts of each region (RegionSignalStatsWords a region).
  bool CountRegionSignalStats(cudaStream_t stream, const cudahist::YuvPlanes& frame, const cudahist::Roi* regions,
                              uint32_t num_regions, const uint32_t** words, std::string* error);

 private:
  bool EnsureHistogrammer(const cudahist::HistogramSpec& spec, int n, std::string* error);
  bool EnsureSignalStats(bool with_qc, std::string* error);

  std::unique_ptr<cudahist::Histogrammer> histogrammer_;
  std::unique_ptr<cudahist::Pinned<uint32_t>> pinned_;
  std::unique_ptr<cudahist::SignalStatsCounter> signalstats_;
  std::unique_ptr<cudahist::Pinned<cudahist::SignalStatsCounts>> pinned_signalstats_;
  std::unique_ptr<cudahist::Pinned<cudahist::QcCounts>> pinned_qc_;
  std::unique_ptr<cudahist::RegionHistogrammer> region_histogrammer_;
  std::unique_ptr<cudahist::Pinned<uint32_t>> pinned_region_counts_;
  std::unique_ptr<cudahist::RegionSignalStatsCounter> region_signalstats_;
  std::unique_ptr<cudahist::Pinned<uint32_t>> pinned_region_words_;
};

}  // namespace cudahistogram
