// cudavideoscope: video scopes (histogram, waveform, parade, vectorscope) of
// each frame, drawn as RGBA video at the input's frame rate. CUDA memory in,
// counted and drawn on the GPU, CUDA memory out; system memory through the
// CPU path.
#pragma once

#include "common/gstcudaframefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VIDEO_SCOPE (gst_cuda_video_scope_get_type())
G_DECLARE_FINAL_TYPE(GstCudaVideoScope, gst_cuda_video_scope, GST, CUDA_VIDEO_SCOPE, GstCudaFrameFilter)

GST_ELEMENT_REGISTER_DECLARE(cudavideoscope);

G_END_DECLS
