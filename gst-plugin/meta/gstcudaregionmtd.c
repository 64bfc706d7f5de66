/* GstCudaRegionMtd: registration, data layout and accessors. The public
 * contract is in gstcudaregionmtd.h. */
#include "gstcudaregionmtd.h"

#include <math.h>
#include <string.h>

/* One region's data, stored in the relation meta right after the Mtd's
 * header (the relation meta copies it whole with the buffer's metas). */
typedef struct {
  GstCudaRegionKind kind;
  GQuark name;
  gint x, y, width, height;
  guint frame_width, frame_height;
  guint bins;
  guint n_components;
  GQuark component_names[GST_CUDA_HISTOGRAM_MAX_COMPONENTS];
  guint component_depths[GST_CUDA_HISTOGRAM_MAX_COMPONENTS];
  gboolean has_confidence;
  gfloat confidence;
  gboolean has_track_id;
  guint64 track_id;
  gint tensor_row;
  gboolean has_signalstats;
  GstCudaSignalStats signalstats;
  guint hue_bins;               /* 0, or signalstats' hue histogram after the counts */
  guint32 counts[];             /* n_components * bins, component-major, then hue_bins */
} GstCudaRegionMtdData;

/* The data needs nothing when its buffer's metas are copied or scaled: the
 * box stays in pixels of the frame as counted, whose size it records. */
static const GstAnalyticsMtdImpl cuda_region_impl = {
  "cuda-region-histograms",
  NULL,
#if GST_CHECK_VERSION(1, 26, 0)
  NULL,
#endif
  {NULL}
};

/**
 * gst_cuda_region_mtd_get_mtd_type:
 *
 * Returns: the #GstAnalyticsMtdType of #GstCudaRegionMtd, for
 *   gst_analytics_relation_meta_iterate() and
 *   gst_analytics_relation_meta_get_direct_related().
 */
GstAnalyticsMtdType
gst_cuda_region_mtd_get_mtd_type (void)
{
  return (GstAnalyticsMtdType) & cuda_region_impl;
}

static GstCudaRegionMtdData *
data_of (const GstCudaRegionMtd * handle)
{
  g_return_val_if_fail (handle != NULL && handle->meta != NULL, NULL);
  if (gst_analytics_mtd_get_mtd_type (handle) != gst_cuda_region_mtd_get_mtd_type ())
    return NULL;
  return (GstCudaRegionMtdData *)
      gst_analytics_relation_meta_get_mtd_data (handle->meta, handle->id);
}

/**
 * gst_analytics_relation_meta_add_cuda_region_mtd:
 * @instance: the relation meta to add it to
 * @kind: what the region is
 * @name: the region's name, or the object's label (0: none)
 * @x: left edge of the counted box, in pixels of the frame
 * @y: top edge
 * @width: width of the box
 * @height: height of the box
 * @frame_width: width of the frame counted
 * @frame_height: height of the frame counted
 * @bins: bins per component (1 to 65536)
 * @n_components: components counted (1 to 4)
 * @component_names: (array length=n_components): their names ("Y", "U", "V", "R", ...)
 * @component_depths: (array length=n_components): their bits per sample
 * @hue_bins: room for a hue histogram of this many bins (360, signalstats'
 *   degrees), or 0 for none
 * @region_mtd: (out caller-allocates): the new Mtd's handle
 *
 * Adds a region with zero counts, no figures, no confidence, no track id
 * and no tensor row; the setters fill them in.
 *
 * Returns: %TRUE when added, %FALSE on bad arguments.
 */
gboolean
gst_analytics_relation_meta_add_cuda_region_mtd (GstAnalyticsRelationMeta * instance,
    GstCudaRegionKind kind, GQuark name, gint x, gint y, gint width, gint height,
    guint frame_width, guint frame_height, guint bins, guint n_components,
    const gchar * const *component_names, const guint * component_depths, guint hue_bins,
    GstCudaRegionMtd * region_mtd)
{
  GstCudaRegionMtdData *data;
  gsize size;
  guint c;

  g_return_val_if_fail (instance != NULL && region_mtd != NULL, FALSE);
  g_return_val_if_fail (bins >= 1 && bins <= 65536, FALSE);
  g_return_val_if_fail (n_components >= 1 && n_components <= GST_CUDA_HISTOGRAM_MAX_COMPONENTS, FALSE);
  g_return_val_if_fail (component_names != NULL && component_depths != NULL, FALSE);

  g_return_val_if_fail (hue_bins <= 65536, FALSE);

  size = sizeof (GstCudaRegionMtdData) + sizeof (guint32) * ((gsize) bins * n_components + hue_bins);
  data = (GstCudaRegionMtdData *) gst_analytics_relation_meta_add_mtd (instance,
      &cuda_region_impl, size, region_mtd);
  if (data == NULL)
    return FALSE;
  memset (data, 0, size);
  data->kind = kind;
  data->name = name;
  data->x = x;
  data->y = y;
  data->width = width;
  data->height = height;
  data->frame_width = frame_width;
  data->frame_height = frame_height;
  data->bins = bins;
  data->n_components = n_components;
  for (c = 0; c < n_components; ++c) {
    data->component_names[c] = g_quark_from_string (component_names[c]);
    data->component_depths[c] = component_depths[c];
  }
  data->tensor_row = -1;
  data->hue_bins = hue_bins;
  return TRUE;
}

/**
 * gst_analytics_relation_meta_get_cuda_region_mtd:
 * @meta: a relation meta
 * @an_meta_id: the id of an Mtd in it
 * @rlt: (out caller-allocates): the handle, when the Mtd is a #GstCudaRegionMtd
 *
 * Returns: %TRUE when @an_meta_id is a #GstCudaRegionMtd of @meta.
 */
gboolean
gst_analytics_relation_meta_get_cuda_region_mtd (GstAnalyticsRelationMeta * meta,
    guint an_meta_id, GstCudaRegionMtd * rlt)
{
  return gst_analytics_relation_meta_get_mtd (meta, an_meta_id,
      gst_cuda_region_mtd_get_mtd_type (), (GstAnalyticsMtd *) rlt);
}

/**
 * gst_analytics_relation_meta_find_cuda_region_mtd:
 * @meta: a relation meta
 * @object_id: the id of an Mtd in it (an object detection)
 * @rlt: (out caller-allocates): the region Mtd of that object
 *
 * The region histograms of an object: the #GstCudaRegionMtd that the Mtd
 * @object_id CONTAINs (cudahistogram relates each counted detection so).
 *
 * Returns: %TRUE when the object has one.
 */
gboolean
gst_analytics_relation_meta_find_cuda_region_mtd (GstAnalyticsRelationMeta * meta, guint object_id,
    GstCudaRegionMtd * rlt)
{
  gpointer state = NULL;
  g_return_val_if_fail (meta != NULL && rlt != NULL, FALSE);
  return gst_analytics_relation_meta_get_direct_related (meta, object_id, GST_ANALYTICS_REL_TYPE_CONTAIN,
      gst_cuda_region_mtd_get_mtd_type (), &state, (GstAnalyticsMtd *) rlt);
}

/**
 * gst_cuda_region_mtd_get_kind:
 * @handle: a #GstCudaRegionMtd
 *
 * Returns: what the region is.
 */
GstCudaRegionKind
gst_cuda_region_mtd_get_kind (const GstCudaRegionMtd * handle)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL, GST_CUDA_REGION_KIND_FRAME);
  return data->kind;
}

/**
 * gst_cuda_region_mtd_get_name_quark:
 * @handle: a #GstCudaRegionMtd
 *
 * Returns: the region's name or the object's label, as a quark (0: none).
 */
GQuark
gst_cuda_region_mtd_get_name_quark (const GstCudaRegionMtd * handle)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL, 0);
  return data->name;
}

/**
 * gst_cuda_region_mtd_get_name:
 * @handle: a #GstCudaRegionMtd
 *
 * Returns: (nullable): the region's name or the object's label; %NULL for an
 *   object without a label.
 */
const gchar *
gst_cuda_region_mtd_get_name (const GstCudaRegionMtd * handle)
{
  return g_quark_to_string (gst_cuda_region_mtd_get_name_quark (handle));
}

/**
 * gst_cuda_region_mtd_get_box:
 * @handle: a #GstCudaRegionMtd
 * @x: (out): left edge, in pixels of the frame counted
 * @y: (out): top edge
 * @width: (out): width (the box as counted: clipped to the frame)
 * @height: (out): height
 *
 * Returns: %TRUE on success.
 */
gboolean
gst_cuda_region_mtd_get_box (const GstCudaRegionMtd * handle, gint * x, gint * y, gint * width,
    gint * height)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL && x && y && width && height, FALSE);
  *x = data->x;
  *y = data->y;
  *width = data->width;
  *height = data->height;
  return TRUE;
}

/**
 * gst_cuda_region_mtd_get_frame_size:
 * @handle: a #GstCudaRegionMtd
 * @width: (out): width of the frame counted, in pixels
 * @height: (out): its height
 */
void
gst_cuda_region_mtd_get_frame_size (const GstCudaRegionMtd * handle, guint * width, guint * height)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_if_fail (data != NULL && width && height);
  *width = data->frame_width;
  *height = data->frame_height;
}

/**
 * gst_cuda_region_mtd_get_bins:
 * @handle: a #GstCudaRegionMtd
 *
 * Returns: bins per component (bin = value * bins >> depth).
 */
guint
gst_cuda_region_mtd_get_bins (const GstCudaRegionMtd * handle)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL, 0);
  return data->bins;
}

/**
 * gst_cuda_region_mtd_get_n_components:
 * @handle: a #GstCudaRegionMtd
 *
 * Returns: the components counted, in GstVideoFormatInfo order.
 */
guint
gst_cuda_region_mtd_get_n_components (const GstCudaRegionMtd * handle)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL, 0);
  return data->n_components;
}

/**
 * gst_cuda_region_mtd_get_component_name:
 * @handle: a #GstCudaRegionMtd
 * @component: index, below the component count
 *
 * Returns: (nullable): "Y", "U", "V", "R", "G", "B" or "A"; %NULL out of range.
 */
const gchar *
gst_cuda_region_mtd_get_component_name (const GstCudaRegionMtd * handle, guint component)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL, NULL);
  if (component >= data->n_components)
    return NULL;
  return g_quark_to_string (data->component_names[component]);
}

/**
 * gst_cuda_region_mtd_get_component_depth:
 * @handle: a #GstCudaRegionMtd
 * @component: index, below the component count
 *
 * Returns: the component's bits per sample, or -1 out of range.
 */
gint
gst_cuda_region_mtd_get_component_depth (const GstCudaRegionMtd * handle, guint component)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL, -1);
  if (component >= data->n_components)
    return -1;
  return (gint) data->component_depths[component];
}

/**
 * gst_cuda_region_mtd_find_component:
 * @handle: a #GstCudaRegionMtd
 * @name: a component name ("Y", "U", "R" ...), case-insensitive
 *
 * Returns: its index, or -1 when it was not counted.
 */
gint
gst_cuda_region_mtd_find_component (const GstCudaRegionMtd * handle, const gchar * name)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  guint c;
  g_return_val_if_fail (data != NULL && name != NULL, -1);
  for (c = 0; c < data->n_components; ++c) {
    if (g_ascii_strcasecmp (g_quark_to_string (data->component_names[c]), name) == 0)
      return (gint) c;
  }
  return -1;
}

/**
 * gst_cuda_region_mtd_get_counts:
 * @handle: a #GstCudaRegionMtd
 * @component: index, below the component count
 * @n_counts: (out): the number of counts (the bins), 0 out of range
 *
 * Returns: (array length=n_counts) (transfer none) (nullable): the counts of
 *   one component, or %NULL out of range.
 */
const guint32 *
gst_cuda_region_mtd_get_counts (const GstCudaRegionMtd * handle, guint component, guint * n_counts)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL && n_counts != NULL, NULL);
  *n_counts = 0;
  if (component >= data->n_components)
    return NULL;
  *n_counts = data->bins;
  return data->counts + (gsize) component * data->bins;
}

/**
 * gst_cuda_region_mtd_set_counts:
 * @handle: a #GstCudaRegionMtd
 * @component: index, below the component count
 * @counts: (array length=n_counts): the component's counts
 * @n_counts: must be the region's bins
 *
 * Returns: %TRUE when set.
 */
gboolean
gst_cuda_region_mtd_set_counts (GstCudaRegionMtd * handle, guint component, const guint32 * counts,
    guint n_counts)
{
  GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL && counts != NULL, FALSE);
  g_return_val_if_fail (component < data->n_components && n_counts == data->bins, FALSE);
  memcpy (data->counts + (gsize) component * data->bins, counts, sizeof (guint32) * n_counts);
  return TRUE;
}

/**
 * gst_cuda_region_mtd_get_hue_counts:
 * @handle: a #GstCudaRegionMtd
 * @n_counts: (out): the number of counts (360: signalstats' hue in degrees), 0 when none
 *
 * The region's hue histogram: signalstats' hue (cudahistogram
 * signalstats=true on a YUV format of 8 to 10 bits) of every chroma sample
 * the region touches, a bin per degree. The dominant colour of an object.
 *
 * Returns: (array length=n_counts) (transfer none) (nullable): the counts, or
 *   %NULL when the region has none.
 */
const guint32 *
gst_cuda_region_mtd_get_hue_counts (const GstCudaRegionMtd * handle, guint * n_counts)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL && n_counts != NULL, NULL);
  *n_counts = data->hue_bins;
  if (data->hue_bins == 0)
    return NULL;
  return data->counts + (gsize) data->n_components * data->bins;
}

/**
 * gst_cuda_region_mtd_set_hue_counts:
 * @handle: a #GstCudaRegionMtd
 * @counts: (array length=n_counts): the hue histogram
 * @n_counts: must be the hue bins the region was added with
 *
 * Returns: %TRUE when set.
 */
gboolean
gst_cuda_region_mtd_set_hue_counts (GstCudaRegionMtd * handle, const guint32 * counts, guint n_counts)
{
  GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL && counts != NULL, FALSE);
  g_return_val_if_fail (data->hue_bins > 0 && n_counts == data->hue_bins, FALSE);
  memcpy (data->counts + (gsize) data->n_components * data->bins, counts, sizeof (guint32) * n_counts);
  return TRUE;
}

/**
 * gst_cuda_region_mtd_get_signalstats:
 * @handle: a #GstCudaRegionMtd
 *
 * FFmpeg signalstats' figures of the region (cudahistogram signalstats=true
 * on a YUV format of 8 to 10 bits); the DIF figures are 0: a region has no
 * previous frame.
 *
 * Returns: (nullable) (transfer none): the figures, or %NULL when none were counted.
 */
const GstCudaSignalStats *
gst_cuda_region_mtd_get_signalstats (const GstCudaRegionMtd * handle)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL, NULL);
  return data->has_signalstats ? &data->signalstats : NULL;
}

/**
 * gst_cuda_region_mtd_set_signalstats:
 * @handle: a #GstCudaRegionMtd
 * @stats: the region's figures
 *
 * Returns: %TRUE when set.
 */
gboolean
gst_cuda_region_mtd_set_signalstats (GstCudaRegionMtd * handle, const GstCudaSignalStats * stats)
{
  GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL && stats != NULL, FALSE);
  data->signalstats = *stats;
  data->has_signalstats = TRUE;
  return TRUE;
}

/**
 * gst_cuda_region_mtd_get_confidence:
 * @handle: a #GstCudaRegionMtd
 * @confidence: (out): the detection's confidence (an object's region)
 *
 * Returns: %TRUE for an object's region.
 */
gboolean
gst_cuda_region_mtd_get_confidence (const GstCudaRegionMtd * handle, gfloat * confidence)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL && confidence != NULL, FALSE);
  *confidence = data->confidence;
  return data->has_confidence;
}

/**
 * gst_cuda_region_mtd_set_confidence:
 * @handle: a #GstCudaRegionMtd
 * @confidence: the detection's confidence, finite
 *
 * Returns: %TRUE when set.
 */
gboolean
gst_cuda_region_mtd_set_confidence (GstCudaRegionMtd * handle, gfloat confidence)
{
  GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL && isfinite (confidence), FALSE);
  data->confidence = confidence;
  data->has_confidence = TRUE;
  return TRUE;
}

/**
 * gst_cuda_region_mtd_get_track_id:
 * @handle: a #GstCudaRegionMtd
 * @track_id: (out): the id of the track a tracking Mtd related to the object gave
 *
 * Returns: %TRUE when the object was tracked.
 */
gboolean
gst_cuda_region_mtd_get_track_id (const GstCudaRegionMtd * handle, guint64 * track_id)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL && track_id != NULL, FALSE);
  *track_id = data->track_id;
  return data->has_track_id;
}

/**
 * gst_cuda_region_mtd_set_track_id:
 * @handle: a #GstCudaRegionMtd
 * @track_id: the object's track id
 *
 * Returns: %TRUE when set.
 */
gboolean
gst_cuda_region_mtd_set_track_id (GstCudaRegionMtd * handle, guint64 track_id)
{
  GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL, FALSE);
  data->track_id = track_id;
  data->has_track_id = TRUE;
  return TRUE;
}

/**
 * gst_cuda_region_mtd_get_tensor_row:
 * @handle: a #GstCudaRegionMtd
 *
 * Returns: the region's row in the buffer's GST_CUDA_REGION_TENSOR_ID tensor,
 *   or -1 when it has none.
 */
gint
gst_cuda_region_mtd_get_tensor_row (const GstCudaRegionMtd * handle)
{
  const GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL, -1);
  return data->tensor_row;
}

/**
 * gst_cuda_region_mtd_set_tensor_row:
 * @handle: a #GstCudaRegionMtd
 * @row: the region's row in the tensor
 *
 * Returns: %TRUE when set.
 */
gboolean
gst_cuda_region_mtd_set_tensor_row (GstCudaRegionMtd * handle, guint row)
{
  GstCudaRegionMtdData *data = data_of (handle);
  g_return_val_if_fail (data != NULL && row <= G_MAXINT, FALSE);
  data->tensor_row = (gint) row;
  return TRUE;
}
