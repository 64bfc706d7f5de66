// The items of a list-like GValue: GstValueArray, or GValueArray as `level`'s
// messages (and cudahistogram's, shaped like them) carry them.
#pragma once

#include <gst/gst.h>

namespace cudahist_tools {

inline guint ItemCount(const GValue* v) {
  if (v && GST_VALUE_HOLDS_ARRAY(v)) return gst_value_array_get_size(v);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (v && G_VALUE_HOLDS(v, g_value_array_get_type())) return static_cast<GValueArray*>(g_value_get_boxed(v))->n_values;
  G_GNUC_END_IGNORE_DEPRECATIONS
  return 0;
}

// Item i of v; i < ItemCount(v).
inline const GValue* Item(const GValue* v, guint i) {
  if (GST_VALUE_HOLDS_ARRAY(v)) return gst_value_array_get_value(v, i);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  return g_value_array_get_nth(static_cast<GValueArray*>(g_value_get_boxed(v)), i);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

}  // namespace cudahist_tools
