#include "metrics.h"

#include <cstring>

#include <prometheus/text_serializer.h>

#include "frame_figures.h"

namespace monitor {

template <typename T>
using Family = prometheus::Family<T>;

struct MetricFamilies {
  explicit MetricFamilies(prometheus::Registry& r);
  Family<prometheus::Gauge>& up;
  Family<prometheus::Gauge>& frame_rate;
  Family<prometheus::Gauge>& width;
  Family<prometheus::Gauge>& height;
  Family<prometheus::Gauge>& sample_depth;
  Family<prometheus::Counter>& frames;
  Family<prometheus::Counter>& decode_errors;
  Family<prometheus::Counter>& reconnects;
  Family<prometheus::Gauge>& alarm_active;
  Family<prometheus::Counter>& alarm_seconds;
  Family<prometheus::Gauge>& audio_channels;
  Family<prometheus::Gauge>& audio_peak;
  Family<prometheus::Gauge>& audio_rms;
  Family<prometheus::Gauge>& momentary;
  Family<prometheus::Gauge>& short_term;
  std::map<std::string, Family<prometheus::Gauge>*> figures;  // by message field
};

namespace {

Family<prometheus::Gauge>& Gauge(prometheus::Registry& r, const std::string& name, const std::string& help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(r);
}

Family<prometheus::Counter>& Counter(prometheus::Registry& r, const std::string& name, const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(r);
}

const cudahist_tools::FigureField* FieldNamed(const std::string& field) {
  for (const cudahist_tools::FigureField& f : cudahist_tools::FrameFigureFields())
    if (field == f.message_field) return &f;
  return nullptr;
}

template <typename T>
void RemoveSeries(Family<T>& family, T*& series) {
  if (series) family.Remove(series);
  series = nullptr;
}

}  // namespace

std::vector<std::string> FigureFields() {
  std::vector<std::string> fields;
  for (const cudahist_tools::FigureField& f : cudahist_tools::FrameFigureFields()) {
    if (f.filter == cudahist_tools::FigureFilter::kSignalStats && !g_str_has_suffix(f.message_field, "-bitdepth"))
      fields.push_back(f.message_field);
  }
  return fields;
}

// Prometheus names a figure's unit in its suffix: fractions are ratios,
// hues degrees; code values are on the frame's own scale and have none.
const char* PrometheusUnit(const cudahist_tools::FigureField* f) {
  if (!f || !f->unit) return nullptr;
  if (std::strcmp(f->unit, "fraction of the pixels") == 0) return "ratio";
  if (std::strcmp(f->unit, "degree") == 0) return "degrees";
  return nullptr;
}

std::string FigureMetricName(const std::string& field) {
  std::string name = "cudahist_" + field;
  if (const char* unit = PrometheusUnit(FieldNamed(field))) name += std::string("_") + unit;
  for (char& c : name) c = c == '-' ? '_' : c;
  return name;
}

MetricFamilies::MetricFamilies(prometheus::Registry& r)
    : up(Gauge(r, "cudahist_stream_up", "1 while frames of the stream reach the cudahistogram element, else 0")),
      frame_rate(Gauge(r, "cudahist_frame_rate_hertz",
                       "The stream's frame rate over the last interval (frames / duration of the element's message); "
                       "rate(cudahist_frames_total) says whether the monitor keeps up")),
      width(Gauge(r, "cudahist_frame_width_pixels", "Width of the last frame")),
      height(Gauge(r, "cudahist_frame_height_pixels", "Height of the last frame")),
      sample_depth(Gauge(r, "cudahist_sample_depth_bits",
                         "Bits per luma sample of the stream's format (8, 10, ...): the scale of the code-value figures")),
      frames(Counter(r, "cudahist_frames_total", "Frames counted by the element (the messages' frames)")),
      decode_errors(Counter(r, "cudahist_decode_errors_total", "Warnings and errors the stream's pipeline posted")),
      reconnects(Counter(r, "cudahist_reconnects_total", "Times the stream's pipeline was started again after a failure")),
      alarm_active(Gauge(r, "cudahist_alarm_active", "1 while the stream's alarm (label alarm) is raised, else 0")),
      alarm_seconds(Counter(r, "cudahist_alarm_seconds_total", "Seconds the stream spent in each alarm")),
      audio_channels(Gauge(r, "cudahist_audio_channels",
                           "Channels of the stream's audio in the last interval; 0 while none arrives")),
      audio_peak(Gauge(r, "cudahist_audio_peak_dbfs", "Peak level of a channel over the last interval (GStreamer's level)")),
      audio_rms(Gauge(r, "cudahist_audio_rms_dbfs", "RMS level of a channel over the last interval (GStreamer's level)")),
      momentary(Gauge(r, "cudahist_audio_momentary_lufs", "EBU R128 momentary loudness (400 ms window, libebur128)")),
      short_term(Gauge(r, "cudahist_audio_short_term_lufs", "EBU R128 short-term loudness (3 s window, libebur128)")) {
  for (const std::string& field : FigureFields()) {
    figures[field] = &Gauge(r, FigureMetricName(field),
                            "signalstats " + field + " of the last frame of the last interval (the cudahistogram "
                            "message's '" + field + "')");
  }
}

prometheus::Gauge* StreamMetrics::Figure(const std::string& field) {
  auto it = figures_.find(field);
  if (it != figures_.end()) return it->second;
  auto family = families_->figures.find(field);
  if (family == families_->figures.end()) return nullptr;  // not a figure the monitor exports
  return figures_[field] = &family->second->Add(labels_);
}

void StreamMetrics::AlarmSecondsTo(Alarm a, double seconds) {
  const int i = static_cast<int>(a);
  if (seconds > alarm_seconds_seen_[i]) alarm_seconds[i]->Increment(seconds - alarm_seconds_seen_[i]);
  alarm_seconds_seen_[i] = seconds;
}

void StreamMetrics::SetAudioLevels(const std::vector<double>& peak_dbfs, const std::vector<double>& rms_dbfs) {
  for (size_t c = peak_.size(); c < peak_dbfs.size(); ++c) {
    prometheus::Labels labels = labels_;
    labels["channel"] = std::to_string(c);
    peak_.push_back(&families_->audio_peak.Add(labels));
    rms_.push_back(&families_->audio_rms.Add(labels));
  }
  for (size_t c = 0; c < peak_dbfs.size(); ++c) {
    peak_[c]->Set(peak_dbfs[c]);
    rms_[c]->Set(c < rms_dbfs.size() ? rms_dbfs[c] : peak_dbfs[c]);
  }
  audio_channels->Set(double(peak_dbfs.size()));
}

void StreamMetrics::SetLoudness(double momentary_lufs, double short_term_lufs) {
  if (!momentary_) {
    momentary_ = &families_->momentary.Add(labels_);
    short_term_ = &families_->short_term.Add(labels_);
  }
  momentary_->Set(momentary_lufs);
  short_term_->Set(short_term_lufs);
}

void StreamMetrics::RemoveAll() {
  MetricFamilies& f = *families_;
  RemoveSeries(f.up, up);
  RemoveSeries(f.frame_rate, frame_rate);
  RemoveSeries(f.width, width);
  RemoveSeries(f.height, height);
  RemoveSeries(f.sample_depth, sample_depth);
  RemoveSeries(f.frames, frames);
  RemoveSeries(f.decode_errors, decode_errors);
  RemoveSeries(f.reconnects, reconnects);
  RemoveSeries(f.audio_channels, audio_channels);
  RemoveSeries(f.momentary, momentary_);
  RemoveSeries(f.short_term, short_term_);
  for (auto& [field, gauge] : figures_) f.figures.at(field)->Remove(gauge);
  for (prometheus::Gauge* g : peak_) f.audio_peak.Remove(g);
  for (prometheus::Gauge* g : rms_) f.audio_rms.Remove(g);
  for (int i = 0; i < kAlarmCount; ++i) {
    RemoveSeries(f.alarm_active, alarm_active[i]);
    RemoveSeries(f.alarm_seconds, alarm_seconds[i]);
  }
}

Metrics::Metrics()
    : registry_(std::make_shared<prometheus::Registry>()), families_(std::make_unique<MetricFamilies>(*registry_)) {}

Metrics::~Metrics() = default;

StreamMetrics* Metrics::Add(const std::string& stream) {
  Remove(stream);
  auto m = std::make_unique<StreamMetrics>();
  const prometheus::Labels labels = {{"stream", stream}};
  MetricFamilies& f = *families_;
  m->labels_ = labels;
  m->families_ = &f;
  m->up = &f.up.Add(labels);
  m->frame_rate = &f.frame_rate.Add(labels);
  m->width = &f.width.Add(labels);
  m->height = &f.height.Add(labels);
  m->sample_depth = &f.sample_depth.Add(labels);
  m->frames = &f.frames.Add(labels);
  m->decode_errors = &f.decode_errors.Add(labels);
  m->reconnects = &f.reconnects.Add(labels);
  m->audio_channels = &f.audio_channels.Add(labels);
  for (const AlarmSpec& a : AlarmTable()) {
    const int i = static_cast<int>(a.alarm);
    const prometheus::Labels alarm_labels = {{"stream", stream}, {"alarm", a.name}};
    m->alarm_active[i] = &f.alarm_active.Add(alarm_labels);
    m->alarm_seconds[i] = &f.alarm_seconds.Add(alarm_labels);
  }
  StreamMetrics* result = m.get();
  streams_[stream] = std::move(m);
  return result;
}

void Metrics::Remove(const std::string& stream) {
  auto it = streams_.find(stream);
  if (it == streams_.end()) return;
  it->second->RemoveAll();
  streams_.erase(it);
}

std::string Metrics::Exposition() const {
  return prometheus::TextSerializer().Serialize(registry_->Collect());
}

}  // namespace monitor
