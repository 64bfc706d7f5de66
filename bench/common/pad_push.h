// bench/common/pad_push.h: an element under test between a source pad of our own and
// a fakesink, driven by gst_pad_push from the calling thread.
//
//   [our src pad] ! <element> ! fakesink sync=false async=false signal-handoffs=true
//
// Nothing stands between the push and the element but the pad link: no appsrc
// queue and no thread hop, so the time of a push is the element's work plus
// fakesink's (which a pipeline with `identity` in place of the element
// measures the same way in the same run). The latency of one buffer is the
// time from just before gst_pad_push to fakesink's handoff signal.
#pragma once

#include <gst/gst.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace bench {

class PadPushPipeline {
 public:
  // Takes ownership of `element` (floating ref) and `caps`. nullptr and `why` on failure.
  static std::unique_ptr<PadPushPipeline> Create(GstElement* element, GstCaps* caps, std::string* why);
  ~PadPushPipeline();

  GstElement* element() const { return element_; }

  // Pushes `buffer` (takes the ref) stamped as frame `index` of a 30 fps
  // stream; `latency_ns` receives the push-to-handoff time.
  GstFlowReturn Push(GstBuffer* buffer, uint64_t index, double* latency_ns);

  // Called from fakesink's handoff with every buffer that reaches it.
  void SetSinkCheck(std::function<void(GstBuffer*)> check) { sink_check_ = std::move(check); }

  // A thread that pops the bus as the application would, so it never grows.
  void StartBusDrain();
  // Stops it; returns the element messages seen and the first error, if any.
  uint64_t StopBusDrain(std::string* error);

 private:
  PadPushPipeline() = default;
  static void OnHandoff(GstElement* sink, GstBuffer* buffer, GstPad* pad, gpointer self);

  GstElement* pipeline_ = nullptr;
  GstElement* element_ = nullptr;
  GstPad* src_ = nullptr;
  std::function<void(GstBuffer*)> sink_check_;
  int64_t handoff_ns_ = 0;
  std::thread drain_;
  std::atomic<bool> draining_{false};
  std::atomic<uint64_t> element_messages_{0};
  std::string bus_error_;
};

// Monotonic nanoseconds.
int64_t NowNs();

}  // namespace bench
