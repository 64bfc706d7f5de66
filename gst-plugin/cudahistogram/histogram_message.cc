#include "cudahistogram/histogram_message.h"

#include <gst/video/video.h>

#include <functional>

#include "cudahist/statistics.h"
#include "cudahistogram/signalstats_message.h"

namespace cudahistogram {
namespace {

// GValueArray is what `level` uses for its per-channel arrays, and what
// PyGObject turns into a list; GLib deprecated it without a replacement that
// GstStructure serialises the same way.
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
GType ValueArrayType() { return g_value_array_get_type(); }

GValueArray* NewArray(guint n) { return g_value_array_new(n); }

// Appends an unset value in place and returns it: filling it there spares
// the copy that appending a filled value makes (for a histogram, a deep copy
// of its whole array of counts).
GValue* AppendUnsetValue(GValueArray* array) {
  g_value_array_append(array, nullptr);
  return g_value_array_get_nth(array, array->n_values - 1);
}

void SetArrayField(GstStructure* s, const char* field, GValueArray* array) {
  GValue v = G_VALUE_INIT;
  g_value_init(&v, ValueArrayType());
  g_value_take_boxed(&v, array);
  gst_structure_take_value(s, field, &v);
}
G_GNUC_END_IGNORE_DEPRECATIONS

template <typename Fill>
GValueArray* ArrayOf(GType type, guint n, Fill fill) {
  GValueArray* array = NewArray(n);
  for (guint i = 0; i < n; ++i) {
    GValue* v = AppendUnsetValue(array);
    g_value_init(v, type);
    fill(i, v);
  }
  return array;
}

// One double per component, read off its statistics by `value`.
template <typename Value>
void SetStatField(GstStructure* s, const char* field, const cudahist::HistogramStatistics* stats,
                  guint n, Value value) {
  SetArrayField(s, field, ArrayOf(G_TYPE_DOUBLE, n, [&](guint i, GValue* v) {
                  g_value_set_double(v, double(value(stats[i])));
                }));
}

GValueArray* HistogramsArray(const HistogramLayout& l, const uint64_t* all_counts) {
  return ArrayOf(ValueArrayType(), guint(l.n_components), [&](guint c, GValue* v) {
    const uint64_t* counts = all_counts + size_t(c) * l.bins;
    g_value_take_boxed(v, ArrayOf(G_TYPE_UINT64, l.bins, [&](guint b, GValue* count) {
                         g_value_set_uint64(count, counts[b]);
                       }));
  });
}

}  // namespace

void SetCountFields(const HistogramLayout& l, const uint64_t* counts, CountsAs form, GstStructure* s) {
  const guint n = guint(l.n_components);
  if (form == CountsAs::kBytes) {
    GBytes* bytes = g_bytes_new(counts, size_t(n) * l.bins * sizeof(uint64_t));
    gst_structure_set(s, "counts", G_TYPE_BYTES, bytes, nullptr);
    g_bytes_unref(bytes);
  } else {
    SetArrayField(s, "histograms", HistogramsArray(l, counts));
  }
  cudahist::HistogramStatistics stats[kMaxComponents];
  for (guint c = 0; c < n; ++c) stats[c] = cudahist::Statistics(counts + size_t(c) * l.bins, l.bins, l.depths[c]);
  using Stats = cudahist::HistogramStatistics;
  SetStatField(s, "mean", stats, n, [](const Stats& st) { return st.mean; });
  SetStatField(s, "stddev", stats, n, [](const Stats& st) { return st.stddev; });
  SetStatField(s, "min", stats, n, [](const Stats& st) { return st.min; });
  SetStatField(s, "max", stats, n, [](const Stats& st) { return st.max; });
  SetStatField(s, "clipped-low", stats, n, [](const Stats& st) { return st.clipped_low; });
  SetStatField(s, "clipped-high", stats, n, [](const Stats& st) { return st.clipped_high; });
}

void SetStructuresField(GstStructure* s, const char* field, const std::vector<GstStructure*>& structures) {
  SetArrayField(s, field, ArrayOf(GST_TYPE_STRUCTURE, guint(structures.size()), [&](guint i, GValue* v) {
                  g_value_take_boxed(v, structures[i]);
                }));
}

GstStructure* HistogramStructure(const HistogramAccumulator& acc) {
  const HistogramLayout& l = acc.layout();
  const guint n = guint(l.n_components);
  const FrameTiming& t = acc.first();
  GstStructure* s = gst_structure_new(
      kMessageName, "timestamp", G_TYPE_UINT64, guint64(t.timestamp), "stream-time",
      G_TYPE_UINT64, guint64(t.stream_time), "running-time", G_TYPE_UINT64,
      guint64(t.running_time), "duration", G_TYPE_UINT64, guint64(acc.duration()), "frames",
      G_TYPE_UINT, acc.frames(), "format", G_TYPE_STRING, gst_video_format_to_string(l.format),
      "width", G_TYPE_UINT, l.width, "height", G_TYPE_UINT, l.height, "roi-x", G_TYPE_UINT,
      l.roi_x, "roi-y", G_TYPE_UINT, l.roi_y, "roi-width", G_TYPE_UINT, l.roi_width,
      "roi-height", G_TYPE_UINT, l.roi_height, "bins", G_TYPE_UINT, l.bins, nullptr);
  SetArrayField(s, "components", ArrayOf(G_TYPE_STRING, n, [&](guint i, GValue* v) {
                  g_value_set_static_string(v, l.names[i]);
                }));
  SetArrayField(s, "depths", ArrayOf(G_TYPE_UINT, n, [&](guint i, GValue* v) {
                  g_value_set_uint(v, l.depths[i]);
                }));
  SetCountFields(l, acc.counts().data(), CountsAs::kValueArrays, s);
  if (const cudahist::SignalStatsFigures* figures = acc.last_figures()) {
    SetSignalStatsFields(*figures, s);
  }
  if (const QcFields* qc = acc.last_qc()) SetQcFields(*qc, s);
  return s;
}

}  // namespace cudahistogram
