#include "common/video_frame_access.h"

#include <gst/cuda/gstcudamemory.h>

namespace cudahistogram {

bool IsCudaFrame(GstBuffer* buffer) {
  return gst_buffer_n_memory(buffer) > 0 && gst_is_cuda_memory(gst_buffer_peek_memory(buffer, 0));
}

bool BufferHoldsFrame(GstElement* element, const GstVideoInfo& info, GstBuffer* buffer) {
  const gsize have = gst_buffer_get_size(buffer);
  if (have >= GST_VIDEO_INFO_SIZE(&info)) return true;
  GST_ELEMENT_ERROR(element, STREAM, FORMAT, ("Buffer too small for its caps"),
                    ("buffer holds %" G_GSIZE_FORMAT " bytes, a %s %dx%d frame needs %" G_GSIZE_FORMAT, have,
                     GST_VIDEO_INFO_NAME(&info), GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                     GST_VIDEO_INFO_SIZE(&info)));
  return false;
}

bool MapVideoFrame(GstElement* element, const char* what, GstVideoInfo* info, GstBuffer* buffer, GstMapFlags flags,
                   GstVideoFrame* frame) {
  if (gst_video_frame_map(frame, info, buffer, flags)) return true;
  const bool write = (flags & GST_MAP_WRITE) != 0;
  GST_ELEMENT_ERROR(element, STREAM, FAILED, ("Could not map the %s for %s", what, write ? "writing" : "reading"),
                    ("gst_video_frame_map (%s) failed on %" GST_PTR_FORMAT " (mapped for %s elsewhere, or its "
                     "memory refuses to be mapped)",
                     (flags & GST_MAP_CUDA) ? "GST_MAP_CUDA, device pointers" : "system memory", buffer,
                     write ? "reading or writing" : "writing"));
  return false;
}

}  // namespace cudahistogram
