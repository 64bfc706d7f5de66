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
 *   m.get_signalstats()                             # None, or .y_avg, .brng ... (below)
 *   m.get_qc_figures()                              # None, or .tout, .crop_w, .psnr_y ...
 *
 * With the element's signalstats=true on a YUV format of 8 to 10 bits the
 * meta also carries FFmpeg signalstats' figures of the frame
 * (GstCudaSignalStats); gst_cuda_histogram_meta_get_signalstats returns
 * them, or NULL when they were not computed. With signalstats, cropdetect
 * or field-psnr it carries the rest of QCTools' graph (GstCudaQcFigures:
 * TOUT, VREP, cropdetect, the PSNR between the fields), read with
 * gst_cuda_histogram_meta_get_qc_figures.
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
typedef struct _GstCudaQcFigures GstCudaQcFigures;
typedef struct _GstCudaSignalStats GstCudaSignalStats;

/**
 * GstCudaSignalStats:
 * @y_min: YMIN, the lowest Y value
 * @y_low: YLOW, the Y value at the 10th percentile (as signalstats rounds it)
 * @y_avg: YAVG, the mean Y value
 * @y_high: YHIGH, the Y value at the 90th percentile
 * @y_max: YMAX, the highest Y value
 * @u_min: UMIN
 * @u_low: ULOW
 * @u_avg: UAVG
 * @u_high: UHIGH
 * @u_max: UMAX
 * @v_min: VMIN
 * @v_low: VLOW
 * @v_avg: VAVG
 * @v_high: VHIGH
 * @v_max: VMAX
 * @sat_min: SATMIN, saturation (truncated hypot of the centred chroma pair)
 * @sat_low: SATLOW
 * @sat_avg: SATAVG
 * @sat_high: SATHIGH
 * @sat_max: SATMAX
 * @hue_med: HUEMED, the median hue in degrees (0 to 359)
 * @hue_avg: HUEAVG, the mean hue in degrees
 * @y_dif: YDIF, mean absolute difference of Y to the previous frame (0 for
 *   the first frame and after a restart: flush, segment, renegotiation)
 * @u_dif: UDIF
 * @v_dif: VDIF
 * @brng: BRNG, the fraction (0 to 1) of pixels outside the broadcast range
 * @y_bitdepth: YBITDEPTH, the bits set in the OR of every Y value (8 for
 *   10-bit video that uses only multiples of 4)
 * @u_bitdepth: UBITDEPTH
 * @v_bitdepth: VBITDEPTH
 *
 * FFmpeg signalstats' figures of one frame, by its definitions (FFmpeg 5.1,
 * libavfilter/vf_signalstats.c), in code values of the frame's depth: the
 * integers are what signalstats prints with %d, the doubles what it prints
 * with %g. Over the counted region (roi_*) when one is set.
 */
struct _GstCudaSignalStats {
  gint y_min;
  gint y_low;
  gdouble y_avg;
  gint y_high;
  gint y_max;
  gint u_min;
  gint u_low;
  gdouble u_avg;
  gint u_high;
  gint u_max;
  gint v_min;
  gint v_low;
  gdouble v_avg;
  gint v_high;
  gint v_max;
  gint sat_min;
  gint sat_low;
  gdouble sat_avg;
  gint sat_high;
  gint sat_max;
  gint hue_med;
  gdouble hue_avg;
  gdouble y_dif;
  gdouble u_dif;
  gdouble v_dif;
  gdouble brng;
  gint y_bitdepth;
  gint u_bitdepth;
  gint v_bitdepth;
};

/**
 * GstCudaQcFigures:
 * @has_tout_vrep: whether @tout and @vrep were computed (signalstats=true)
 * @tout: TOUT (lavfi.signalstats.TOUT), the fraction of temporal-outlier pixels
 * @vrep: VREP (lavfi.signalstats.VREP), the fraction of pixels in rows that
 *   repeat the row four above
 * @has_crop: whether the crop_* fields hold cropdetect's figures (cropdetect=true;
 *   FALSE on the first two frames, which cropdetect skips)
 * @crop_x1: lavfi.cropdetect.x1
 * @crop_x2: lavfi.cropdetect.x2
 * @crop_y1: lavfi.cropdetect.y1
 * @crop_y2: lavfi.cropdetect.y2
 * @crop_w: lavfi.cropdetect.w
 * @crop_h: lavfi.cropdetect.h
 * @crop_x: lavfi.cropdetect.x
 * @crop_y: lavfi.cropdetect.y
 * @has_field_psnr: whether the psnr_* fields hold the PSNR between the
 *   frame's top and bottom field (field-psnr=true and an even height)
 * @psnr_mse_y: lavfi.psnr.mse.y
 * @psnr_mse_u: lavfi.psnr.mse.u
 * @psnr_mse_v: lavfi.psnr.mse.v
 * @psnr_mse_avg: lavfi.psnr.mse_avg
 * @psnr_y: lavfi.psnr.psnr.y (+inf when the fields are equal)
 * @psnr_u: lavfi.psnr.psnr.u
 * @psnr_v: lavfi.psnr.psnr.v
 * @psnr_avg: lavfi.psnr.psnr_avg
 *
 * The rest of QCTools' graph (qcli's signalstats=stat=tout+vrep+brng,
 * cropdetect=reset=1, field=top and field=bottom into psnr), as FFmpeg
 * computes it (docs/qc-figures.md): tout and vrep print as FFmpeg prints them
 * with %g, the psnr figures with %f.
 */
struct _GstCudaQcFigures {
  gboolean has_tout_vrep;
  gdouble tout;
  gdouble vrep;
  gboolean has_crop;
  gint crop_x1;
  gint crop_x2;
  gint crop_y1;
  gint crop_y2;
  gint crop_w;
  gint crop_h;
  gint crop_x;
  gint crop_y;
  gboolean has_field_psnr;
  gdouble psnr_mse_y;
  gdouble psnr_mse_u;
  gdouble psnr_mse_v;
  gdouble psnr_mse_avg;
  gdouble psnr_y;
  gdouble psnr_u;
  gdouble psnr_v;
  gdouble psnr_avg;
};

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
 * @has_signalstats: whether @signalstats holds the frame's figures
 * @signalstats: FFmpeg signalstats' figures of the frame, when
 *   @has_signalstats (read them with gst_cuda_histogram_meta_get_signalstats())
 * @has_qc_figures: whether @qc_figures holds the frame's QC figures
 * @qc_figures: TOUT, VREP, cropdetect and the field PSNR, when
 *   @has_qc_figures (read them with gst_cuda_histogram_meta_get_qc_figures())
 *
 * Fields are only ever appended: @has_signalstats and @signalstats came with
 * the signalstats property and sit after all earlier fields, @has_qc_figures
 * and @qc_figures after them.
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

  gboolean has_signalstats;
  GstCudaSignalStats signalstats;

  gboolean has_qc_figures;
  GstCudaQcFigures qc_figures;
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

const GstCudaSignalStats *gst_cuda_histogram_meta_get_signalstats (const GstCudaHistogramMeta * meta);

void gst_cuda_histogram_meta_set_signalstats (GstCudaHistogramMeta * meta,
    const GstCudaSignalStats * stats);

const GstCudaQcFigures *gst_cuda_histogram_meta_get_qc_figures (const GstCudaHistogramMeta * meta);

void gst_cuda_histogram_meta_set_qc_figures (GstCudaHistogramMeta * meta,
    const GstCudaQcFigures * figures);

gboolean gst_cuda_signal_stats_get_figure (const GstCudaSignalStats * stats,
    const gchar * name, gdouble * value);

void gst_cuda_signal_stats_to_structure (const GstCudaSignalStats * stats,
    GstStructure * structure);

gboolean gst_cuda_qc_figures_get_figure (const GstCudaQcFigures * figures,
    const gchar * name, gdouble * value);

void gst_cuda_qc_figures_to_structure (const GstCudaQcFigures * figures,
    GstStructure * structure);

G_END_DECLS

#endif /* __GST_CUDA_HISTOGRAM_META_H__ */
