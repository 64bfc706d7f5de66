#include "cudavideoscope/scope_caps.h"

#include <gst/video/video.h>

#include <algorithm>

#include "common/element_parts.h"
#include "cudavideoscope/scope_settings.h"

namespace cudahistogram {
namespace {

// GstBaseTransform's fixate_caps, for the sink side.
GstCaps* (*parent_fixate_caps)(GstBaseTransform*, GstPadDirection, GstCaps*, GstCaps*) = nullptr;

// The same memory on the other side: CUDA memory stays on the GPU.
GstCapsFeatures* FeaturesOf(GstCaps* caps, guint i) {
  GstCapsFeatures* f = gst_caps_get_features(caps, i);
  return f ? gst_caps_features_copy(f) : nullptr;
}

// Sink caps -> every RGBA picture size at the same frame rate, in the same
// memory. Sizes are left open above kMaxScopeDimension so that too large a
// size asked by downstream reaches set_caps and gets an error that names it
// (0 is refused by the pad template when the pipeline is linked).
GstCaps* PictureCapsFor(GstCaps* caps) {
  GstCaps* out = gst_caps_new_empty();
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    const GstStructure* in = gst_caps_get_structure(caps, i);
    GstStructure* s = gst_structure_new("video/x-raw", "format", G_TYPE_STRING, "RGBA", "width", GST_TYPE_INT_RANGE,
                                        1, G_MAXINT, "height", GST_TYPE_INT_RANGE, 1, G_MAXINT,
                                        "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, nullptr);
    if (const GValue* rate = gst_structure_get_value(in, "framerate")) gst_structure_set_value(s, "framerate", rate);
    gst_caps_append_structure_full(out, s, FeaturesOf(caps, i));
  }
  return out;
}

// Src caps -> every input format of the sink template at the same frame
// rate, in the same memory.
GstCaps* FrameCapsFor(GstBaseTransform* trans, GstCaps* caps) {
  GstCaps* templ = gst_pad_get_pad_template_caps(GST_BASE_TRANSFORM_SINK_PAD(trans));
  GstCaps* out = gst_caps_new_empty();
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    const GstStructure* picture = gst_caps_get_structure(caps, i);
    GstCapsFeatures* features = gst_caps_get_features(caps, i);
    for (guint t = 0; t < gst_caps_get_size(templ); ++t) {
      GstCapsFeatures* tf = gst_caps_get_features(templ, t);
      if (features && tf && !gst_caps_features_is_equal(features, tf)) continue;
      GstStructure* s = gst_structure_copy(gst_caps_get_structure(templ, t));
      if (const GValue* rate = gst_structure_get_value(picture, "framerate")) {
        gst_structure_set_value(s, "framerate", rate);
      }
      gst_caps_append_structure_full(out, s, tf ? gst_caps_features_copy(tf) : nullptr);
    }
  }
  gst_caps_unref(templ);
  return out;
}

GstCaps* TransformCaps(GstBaseTransform* trans, GstPadDirection direction, GstCaps* caps, GstCaps* filter) {
  GstCaps* result = direction == GST_PAD_SINK ? PictureCapsFor(caps) : FrameCapsFor(trans, caps);
  if (filter) {
    GstCaps* filtered = gst_caps_intersect_full(filter, result, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref(result);
    result = filtered;
  }
  GST_DEBUG_OBJECT(trans, "%s caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
                   direction == GST_PAD_SINK ? "sink" : "src", caps, result);
  return result;
}

// The frame's display size (its size through its pixel aspect ratio: the
// picture's pixels are square), false when the caps do not give it.
bool DisplaySize(const GstStructure* in, gint* width, gint* height) {
  gint w = 0, h = 0, par_n = 1, par_d = 1;
  if (!gst_structure_get_int(in, "width", &w) || !gst_structure_get_int(in, "height", &h) || w < 1 || h < 1) {
    return false;
  }
  gst_structure_get_fraction(in, "pixel-aspect-ratio", &par_n, &par_d);
  if (par_n < 1 || par_d < 1) par_n = par_d = 1;
  *width = gint(std::max<gint64>(1, std::min<gint64>(G_MAXINT, gst_util_uint64_scale_int_round(w, par_n, par_d))));
  *height = h;
  return true;
}

// The picture keeps the frame's shape: the size the frame displays at, and
// when downstream fixes the width alone, the height that keeps the display
// aspect ratio (a thumbnail asks for its width).
void FixatePictureSize(const GstStructure* in, GstStructure* s) {
  gint display_w = 0, display_h = 0;
  if (!DisplaySize(in, &display_w, &display_h)) return;
  gst_structure_fixate_field_nearest_int(s, "width", display_w);
  gint width = display_w;
  gst_structure_get_int(s, "width", &width);
  const gint height = gint(std::max<guint64>(1, gst_util_uint64_scale_int_round(width, display_h, display_w)));
  gst_structure_fixate_field_nearest_int(s, "height", height);
}

// An open size becomes the style's default (or the nearest downstream allows).
GstCaps* FixateCaps(GstBaseTransform* trans, GstPadDirection direction, GstCaps* caps, GstCaps* othercaps) {
  if (direction != GST_PAD_SINK) {
    return parent_fixate_caps(trans, direction, caps, othercaps);
  }
  othercaps = gst_caps_make_writable(gst_caps_truncate(othercaps));
  GstStructure* s = gst_caps_get_structure(othercaps, 0);
  const GstStructure* in = gst_caps_get_structure(caps, 0);
  const ScopeStyle style = SettingsProperties<ScopeSettings>::Copy(G_OBJECT(trans)).style;
  if (style == ScopeStyle::kPicture) FixatePictureSize(in, s);
  gint width = 0, height = 0;
  DefaultScopeSize(style, &width, &height);
  gst_structure_fixate_field_nearest_int(s, "width", width);
  gst_structure_fixate_field_nearest_int(s, "height", height);
  gint rate_n = 0, rate_d = 1;
  if (gst_structure_get_fraction(in, "framerate", &rate_n, &rate_d)) {
    gst_structure_fixate_field_nearest_fraction(s, "framerate", rate_n, rate_d);
  }
  return gst_caps_fixate(othercaps);
}

gboolean TransformSize(GstBaseTransform*, GstPadDirection, GstCaps*, gsize, GstCaps* othercaps, gsize* othersize) {
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, othercaps)) return FALSE;
  *othersize = GST_VIDEO_INFO_SIZE(&info);
  return TRUE;
}

}  // namespace

void InitScopeCaps(GstBaseTransformClass* klass) {
  parent_fixate_caps = klass->fixate_caps;
  klass->transform_caps = TransformCaps;
  klass->fixate_caps = FixateCaps;
  klass->transform_size = TransformSize;
}

}  // namespace cudahistogram
