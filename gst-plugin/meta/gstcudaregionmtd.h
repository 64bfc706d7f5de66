/* GstCudaRegionMtd: one region's histograms (and signalstats' figures) in a
 * buffer's GstAnalyticsRelationMeta, where analytics pipelines look
 * (GStreamer 1.24+; built only where gstreamer-analytics-1.0 is found).
 *
 * cudahistogram attaches one per counted region of a frame:
 *   - one per detected object (objects=detections), related to the
 *     object's GstAnalyticsODMtd both ways: the region IS_PART_OF the
 *     object, the object CONTAINs the region;
 *   - one per fixed region of its `regions` property;
 *   - one for the whole frame (or the roi-* region), the counts its
 *     GstCudaHistogramMeta carries.
 *
 * From C (the object's histograms):
 *
 *   GstAnalyticsRelationMeta *rmeta = gst_buffer_get_analytics_relation_meta (buf);
 *   GstAnalyticsMtd od, region;
 *   gpointer state = NULL;
 *   while (gst_analytics_relation_meta_iterate (rmeta, &state,
 *           gst_analytics_od_mtd_get_mtd_type (), &od)) {
 *     gpointer s = NULL;
 *     if (gst_analytics_relation_meta_get_direct_related (rmeta, od.id,
 *             GST_ANALYTICS_REL_TYPE_CONTAIN, gst_cuda_region_mtd_get_mtd_type (),
 *             &s, &region)) {
 *       guint n;
 *       const guint32 *y = gst_cuda_region_mtd_get_counts (&region,
 *           gst_cuda_region_mtd_find_component (&region, "Y"), &n);
 *       ...
 *     }
 *   }
 *
 * From Python (GstCudaHistogram-1.0 typelib, with GstAnalytics-1.0):
 *
 *   ok, region = GstCudaHistogram.analytics_relation_meta_find_cuda_region_mtd(rmeta, od.id)
 *   region.get_name(), region.get_box(), region.get_counts(0), region.get_signalstats(),
 *   region.get_hue_counts()   # signalstats' hue histogram (360 degrees), with signalstats=true
 *
 * gst-python's `for mtd in rmeta` looks each Mtd type up in
 * GstAnalytics.__mtd_types__; register this one there to iterate buffers that
 * carry it (docs/applications.md shows how).
 *
 * The data lives in the relation meta (copied with it). Boxes are in pixels
 * of the frame as it was counted (its size: gst_cuda_region_mtd_get_frame_size).
 */
#ifndef __GST_CUDA_REGION_MTD_H__
#define __GST_CUDA_REGION_MTD_H__

#include <gst/analytics/analytics.h>
#include <gst/gst.h>

#include "gstcudahistogrammeta.h"

G_BEGIN_DECLS

/**
 * GST_CUDA_REGION_TENSOR_ID:
 *
 * The id (as a GQuark's string) of the tensor cudahistogram attaches with
 * region-tensor=true: UINT32 counts, row-major dims [regions, components,
 * bins]; region r is the region Mtd whose gst_cuda_region_mtd_get_tensor_row
 * is r (fixed regions in the `regions` order, then the objects).
 */
#define GST_CUDA_REGION_TENSOR_ID "CudaHistogram.RegionHistograms"

/**
 * GstCudaRegionKind:
 * @GST_CUDA_REGION_KIND_FRAME: the whole frame (or the element's roi-* region)
 * @GST_CUDA_REGION_KIND_FIXED: a region of the element's `regions` property
 * @GST_CUDA_REGION_KIND_OBJECT: a detected object's box (objects=detections)
 *
 * What a #GstCudaRegionMtd counted.
 */
typedef enum {
  GST_CUDA_REGION_KIND_FRAME = 0,
  GST_CUDA_REGION_KIND_FIXED = 1,
  GST_CUDA_REGION_KIND_OBJECT = 2,
} GstCudaRegionKind;

/**
 * GstCudaRegionMtd:
 * @id: the instance's id in its relation meta
 * @meta: the relation meta that holds it
 *
 * A handle of one region's histograms in a #GstAnalyticsRelationMeta, to be
 * used with the gst_cuda_region_mtd functions; generally on the stack.
 */
#ifdef __GI_SCANNER__
/* What introspection is shown: GstAnalyticsMtd's layout as a record of this
 * namespace, so that bindings can allocate a handle (an alias of the other
 * namespace's struct would be opaque to them). */
struct _GstCudaRegionMtd
{
  guint id;
  GstAnalyticsRelationMeta *meta;
};
typedef struct _GstCudaRegionMtd GstCudaRegionMtd;
#else
typedef struct _GstAnalyticsMtd GstCudaRegionMtd;
#endif

GstAnalyticsMtdType gst_cuda_region_mtd_get_mtd_type (void);

gboolean gst_analytics_relation_meta_add_cuda_region_mtd (GstAnalyticsRelationMeta * instance,
    GstCudaRegionKind kind, GQuark name, gint x, gint y, gint width, gint height,
    guint frame_width, guint frame_height, guint bins, guint n_components,
    const gchar * const *component_names, const guint * component_depths, guint hue_bins,
    GstCudaRegionMtd * region_mtd);

gboolean gst_analytics_relation_meta_get_cuda_region_mtd (GstAnalyticsRelationMeta * meta,
    guint an_meta_id, GstCudaRegionMtd * rlt);

gboolean gst_analytics_relation_meta_find_cuda_region_mtd (GstAnalyticsRelationMeta * meta,
    guint object_id, GstCudaRegionMtd * rlt);

GstCudaRegionKind gst_cuda_region_mtd_get_kind (const GstCudaRegionMtd * handle);

GQuark gst_cuda_region_mtd_get_name_quark (const GstCudaRegionMtd * handle);

const gchar *gst_cuda_region_mtd_get_name (const GstCudaRegionMtd * handle);

gboolean gst_cuda_region_mtd_get_box (const GstCudaRegionMtd * handle, gint * x, gint * y,
    gint * width, gint * height);

void gst_cuda_region_mtd_get_frame_size (const GstCudaRegionMtd * handle, guint * width, guint * height);

guint gst_cuda_region_mtd_get_bins (const GstCudaRegionMtd * handle);

guint gst_cuda_region_mtd_get_n_components (const GstCudaRegionMtd * handle);

const gchar *gst_cuda_region_mtd_get_component_name (const GstCudaRegionMtd * handle, guint component);

gint gst_cuda_region_mtd_get_component_depth (const GstCudaRegionMtd * handle, guint component);

gint gst_cuda_region_mtd_find_component (const GstCudaRegionMtd * handle, const gchar * name);

const guint32 *gst_cuda_region_mtd_get_counts (const GstCudaRegionMtd * handle, guint component,
    guint * n_counts);

gboolean gst_cuda_region_mtd_set_counts (GstCudaRegionMtd * handle, guint component,
    const guint32 * counts, guint n_counts);

const guint32 *gst_cuda_region_mtd_get_hue_counts (const GstCudaRegionMtd * handle, guint * n_counts);

gboolean gst_cuda_region_mtd_set_hue_counts (GstCudaRegionMtd * handle, const guint32 * counts, guint n_counts);

const GstCudaSignalStats *gst_cuda_region_mtd_get_signalstats (const GstCudaRegionMtd * handle);

gboolean gst_cuda_region_mtd_set_signalstats (GstCudaRegionMtd * handle, const GstCudaSignalStats * stats);

gboolean gst_cuda_region_mtd_get_confidence (const GstCudaRegionMtd * handle, gfloat * confidence);

gboolean gst_cuda_region_mtd_set_confidence (GstCudaRegionMtd * handle, gfloat confidence);

gboolean gst_cuda_region_mtd_get_track_id (const GstCudaRegionMtd * handle, guint64 * track_id);

gboolean gst_cuda_region_mtd_set_track_id (GstCudaRegionMtd * handle, guint64 track_id);

gint gst_cuda_region_mtd_get_tensor_row (const GstCudaRegionMtd * handle);

gboolean gst_cuda_region_mtd_set_tensor_row (GstCudaRegionMtd * handle, guint row);

G_END_DECLS

#endif /* __GST_CUDA_REGION_MTD_H__ */
