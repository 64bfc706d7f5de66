#include "metrics.h"

#include <prometheus/text_serializer.h>

#include "frame_figures.h"

namespace monitor {
namespace {

std::string MetricName(const std::string& field) {
  std::string name = "cudahist_" + field;
  for (char& c : name) c = c == '-' ? '_' : c;
  return name;
}

template <typename Builder>
auto& Register(Builder builder, const std::string& name, const std::string& help,
               prometheus::Registry& registry) {
  return builder.Name(name).Help(help).Register(registry);
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

prometheus::Gauge* StreamMetrics::Figure(const std::string& field) {
  auto it = figures_.find(field);
  if (it != figures_.end()) return it->second;
  auto family = figure_families_->find(field);
  if (family == figure_families_->end()) return nullptr;  // not a figure the monitor exports
  return figures_[field] = &family->second->Add(labels_);
}

void StreamMetrics::AlarmSecondsTo(Alarm a, double seconds) {
  const int i = static_cast<int>(a);
  if (seconds > alarm_seconds_seen_[i]) alarm_seconds[i]->Increment(seconds - alarm_seconds_seen_[i]);
  alarm_seconds_seen_[i] = seconds;
}

Metrics::Metrics()
    : registry_(std::make_shared<prometheus::Registry>()),
      up_(Register(prometheus::BuildGauge(), "cudahist_stream_up",
                   "1 while frames of the stream reach the cudahistogram element, else 0", *registry_)),
      fps_(Register(prometheus::BuildGauge(), "cudahist_frames_per_second",
                    "The stream's frame rate over the last interval (frames / duration of the element's message); rate(cudahist_frames_total) says whether the monitor keeps up", *registry_)),
      width_(Register(prometheus::BuildGauge(), "cudahist_width", "Width of the last frame, in pixels",
                      *registry_)),
      height_(Register(prometheus::BuildGauge(), "cudahist_height", "Height of the last frame, in pixels",
                       *registry_)),
      bit_depth_(Register(prometheus::BuildGauge(), "cudahist_bit_depth",
                          "Bits per luma sample of the stream's format (8, 10, ...): the figures' scale",
                          *registry_)),
      frames_(Register(prometheus::BuildCounter(), "cudahist_frames_total",
                       "Frames counted by the element (the messages' frames)", *registry_)),
      decode_errors_(Register(prometheus::BuildCounter(), "cudahist_decode_errors_total",
                              "Warnings and errors the stream's pipeline posted", *registry_)),
      reconnects_(Register(prometheus::BuildCounter(), "cudahist_reconnects_total",
                           "Times the stream's pipeline was started again after a failure", *registry_)),
      alarm_seconds_(Register(prometheus::BuildCounter(), "cudahist_alarm_seconds_total",
                              "Seconds the stream spent in each alarm", *registry_)) {
  for (const std::string& field : FigureFields()) {
    figures_[field] = &Register(prometheus::BuildGauge(), MetricName(field),
                                "signalstats " + field + " of the last frame of the last interval (the "
                                "cudahistogram message's '" + field + "')",
                                *registry_);
  }
  for (Alarm a : kAlarms) {
    alarm_[static_cast<int>(a)] = &Register(prometheus::BuildGauge(), MetricName(AlarmName(a)),
                                            std::string("1 while the stream is in its ") + AlarmName(a) +
                                                " alarm, else 0", *registry_);
  }
}

StreamMetrics* Metrics::Add(const std::string& stream) {
  Remove(stream);
  auto m = std::make_unique<StreamMetrics>();
  const prometheus::Labels labels = {{"stream", stream}};
  m->up = &up_.Add(labels);
  m->frames_per_second = &fps_.Add(labels);
  m->width = &width_.Add(labels);
  m->height = &height_.Add(labels);
  m->bit_depth = &bit_depth_.Add(labels);
  m->frames = &frames_.Add(labels);
  m->decode_errors = &decode_errors_.Add(labels);
  m->reconnects = &reconnects_.Add(labels);
  m->labels_ = labels;
  m->figure_families_ = &figures_;
  for (Alarm a : kAlarms) {
    const int i = static_cast<int>(a);
    m->alarm[i] = &alarm_[i]->Add(labels);
    m->alarm_seconds[i] = &alarm_seconds_.Add({{"stream", stream}, {"alarm", AlarmName(a)}});
  }
  StreamMetrics* result = m.get();
  streams_[stream] = std::move(m);
  return result;
}

void Metrics::Remove(const std::string& stream) {
  auto it = streams_.find(stream);
  if (it == streams_.end()) return;
  StreamMetrics& m = *it->second;
  up_.Remove(m.up);
  fps_.Remove(m.frames_per_second);
  width_.Remove(m.width);
  height_.Remove(m.height);
  bit_depth_.Remove(m.bit_depth);
  frames_.Remove(m.frames);
  decode_errors_.Remove(m.decode_errors);
  reconnects_.Remove(m.reconnects);
  for (auto& [field, gauge] : m.figures_) figures_.at(field)->Remove(gauge);
  for (int i = 0; i < kAlarmCount; ++i) {
    alarm_[i]->Remove(m.alarm[i]);
    alarm_seconds_.Remove(m.alarm_seconds[i]);
  }
  streams_.erase(it);
}

std::string Metrics::Exposition() const {
  return prometheus::TextSerializer().Serialize(registry_->Collect());
}

}  // namespace monitor
