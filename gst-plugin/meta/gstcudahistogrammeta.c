/* GstCudaHistogramMeta: registration, copy transform and accessors.
 * The public contract (fields, tags, ownership) is in gstcudahistogrammeta.h. */
#include "gstcudahistogrammeta.h"

#include <string.h>

GType
gst_cuda_histogram_meta_api_get_type (void)
{
  static GType type = 0;
  /* No tags: the counts describe the frame that was counted (its format and
   * size are stored in the meta), not the pixels' current layout, so an
   * element that converts, scales or crops does not make them wrong. An
   * untagged meta is what GstBaseTransform and the video filters keep. */
  static const gchar *tags[] = { NULL };

  if (g_once_init_enter (&type)) {
    GType api = gst_meta_api_type_register ("GstCudaHistogramMetaAPI", tags);
    g_once_init_leave (&type, api);
  }
  return type;
}

static gboolean
gst_cuda_histogram_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCudaHistogramMeta *hmeta = (GstCudaHistogramMeta *) meta;

  (void) params;
  (void) buffer;
  hmeta->format = GST_VIDEO_FORMAT_UNKNOWN;
  hmeta->width = hmeta->height = 0;
  hmeta->roi_x = hmeta->roi_y = hmeta->roi_width = hmeta->roi_height = 0;
  hmeta->bins = 0;
  hmeta->n_components = 0;
  memset (hmeta->component_names, 0, sizeof (hmeta->component_names));
  memset (hmeta->component_depth, 0, sizeof (hmeta->component_depth));
  hmeta->counts = NULL;
  return TRUE;
}

static void
gst_cuda_histogram_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstCudaHistogramMeta *hmeta = (GstCudaHistogramMeta *) meta;

  (void) buffer;
  g_free (hmeta->counts);
  hmeta->counts = NULL;
}

static void
copy_description (GstCudaHistogramMeta * dst, const GstCudaHistogramMeta * src)
{
  dst->format = src->format;
  dst->width = src->width;
  dst->height = src->height;
  dst->roi_x = src->roi_x;
  dst->roi_y = src->roi_y;
  dst->roi_width = src->roi_width;
  dst->roi_height = src->roi_height;
  memcpy (dst->component_names, src->component_names, sizeof (dst->component_names));
  memcpy (dst->component_depth, src->component_depth, sizeof (dst->component_depth));
}

/* Copies (whole or partial buffer copies) and video scaling keep the meta
 * unchanged: it describes the frame as it was counted. Other transforms are
 * unknown to us, so the meta is not carried through them. */
static gboolean
gst_cuda_histogram_meta_transform (GstBuffer * dest, GstMeta * meta,
    GstBuffer * buffer, GQuark type, gpointer data)
{
  const GstCudaHistogramMeta *src = (const GstCudaHistogramMeta *) meta;
  GstCudaHistogramMeta *dst;

  (void) buffer;
  (void) data;
  if (!GST_META_TRANSFORM_IS_COPY (type) && !GST_VIDEO_META_TRANSFORM_IS_SCALE (type))
    return FALSE;

  dst = gst_buffer_add_cuda_histogram_meta (dest, src->bins, src->n_components);
  if (dst == NULL)
    return FALSE;
  copy_description (dst, src);
  memcpy (dst->counts, src->counts,
      sizeof (guint32) * (gsize) src->bins * src->n_components);
  return TRUE;
}

const GstMetaInfo *
gst_cuda_histogram_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *registered =
        gst_meta_register (GST_CUDA_HISTOGRAM_META_API_TYPE,
        "GstCudaHistogramMeta", sizeof (GstCudaHistogramMeta),
        gst_cuda_histogram_meta_init, gst_cuda_histogram_meta_free,
        gst_cuda_histogram_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) registered);
  }
  return info;
}

GstCudaHistogramMeta *
gst_buffer_add_cuda_histogram_meta (GstBuffer * buffer, guint bins,
    guint n_components)
{
  GstCudaHistogramMeta *hmeta;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  if (bins == 0 || n_components == 0
      || n_components > GST_CUDA_HISTOGRAM_MAX_COMPONENTS)
    return NULL;

  hmeta = (GstCudaHistogramMeta *) gst_buffer_add_meta (buffer,
      GST_CUDA_HISTOGRAM_META_INFO, NULL);
  if (hmeta == NULL)
    return NULL;
  hmeta->bins = bins;
  hmeta->n_components = n_components;
  hmeta->counts = g_new0 (guint32, (gsize) bins * n_components);
  return hmeta;
}

GstCudaHistogramMeta *
gst_buffer_get_cuda_histogram_meta (GstBuffer * buffer)
{
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  return (GstCudaHistogramMeta *) gst_buffer_get_meta (buffer,
      GST_CUDA_HISTOGRAM_META_API_TYPE);
}

const guint32 *
gst_cuda_histogram_meta_get_counts (const GstCudaHistogramMeta * meta,
    guint component)
{
  g_return_val_if_fail (meta != NULL, NULL);
  if (component >= meta->n_components || meta->counts == NULL)
    return NULL;
  return meta->counts + (gsize) component * meta->bins;
}

gint
gst_cuda_histogram_meta_find_component (const GstCudaHistogramMeta * meta,
    const gchar * name)
{
  guint i;

  g_return_val_if_fail (meta != NULL, -1);
  if (name == NULL)
    return -1;
  for (i = 0; i < meta->n_components; i++) {
    if (meta->component_names[i] && g_strcmp0 (meta->component_names[i], name) == 0)
      return (gint) i;
  }
  return -1;
}
