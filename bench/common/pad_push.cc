// bench/common/pad_push.cc
#include "pad_push.h"

#include <time.h>

namespace bench {

namespace {
constexpr GstClockTime kFrameDuration = GST_SECOND / 30;
constexpr GstClockTime kBusPollTimeout = 50 * GST_MSECOND;
}  // namespace

int64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

std::unique_ptr<PadPushPipeline> PadPushPipeline::Create(GstElement* element, GstCaps* caps, std::string* why) {
  std::unique_ptr<PadPushPipeline> p(new PadPushPipeline());
  GstElement* sink = gst_element_factory_make("fakesink", nullptr);
  p->pipeline_ = gst_pipeline_new(nullptr);
  p->element_ = element;
  g_object_set(sink, "sync", FALSE, "async", FALSE, "signal-handoffs", TRUE, nullptr);
  g_signal_connect(sink, "handoff", G_CALLBACK(OnHandoff), p.get());
  gst_bin_add_many(GST_BIN(p->pipeline_), element, sink, nullptr);
  if (!gst_element_link(element, sink)) {
    *why = "cannot link the element to fakesink";
    gst_caps_unref(caps);
    return nullptr;
  }
  p->src_ = gst_pad_new("src", GST_PAD_SRC);
  GstPad* sinkpad = gst_element_get_static_pad(element, "sink");
  const GstPadLinkReturn link = gst_pad_link(p->src_, sinkpad);
  gst_object_unref(sinkpad);
  gst_pad_set_active(p->src_, TRUE);
  if (link != GST_PAD_LINK_OK) {
    *why = "cannot link our source pad to the element";
    gst_caps_unref(caps);
    return nullptr;
  }
  if (gst_element_set_state(p->pipeline_, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    *why = "the pipeline does not go to PLAYING (see the bus / GST_DEBUG)";
    gst_caps_unref(caps);
    return nullptr;
  }
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  const bool events_ok = gst_pad_push_event(p->src_, gst_event_new_stream_start("bench")) &&
                         gst_pad_push_event(p->src_, gst_event_new_caps(caps)) &&
                         gst_pad_push_event(p->src_, gst_event_new_segment(&segment));
  gst_caps_unref(caps);
  if (!events_ok) {
    *why = "the element refused the stream-start, caps or segment event";
    return nullptr;
  }
  return p;
}

PadPushPipeline::~PadPushPipeline() {
  if (draining_) {
    std::string ignored;
    StopBusDrain(&ignored);
  }
  if (src_ != nullptr) {
    gst_pad_set_active(src_, FALSE);
    gst_object_unref(src_);
  }
  if (pipeline_ != nullptr) {
    gst_element_set_state(pipeline_, GST_STATE_NULL);
    gst_object_unref(pipeline_);
  }
}

void PadPushPipeline::OnHandoff(GstElement*, GstBuffer* buffer, GstPad*, gpointer self) {
  auto* p = static_cast<PadPushPipeline*>(self);
  p->handoff_ns_ = NowNs();
  if (p->sink_check_) p->sink_check_(buffer);
}

GstFlowReturn PadPushPipeline::Push(GstBuffer* buffer, uint64_t index, double* latency_ns) {
  GST_BUFFER_PTS(buffer) = index * kFrameDuration;
  GST_BUFFER_DURATION(buffer) = kFrameDuration;
  handoff_ns_ = 0;
  const int64_t start = NowNs();
  const GstFlowReturn flow = gst_pad_push(src_, buffer);
  *latency_ns = handoff_ns_ > 0 ? double(handoff_ns_ - start) : -1.0;
  return flow;
}

void PadPushPipeline::StartBusDrain() {
  draining_ = true;
  element_messages_ = 0;
  drain_ = std::thread([this] {
    GstBus* bus = gst_element_get_bus(pipeline_);
    // Runs until asked to stop and the bus is empty: every message posted
    // during the pushes (synchronously) is counted.
    for (;;) {
      GstMessage* m = gst_bus_timed_pop(bus, kBusPollTimeout);
      if (m == nullptr) {
        if (!draining_) break;
        continue;
      }
      if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ELEMENT) {
        ++element_messages_;
      } else if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR && bus_error_.empty()) {
        GError* err = nullptr;
        gst_message_parse_error(m, &err, nullptr);
        bus_error_ = err != nullptr ? err->message : "error";
        g_clear_error(&err);
      }
      gst_message_unref(m);
    }
    gst_object_unref(bus);
  });
}

uint64_t PadPushPipeline::StopBusDrain(std::string* error) {
  draining_ = false;
  if (drain_.joinable()) drain_.join();
  *error = bus_error_;
  return element_messages_;
}

}  // namespace bench
