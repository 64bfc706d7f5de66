#include "cudahistogram/cuda_counter.h"

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

}  // namespace cudahistogram
