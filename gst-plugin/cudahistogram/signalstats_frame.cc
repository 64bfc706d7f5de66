#include "cudahistogram/signalstats_frame.h"

#include <gst/cuda/gstcudamemory.h>

#include <string>

#include "common/video_frame_access.h"

namespace cudahistogram {
namespace {

std::string FormatName(const GstVideoInfo& info) {
  return GST_VIDEO_INFO_NAME(&info) ? GST_VIDEO_INFO_NAME(&info) : "unknown";
}

// Frames of two layouts with the same region have samples at the same places.
bool SameRegion(const HistogramLayout& a, const HistogramLayout& b) {
  return a.format == b.format && a.width == b.width && a.height == b.height &&
         a.roi_x == b.roi_x && a.roi_y == b.roi_y && a.roi_width == b.roi_width &&
         a.roi_height == b.roi_height;
}

// signalstats' full-depth histogram of the element's component `name`.
const uint32_t* FineCounts(const cudahist::SignalStatsCounts& counts, const char* name) {
  switch (name[0]) {
    case 'Y': return counts.y;
    case 'U': return counts.u;
    default: return counts.v;  // SignalStatsReads admits Y, U and V only
  }
}

// The context of the CUDA memory `buffer` lives in, or null for system memory.
GstCudaContext* MemoryContext(GstBuffer* buffer) {
  GstMemory* mem = gst_buffer_n_memory(buffer) > 0 ? gst_buffer_peek_memory(buffer, 0) : nullptr;
  return mem && gst_is_cuda_memory(mem) ? reinterpret_cast<GstCudaMemory*>(mem)->context : nullptr;
}

}  // namespace

bool SignalStatsReads(const GstVideoInfo& info, std::string* why) {
  const GstVideoFormatInfo* finfo = info.finfo;
  if (!GST_VIDEO_FORMAT_INFO_IS_YUV(finfo) || GST_VIDEO_FORMAT_INFO_N_COMPONENTS(finfo) != 3) {
    *why = FormatName(info) + " is not a YUV format of Y, U and V (" +
           (GST_VIDEO_FORMAT_INFO_IS_RGB(finfo)    ? "it is RGB"
            : GST_VIDEO_FORMAT_INFO_IS_GRAY(finfo) ? "it is grey, without chroma"
                                                   : "it has other components") +
           ")";
    return false;
  }
  for (guint c = 0; c < 3; ++c) {
    const guint depth = GST_VIDEO_FORMAT_INFO_DEPTH(finfo, c);
    if (depth < cudahist::kSignalStatsMinDepth || depth > cudahist::kSignalStatsMaxDepth) {
      *why = FormatName(info) + " has " + std::to_string(depth) + "-bit samples; signalstats reads " +
             std::to_string(cudahist::kSignalStatsMinDepth) + " to " +
             std::to_string(cudahist::kSignalStatsMaxDepth) + " bits";
      return false;
    }
  }
  return true;
}

void ReserveThePreviousFrame(GstQuery* allocation) {
  for (guint i = 0; i < gst_query_get_n_allocation_pools(allocation); ++i) {
    GstBufferPool* pool = nullptr;
    guint size = 0, min = 0, max = 0;
    gst_query_parse_nth_allocation_pool(allocation, i, &pool, &size, &min, &max);
    gst_query_set_nth_allocation_pool(allocation, i, pool, size, min + 1, max == 0 ? 0 : max + 1);
    if (pool) gst_object_unref(pool);
  }
}

SignalStatsFrame::SignalStatsFrame() = default;

SignalStatsFrame::~SignalStatsFrame() { Restart(); }

void SignalStatsFrame::Restart() { gst_clear_buffer(&previous_); }

void SignalStatsFrame::KeepAsPrevious(GstBuffer* buffer) {
  if (buffer != previous_) {
    Restart();
    previous_ = gst_buffer_ref(buffer);
  }
  previous_layout_ = yuv_plan_.layout;
}

// The element's plan with Y, U and V for components: the same region and
// the same views the histogram path reads (bins do not matter to the views).
bool SignalStatsFrame::EnsureYuvPlan(const GstVideoInfo& info, const CountPlan& plan,
                                     std::string* error) {
  if (have_yuv_plan_ && SameRegion(yuv_plan_.layout, plan.layout)) return true;
  const HistogramLayout& l = plan.layout;
  const CountRequest yuv = {"Y,U,V", 1, {l.roi_x, l.roi_y, l.roi_width, l.roi_height}};
  have_yuv_plan_ = MakeCountPlan(info, yuv, &yuv_plan_, error);
  log2_hsub_ = GST_VIDEO_FORMAT_INFO_W_SUB(info.finfo, GST_VIDEO_COMP_U);
  log2_vsub_ = GST_VIDEO_FORMAT_INFO_H_SUB(info.finfo, GST_VIDEO_COMP_U);
  return have_yuv_plan_;
}

cudahist::YuvPlanes SignalStatsFrame::YuvPlanesOf(const GstVideoFrame& frame) const {
  cudahist::PlaneView views[kMaxComponents];
  FramePlaneViews(yuv_plan_, frame, views);
  cudahist::YuvPlanes planes;
  planes.y = views[0];
  planes.u = views[1];
  planes.v = views[2];
  planes.log2_hsub = log2_hsub_;
  planes.log2_vsub = log2_vsub_;
  return planes;
}

GstBuffer* SignalStatsFrame::UsablePrevious(GstCudaContext* context) const {
  if (previous_ == nullptr || !SameRegion(previous_layout_, yuv_plan_.layout)) return nullptr;
  return MemoryContext(previous_) == context ? previous_ : nullptr;
}

bool SignalStatsFrame::CountMapped(const cudahist::YuvPlanes& planes,
                                   const cudahist::YuvPlanes* previous, GstBuffer* buffer,
                                   ElementCuda<CudaCounter>* cuda, const cudahist::SignalStatsCounts** counts,
                                   const cudahist::QcCounts** qc, std::string* error) {
  if (cuda != nullptr) {
    return cuda->RunAfterProducers(
        buffer,
        [&](CudaCounter& counter, cudaStream_t stream, std::string* e) {
          return counter.CountSignalStats(stream, planes, previous, counts, qc, e);
        },
        error);
  }
  if (!cpu_counts_) cpu_counts_ = std::make_unique<cudahist::SignalStatsCounts>();
  if (qc != nullptr && !cpu_qc_) cpu_qc_ = std::make_unique<cudahist::QcCounts>();
  const cudahist::Status status =
      cpu_.Compute(planes, previous, cpu_counts_.get(), qc != nullptr ? cpu_qc_.get() : nullptr);
  *counts = cpu_counts_.get();
  if (qc != nullptr) *qc = cpu_qc_.get();
  if (!status.ok()) *error = status.message();
  return status.ok();
}

void SignalStatsFrame::TakeHistograms(const cudahist::SignalStatsCounts& counts,
                                      const HistogramLayout& layout) {
  histograms_.assign(size_t(layout.bins) * size_t(layout.n_components), 0);
  for (int c = 0; c < layout.n_components; ++c) {
    cudahist::RebinCounts(FineCounts(counts, layout.names[c]), counts.depth, layout.bins,
                          histograms_.data() + size_t(c) * layout.bins);
  }
}

bool SignalStatsFrame::Count(const GstVideoInfo& info, const CountPlan& plan, GstBuffer* buffer,
                             const GstVideoFrame& frame, ElementCuda<CudaCounter>* cuda, bool with_qc,
                             std::string* error) {
  if (!EnsureYuvPlan(info, plan, error)) {
    Restart();
    return false;
  }
  const GstMapFlags flags =
      cuda != nullptr ? GstMapFlags(GST_MAP_READ | GST_MAP_CUDA) : GST_MAP_READ;
  GstBuffer* previous = UsablePrevious(cuda != nullptr ? cuda->context() : nullptr);
  GstVideoFrame previous_frame;
  if (previous != nullptr && !gst_video_frame_map(&previous_frame, &info, previous, flags)) {
    *error = std::string("could not map the previous frame again for DIF (") +
             (cuda != nullptr ? "GST_MAP_CUDA" : "system memory") + ")";
    Restart();
    return false;
  }
  const cudahist::YuvPlanes planes = YuvPlanesOf(frame);
  cudahist::YuvPlanes previous_planes;
  if (previous != nullptr) previous_planes = YuvPlanesOf(previous_frame);
  const cudahist::SignalStatsCounts* counts = nullptr;
  const cudahist::QcCounts* qc = nullptr;
  const bool ok = CountMapped(planes, previous != nullptr ? &previous_planes : nullptr, buffer,
                              cuda, &counts, with_qc ? &qc : nullptr, error);
  if (previous != nullptr) gst_video_frame_unmap(&previous_frame);
  if (!ok) {
    Restart();
    return false;
  }
  figures_ = cudahist::FiguresOf(*counts);
  if (with_qc) qc_figures_ = cudahist::QcFiguresOf(*qc);
  TakeHistograms(*counts, plan.layout);
  return true;
}

}  // namespace cudahistogram
