// Checks and maps of a video buffer that both elements make, each failure
// posted as an element error that names the cause.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

namespace cudahistogram {

// True when the buffer's (first) memory is GstCudaMemory: the GPU path.
bool IsCudaFrame(GstBuffer* buffer);

// True when `buffer` holds at least the bytes `info` says a frame takes.
bool BufferHoldsFrame(GstElement* element, const GstVideoInfo& info, GstBuffer* buffer);

// gst_video_frame_map; `what` names the frame in the error ("video frame",
// "output picture"), GST_MAP_WRITE in `flags` says it is written.
bool MapVideoFrame(GstElement* element, const char* what, GstVideoInfo* info, GstBuffer* buffer, GstMapFlags flags,
                   GstVideoFrame* frame);

}  // namespace cudahistogram
