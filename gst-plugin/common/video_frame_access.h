// Checks and maps of a video buffer that both elements make, each failure
// posted as an element error that names the cause.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

namespace cudahistogram {

// Bytes of one row of `plane` in a frame of `info`'s width: the widest of the
// components stored in it (pixel stride times samples per row).
gsize PlaneRowBytes(const GstVideoInfo& info, guint plane);

// Rows of `plane` in a frame of `info`'s height.
guint PlaneRows(const GstVideoInfo& info, guint plane);

// `pool` configured for frames of `caps` (`info`'s size, at least
// `min_frames`, no most; with `video_meta` each carries a GstVideoMeta) and
// activated. Null when the pool refuses, `pool` then released.
GstBufferPool* StartFramePool(GstBufferPool* pool, GstCaps* caps, const GstVideoInfo& info, guint min_frames,
                              bool video_meta);
// Deactivates and releases `*pool`, if any; null after.
void StopFramePool(GstBufferPool** pool);

// True when the buffer's (first) memory is GstCudaMemory: the GPU path.
bool IsCudaFrame(GstBuffer* buffer);

// True when `buffer` holds the frame `info` (the caps) describes. A buffer
// with a GstVideoMeta is laid out as the meta says: its planes at the meta's
// offsets, its rows at the meta's strides, which may be tighter than the
// caps' default layout (FFmpeg's tightly packed frames through rawvideoparse
// or an appsrc); the meta must name the caps' format and planes and at least
// their size, its rows must hold a row of the frame, and the buffer must
// reach the last byte of every plane. A buffer without one holds the caps'
// default layout: GST_VIDEO_INFO_SIZE bytes at least. Otherwise posts an
// element error that names the cause and returns false.
bool BufferHoldsFrame(GstElement* element, const GstVideoInfo& info, GstBuffer* buffer);

// gst_video_frame_map; `what` names the frame in the error ("video frame",
// "output picture"), GST_MAP_WRITE in `flags` says it is written.
bool MapVideoFrame(GstElement* element, const char* what, GstVideoInfo* info, GstBuffer* buffer, GstMapFlags flags,
                   GstVideoFrame* frame);

}  // namespace cudahistogram
