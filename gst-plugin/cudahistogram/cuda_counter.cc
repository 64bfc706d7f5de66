#include "cudahistogram/cuda_counter.h"

#include <cuda_runtime_api.h>

#include "common/cuda_support.h"

namespace cudahistogram {
bool CudaCounter::Open(GstCudaContext* context, std::string* error) {
  Close();
  return stream_.Open(context, error);
}

void CudaCounter::Close() {
  if (!stream_.is_open()) return;
  {
    // The objects free device and pinned memory: their context must be current.
    ScopedContext scoped(stream_.context());
    histogrammer_.reset();
    pinned_.reset();
    signalstats_.reset();
    pinned_signalstats_.reset();
    pinned_qc_.reset();
  }
  stream_.Close();
}

bool CudaCounter::EnsureHistogrammer(const cudahist::HistogramSpec& spec, int n,
                                     std::string* error) {
  if (histogrammer_ && histogrammer_->spec().bins == spec.bins &&
      histogrammer_->spec().algorithm == spec.algorithm && histogrammer_->num_components() == n) {
    return true;
  }
  histogrammer_.reset();
  pinned_.reset();
  return LibraryOk(cudahist::Histogrammer::Create(spec, n, &histogrammer_), error) &&
         LibraryOk(cudahist::PinnedCounts::Create(cudahist::CountsLength(spec, n), &pinned_), error);
}

bool CudaCounter::EnsureSignalStats(bool with_qc, std::string* error) {
  if (!signalstats_ || !pinned_signalstats_) {
    signalstats_.reset();
    pinned_signalstats_.reset();
    if (!LibraryOk(cudahist::SignalStatsCounter::Create(&signalstats_), error) ||
        !LibraryOk(cudahist::PinnedSignalStats::Create(&pinned_signalstats_), error)) {
      return false;
    }
  }
  return !with_qc || pinned_qc_ || LibraryOk(cudahist::PinnedQcCounts::Create(&pinned_qc_), error);
}

template <typename Prepare, typename Launch>
bool CudaCounter::RunAfterProducers(GstBuffer* frame, Prepare prepare, Launch launch,
                                    std::string* error) {
  if (!stream_.is_open()) {
    *error = "no CUDA context";
    return false;
  }
  ScopedContext scoped(stream_.context());
  if (!scoped.pushed()) {
    *error = kContextPushFailed;
    return false;
  }
  return prepare() && stream_.OrderAfterProducers(frame, error) && launch() &&
         CudaOk(cudaStreamSynchronize(stream_.stream()), "cudaStreamSynchronize", error);
}

bool CudaCounter::Count(const cudahist::HistogramSpec& spec, GstBuffer* frame,
                        const cudahist::PlaneView* planes, int n, const uint32_t** counts,
                        std::string* error) {
  const bool ok = RunAfterProducers(
      frame, [&] { return EnsureHistogrammer(spec, n, error); },
      [&] { return LibraryOk(histogrammer_->Compute(planes, n, stream_.stream(), pinned_->data()), error); },
      error);
  if (ok) *counts = pinned_->data();
  return ok;
}

bool CudaCounter::CountSignalStats(GstBuffer* frame, const cudahist::YuvPlanes& planes,
                                   const cudahist::YuvPlanes* previous,
                                   const cudahist::SignalStatsCounts** counts,
                                   const cudahist::QcCounts** qc, std::string* error) {
  const bool ok = RunAfterProducers(
      frame, [&] { return EnsureSignalStats(qc != nullptr, error); },
      [&] {
        return LibraryOk(
                   signalstats_->Compute(planes, previous, stream_.stream(), pinned_signalstats_->get()),
                   error) &&
               (qc == nullptr ||
                LibraryOk(signalstats_->ComputeQc(planes, stream_.stream(), pinned_qc_->get()), error));
      },
      error);
  if (ok) *counts = pinned_signalstats_->get();
  if (ok && qc != nullptr) *qc = pinned_qc_->get();
  return ok;
}

}  // namespace cudahistogram
