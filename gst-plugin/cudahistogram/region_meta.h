// The region counts where analytics pipelines look (GStreamer 1.24+; built
// only with gstreamer-analytics-1.0): in the buffer's GstAnalyticsRelationMeta
// (added when it has none), a GstCudaRegionMtd (gstcudaregionmtd.h) for the
// frame and one per region, an object's related to its GstAnalyticsODMtd
// both ways (region IS_PART_OF object, object CONTAINs region); and with
// region-tensor (1.26+) a GstTensorMeta holding GST_CUDA_REGION_TENSOR_ID,
// the regions' counts as UINT32 [regions, components, bins] whose row r is
// the region Mtd of tensor-row r.
#pragma once

#include <gst/gst.h>

#include <vector>

#include "common/video_planes.h"
#include "cudahist/signalstats.h"
#include "cudahistogram/frame_regions.h"
#include "cudahistogram/region_counter.h"

namespace cudahistogram {

// `frame_counts`: the element's counts of the frame (its layout: the frame
// or the roi-* region), `frame_figures` its figures or null. False when the
// relation meta refused an Mtd (the reason is logged).
bool AttachRegionMetas(GstBuffer* buffer, const HistogramLayout& layout, const uint32_t* frame_counts,
                       const cudahist::SignalStatsFigures* frame_figures, const std::vector<RegionEntry>& entries,
                       const RegionCounter& counted, bool tensor);

}  // namespace cudahistogram
