#include "picture_tap.h"

#include <gst/app/gstappsink.h>

namespace cudahist_tools {
namespace {

constexpr const char* kTeeName = "frames";

struct Throttle {
  GstClockTime period;
  gint64 last_pass_us = 0;  // monotonic; 0: nothing passed yet
};

// Lets one buffer through per period of wall time (the stream's own
// timestamps restart when a file loops or a source reconnects). Frames
// between two pictures are dropped before the queue, so a picture costs one
// frame's work per period whatever the stream's rate.
GstPadProbeReturn DropBetweenPictures(GstPad*, GstPadProbeInfo*, gpointer data) {
  Throttle* t = static_cast<Throttle*>(data);
  const gint64 now = g_get_monotonic_time();
  if (t->last_pass_us && GstClockTime(now - t->last_pass_us) * GST_USECOND < t->period) return GST_PAD_PROBE_DROP;
  t->last_pass_us = now;
  return GST_PAD_PROBE_OK;
}

// The tee after the analysis, put in on first use: analysis ! tee ! queue ! sink.
GstElement* FramesTee(const AnalysisPipeline& parts, std::string* problem) {
  if (GstElement* tee = gst_bin_get_by_name(GST_BIN(parts.pipeline), kTeeName)) {
    gst_object_unref(tee);  // the pipeline holds it
    return tee;
  }
  GstElement* sink = gst_bin_get_by_name(GST_BIN(parts.pipeline), "sink");
  if (!sink) {
    *problem = "the analysis pipeline has no sink named 'sink'";
    return nullptr;
  }
  std::vector<GstElement*> made;
  if (!MakePictureElements({"tee", "queue"}, {kTeeName, "analysed"}, &made, problem)) {
    gst_object_unref(sink);
    return nullptr;
  }
  gst_element_unlink(parts.analysis, sink);
  gst_bin_add_many(GST_BIN(parts.pipeline), made[0], made[1], nullptr);
  const bool linked = gst_element_link_many(parts.analysis, made[0], made[1], sink, nullptr);
  gst_object_unref(sink);
  if (!linked) {
    *problem = "cannot link cudahistogram ! tee ! queue ! sink";
    return nullptr;
  }
  return made[0];
}

}  // namespace

bool MakePictureElements(const std::vector<const char*>& factories, const std::vector<std::string>& names,
                         std::vector<GstElement*>* made, std::string* problem) {
  made->clear();
  for (size_t i = 0; i < factories.size(); ++i) {
    if (!factories[i]) continue;
    GstElement* e = gst_element_factory_make(factories[i], names[i].c_str());
    if (!e) {
      *problem = std::string("the GStreamer element '") + factories[i] + "' is missing";
      for (GstElement* m : *made) gst_object_unref(gst_object_ref_sink(m));
      made->clear();
      return false;
    }
    made->push_back(e);
  }
  return true;
}

bool TapPictures(const AnalysisPipeline& parts, const std::string& queue_name, GstClockTime period,
                 const std::vector<GstElement*>& elements, std::string* problem) {
  GstElement* queue = gst_element_factory_make("queue", queue_name.c_str());
  GstElement* tee = queue ? FramesTee(parts, problem) : nullptr;
  if (!queue || !tee) {
    if (!queue) *problem = "the GStreamer element 'queue' is missing";
    if (queue) gst_object_unref(gst_object_ref_sink(queue));
    for (GstElement* e : elements) gst_object_unref(gst_object_ref_sink(e));
    return false;
  }
  g_object_set(queue, "leaky", 2 /* downstream */, "max-size-buffers", 1, "max-size-bytes", 0, "max-size-time",
               guint64(0), nullptr);
  // The picture branch never holds the pipeline back: it does not preroll
  // (most frames are dropped before it), keeps only the newest picture, and
  // passes EOS on though no one took that picture (appsink's wait-on-eos
  // would hold the end of the stream until the status page is next read).
  g_object_set(elements.back(), "max-buffers", 1, "drop", TRUE, "sync", FALSE, "async", FALSE, "enable-last-sample",
               FALSE, "wait-on-eos", FALSE, nullptr);
  gst_bin_add(GST_BIN(parts.pipeline), queue);
  for (GstElement* e : elements) gst_bin_add(GST_BIN(parts.pipeline), e);
  bool linked = gst_element_link(queue, elements.front());
  for (size_t i = 1; linked && i < elements.size(); ++i) linked = gst_element_link(elements[i - 1], elements[i]);
  linked = linked && gst_element_link(tee, queue);
  if (!linked) {
    std::string chain = "tee ! queue";
    for (GstElement* e : elements) chain += std::string(" ! ") + GST_OBJECT_NAME(gst_element_get_factory(e));
    *problem = "cannot link the picture branch " + chain;
    // Out of the pipeline again: the analysis goes on without this picture.
    gst_bin_remove(GST_BIN(parts.pipeline), queue);
    for (GstElement* e : elements) gst_bin_remove(GST_BIN(parts.pipeline), e);
    return false;
  }
  GstPad* pad = gst_element_get_static_pad(queue, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, DropBetweenPictures, new Throttle{period},
                    [](gpointer data) { delete static_cast<Throttle*>(data); });
  gst_object_unref(pad);
  return true;
}

std::string TakePicture(GstElement* appsink) {
  GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(appsink), 0);
  if (!sample) return "";
  std::string bytes;
  GstMapInfo map;
  GstBuffer* buffer = gst_sample_get_buffer(sample);
  if (buffer && gst_buffer_map(buffer, &map, GST_MAP_READ)) {
    bytes.assign(reinterpret_cast<const char*>(map.data), map.size);
    gst_buffer_unmap(buffer, &map);
  }
  gst_sample_unref(sample);
  return bytes;
}

}  // namespace cudahist_tools
