#include "stream.h"

#include <gst/video/video.h>


#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "analysis_pipeline.h"
#include "audio_branch.h"
#include "frame_figures.h"
#include "picture_tap.h"
#include "scope_branch.h"
#include "thumbnail_branch.h"
#include "source.h"
#include "source_elements.h"

namespace monitor {
namespace {

constexpr double kMaxRetryDelay = 30;     // seconds between two attempts, at most
constexpr double kSteadyAfter = 10;       // up this long: the next failure retries quickly again

// The Y figures in 8-bit code values, as the thresholds are given.
double To8Bit(double value, double depth) { return depth > 8 ? value / std::ldexp(1.0, int(depth) - 8) : value; }

// decodebin reports every stream it cannot decode to video/x-raw as a
// missing decoder, an audio track included, one "Missing decoder: NAME (CAPS)"
// line each in the error's detail: what it misses tells an input without
// video from a video no decoder here reads.
std::string MissingDecoderText(GstMessage* error_message) {
  GError* error = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(error_message, &error, &debug);
  std::string video, other;
  if (g_error_matches(error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN) && debug) {
    constexpr char kMarker[] = "Missing decoder: ";
    for (const char* at = strstr(debug, kMarker); at; at = strstr(at + 1, kMarker)) {
      const char* name = at + strlen(kMarker);
      const char* end = strchr(name, '\n');
      const std::string line(name, end ? end - name : strlen(name));
      std::string& list = line.find("(video/") != std::string::npos ? video : other;
      list += (list.empty() ? "" : ", ") + line.substr(0, line.find(" ("));
    }
  }
  g_clear_error(&error);
  g_free(debug);
  if (!video.empty()) return "no decoder for its video (" + video + "): ";
  if (!other.empty()) return "the input has no video stream (only " + other + "): ";
  return "";
}

// The audio branch for the pipeline's first audio stream, built with the
// pipeline: a missing element is posted as a warning, and the video goes on.
std::function<GstPad*(GstBin*)> AudioHook(double interval_seconds, bool file) {
  return [interval_seconds, file](GstBin* pipeline) -> GstPad* {
    cudahist_tools::AudioBranchOptions options;
    options.interval = GstClockTime(interval_seconds * GST_SECOND);
    options.sync = true;  // the meters run at the stream's pace
    options.prerolls = file;
    std::string problem;
    GstPad* pad = cudahist_tools::AddAudioBranch(pipeline, options, &problem);
    if (!pad) {
      GError* error = g_error_new(GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN, "no audio meters: %s", problem.c_str());
      gst_element_post_message(GST_ELEMENT(pipeline), gst_message_new_warning(GST_OBJECT(pipeline), error, nullptr));
      g_error_free(error);
    }
    return pad;
  };
}

bool AnalysisStillLinked(GstElement* analysis) {
  GstPad* pad = gst_element_get_static_pad(analysis, "src");
  const bool linked = gst_pad_is_linked(pad);
  gst_object_unref(pad);
  return linked;
}

}  // namespace

double NowSeconds() { return g_get_monotonic_time() / 1e6; }

const char* StateName(StreamState state) {
  switch (state) {
    case StreamState::kStarting: return "starting";
    case StreamState::kUp: return "up";
    case StreamState::kDown: return "down";
    case StreamState::kEnded: return "ended";
  }
  return "?";
}

Stream::Stream(const StreamConfig& config, const PipelineChoice& choice, StreamMetrics* metrics, EventLog* log,
               StartGate* starts)
    : config_(config), secrets_(config.uri), choice_(choice), metrics_(metrics), log_(log), alarms_(config.thresholds), starts_(starts) {}

Stream::~Stream() { Teardown(); }

void Stream::Start(double now) {
  Teardown();
  state_ = StreamState::kStarting;
  waiting_for_start_ = true;
  TryBegin(now);
}

void Stream::TryBegin(double now) {
  if (!starts_->TryTake()) return;
  waiting_for_start_ = false;
  holds_start_slot_ = true;
  started_at_ = now;
  // Sources say little when a name does not resolve ("Internal data stream
  // error" from an HTTP source, "Generic error" from RTSP): look it up first,
  // without holding up the main loop.
  const std::string host = HostToResolve(config_.uri);
  if (host.empty()) {
    StartPipeline();
    return;
  }
  resolving_ = g_cancellable_new();
  GResolver* resolver = g_resolver_get_default();
  g_resolver_lookup_by_name_async(resolver, host.c_str(), resolving_, OnResolved, this);
  g_object_unref(resolver);
}

void Stream::OnResolved(GObject* resolver, GAsyncResult* result, gpointer self) {
  GError* error = nullptr;
  GList* addresses = g_resolver_lookup_by_name_finish(G_RESOLVER(resolver), result, &error);
  g_resolver_free_addresses(addresses);
  // Cancelled: the stream was torn down (or destroyed) meanwhile.
  if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
    g_error_free(error);
    return;
  }
  Stream* stream = static_cast<Stream*>(self);
  g_clear_object(&stream->resolving_);
  if (error) {
    const std::string host = HostToResolve(stream->config_.uri);
    stream->Fail("cannot resolve host '" + host + "': " + error->message);
    g_error_free(error);
    return;
  }
  stream->StartPipeline();
}

void Stream::StartPipeline() {
  has_figures_ = false;
  cudahist_tools::AnalysisTarget target;
  target.gpu = choice_.gpu;
  target.cuda_device_id = choice_.cuda_device_id;
  // Files play at their own rate, as a live source would send them.
  target.live = true;
  if (config_.audio != AudioMode::kOff) {
    target.audio = AudioHook(choice_.interval_seconds, SourceTypeOf(config_.uri).is_file);
  }
  target.source_setup = [config = config_](GstElement* source) { SetUpSource(source, config); };
  // Live pictures may come from NVDEC also where the standard leaves the
  // IDCT to a tolerance (MPEG-2 ...): within it, as docs/versions.md measures.
  target.gpu_for_tolerance_codecs = true;
  target.decoder = config_.video_decoder;
  std::string problem;
  cudahist_tools::AnalysisPipeline parts =
      cudahist_tools::BuildAnalysisPipeline(config_.uri, target, config_.name, &problem);
  if (parts.pipeline) {
    g_object_set(parts.analysis, "interval", guint64(choice_.interval_seconds * GST_SECOND), nullptr);
    if (!AddPictureBranches(parts, &problem)) {
      gst_object_unref(parts.pipeline);
      parts.pipeline = nullptr;
    }
  }
  if (!parts.pipeline) {
    Fail(problem);
    return;
  }
  pipeline_ = parts.pipeline;
  analysis_ = parts.analysis;
  decoding_ = parts.decoding;
  decoder_.clear();
  g_signal_connect(pipeline_, "deep-element-added", G_CALLBACK(OnElementAdded), this);
  GstBus* bus = gst_element_get_bus(pipeline_);
  gst_bus_add_watch(bus, OnBusMessage, this);
  gst_object_unref(bus);
  if (gst_element_set_state(pipeline_, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    // The error message on the bus says why; the bus watch reads it next.
    EventLog::Say(config_.name, "the pipeline refused to start");
  }
}

bool Stream::AddPictureBranches(const cudahist_tools::AnalysisPipeline& parts, std::string* problem) {
  cudahist_tools::ScopeBranchOptions scope;
  const bool waveform = choice_.scope == ScopeStyle::kWaveform;
  scope.style = waveform ? "waveform" : "vectorscope";
  scope.width = waveform ? 512 : 256;  // a vectorscope is round
  scope.height = 256;
  scope.gpu = choice_.gpu;
  std::string missing;
  scope_sink_ = cudahist_tools::AddScopeBranch(parts, scope, &missing);
  if (!scope_sink_ && !pictures_warned_) EventLog::Say(config_.name, "no scope picture: " + secrets_.Scrub(missing));
  cudahist_tools::ThumbnailBranchOptions thumbnail;
  thumbnail.gpu = choice_.gpu;
  thumbnail_sink_ = cudahist_tools::AddThumbnailBranch(parts, thumbnail, &missing);
  if (!thumbnail_sink_ && !pictures_warned_) EventLog::Say(config_.name, "no thumbnail: " + secrets_.Scrub(missing));
  pictures_warned_ = pictures_warned_ || !scope_sink_ || !thumbnail_sink_;
  // A missing element (pngenc, jpegenc, ...) costs its picture, not the figures.
  if (AnalysisStillLinked(parts.analysis)) return true;
  *problem = missing;
  return false;
}

void Stream::ReleaseStartSlot() {
  if (holds_start_slot_) starts_->Give();
  holds_start_slot_ = false;
}

void Stream::Teardown() {
  waiting_for_start_ = false;
  ReleaseStartSlot();
  if (resolving_) {
    g_cancellable_cancel(resolving_);
    g_clear_object(&resolving_);
  }
  if (!pipeline_) return;
  GstBus* bus = gst_element_get_bus(pipeline_);
  gst_bus_remove_watch(bus);
  gst_object_unref(bus);
  gst_element_set_state(pipeline_, GST_STATE_NULL);
  gst_object_unref(pipeline_);
  pipeline_ = nullptr;
  analysis_ = nullptr;
  scope_sink_ = nullptr;
  thumbnail_sink_ = nullptr;
}

gboolean Stream::OnBusMessage(GstBus*, GstMessage* message, gpointer self) {
  static_cast<Stream*>(self)->OnMessage(message);
  return G_SOURCE_CONTINUE;
}

void Stream::OnMessage(GstMessage* message) {
  switch (GST_MESSAGE_TYPE(message)) {
    case GST_MESSAGE_ELEMENT:
      if (const GstStructure* s = cudahist_tools::AnalysisMessage(message)) OnFigures(s);
      else OnAudio(message);
      break;
    case GST_MESSAGE_WARNING:
      metrics_->decode_errors->Increment();
      EventLog::Say(config_.name, "warning: " + secrets_.Scrub(cudahist_tools::ErrorText(message)));
      break;
    case GST_MESSAGE_ERROR: {
      metrics_->decode_errors->Increment();
      const std::string refused = DecoderProblem();
      Fail(!refused.empty() ? refused
                            : SourceErrorHint(config_, message) + MissingDecoderText(message) +
                                  cudahist_tools::ErrorText(message));
      break;
    }
    case GST_MESSAGE_EOS:
      OnEndOfStream();
      break;
    default:
      break;
  }
}

void Stream::OnFigures(const GstStructure* s) {
  const double now = NowSeconds();
  guint frames = 0;
  guint64 duration = 0;
  gst_structure_get_uint(s, "frames", &frames);
  gst_structure_get_uint64(s, "duration", &duration);
  frames_ += frames;
  metrics_->frames->Increment(frames);
  // The stream's own rate over the interval; whether the monitor keeps up
  // with it is rate(cudahist_frames_total) against this.
  if (duration > 0) {
    frames_per_second_ = frames * double(GST_SECOND) / double(duration);
    metrics_->frame_rate->Set(frames_per_second_);
  }
  last_figures_at_ = now;
  if (state_ != StreamState::kUp) {
    if (state_ == StreamState::kDown || !last_error_.empty()) EventLog::Say(config_.name, "up again");
    else EventLog::Say(config_.name, "up");
    state_ = StreamState::kUp;
    ReleaseStartSlot();
    failed_since_up_ = false;
    up_since_ = now;
    metrics_->up->Set(1);
  }
  cudahist_tools::FrameFigures record;
  if (!cudahist_tools::ReadFrameFigures(s, &record).empty()) return;  // no signalstats: counts alone
  width_ = record.width;
  height_ = record.height;
  metrics_->width->Set(width_);
  metrics_->height->Set(height_);
  const auto& fields = cudahist_tools::FrameFigureFields();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!record.present[i]) continue;
    const std::string field = fields[i].message_field;
    figures_[field] = record.values[i];
    if (prometheus::Gauge* gauge = metrics_->Figure(field)) gauge->Set(record.values[i]);
  }
  const GstVideoFormatInfo* format = gst_video_format_get_info(gst_video_format_from_string(record.format.c_str()));
  depth_ = format ? GST_VIDEO_FORMAT_INFO_DEPTH(format, 0) : 8;
  metrics_->sample_depth->Set(depth_);
  has_figures_ = true;
  Evaluate(now);
}


void Stream::OnAudio(GstMessage* message) {
  if (cudahist_tools::ReadAudioLevels(message, &audio_levels_)) {
    last_audio_at_ = NowSeconds();
    audio_seen_ = true;
    metrics_->SetAudioLevels(audio_levels_.peak_dbfs, audio_levels_.rms_dbfs);
  } else if (cudahist_tools::ReadLoudness(message, &loudness_)) {
    metrics_->SetLoudness(loudness_.momentary_lufs, loudness_.short_term_lufs);
  }
}

bool Stream::AudioArrives(double now) const {
  // Two intervals without a level message: level posts one each interval.
  return audio_seen_ && state_ == StreamState::kUp && now - last_audio_at_ <= 2 * choice_.interval_seconds + 0.5;
}

void Stream::OnEndOfStream() {
  if (draining_) {
    drained_ = true;
    return;
  }
  if (config_.loop && pipeline_ &&
      gst_element_seek_simple(pipeline_, GST_FORMAT_TIME, GstSeekFlags(GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT), 0))
    return;
  if (SourceTypeOf(config_.uri).is_file && !config_.loop) {
    EventLog::Say(config_.name, "ended (end of the file)");
    Teardown();
    state_ = StreamState::kEnded;
    metrics_->up->Set(0);
    return;
  }
  Fail("the source ended the stream");
}

void Stream::Fail(const std::string& reason) {
  const double now = NowSeconds();
  if (state_ == StreamState::kUp && now - up_since_ >= kSteadyAfter) retry_delay_ = 1;
  Teardown();
  state_ = StreamState::kDown;
  failed_since_up_ = true;
  // Elements quote the URI they open in their errors.
  last_error_ = secrets_.Scrub(reason);
  has_figures_ = false;
  metrics_->up->Set(0);
  frames_per_second_ = 0;
  metrics_->frame_rate->Set(0);
  retry_at_ = now + retry_delay_;
  char delay[32];
  g_snprintf(delay, sizeof delay, "%.0f", retry_delay_);
  EventLog::Say(config_.name, "down: " + last_error_ + "; retrying in " + delay + " s");
  retry_delay_ = std::min(retry_delay_ * 2, kMaxRetryDelay);
  Evaluate(now);
}

void Stream::Drain() {
  draining_ = true;
  if (!pipeline_ || state_ == StreamState::kStarting) {
    drained_ = true;  // nothing flows yet: nothing to drain
    return;
  }
  // Into the analysis, not the sources: a demuxer that pulls from its
  // source (a file) ignores an EOS sent to it. The element posts its last
  // interval's figures, and the EOS comes out of the sinks.
  GstPad* pad = gst_element_get_static_pad(analysis_, "sink");
  gst_pad_send_event(pad, gst_event_new_eos());
  gst_object_unref(pad);
  cudahist_tools::EndAudioBranch(GST_BIN(pipeline_));
}

std::string Stream::SinksWithoutEos() const {
  std::string names;
  if (!pipeline_) return names;
  GstIterator* sinks = gst_bin_iterate_sinks(GST_BIN(pipeline_));
  GValue item = G_VALUE_INIT;
  while (gst_iterator_next(sinks, &item) == GST_ITERATOR_OK) {
    GstElement* sink = GST_ELEMENT(g_value_get_object(&item));
    GstPad* pad = gst_element_get_static_pad(sink, "sink");
    GstEvent* eos = pad ? gst_pad_get_sticky_event(pad, GST_EVENT_EOS, 0) : nullptr;
    if (eos) gst_event_unref(eos);
    else names += std::string(names.empty() ? "" : ", ") + GST_OBJECT_NAME(sink);
    if (pad) gst_object_unref(pad);
    g_value_reset(&item);
  }
  g_value_unset(&item);
  gst_iterator_free(sinks);
  return names;
}

void Stream::Tick(double now) {
  if (draining_) return;
  if (state_ == StreamState::kDown && now >= retry_at_) {
    ++reconnects_;
    metrics_->reconnects->Increment();
    EventLog::Say(config_.name, "reconnecting");
    Start(now);
  }
  if (waiting_for_start_) TryBegin(now);
  const bool up = state_ == StreamState::kUp;
  const bool started = state_ == StreamState::kStarting && !waiting_for_start_;  // a wait for its turn is no timeout
  const double since = up ? now - last_figures_at_ : now - started_at_;
  if ((up || started) && since > (up ? config_.stall_seconds : config_.start_seconds)) {
    char text[64];
    g_snprintf(text, sizeof text, up ? "no frames for %.0f s" : "no frame %.0f s after the start", since);
    Fail(text);
  }
  const std::pair<GstElement*, std::string*> pictures[] = {{scope_sink_, &scope_png_},
                                                           {thumbnail_sink_, &thumbnail_jpeg_}};
  for (const auto& [sink, picture] : pictures) {
    if (!sink) continue;
    std::string bytes = cudahist_tools::TakePicture(sink);
    if (!bytes.empty()) *picture = std::move(bytes);
  }
  Evaluate(now);
}

std::map<std::string, double> Stream::AlarmFigures() const {
  std::map<std::string, double> values;
  const std::map<std::string, double> audio = cudahist_tools::AudioFigures(audio_levels_, loudness_);
  for (const AlarmSpec& alarm : AlarmTable()) {
    const std::map<std::string, double>& source = alarm.watches == Watches::kAudio ? audio : figures_;
    for (const AlarmTest& test : alarm.any_of) {
      auto figure = source.find(test.figure);
      if (figure == source.end()) continue;
      const bool code_value = SpecOf(test.threshold).scale == Scale::kCodeValue8Bit;
      values[test.figure] = code_value ? To8Bit(figure->second, depth_) : figure->second;
    }
  }
  return values;
}

void Stream::Evaluate(double now) {
  // A draining stream's sources have stopped: no condition it meets now is
  // the stream's own, and shutdown clears what is raised.
  if (draining_) return;
  Observation o;
  // A first start is given its start-timeout before it counts as no signal;
  // a retry after a failure is still no signal.
  o.up = state_ == StreamState::kUp || (state_ == StreamState::kStarting && !failed_since_up_);
  o.picture = has_figures_;
  o.audio = AudioArrives(now);
  o.audio_expected = audio_seen_ || config_.audio == AudioMode::kRequired;
  o.figures = AlarmFigures();
  if (!o.audio) metrics_->audio_channels->Set(0);
  Report(alarms_.Observe(now, o));
  for (const AlarmSpec& a : AlarmTable()) metrics_->AlarmSecondsTo(a.alarm, alarms_.seconds_in(a.alarm, now));
}

void Stream::Report(const std::vector<AlarmChange>& changes) {
  for (const AlarmChange& change : changes) {
    metrics_->alarm_active[static_cast<int>(change.alarm)]->Set(change.raised ? 1 : 0);
    log_->Alarm(config_.name, change, change.alarm == Alarm::kNoSignal && change.raised ? last_error_ : "");
  }
}

void Stream::SetThresholds(const Thresholds& thresholds) {
  const double now = NowSeconds();
  Report(alarms_.SetThresholds(now, thresholds));
  config_.thresholds = thresholds;
  Evaluate(now);
}

void Stream::ClearAlarms(ClearReason reason) {
  const double now = NowSeconds();
  Report(alarms_.ClearAll(now, reason));
  for (const AlarmSpec& a : AlarmTable()) metrics_->AlarmSecondsTo(a.alarm, alarms_.seconds_in(a.alarm, now));
}

// The video decoder the pipeline plugged, noted from the streaming thread
// that adds it (decodebin's).
void Stream::OnElementAdded(GstBin*, GstBin*, GstElement* element, gpointer self) {
  GstElementFactory* factory = gst_element_get_factory(element);
  const char* klass = factory ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : nullptr;
  if (!klass || !std::strstr(klass, "Decoder") || !std::strstr(klass, "Video")) return;
  Stream* stream = static_cast<Stream*>(self);
  std::lock_guard<std::mutex> hold(stream->decoder_lock_);
  stream->decoder_ = GST_OBJECT_NAME(factory);
}

std::string Stream::DecoderWhy() const {
  if (!decoding_) return "";
  std::lock_guard<std::mutex> hold(decoding_->lock);
  return decoding_->why;
}

std::string Stream::DecoderProblem() const {
  if (!decoding_) return "";
  std::lock_guard<std::mutex> hold(decoding_->lock);
  return decoding_->problem.empty() ? "" : "video-decoder: " + decoding_->problem;
}

void Stream::AddStatus(JsonBuilder* b) const {
  json_builder_begin_object(b);
  auto member = [b](const char* name) { json_builder_set_member_name(b, name); };
  member("name");
  json_builder_add_string_value(b, config_.name.c_str());
  member("uri");
  json_builder_add_string_value(b, cudahist_tools::RedactUri(config_.uri).c_str());
  member("state");
  json_builder_add_string_value(b, StateName(state_));
  {
    std::lock_guard<std::mutex> hold(decoder_lock_);
    member("decoder");
    json_builder_add_string_value(b, decoder_.c_str());
  }
  member("decoder_why");
  json_builder_add_string_value(b, DecoderWhy().c_str());
  member("error");
  json_builder_add_string_value(b, state_ == StreamState::kUp ? "" : last_error_.c_str());
  member("frames");
  json_builder_add_int_value(b, gint64(frames_));
  member("fps");
  json_builder_add_double_value(b, frames_per_second_);
  member("width");
  json_builder_add_int_value(b, width_);
  member("height");
  json_builder_add_int_value(b, height_);
  member("reconnects");
  json_builder_add_int_value(b, gint64(reconnects_));
  member("scope");
  json_builder_add_boolean_value(b, !scope_png_.empty());
  member("thumbnail");
  json_builder_add_boolean_value(b, !thumbnail_jpeg_.empty());
  member("depth");
  json_builder_add_int_value(b, gint64(depth_));
  member("alarms");
  json_builder_begin_array(b);
  for (const ActiveAlarm& a : alarms_.Active(NowSeconds())) {
    json_builder_begin_object(b);
    member("alarm");
    json_builder_add_string_value(b, AlarmName(a.alarm));
    member("severity");
    json_builder_add_string_value(b, SeverityName(SpecOf(a.alarm).severity));
    member("id");
    json_builder_add_string_value(b, a.id.c_str());
    member("seconds");
    json_builder_add_double_value(b, a.seconds);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  member("audio");
  AddAudioStatus(b);
  member("figures");
  json_builder_begin_object(b);
  if (state_ == StreamState::kUp) {
    for (const auto& [field, value] : figures_) {
      member(field.c_str());
      if (std::isfinite(value)) json_builder_add_double_value(b, value);
      else json_builder_add_null_value(b);  // PSNR of equal fields is infinite; JSON has no infinity
    }
  }
  json_builder_end_object(b);
  json_builder_end_object(b);
}

void Stream::AddAudioStatus(JsonBuilder* b) const {
  if (!AudioArrives(NowSeconds())) {
    json_builder_add_null_value(b);
    return;
  }
  auto number = [b](double v) {
    if (std::isfinite(v)) json_builder_add_double_value(b, v);
    else json_builder_add_null_value(b);  // -inf LUFS of silence: JSON has no infinity
  };
  auto list = [b, &number](const char* name, const std::vector<double>& values) {
    json_builder_set_member_name(b, name);
    json_builder_begin_array(b);
    for (double v : values) number(v);
    json_builder_end_array(b);
  };
  json_builder_begin_object(b);
  list("peak_dbfs", audio_levels_.peak_dbfs);
  list("rms_dbfs", audio_levels_.rms_dbfs);
  json_builder_set_member_name(b, "momentary_lufs");
  number(loudness_.momentary_lufs);
  json_builder_set_member_name(b, "short_term_lufs");
  number(loudness_.short_term_lufs);
  json_builder_end_object(b);
}

}  // namespace monitor
