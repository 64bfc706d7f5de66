/* GstCudaHistogramMeta: registration, copy transform and accessors.
 * The public contract (fields, tags, ownership) is in gstcudahistogrammeta.h. */
#include "gstcudahistogrammeta.h"

#include <string.h>

/**
 * gst_cuda_histogram_meta_api_get_type:
 *
 * Returns: the API type of #GstCudaHistogramMeta, for gst_buffer_get_meta()
 *   and gst_buffer_iterate_meta_filtered().
 */
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
  hmeta->has_signalstats = FALSE;
  memset (&hmeta->signalstats, 0, sizeof (hmeta->signalstats));
  hmeta->has_qc_figures = FALSE;
  memset (&hmeta->qc_figures, 0, sizeof (hmeta->qc_figures));
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
  gst_cuda_histogram_meta_set_signalstats (dst,
      gst_cuda_histogram_meta_get_signalstats (src));
  gst_cuda_histogram_meta_set_qc_figures (dst,
      gst_cuda_histogram_meta_get_qc_figures (src));
  return TRUE;
}

/**
 * gst_cuda_histogram_meta_get_info:
 *
 * Returns: (transfer none): the registration of #GstCudaHistogramMeta.
 */
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

/**
 * gst_buffer_add_cuda_histogram_meta:
 * @buffer: a writable #GstBuffer
 * @bins: bins per component (at least 1)
 * @n_components: histograms to hold (1 to 4)
 *
 * Adds a meta with room for @n_components * @bins counts, all zero; the
 * caller fills format, size, ROI, names, depths and counts.
 *
 * Returns: (transfer none) (nullable): the new meta, or %NULL when
 *   @n_components is not 1 to 4 or @bins is 0.
 */
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

/**
 * gst_buffer_get_cuda_histogram_meta:
 * @buffer: a #GstBuffer
 *
 * Returns: (transfer none) (nullable): the first #GstCudaHistogramMeta on
 *   @buffer, or %NULL when it has none. It lives as long as the buffer.
 */
GstCudaHistogramMeta *
gst_buffer_get_cuda_histogram_meta (GstBuffer * buffer)
{
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  return (GstCudaHistogramMeta *) gst_buffer_get_meta (buffer,
      GST_CUDA_HISTOGRAM_META_API_TYPE);
}

/**
 * gst_cuda_histogram_meta_get_counts: (skip)
 * @meta: a #GstCudaHistogramMeta
 * @component: index of the component, 0 to n_components - 1
 *
 * Returns: (nullable): the @meta->bins counts of one component, or %NULL
 *   when @component is out of range.
 */
const guint32 *
gst_cuda_histogram_meta_get_counts (const GstCudaHistogramMeta * meta,
    guint component)
{
  g_return_val_if_fail (meta != NULL, NULL);
  if (component >= meta->n_components || meta->counts == NULL)
    return NULL;
  return meta->counts + (gsize) component * meta->bins;
}

/**
 * gst_cuda_histogram_meta_find_component:
 * @meta: a #GstCudaHistogramMeta
 * @name: (nullable): a component name: "Y", "U", "V", "R", "G", "B" or "A"
 *
 * Returns: the index of the component called @name, or -1 when the meta
 *   holds no such component.
 */
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

/**
 * gst_cuda_histogram_meta_get_component_counts: (rename-to gst_cuda_histogram_meta_get_counts)
 * @meta: a #GstCudaHistogramMeta
 * @component: index of the component, 0 to n_components - 1
 * @n_counts: (out): the number of counts returned: @meta->bins, or 0
 *
 * gst_cuda_histogram_meta_get_counts() with the length, for bindings: in
 * Python `meta.get_counts(component)` is a list of @meta->bins ints.
 *
 * Returns: (array length=n_counts) (transfer none) (nullable): the counts of
 *   one component, or %NULL (and 0) when @component is out of range.
 */
const guint32 *
gst_cuda_histogram_meta_get_component_counts (const GstCudaHistogramMeta * meta,
    guint component, guint * n_counts)
{
  const guint32 *counts = gst_cuda_histogram_meta_get_counts (meta, component);

  if (n_counts)
    *n_counts = counts ? meta->bins : 0;
  return counts;
}

/**
 * gst_cuda_histogram_meta_get_component_names:
 * @meta: a #GstCudaHistogramMeta
 * @n_components: (out): @meta->n_components
 *
 * Returns: (array length=n_components) (transfer none): the name of each
 *   component, in the order of the counts.
 */
const gchar *const *
gst_cuda_histogram_meta_get_component_names (const GstCudaHistogramMeta * meta,
    guint * n_components)
{
  g_return_val_if_fail (meta != NULL, NULL);
  if (n_components)
    *n_components = meta->n_components;
  return meta->component_names;
}

/**
 * gst_cuda_histogram_meta_get_component_name:
 * @meta: a #GstCudaHistogramMeta
 * @component: index of the component, 0 to n_components - 1
 *
 * Returns: (nullable): the name of one component ("Y", "R", ...), or %NULL
 *   when @component is out of range.
 */
const gchar *
gst_cuda_histogram_meta_get_component_name (const GstCudaHistogramMeta * meta,
    guint component)
{
  g_return_val_if_fail (meta != NULL, NULL);
  return component < meta->n_components ? meta->component_names[component] : NULL;
}

/**
 * gst_cuda_histogram_meta_get_component_depth:
 * @meta: a #GstCudaHistogramMeta
 * @component: index of the component, 0 to n_components - 1
 *
 * Returns: the bit depth of one component's samples, or -1 when @component
 *   is out of range.
 */
gint
gst_cuda_histogram_meta_get_component_depth (const GstCudaHistogramMeta * meta,
    guint component)
{
  g_return_val_if_fail (meta != NULL, -1);
  return component < meta->n_components ? (gint) meta->component_depth[component] : -1;
}

/* A copy of the @size bytes at @figures in @dst, or zeros when @figures is
 * NULL; @has says which. */
static void
set_optional_figures (gboolean * has, gpointer dst, gconstpointer figures,
    gsize size)
{
  *has = figures != NULL;
  if (figures != NULL)
    memcpy (dst, figures, size);
  else
    memset (dst, 0, size);
}

/**
 * gst_cuda_histogram_meta_get_signalstats:
 * @meta: a #GstCudaHistogramMeta
 *
 * In Python `meta.get_signalstats()` is None or an object with the fields
 * of #GstCudaSignalStats (`.y_avg`, `.brng` ...); it lives as long as the
 * buffer.
 *
 * Returns: (transfer none) (nullable): FFmpeg signalstats' figures of the
 *   frame, or %NULL when they were not computed (signalstats off, a format
 *   signalstats does not read, a meta added by the application without them).
 */
const GstCudaSignalStats *
gst_cuda_histogram_meta_get_signalstats (const GstCudaHistogramMeta * meta)
{
  g_return_val_if_fail (meta != NULL, NULL);
  return meta->has_signalstats ? &meta->signalstats : NULL;
}

/**
 * gst_cuda_histogram_meta_set_signalstats:
 * @meta: a #GstCudaHistogramMeta
 * @stats: (nullable): the figures to store, or %NULL to clear them
 *
 * Stores a copy of @stats in @meta (what the element does when it computed
 * them); %NULL makes gst_cuda_histogram_meta_get_signalstats() return %NULL.
 */
void
gst_cuda_histogram_meta_set_signalstats (GstCudaHistogramMeta * meta,
    const GstCudaSignalStats * stats)
{
  g_return_if_fail (meta != NULL);
  set_optional_figures (&meta->has_signalstats, &meta->signalstats, stats,
      sizeof (meta->signalstats));
}

/**
 * gst_cuda_histogram_meta_get_qc_figures:
 * @meta: a #GstCudaHistogramMeta
 *
 * In Python `meta.get_qc_figures()` is None or an object with the fields of
 * #GstCudaQcFigures (`.tout`, `.has_crop`, `.crop_w`, `.psnr_y` ...); it
 * lives as long as the buffer.
 *
 * Returns: (transfer none) (nullable): TOUT, VREP, cropdetect and the field
 *   PSNR of the frame, each with its has_ flag, or %NULL when none was
 *   computed (signalstats, cropdetect and field-psnr all off, a format they
 *   do not read, a meta added by the application without them).
 */
const GstCudaQcFigures *
gst_cuda_histogram_meta_get_qc_figures (const GstCudaHistogramMeta * meta)
{
  g_return_val_if_fail (meta != NULL, NULL);
  return meta->has_qc_figures ? &meta->qc_figures : NULL;
}

/**
 * gst_cuda_histogram_meta_set_qc_figures:
 * @meta: a #GstCudaHistogramMeta
 * @figures: (nullable): the figures to store, or %NULL to clear them
 *
 * Stores a copy of @figures in @meta; %NULL makes
 * gst_cuda_histogram_meta_get_qc_figures() return %NULL.
 */
void
gst_cuda_histogram_meta_set_qc_figures (GstCudaHistogramMeta * meta,
    const GstCudaQcFigures * figures)
{
  g_return_if_fail (meta != NULL);
  set_optional_figures (&meta->has_qc_figures, &meta->qc_figures, figures,
      sizeof (meta->qc_figures));
}

/* Every figure of the two structs under its name in the element's message,
 * in the message's order: cudahist/figures.def, where each is declared. */
typedef struct
{
  const gchar *name;
  gsize offset;
  gboolean integer;
  gboolean flagged;             /* present only when the gboolean at has_flag is set */
  gsize has_flag;
} FigureField;

#define FIGURE_IS_INTEGER_int TRUE
#define FIGURE_IS_INTEGER_double FALSE

static const FigureField signal_stats_fields[] = {
#define SIGNALSTATS_FIGURE(group, member, name, ffmpeg_key, type, unit) \
  { name, G_STRUCT_OFFSET (GstCudaSignalStats, member), FIGURE_IS_INTEGER_##type, FALSE, 0 },
#include "cudahist/figures.def"
};

static const FigureField qc_fields[] = {
#define QC_FIGURE(group, has_flag, member, name, ffmpeg_key, type, unit) \
  { name, G_STRUCT_OFFSET (GstCudaQcFigures, member), FIGURE_IS_INTEGER_##type, TRUE, \
    G_STRUCT_OFFSET (GstCudaQcFigures, has_flag) },
#include "cudahist/figures.def"
};

static gboolean
field_present (const FigureField * field, const guint8 * figures)
{
  return !field->flagged || *(const gboolean *) (figures + field->has_flag);
}

static gdouble
field_value (const FigureField * field, const guint8 * figures)
{
  return field->integer ? *(const gint *) (figures + field->offset)
      : *(const gdouble *) (figures + field->offset);
}

static gboolean
get_figure (const FigureField * fields, gsize n, const guint8 * figures,
    const gchar * name, gdouble * value)
{
  gsize i;

  for (i = 0; i < n; i++) {
    if (strcmp (fields[i].name, name) != 0)
      continue;
    if (!field_present (&fields[i], figures))
      return FALSE;
    *value = field_value (&fields[i], figures);
    return TRUE;
  }
  return FALSE;
}

static void
set_fields (const FigureField * fields, gsize n, const guint8 * figures,
    GstStructure * structure)
{
  gsize i;

  for (i = 0; i < n; i++) {
    if (!field_present (&fields[i], figures))
      continue;
    if (fields[i].integer)
      gst_structure_set (structure, fields[i].name, G_TYPE_INT,
          *(const gint *) (figures + fields[i].offset), NULL);
    else
      gst_structure_set (structure, fields[i].name, G_TYPE_DOUBLE,
          *(const gdouble *) (figures + fields[i].offset), NULL);
  }
}

/**
 * gst_cuda_signal_stats_get_figure:
 * @stats: a #GstCudaSignalStats
 * @name: a figure's name in the element's message ("y-min", "sat-avg" ...)
 * @value: (out): the figure, integers as doubles
 *
 * Reads a figure by the name of its message field, so that code that reads
 * the message and code that reads the meta can share one list of names.
 *
 * Returns: %TRUE when @stats has a figure of that name.
 */
gboolean
gst_cuda_signal_stats_get_figure (const GstCudaSignalStats * stats,
    const gchar * name, gdouble * value)
{
  g_return_val_if_fail (stats != NULL && name != NULL && value != NULL, FALSE);
  return get_figure (signal_stats_fields, G_N_ELEMENTS (signal_stats_fields),
      (const guint8 *) stats, name, value);
}

/**
 * gst_cuda_signal_stats_to_structure:
 * @stats: a #GstCudaSignalStats
 * @structure: the structure to set the figures in
 *
 * Sets every figure of @stats in @structure as the element's message
 * carries it: a #gint or #gdouble field under its message name.
 */
void
gst_cuda_signal_stats_to_structure (const GstCudaSignalStats * stats,
    GstStructure * structure)
{
  g_return_if_fail (stats != NULL && structure != NULL);
  set_fields (signal_stats_fields, G_N_ELEMENTS (signal_stats_fields),
      (const guint8 *) stats, structure);
}

/**
 * gst_cuda_qc_figures_get_figure:
 * @figures: a #GstCudaQcFigures
 * @name: a figure's name in the element's message ("tout", "crop-w",
 *   "psnr-y" ...)
 * @value: (out): the figure, integers as doubles
 *
 * Reads a figure by the name of its message field.
 *
 * Returns: %TRUE when @figures has a figure of that name and its has_ flag
 *   says it was computed.
 */
gboolean
gst_cuda_qc_figures_get_figure (const GstCudaQcFigures * figures,
    const gchar * name, gdouble * value)
{
  g_return_val_if_fail (figures != NULL && name != NULL && value != NULL,
      FALSE);
  return get_figure (qc_fields, G_N_ELEMENTS (qc_fields),
      (const guint8 *) figures, name, value);
}

/**
 * gst_cuda_qc_figures_to_structure:
 * @figures: a #GstCudaQcFigures
 * @structure: the structure to set the figures in
 *
 * Sets the figures of @figures whose has_ flag is set in @structure, as the
 * element's message carries them.
 */
void
gst_cuda_qc_figures_to_structure (const GstCudaQcFigures * figures,
    GstStructure * structure)
{
  g_return_if_fail (figures != NULL && structure != NULL);
  set_fields (qc_fields, G_N_ELEMENTS (qc_fields), (const guint8 *) figures,
      structure);
}
