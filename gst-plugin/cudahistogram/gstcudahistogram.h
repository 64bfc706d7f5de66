// cudahistogram: per-frame, per-component histograms of video frames, in
// place, attached as GstCudaHistogramMeta and posted as "cudahistogram"
// element messages. CUDA memory is counted on the GPU, system memory on the CPU.
#pragma once

#include "common/gstcudaframefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_HISTOGRAM (gst_cuda_histogram_get_type())
G_DECLARE_FINAL_TYPE(GstCudaHistogram, gst_cuda_histogram, GST, CUDA_HISTOGRAM, GstCudaFrameFilter)

GST_ELEMENT_REGISTER_DECLARE(cudahistogram);

G_END_DECLS
