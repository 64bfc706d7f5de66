// The monitor's Prometheus metrics (prometheus-cpp): one family per metric,
// one series per stream (label `stream`), the alarms by `alarm`, audio levels
// by `channel`. Names follow Prometheus' conventions: the unit as a suffix
// (_hertz, _pixels, _bits, _ratio, _dbfs, _lufs, _seconds), _total on
// counters. No label takes a value per frame: a stream's series are fixed
// once its figures and channels are known.
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
// (tools/common's FrameFigureFields of signalstats, the bit depths aside).
std::vector<std::string> FigureFields();
// A field's metric: cudahist_<field with '_' for '-'>[_<unit>], e.g.
// cudahist_y_avg, cudahist_brng_ratio.
std::string FigureMetricName(const std::string& field);

struct MetricFamilies;

// One stream's series. Counters only go up: the *To() calls add what a
// running total gained since the last call.
class StreamMetrics {
 public:
  prometheus::Gauge* up = nullptr;
  prometheus::Gauge* frame_rate = nullptr;
  prometheus::Gauge* width = nullptr;
  prometheus::Gauge* height = nullptr;
  prometheus::Gauge* sample_depth = nullptr;
  prometheus::Counter* frames = nullptr;
  prometheus::Counter* decode_errors = nullptr;
  prometheus::Counter* reconnects = nullptr;
  prometheus::Gauge* audio_channels = nullptr;
  std::array<prometheus::Gauge*, kAlarmCount> alarm_active{};
  std::array<prometheus::Counter*, kAlarmCount> alarm_seconds{};

  // The gauge of a message field, created when the field first comes (a
  // figure this element does not post is absent, not a misleading 0);
  // nullptr for a field the monitor does not export.
  prometheus::Gauge* Figure(const std::string& field);
  void AlarmSecondsTo(Alarm alarm, double seconds);
  // Per-channel peak and RMS levels (dBFS) of the last interval; a channel's
  // series appear when it first comes.
  void SetAudioLevels(const std::vector<double>& peak_dbfs, const std::vector<double>& rms_dbfs);
  // EBU R128 momentary and short-term loudness (LUFS).
  void SetLoudness(double momentary_lufs, double short_term_lufs);

 private:
  friend class Metrics;
  void RemoveAll();
  prometheus::Labels labels_;
  MetricFamilies* families_ = nullptr;
  std::map<std::string, prometheus::Gauge*> figures_;  // by message field
  std::array<double, kAlarmCount> alarm_seconds_seen_{};
  std::vector<prometheus::Gauge*> peak_, rms_;  // by channel
  prometheus::Gauge* momentary_ = nullptr;
  prometheus::Gauge* short_term_ = nullptr;
};

class Metrics {
 public:
  Metrics();
  ~Metrics();
  // The series of `stream`, created at zero.
  StreamMetrics* Add(const std::string& stream);
  // Removes them from the exposition.
  void Remove(const std::string& stream);
  // The text exposition format of every series.
  std::string Exposition() const;

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<MetricFamilies> families_;
  std::map<std::string, std::unique_ptr<StreamMetrics>> streams_;
};

}  // namespace monitor
