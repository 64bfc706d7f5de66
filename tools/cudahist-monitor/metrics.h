// The monitor's Prometheus metrics (prometheus-cpp): one family per metric,
// one series per stream (label `stream`), the alarms' time by `alarm`. No
// label takes a value per frame: the series are fixed when a stream is added.
#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "alerts.h"

namespace monitor {

// The signalstats fields of the cudahistogram message the monitor exports
// (tools/common's FrameFigureFields of signalstats, the bit depths aside),
// each as the gauge cudahist_<field with '_' for '-'>.
std::vector<std::string> FigureFields();

// One stream's series. Counters only go up: the *To() calls add what a
// running total gained since the last call.
class StreamMetrics {
 public:
  prometheus::Gauge* up = nullptr;
  prometheus::Gauge* frames_per_second = nullptr;
  prometheus::Gauge* width = nullptr;
  prometheus::Gauge* height = nullptr;
  prometheus::Gauge* bit_depth = nullptr;
  prometheus::Counter* frames = nullptr;
  prometheus::Counter* decode_errors = nullptr;
  prometheus::Counter* reconnects = nullptr;
  // The gauge of a message field, created when the field first comes (a
  // figure this element does not post is absent, not a misleading 0);
  // nullptr for a field the monitor does not export.
  prometheus::Gauge* Figure(const std::string& field);
  std::array<prometheus::Gauge*, kAlarmCount> alarm{};
  std::array<prometheus::Counter*, kAlarmCount> alarm_seconds{};

  void AlarmSecondsTo(Alarm alarm, double seconds);

 private:
  friend class Metrics;
  prometheus::Labels labels_;
  std::map<std::string, prometheus::Family<prometheus::Gauge>*>* figure_families_ = nullptr;
  std::map<std::string, prometheus::Gauge*> figures_;  // by message field
  std::array<double, kAlarmCount> alarm_seconds_seen_{};
};

class Metrics {
 public:
  Metrics();
  // The series of `stream`, created at zero.
  StreamMetrics* Add(const std::string& stream);
  // Removes them from the exposition.
  void Remove(const std::string& stream);
  // The text exposition format of every series.
  std::string Exposition() const;

 private:
  template <typename T>
  using Family = prometheus::Family<T>;
  std::shared_ptr<prometheus::Registry> registry_;
  Family<prometheus::Gauge>& up_;
  Family<prometheus::Gauge>& fps_;
  Family<prometheus::Gauge>& width_;
  Family<prometheus::Gauge>& height_;
  Family<prometheus::Gauge>& bit_depth_;
  Family<prometheus::Counter>& frames_;
  Family<prometheus::Counter>& decode_errors_;
  Family<prometheus::Counter>& reconnects_;
  std::map<std::string, Family<prometheus::Gauge>*> figures_;
  std::array<Family<prometheus::Gauge>*, kAlarmCount> alarm_{};
  Family<prometheus::Counter>& alarm_seconds_;
  std::map<std::string, std::unique_ptr<StreamMetrics>> streams_;
};

}  // namespace monitor
