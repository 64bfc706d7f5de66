#include "cudahistogram/region_counter.h"

#include <cstring>

#include "common/cuda_support.h"

namespace cudahistogram {
namespace {

// The frame's Y, U and V (whole planes) as signalstats reads them.
cudahist::YuvPlanes YuvPlanesOf(const CountPlan& yuv_plan, const GstVideoFrame& frame) {
  const cudahist::RegionFrame planes = FrameRegionViews(yuv_plan, frame);
  cudahist::YuvPlanes yuv;
  yuv.y = planes.planes[0];
  yuv.u = planes.planes[1];
  yuv.v = planes.planes[2];
  yuv.log2_hsub = planes.log2_hsub[1];
  yuv.log2_vsub = planes.log2_vsub[1];
  return yuv;
}

}  // namespace

bool RegionCounter::Configure(const GstVideoInfo& info, const CountPlan& plan, bool with_signalstats,
                              std::string* error) {
  plan_ = plan;
  with_signalstats_ = with_signalstats;
  per_region_ = size_t(plan.layout.n_components) * plan.layout.bins;
  if (!cpu_ || cpu_->bins() != plan.layout.bins) cpu_ = std::make_unique<cudahist::CpuRegionHistogrammer>(plan.layout.bins);
  histograms_from_signalstats_ = false;
  if (!with_signalstats) return true;
  CountRequest yuv;
  yuv.components = "Y,U,V";
  if (!MakeCountPlan(info, yuv, &yuv_plan_, error)) return false;
  histograms_from_signalstats_ = true;
  for (int k = 0; k < plan.layout.n_components; ++k) histograms_from_signalstats_ &= WordsComponent(k) >= 0;
  return true;
}

int RegionCounter::WordsComponent(int k) const {
  for (int c = 0; c < 3; ++c) {
    if (g_strcmp0(plan_.layout.names[k], yuv_plan_.layout.names[c]) == 0) return c;
  }
  return -1;
}

bool RegionCounter::CountHistograms(const GstVideoFrame& frame, GstBuffer* buffer,
                                    const std::vector<cudahist::Roi>& boxes, ElementCuda<CudaCounter>* cuda,
                                    std::string* error) {
  const cudahist::RegionFrame planes = FrameRegionViews(plan_, frame);
  const uint32_t n = uint32_t(boxes.size());
  if (cuda == nullptr) return LibraryOk(cpu_->Compute(planes, boxes.data(), n, counts_.data()), error);
  cudahist::HistogramSpec spec;
  spec.bins = plan_.layout.bins;
  const uint32_t* pinned = nullptr;
  const bool ok = cuda->RunAfterProducers(
      buffer,
      [&](CudaCounter& counter, cudaStream_t stream, std::string* e) {
        return counter.CountRegions(stream, spec, planes, boxes.data(), n, &pinned, e);
      },
      error);
  if (ok) std::memcpy(counts_.data(), pinned, counts_.size() * sizeof(uint32_t));
  return ok;
}

bool RegionCounter::CountSignalStats(const GstVideoFrame& frame, GstBuffer* buffer,
                                     const std::vector<cudahist::Roi>& boxes, ElementCuda<CudaCounter>* cuda,
                                     std::string* error) {
  const cudahist::YuvPlanes yuv = YuvPlanesOf(yuv_plan_, frame);
  const uint32_t n = uint32_t(boxes.size()), depth = yuv.y.depth, per_region = cudahist::RegionSignalStatsWords(depth);
  depth_ = depth;
  words_.resize(size_t(n) * per_region);
  bool ok;
  if (cuda == nullptr) {
    ok = LibraryOk(cpu_signalstats_.Compute(yuv, boxes.data(), n, words_.data()), error);
  } else {
    const uint32_t* pinned = nullptr;
    ok = cuda->RunAfterProducers(
        buffer,
        [&](CudaCounter& counter, cudaStream_t stream, std::string* e) {
          return counter.CountRegionSignalStats(stream, yuv, boxes.data(), n, &pinned, e);
        },
        error);
    if (ok) std::memcpy(words_.data(), pinned, words_.size() * sizeof(uint32_t));
  }
  if (!ok) return false;
  figures_.resize(n);
  for (uint32_t r = 0; r < n; ++r) {
    const uint32_t* words = words_.data() + size_t(r) * per_region;
    figures_[r] = cudahist::RegionFiguresOf(words, depth);
    if (!histograms_from_signalstats_) continue;
    for (int k = 0; k < plan_.layout.n_components; ++k) {
      cudahist::RebinCounts(words + (size_t(WordsComponent(k)) << depth), depth, plan_.layout.bins,
                            counts_.data() + r * per_region_ + size_t(k) * plan_.layout.bins);
    }
  }
  return true;
}

bool RegionCounter::Count(const GstVideoFrame& frame, GstBuffer* buffer, const std::vector<cudahist::Roi>& boxes,
                          ElementCuda<CudaCounter>* cuda, std::string* error) {
  counts_.assign(boxes.size() * per_region_, 0);
  figures_.clear();
  if (boxes.empty()) return true;
  if (with_signalstats_ && !CountSignalStats(frame, buffer, boxes, cuda, error)) return false;
  return histograms_from_signalstats_ || CountHistograms(frame, buffer, boxes, cuda, error);
}

}  // namespace cudahistogram
