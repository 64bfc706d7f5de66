#include "histogram_message.h"

#include <gst/video/video.h>

#include <cmath>
#include <functional>

#include "cudahist/histogram_spec.h"

namespace cudahistogram {
namespace {

// Lowest code value of `bin` (bins == 2^depth: the bin itself).
double BinLow(guint bin, guint bins, guint depth) {
  return double(cudahist::BinLowestValue(bin, bins, depth));
}

// Highest code value of `bin`: one below the next bin's lowest.
double BinHigh(guint bin, guint bins, guint depth) {
  return double(cudahist::BinLowestValue(bin + 1, bins, depth)) - 1.0;
}

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

void SetStatField(GstStructure* s, const char* field, const ComponentStats* stats, guint n,
                  double ComponentStats::*member) {
  SetArrayField(s, field, ArrayOf(G_TYPE_DOUBLE, n, [&](guint i, GValue* v) {
                  g_value_set_double(v, stats[i].*member);
                }));
}

GValueArray* HistogramsArray(const HistogramAccumulator& acc) {
  const HistogramLayout& l = acc.layout();
  return ArrayOf(ValueArrayType(), guint(l.n_components), [&](guint c, GValue* v) {
    const uint64_t* counts = acc.counts().data() + size_t(c) * l.bins;
    g_value_take_boxed(v, ArrayOf(G_TYPE_UINT64, l.bins, [&](guint b, GValue* count) {
                         g_value_set_uint64(count, counts[b]);
                       }));
  });
}

}  // namespace

ComponentStats ComputeStats(const uint64_t* counts, guint bins, guint depth) {
  ComponentStats stats;
  uint64_t total = 0;
  double sum = 0;
  guint lowest = bins, highest = 0;
  for (guint b = 0; b < bins; ++b) {
    if (counts[b] == 0) continue;
    const double centre = (BinLow(b, bins, depth) + BinHigh(b, bins, depth)) / 2;
    total += counts[b];
    sum += centre * double(counts[b]);
    if (lowest == bins) lowest = b;
    highest = b;
  }
  if (total == 0) return stats;
  stats.mean = sum / double(total);
  double squares = 0;
  for (guint b = lowest; b <= highest; ++b) {
    const double d = (BinLow(b, bins, depth) + BinHigh(b, bins, depth)) / 2 - stats.mean;
    squares += d * d * double(counts[b]);
  }
  stats.stddev = std::sqrt(squares / double(total));
  stats.min = BinLow(lowest, bins, depth);
  stats.max = BinHigh(highest, bins, depth);
  stats.clipped_low = double(counts[0]) / double(total);
  stats.clipped_high = double(counts[bins - 1]) / double(total);
  return stats;
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
  SetArrayField(s, "histograms", HistogramsArray(acc));
  ComponentStats stats[kMaxComponents];
  for (guint c = 0; c < n; ++c) {
    stats[c] = ComputeStats(acc.counts().data() + size_t(c) * l.bins, l.bins, l.depths[c]);
  }
  SetStatField(s, "mean", stats, n, &ComponentStats::mean);
  SetStatField(s, "stddev", stats, n, &ComponentStats::stddev);
  SetStatField(s, "min", stats, n, &ComponentStats::min);
  SetStatField(s, "max", stats, n, &ComponentStats::max);
  SetStatField(s, "clipped-low", stats, n, &ComponentStats::clipped_low);
  SetStatField(s, "clipped-high", stats, n, &ComponentStats::clipped_high);
  return s;
}

}  // namespace cudahistogram
