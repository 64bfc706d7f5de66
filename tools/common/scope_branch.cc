#include "scope_branch.h"

#include <gst/app/gstappsink.h>

namespace cudahist_tools {
namespace {

struct Throttle {
  GstClockTime period;
  gint64 last_pass_us = 0;  // monotonic; 0: nothing passed yet
};

// Lets one buffer through per period of wall time (the stream's own
// timestamps restart when a file loops or a source reconnects).
GstPadProbeReturn DropBetweenPictures(GstPad*, GstPadProbeInfo*, gpointer data) {
  Throttle* t = static_cast<Throttle*>(data);
  const gint64 now = g_get_monotonic_time();
  if (t->last_pass_us && GstClockTime(now - t->last_pass_us) * GST_USECOND < t->period) return GST_PAD_PROBE_DROP;
  t->last_pass_us = now;
  return GST_PAD_PROBE_OK;
}

}  // namespace

GstElement* AddScopeBranch(const AnalysisPipeline& parts, const ScopeBranchOptions& options, std::string* problem) {
  GstElement* sink = gst_bin_get_by_name(GST_BIN(parts.pipeline), "sink");
  if (!sink) {
    *problem = "the analysis pipeline has no sink named 'sink'";
    return nullptr;
  }
  const char* factories[] = {"tee", "queue", "queue", "cudavideoscope", "cudadownload", "capsfilter", "pngenc",
                             "appsink"};
  const char* names[] = {"frames", "analysed", "scope_queue", "scope", "scope_download", "scope_size", "scope_png",
                         "scope_sink"};
  GstElement* e[8] = {};
  for (int i = 0; i < 8; ++i) {
    if (i == 4 && !options.gpu) continue;
    e[i] = gst_element_factory_make(factories[i], names[i]);
    if (!e[i]) {
      *problem = std::string("the GStreamer element '") + factories[i] + "' is missing";
      for (GstElement* made : e)
        if (made) gst_object_unref(gst_object_ref_sink(made));
      gst_object_unref(sink);
      return nullptr;
    }
  }
  GstElement *tee = e[0], *analysed = e[1], *scope_queue = e[2], *scope = e[3], *download = e[4], *size = e[5],
             *png = e[6], *appsink = e[7];
  GstCaps* size_caps = gst_caps_new_simple("video/x-raw", "width", G_TYPE_INT, options.width, "height", G_TYPE_INT,
                                           options.height, nullptr);
  g_object_set(size, "caps", size_caps, nullptr);
  gst_caps_unref(size_caps);
  gst_util_set_object_arg(G_OBJECT(scope), "style", options.style.c_str());
  g_object_set(scope_queue, "leaky", 2 /* downstream */, "max-size-buffers", 1, "max-size-bytes", 0,
               "max-size-time", guint64(0), nullptr);
  // The picture branch never holds the pipeline back: it does not preroll
  // (most frames are dropped before it) and keeps only the newest picture.
  g_object_set(appsink, "max-buffers", 1, "drop", TRUE, "sync", FALSE, "async", FALSE, "enable-last-sample", FALSE,
               nullptr);
  g_object_set(png, "compression-level", 1, nullptr);

  GstElement* analysis = parts.analysis;
  gst_element_unlink(analysis, sink);
  gst_bin_add_many(GST_BIN(parts.pipeline), tee, analysed, scope_queue, scope, size, png, appsink, nullptr);
  if (download) gst_bin_add(GST_BIN(parts.pipeline), download);
  bool linked = gst_element_link_many(analysis, tee, analysed, sink, nullptr) &&
                gst_element_link_many(tee, scope_queue, scope, nullptr) &&
                (download ? gst_element_link_many(scope, download, size, png, appsink, nullptr)
                          : gst_element_link_many(scope, size, png, appsink, nullptr));
  gst_object_unref(sink);
  if (!linked) {
    *problem = "cannot link the scope branch (tee ! queue ! cudavideoscope ! capsfilter ! pngenc ! appsink)";
    return nullptr;
  }
  GstPad* pad = gst_element_get_static_pad(scope_queue, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, DropBetweenPictures, new Throttle{options.period},
                    [](gpointer data) { delete static_cast<Throttle*>(data); });
  gst_object_unref(pad);
  return appsink;
}

std::string TakeScopePng(GstElement* appsink) {
  GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(appsink), 0);
  if (!sample) return "";
  std::string png;
  GstMapInfo map;
  GstBuffer* buffer = gst_sample_get_buffer(sample);
  if (buffer && gst_buffer_map(buffer, &map, GST_MAP_READ)) {
    png.assign(reinterpret_cast<const char*>(map.data), map.size);
    gst_buffer_unmap(buffer, &map);
  }
  gst_sample_unref(sample);
  return png;
}

}  // namespace cudahist_tools
