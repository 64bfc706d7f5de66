#include "common/video_frame_access.h"

#include <gst/cuda/gstcudamemory.h>

#include <algorithm>
#include <cstring>

namespace cudahistogram {

gsize PlaneRowBytes(const GstVideoInfo& info, guint plane) {
  gsize bytes = 0;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    if (GST_VIDEO_INFO_COMP_PLANE(&info, c) != plane) continue;
    bytes = std::max(bytes, gsize(GST_VIDEO_INFO_COMP_PSTRIDE(&info, c)) * GST_VIDEO_INFO_COMP_WIDTH(&info, c));
  }
  return bytes;
}

guint PlaneRows(const GstVideoInfo& info, guint plane) {
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    if (GST_VIDEO_INFO_COMP_PLANE(&info, c) == plane) return GST_VIDEO_INFO_COMP_HEIGHT(&info, c);
  }
  return 0;
}

GstBufferPool* StartFramePool(GstBufferPool* pool, GstCaps* caps, const GstVideoInfo& info, guint min_frames,
                              bool video_meta) {
  GstStructure* config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, guint(GST_VIDEO_INFO_SIZE(&info)), min_frames, 0);
  if (video_meta) gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config(pool, config) || !gst_buffer_pool_set_active(pool, TRUE)) {
    gst_object_unref(pool);
    return nullptr;
  }
  return pool;
}

void StopFramePool(GstBufferPool** pool) {
  if (*pool) gst_buffer_pool_set_active(*pool, FALSE);
  gst_clear_object(pool);
}

bool IsCudaFrame(GstBuffer* buffer) {
  return gst_buffer_n_memory(buffer) > 0 && gst_is_cuda_memory(gst_buffer_peek_memory(buffer, 0));
}

namespace {

// gst_video_frame_map takes a meta of the caps' format and planes, at least
// as large as the caps' frame (it asserts so); anything else is bad input.
bool MetaMatchesCaps(GstElement* element, const GstVideoInfo& info, const GstVideoMeta* meta) {
  if (meta->format == GST_VIDEO_INFO_FORMAT(&info) && meta->n_planes == GST_VIDEO_INFO_N_PLANES(&info) &&
      meta->width >= guint(GST_VIDEO_INFO_WIDTH(&info)) && meta->height >= guint(GST_VIDEO_INFO_HEIGHT(&info))) {
    return true;
  }
  GST_ELEMENT_ERROR(element, STREAM, FORMAT, ("Buffer's video meta does not describe a frame of its caps"),
                    ("the meta describes a %s %ux%u frame of %u planes, the caps a %s %dx%d frame of %u planes",
                     gst_video_format_to_string(meta->format), meta->width, meta->height, meta->n_planes,
                     GST_VIDEO_INFO_NAME(&info), GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                     GST_VIDEO_INFO_N_PLANES(&info)));
  return false;
}

// Every plane's rows, at the meta's offset and stride, inside the buffer.
bool BufferHoldsMetaLayout(GstElement* element, const GstVideoInfo& info, const GstVideoMeta* meta,
                           GstBuffer* buffer) {
  if (!MetaMatchesCaps(element, info, meta)) return false;
  const gsize have = gst_buffer_get_size(buffer);
  for (guint p = 0; p < meta->n_planes; ++p) {
    const gsize row = PlaneRowBytes(info, p);
    const guint rows = PlaneRows(info, p);
    if (meta->stride[p] < 0 || gsize(meta->stride[p]) < row) {
      GST_ELEMENT_ERROR(element, STREAM, FORMAT, ("Buffer's video meta has rows shorter than the frame's"),
                        ("plane %u: stride %d bytes, a row of the %s %dx%d frame takes %" G_GSIZE_FORMAT, p,
                         meta->stride[p], GST_VIDEO_INFO_NAME(&info), GST_VIDEO_INFO_WIDTH(&info),
                         GST_VIDEO_INFO_HEIGHT(&info), row));
      return false;
    }
    if (rows == 0) continue;
    const gsize end = meta->offset[p] + gsize(meta->stride[p]) * (rows - 1) + row;
    if (end > have) {
      GST_ELEMENT_ERROR(element, STREAM, FORMAT, ("Buffer too small for the layout of its video meta"),
                        ("buffer holds %" G_GSIZE_FORMAT " bytes; plane %u of the %s %dx%d frame (offset %" G_GSIZE_FORMAT
                         ", stride %d, %u rows of %" G_GSIZE_FORMAT " bytes) ends at byte %" G_GSIZE_FORMAT,
                         have, p, GST_VIDEO_INFO_NAME(&info), GST_VIDEO_INFO_WIDTH(&info),
                         GST_VIDEO_INFO_HEIGHT(&info), meta->offset[p], meta->stride[p], rows, row, end));
      return false;
    }
  }
  return true;
}

}  // namespace

bool BufferHoldsFrame(GstElement* element, const GstVideoInfo& info, GstBuffer* buffer) {
  if (const GstVideoMeta* meta = gst_buffer_get_video_meta(buffer)) {
    return BufferHoldsMetaLayout(element, info, meta, buffer);
  }
  const gsize have = gst_buffer_get_size(buffer);
  if (have >= GST_VIDEO_INFO_SIZE(&info)) return true;
  GST_ELEMENT_ERROR(element, STREAM, FORMAT, ("Buffer too small for its caps"),
                    ("buffer holds %" G_GSIZE_FORMAT " bytes and no GstVideoMeta, a %s %dx%d frame in the caps' "
                     "default layout needs %" G_GSIZE_FORMAT,
                     have, GST_VIDEO_INFO_NAME(&info), GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
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
