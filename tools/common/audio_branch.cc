#include "audio_branch.h"

#include <ebur128.h>
#include <gst/audio/audio.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace cudahist_tools {
namespace {

constexpr const char* kLevelName = "audio_level";
constexpr const char* kQueueName = "audio_queue";
constexpr const char* kLoudnessMessage = "cudahist-loudness";

struct Ebur128Deleter {
  void operator()(ebur128_state* s) const { ebur128_destroy(&s); }
};

// BS.1770's channel weights as FFmpeg's ebur128 filter gives them: the LFE
// left out, the surround and rear channels at 1.41, every other channel at 1.
int Ebur128Channel(GstAudioChannelPosition position) {
  switch (position) {
    case GST_AUDIO_CHANNEL_POSITION_LFE1:
    case GST_AUDIO_CHANNEL_POSITION_LFE2:
      return EBUR128_UNUSED;
    case GST_AUDIO_CHANNEL_POSITION_REAR_LEFT:
    case GST_AUDIO_CHANNEL_POSITION_SIDE_LEFT:
    case GST_AUDIO_CHANNEL_POSITION_TOP_REAR_LEFT:
    case GST_AUDIO_CHANNEL_POSITION_SURROUND_LEFT:
    case GST_AUDIO_CHANNEL_POSITION_REAR_CENTER:
    case GST_AUDIO_CHANNEL_POSITION_TOP_REAR_CENTER:
      return EBUR128_LEFT_SURROUND;
    case GST_AUDIO_CHANNEL_POSITION_REAR_RIGHT:
    case GST_AUDIO_CHANNEL_POSITION_SIDE_RIGHT:
    case GST_AUDIO_CHANNEL_POSITION_TOP_REAR_RIGHT:
    case GST_AUDIO_CHANNEL_POSITION_SURROUND_RIGHT:
      return EBUR128_RIGHT_SURROUND;
    default:
      return EBUR128_CENTER;
  }
}

// The probe's state, on the streaming thread only.
class LoudnessMeter {
 public:
  explicit LoudnessMeter(GstClockTime interval) : interval_(interval) {}

  void SetCaps(GstCaps* caps) {
    GstAudioInfo info;
    if (!gst_audio_info_from_caps(&info, caps) || GST_AUDIO_INFO_FORMAT(&info) != GST_AUDIO_FORMAT_F32) return;
    channels_ = GST_AUDIO_INFO_CHANNELS(&info);
    rate_ = GST_AUDIO_INFO_RATE(&info);
    state_.reset(ebur128_init(channels_, rate_, EBUR128_MODE_S));
    for (int c = 0; state_ && c < channels_; ++c)
      ebur128_set_channel(state_.get(), c, channels_ == 1 ? EBUR128_CENTER : Ebur128Channel(info.position[c]));
    interval_frames_ = std::max<guint64>(1, gst_util_uint64_scale_round(interval_, rate_, GST_SECOND));
    in_interval_ = 0;
  }

  // Adds the buffer's frames, posting a message from `element` at each interval's end.
  void Add(GstElement* element, GstBuffer* buffer) {
    if (!state_) return;
    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return;
    const float* samples = reinterpret_cast<const float*>(map.data);
    guint64 frames = map.size / (sizeof(float) * channels_);
    while (frames > 0) {
      const guint64 take = std::min(frames, interval_frames_ - in_interval_);
      ebur128_add_frames_float(state_.get(), samples, take);
      samples += take * channels_;
      frames -= take;
      in_interval_ += take;
      total_ += take;
      if (in_interval_ == interval_frames_) {
        Post(element);
        in_interval_ = 0;
      }
    }
    gst_buffer_unmap(buffer, &map);
  }

 private:
  void Post(GstElement* element) {
    double momentary = -HUGE_VAL, short_term = -HUGE_VAL;
    ebur128_loudness_momentary(state_.get(), &momentary);
    ebur128_loudness_shortterm(state_.get(), &short_term);
    GstStructure* s = gst_structure_new(kLoudnessMessage, "momentary-lufs", G_TYPE_DOUBLE, momentary,
                                        "short-term-lufs", G_TYPE_DOUBLE, short_term, "end-sample", G_TYPE_UINT64,
                                        total_, "rate", G_TYPE_INT, rate_, nullptr);
    gst_element_post_message(element, gst_message_new_element(GST_OBJECT(element), s));
  }

  GstClockTime interval_;
  std::unique_ptr<ebur128_state, Ebur128Deleter> state_;
  int channels_ = 0, rate_ = 0;
  guint64 interval_frames_ = 1, in_interval_ = 0, total_ = 0;
};

GstPadProbeReturn MeasureLoudness(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  auto* meter = static_cast<LoudnessMeter*>(data);
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    GstElement* element = gst_pad_get_parent_element(pad);
    meter->Add(element, GST_PAD_PROBE_INFO_BUFFER(info));
    if (element) gst_object_unref(element);
  } else if (GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) == GST_EVENT_CAPS) {
    GstCaps* caps = nullptr;
    gst_event_parse_caps(GST_PAD_PROBE_INFO_EVENT(info), &caps);
    meter->SetCaps(caps);
  }
  return GST_PAD_PROBE_OK;
}

// The doubles of a level message field: a GValueArray (GStreamer 1.22 to
// 1.26 post one) or a GstValueArray.
std::vector<double> Doubles(const GstStructure* s, const char* field) {
  std::vector<double> values;
  const GValue* list = gst_structure_get_value(s, field);
  if (!list) return values;
  if (GST_VALUE_HOLDS_ARRAY(list)) {
    for (guint i = 0; i < gst_value_array_get_size(list); ++i)
      values.push_back(g_value_get_double(gst_value_array_get_value(list, i)));
    return values;
  }
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (G_VALUE_HOLDS_BOXED(list)) {  // a GValueArray, the only boxed array level posts
    GValueArray* array = static_cast<GValueArray*>(g_value_get_boxed(list));
    for (guint i = 0; array && i < array->n_values; ++i)
      values.push_back(g_value_get_double(g_value_array_get_nth(array, i)));
  }
  G_GNUC_END_IGNORE_DEPRECATIONS
  return values;
}

double Loudest(const std::vector<double>& values) {
  return values.empty() ? -HUGE_VAL : *std::max_element(values.begin(), values.end());
}

}  // namespace

GstPad* AddAudioBranch(GstBin* pipeline, const AudioBranchOptions& options, std::string* problem) {
  const char* factories[] = {"queue", "audioconvert", "capsfilter", "level", "identity", "fakesink"};
  const char* names[] = {kQueueName, "audio_convert", "audio_format", kLevelName, "loudness", "audio_sink"};
  GstElement* e[6] = {};
  for (int i = 0; i < 6; ++i) {
    e[i] = gst_element_factory_make(factories[i], names[i]);
    if (!e[i]) {
      *problem = std::string("the GStreamer element '") + factories[i] + "' is missing";
      for (GstElement* made : e)
        if (made) gst_object_unref(gst_object_ref_sink(made));
      return nullptr;
    }
  }
  GstElement *queue = e[0], *format = e[2], *level = e[3], *loudness = e[4], *sink = e[5];
  GstCaps* f32 = gst_caps_from_string("audio/x-raw,format=F32LE,layout=interleaved");
  g_object_set(format, "caps", f32, nullptr);
  gst_caps_unref(f32);
  g_object_set(level, "interval", guint64(options.interval), "post-messages", TRUE, nullptr);
  // A second of audio at most waits here: the meters are not worth holding the demuxer back.
  g_object_set(queue, "max-size-time", guint64(GST_SECOND), "max-size-buffers", 0, "max-size-bytes", 0, nullptr);
  // A synced sink outside the preroll keeps PLAYING through a looped file's
  // flushing seek: it would render the new pass's first seconds at once
  // against the old base time, then wait as long (a gap in the meters as
  // long as the video took to preroll).
  g_object_set(sink, "sync", gboolean(options.sync), "async", gboolean(options.prerolls), nullptr);
  for (GstElement* element : e) gst_bin_add(pipeline, element);
  if (!gst_element_link_many(queue, e[1], format, level, loudness, sink, nullptr)) {
    *problem = "cannot link queue ! audioconvert ! capsfilter ! level ! identity ! fakesink";
    for (GstElement* element : e) gst_bin_remove(pipeline, element);
    return nullptr;
  }
  GstPad* measured = gst_element_get_static_pad(loudness, "sink");
  gst_pad_add_probe(measured, GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM),
                    MeasureLoudness, new LoudnessMeter(options.interval),
                    [](gpointer data) { delete static_cast<LoudnessMeter*>(data); });
  gst_object_unref(measured);
  // Sink first: no element pushes into one not yet started.
  for (int i = 5; i >= 0; --i) gst_element_sync_state_with_parent(e[i]);
  return gst_element_get_static_pad(queue, "sink");
}

void EndAudioBranch(GstBin* pipeline) {
  GstElement* queue = gst_bin_get_by_name(pipeline, kQueueName);
  if (!queue) return;
  GstPad* pad = gst_element_get_static_pad(queue, "sink");
  gst_pad_send_event(pad, gst_event_new_eos());
  gst_object_unref(pad);
  gst_object_unref(queue);
}

bool ReadAudioLevels(GstMessage* message, AudioLevels* levels) {
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT || !GST_MESSAGE_SRC(message) ||
      g_strcmp0(GST_OBJECT_NAME(GST_MESSAGE_SRC(message)), kLevelName) != 0)
    return false;
  const GstStructure* s = gst_message_get_structure(message);
  if (!s || !gst_structure_has_name(s, "level")) return false;
  levels->peak_dbfs = Doubles(s, "peak");
  levels->rms_dbfs = Doubles(s, "rms");
  return true;
}

bool ReadLoudness(GstMessage* message, Loudness* loudness) {
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return false;
  const GstStructure* s = gst_message_get_structure(message);
  if (!s || !gst_structure_has_name(s, kLoudnessMessage)) return false;
  gst_structure_get_double(s, "momentary-lufs", &loudness->momentary_lufs);
  gst_structure_get_double(s, "short-term-lufs", &loudness->short_term_lufs);
  gst_structure_get_uint64(s, "end-sample", &loudness->end_sample);
  gst_structure_get_int(s, "rate", &loudness->rate);
  return true;
}

std::map<std::string, double> AudioFigures(const AudioLevels& levels, const Loudness& loudness) {
  return {{"peak-dbfs-max", Loudest(levels.peak_dbfs)},
          {"rms-dbfs-max", Loudest(levels.rms_dbfs)},
          {"momentary-lufs", loudness.momentary_lufs},
          {"short-term-lufs", loudness.short_term_lufs}};
}

}  // namespace cudahist_tools
