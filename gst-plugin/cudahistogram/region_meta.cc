#include "cudahistogram/region_meta.h"

#include <gst/analytics/analytics.h>

#include "cudahistogram/signalstats_message.h"
#include "gstcudaregionmtd.h"

namespace cudahistogram {
namespace {

// A region Mtd of `layout`'s components with `counts`, `figures` and `hue`
// (signalstats' hue histogram, or null).
bool AddRegionMtd(GstAnalyticsRelationMeta* rmeta, const HistogramLayout& layout, GstCudaRegionKind kind,
                  GQuark name, const cudahist::Roi& box, const uint32_t* counts,
                  const cudahist::SignalStatsFigures* figures, const uint32_t* hue, GstCudaRegionMtd* mtd) {
  guint depths[kMaxComponents];
  for (int c = 0; c < layout.n_components; ++c) depths[c] = layout.depths[c];
  const guint hue_bins = hue != nullptr ? cudahist::kHueBins : 0;
  if (!gst_analytics_relation_meta_add_cuda_region_mtd(rmeta, kind, name, gint(box.x), gint(box.y), gint(box.width),
                                                       gint(box.height), layout.width, layout.height, layout.bins,
                                                       guint(layout.n_components), layout.names, depths, hue_bins,
                                                       mtd)) {
    return false;
  }
  if (hue != nullptr) gst_cuda_region_mtd_set_hue_counts(mtd, hue, hue_bins);
  for (int c = 0; c < layout.n_components; ++c) {
    gst_cuda_region_mtd_set_counts(mtd, guint(c), counts + size_t(c) * layout.bins, layout.bins);
  }
  if (figures != nullptr) {
    const GstCudaSignalStats stats = MetaSignalStats(*figures);
    gst_cuda_region_mtd_set_signalstats(mtd, &stats);
  }
  return true;
}

#if CUDAHISTOGRAM_HAVE_TENSOR_META
void AttachTensor(GstBuffer* buffer, const HistogramLayout& layout, const RegionCounter& counted, size_t regions) {
  const std::vector<uint32_t>& counts = counted.all_counts();
  const gsize bytes = counts.size() * sizeof(uint32_t);
  GstBuffer* data = gst_buffer_new_allocate(nullptr, bytes, nullptr);
  gst_buffer_fill(data, 0, counts.data(), bytes);
  gsize dims[3] = {regions, gsize(layout.n_components), layout.bins};
  GstTensor** tensors = g_new(GstTensor*, 1);
  tensors[0] = gst_tensor_new_simple(g_quark_from_static_string(GST_CUDA_REGION_TENSOR_ID),
                                     GST_TENSOR_DATA_TYPE_UINT32, data, GST_TENSOR_DIM_ORDER_ROW_MAJOR, 3, dims);
  gst_tensor_meta_set(gst_buffer_add_tensor_meta(buffer), 1, tensors);
}
#endif

}  // namespace

bool AttachRegionMetas(GstBuffer* buffer, const HistogramLayout& layout, const uint32_t* frame_counts,
                       const cudahist::SignalStatsFigures* frame_figures, const std::vector<RegionEntry>& entries,
                       const RegionCounter& counted, bool tensor) {
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(buffer);
  if (rmeta == nullptr) rmeta = gst_buffer_add_analytics_relation_meta(buffer);
  GstCudaRegionMtd mtd;
  const cudahist::Roi counted_box{layout.roi_x, layout.roi_y, layout.roi_width, layout.roi_height};
  if (!AddRegionMtd(rmeta, layout, GST_CUDA_REGION_KIND_FRAME, 0, counted_box, frame_counts, frame_figures, nullptr,
                    &mtd)) {
    return false;
  }
  for (size_t r = 0; r < entries.size(); ++r) {
    const RegionEntry& e = entries[r];
    const GstCudaRegionKind kind = e.object ? GST_CUDA_REGION_KIND_OBJECT : GST_CUDA_REGION_KIND_FIXED;
    if (!AddRegionMtd(rmeta, layout, kind, e.name, e.box, counted.counts(r), counted.figures(r), counted.hue(r), &mtd)) {
      return false;
    }
    if (tensor) gst_cuda_region_mtd_set_tensor_row(&mtd, guint(r));
    if (!e.object) continue;
    gst_cuda_region_mtd_set_confidence(&mtd, e.confidence);
    if (e.has_track_id) gst_cuda_region_mtd_set_track_id(&mtd, e.track_id);
    if (!gst_analytics_relation_meta_set_relation(rmeta, GST_ANALYTICS_REL_TYPE_IS_PART_OF, mtd.id, e.od_id) ||
        !gst_analytics_relation_meta_set_relation(rmeta, GST_ANALYTICS_REL_TYPE_CONTAIN, e.od_id, mtd.id)) {
      return false;
    }
  }
#if CUDAHISTOGRAM_HAVE_TENSOR_META
  if (tensor) AttachTensor(buffer, layout, counted, entries.size());
#else
  (void)tensor;  // refused when the settings were taken (frame_regions.cc)
#endif
  return true;
}

}  // namespace cudahistogram
