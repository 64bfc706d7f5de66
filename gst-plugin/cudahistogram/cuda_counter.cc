#include "cudahistogram/cuda_counter.h"

#include <algorithm>

#include "common/cuda_support.h"

namespace cudahistogram {

bool CudaCounter::EnsureHistogrammer(const cudahist::HistogramSpec& spec, int n, std::string* error) {
  if (histogrammer_ && histogrammer_->spec().bins == spec.bins &&
      histogrammer_->spec().algorithm == spec.algorithm && histogrammer_->num_components() == n) {
    return true;
  }
  histogrammer_.reset();
  pinned_.reset();
  return LibraryOk(cudahist::Histogrammer::Create(spec, n, &histogrammer_), error) &&
         LibraryOk(cudahist::Pinned<uint32_t>::Create(cudahist::CountsLength(spec, n), &pinned_), error);
}

bool CudaCounter::EnsureSignalStats(bool with_qc, std::string* error) {
  if (!signalstats_ || !pinned_signalstats_) {
    signalstats_.reset();
    pinned_signalstats_.reset();
    if (!LibraryOk(cudahist::SignalStatsCounter::Create(&signalstats_), error) ||
        !LibraryOk(cudahist::Pinned<cudahist::SignalStatsCounts>::Create(&pinned_signalstats_), error)) {
      return false;
    }
  }
  return !with_qc || pinned_qc_ || LibraryOk(cudahist::Pinned<cudahist::QcCounts>::Create(&pinned_qc_), error);
}

bool CudaCounter::Count(cudaStream_t stream, const cudahist::HistogramSpec& spec, const cudahist::PlaneView* planes,
                        int n, const uint32_t** counts, std::string* error) {
  if (!EnsureHistogrammer(spec, n, error) ||
      !LibraryOk(histogrammer_->Compute(planes, n, stream, pinned_->data()), error)) {
    return false;
  }
  *counts = pinned_->data();
  return true;
}

bool CudaCounter::CountSignalStats(cudaStream_t stream, const cudahist::YuvPlanes& planes,
                                   const cudahist::YuvPlanes* previous, const cudahist::SignalStatsCounts** counts,
                                   const cudahist::QcCounts** qc, std::string* error) {
  if (!EnsureSignalStats(qc != nullptr, error) ||
      !LibraryOk(signalstats_->Compute(planes, previous, stream, pinned_signalstats_->data(),
                                       qc != nullptr ? pinned_qc_->data() : nullptr),
                 error)) {
    return false;
  }
  *counts = pinned_signalstats_->data();
  if (qc != nullptr) *qc = pinned_qc_->data();
  return true;
}

namespace {

// `*pinned` holds at least `count` words: kept while it does, else replaced
// by one twice that (a detector's box count varies from frame to frame).
bool EnsurePinned(std::unique_ptr<cudahist::Pinned<uint32_t>>* pinned, size_t count, std::string* error) {
  if (*pinned && (*pinned)->size() >= count) return true;
  pinned->reset();
  return LibraryOk(cudahist::Pinned<uint32_t>::Create(2 * count, pinned), error);
}

}  // namespace

bool CudaCounter::CountRegions(cudaStream_t stream, const cudahist::HistogramSpec& spec,
                               const cudahist::RegionFrame& frame, const cudahist::Roi* regions, uint32_t num_regions,
                               const uint32_t** counts, std::string* error) {
  if (!region_histogrammer_ || region_histogrammer_->spec().bins != spec.bins ||
      region_histogrammer_->num_components() != frame.num_planes) {
    region_histogrammer_.reset();
    if (!LibraryOk(cudahist::RegionHistogrammer::Create(spec, frame.num_planes, &region_histogrammer_), error)) {
      return false;
    }
  }
  if (!EnsurePinned(&pinned_region_counts_,
                    std::max<size_t>(1, cudahist::RegionCountsLength(spec, frame.num_planes, num_regions)), error) ||
      !LibraryOk(region_histogrammer_->Compute(frame, regions, num_regions, stream, pinned_region_counts_->data()),
                 error)) {
    return false;
  }
  *counts = pinned_region_counts_->data();
  return true;
}

bool CudaCounter::CountRegionSignalStats(cudaStream_t stream, const cudahist::YuvPlanes& frame,
                                         const cudahist::Roi* regions, uint32_t num_regions, const uint32_t** words,
                                         std::string* error) {
  if (!region_signalstats_ && !LibraryOk(cudahist::RegionSignalStatsCounter::Create(&region_signalstats_), error)) {
    return false;
  }
  const size_t length = size_t(num_regions) * cudahist::RegionSignalStatsWords(frame.y.depth);
  if (!EnsurePinned(&pinned_region_words_, std::max<size_t>(1, length), error) ||
      !LibraryOk(region_signalstats_->Compute(frame, regions, num_regions, stream, pinned_region_words_->data()),
                 error)) {
    return false;
  }
  *words = pinned_region_words_->data();
  return true;
}

}  // namespace cudahistogram
