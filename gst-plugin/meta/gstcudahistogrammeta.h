/* GstCudaHistogramMeta: the per-frame histograms that cudahistogram attaches
 * to each buffer it passes on.
 *
 * Applications read it with this header and libgstcudahistogrammeta-1.0
 * (pkg-config: gstreamer-cudahistogram-meta-1.0):
 *
 *   GstCudaHistogramMeta *m = gst_buffer_get_cuda_histogram_meta (buf);
 *   if (m) {
 *     gint y = gst_cuda_histogram_meta_find_component (m, "Y");
 *     const guint32 *counts = gst_cuda_histogram_meta_get_counts (m, y);
 *     ... counts[0 .. m->bins - 1] ...
 *   }
 *
 * Counts are exact 32-bit sample counts, bin = value * bins >> depth over
 * the component's full code range. Components keep the order of
 * GstVideoFormatInfo (Y, U, V / R, G, B, A) among those that were computed.
 *
 * Tags: none. The meta records the format, size and ROI of the frame it
 * counted, so it stays true when a later element converts, scales or crops
 * the pixels; untagged metas are the ones GstBaseTransform-based elements
 * (videoconvert, videoscale, queue, tee...) keep. Its transform copies it on
 * buffer copies and video scaling and drops it on any other transform.
 *
 * With two cudahistogram elements in a row a buffer carries one meta per
 * element; gst_buffer_get_cuda_histogram_meta returns the first (upstream)
 * one, gst_buffer_iterate_meta_filtered (buf, &state,
 * GST_CUDA_HISTOGRAM_META_API_TYPE) walks all of them.
 *
 * Python and other GObject-introspection languages read it through the
 * GstCudaHistogram-1.0 typelib:
 *
 *   m = GstCudaHistogram.buffer_get_cuda_histogram_meta(buf)   # or None
 *   m.format, m.width, m.bins, m.roi_x ...          # plain fields
 *   m.get_component_names()                         # ["Y", "U", "V"]
 *   m.get_counts(0)                                 # list of m.bins ints ([] out of range)
 *
 * Each function's contract is documented where it is defined, in
 * gstcudahistogrammeta.c.
 */
#ifndef __GST_CUDA_HISTOGRAM_META_H__
#define __GST_CUDA_HISTOGRAM_META_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_CUDA_HISTOGRAM_META_API_TYPE (gst_cuda_histogram_meta_api_get_type ())
#define GST_CUDA_HISTOGRAM_META_INFO (gst_cuda_histogram_meta_get_info ())
#define GST_CUDA_HISTOGRAM_MAX_COMPONENTS 4

typedef struct _GstCudaHistogramMeta GstCudaHistogramMeta;

/**
 * GstCudaHistogramMeta:
 * @meta: parent
 * @format: the video format of the frame that was counted
 * @width: frame width in pixels
 * @height: frame height in pixels
 * @roi_x, @roi_y, @roi_width, @roi_height: the counted rectangle, in pixels of
 *   the full-resolution frame, after clipping to the frame (the whole frame
 *   when no ROI was set). Subsampled components count the matching rectangle
 *   of their own plane.
 * @bins: bins per component
 * @n_components: number of histograms held (1 to 4)
 * @component_names: name of each histogram ("Y", "U", "V", "R", "G", "B", "A");
 *   static strings (never freed; the copy transform copies the pointers)
 * @component_depth: bit depth of each component's samples
 * @counts: n_components * bins counts, component-major; owned by the meta
 */
struct _GstCudaHistogramMeta {
  GstMeta meta;

  GstVideoFormat format;
  guint width;
  guint height;
  guint roi_x;
  guint roi_y;
  guint roi_width;
  guint roi_height;

  guint bins;
  guint n_components;
  const gchar *component_names[GST_CUDA_HISTOGRAM_MAX_COMPONENTS];
  guint component_depth[GST_CUDA_HISTOGRAM_MAX_COMPONENTS];
  guint32 *counts;
};

GType gst_cuda_histogram_meta_api_get_type (void);
const GstMetaInfo *gst_cuda_histogram_meta_get_info (void);

GstCudaHistogramMeta *gst_buffer_add_cuda_histogram_meta (GstBuffer * buffer,
    guint bins, guint n_components);

GstCudaHistogramMeta *gst_buffer_get_cuda_histogram_meta (GstBuffer * buffer);

const guint32 *gst_cuda_histogram_meta_get_counts (const GstCudaHistogramMeta * meta,
    guint component);

gint gst_cuda_histogram_meta_find_component (const GstCudaHistogramMeta * meta,
    const gchar * name);

/* The same contents for language bindings (GObject introspection), which
 * need array lengths: the struct's arrays have 4 slots whatever
 * n_components, and counts is a bare pointer. */
const guint32 *gst_cuda_histogram_meta_get_component_counts (const GstCudaHistogramMeta * meta,
    guint component, guint * n_counts);

const gchar *const *gst_cuda_histogram_meta_get_component_names (const GstCudaHistogramMeta * meta,
    guint * n_components);

const gchar *gst_cuda_histogram_meta_get_component_name (const GstCudaHistogramMeta * meta,
    guint component);

gint gst_cuda_histogram_meta_get_component_depth (const GstCudaHistogramMeta * meta,
    guint component);

G_END_DECLS

#endif /* __GST_CUDA_HISTOGRAM_META_H__ */
