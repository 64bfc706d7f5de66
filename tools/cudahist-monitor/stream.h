// One monitored stream: its pipeline (tools/common's analysis pipeline with a
// scope branch), its state, its alarms and its metrics. Everything runs on
// the main loop: the bus watch brings the element's messages here, Tick()
// watches for stalls and restarts a failed pipeline after a back-off.
#pragma once

#include <gio/gio.h>
#include <gst/gst.h>
#include <json-glib/json-glib.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "alerts.h"
#include "analysis_pipeline.h"
#include "audio_branch.h"
#include "config.h"
#include "event_log.h"
#include "metrics.h"
#include "redact.h"

namespace monitor {

struct PipelineChoice {
  bool gpu = false;
  int cuda_device_id = 0;
  double interval_seconds = 1;
  ScopeStyle scope = ScopeStyle::kWaveform;
};

enum class StreamState { kStarting, kUp, kDown, kEnded };

// How many streams may be starting at once. Decoders take longer to open
// the more open together (on an H100, 160 NVDEC streams started at once
// kept many past a 10 s start timeout): the others wait their turn, and their
// start timeout runs from the turn, not from the wait.
class StartGate {
 public:
  explicit StartGate(int slots) : free_(slots) {}
  bool TryTake() { return free_ > 0 ? (--free_, true) : false; }
  void Give() { ++free_; }

 private:
  int free_;
};
const char* StateName(StreamState state);

class Stream {
 public:
  Stream(const StreamConfig& config, const PipelineChoice& choice, StreamMetrics* metrics, EventLog* log,
         StartGate* starts);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // `now`: monotonic seconds (NowSeconds()).
  void Start(double now);
  // Called a few times a second: stalls, restarts, frames/s, alarms, the scope picture.
  void Tick(double now);
  // Ends the stream: EOS into the pipeline; drained() once it came out.
  void Drain();
  // New thresholds for the running stream: alarms whose rule changed clear.
  void SetThresholds(const Thresholds& thresholds);
  // Clears every raised alarm with `reason`; call before the stream goes
  // (removed, reconfigured, shutdown).
  void ClearAlarms(ClearReason reason);
  bool drained() const { return drained_ || !pipeline_; }
  // The sinks of the pipeline that have not had their EOS yet, by name.
  std::string SinksWithoutEos() const;

  const StreamConfig& config() const { return config_; }
  StreamState state() const { return state_; }
  const std::string& scope_png() const { return scope_png_; }
  const std::string& thumbnail_jpeg() const { return thumbnail_jpeg_; }
  // The stream as the status page shows it (an object member of `b`).
  void AddStatus(JsonBuilder* b) const;

 private:
  // Begins the start once the gate lets it (Start and Tick call it).
  void TryBegin(double now);
  void ReleaseStartSlot();
  static void OnResolved(GObject* resolver, GAsyncResult* result, gpointer self);
  static void OnElementAdded(GstBin*, GstBin*, GstElement* element, gpointer self);
  // Why the video is not decoded by the GPU decoder offered ("" when it is, or none was).
  std::string DecoderWhy() const;
  // Why no decoder may take the video: a video-decoder that does not decode it ("" none).
  std::string DecoderProblem() const;
  void StartPipeline();
  // The scope and the thumbnail; false when the analysis itself no longer links.
  bool AddPictureBranches(const cudahist_tools::AnalysisPipeline& parts, std::string* problem);
  static gboolean OnBusMessage(GstBus*, GstMessage* message, gpointer self);
  void OnMessage(GstMessage* message);
  void OnFigures(const GstStructure* s);
  void OnEndOfStream();
  void OnAudio(GstMessage* message);
  // Level messages come: the stream's audio arrives.
  bool AudioArrives(double now) const;
  void AddAudioStatus(JsonBuilder* b) const;
  void Fail(const std::string& reason);
  void Teardown();
  void Evaluate(double now);
  void Report(const std::vector<AlarmChange>& changes);
  // The figures the alarm table's tests read, by name, in their thresholds' scale.
  std::map<std::string, double> AlarmFigures() const;

  StreamConfig config_;
  cudahist_tools::UriSecrets secrets_;  // of config_.uri: scrubbed from every text that leaves
  PipelineChoice choice_;
  StreamMetrics* metrics_;
  EventLog* log_;
  AlarmTracker alarms_;

  StartGate* starts_;
  bool waiting_for_start_ = false;  // Start() called, the gate full
  bool holds_start_slot_ = false;   // starting: until the first figures or a failure
  GCancellable* resolving_ = nullptr;  // the source's host name being looked up
  GstElement* pipeline_ = nullptr;
  GstElement* analysis_ = nullptr;    // cudahistogram, owned by the pipeline
  std::shared_ptr<cudahist_tools::DecoderNote> decoding_;  // the decoder choice's word on the video
  mutable std::mutex decoder_lock_;
  std::string decoder_;  // the video decoder plugged (decoder_lock_)
  GstElement* scope_sink_ = nullptr;
  GstElement* thumbnail_sink_ = nullptr;
  StreamState state_ = StreamState::kStarting;
  bool drained_ = false;
  bool draining_ = false;
  bool failed_since_up_ = false;
  bool pictures_warned_ = false;
  std::string last_error_;
  double started_at_ = 0, last_figures_at_ = 0, up_since_ = 0;
  double retry_at_ = 0, retry_delay_ = 1;
  bool has_figures_ = false;
  std::map<std::string, double> figures_;  // the last message's signalstats fields
  double depth_ = 8;                        // bits per luma sample: the figures' scale
  cudahist_tools::AudioLevels audio_levels_;  // the last interval's
  cudahist_tools::Loudness loudness_;
  double last_audio_at_ = 0;
  bool audio_seen_ = false;  // since the stream was added, across restarts: its loss is an alarm
  unsigned width_ = 0, height_ = 0;
  uint64_t frames_ = 0, reconnects_ = 0;
  double frames_per_second_ = 0;
  std::string scope_png_;
  std::string thumbnail_jpeg_;
};

// Monotonic time in seconds.
double NowSeconds();

}  // namespace monitor
