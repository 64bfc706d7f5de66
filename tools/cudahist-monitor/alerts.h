// The alarms the monitor raises from a stream's figures, kept apart from any
// pipeline so that they are tested on plain values (tests/alerts_test.cc).
//
// Every alarm has a condition on the last interval's figures (or on the
// stream being down), a hold time the condition must last before the alarm is
// raised, and a clear time it must stay away before the alarm clears: a
// picture that flickers around a threshold raises one alarm, not one a frame.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace monitor {

enum class Alarm { kBlack, kFrozen, kNoSignal, kLumaRange, kBroadcastRange, kSaturation };
constexpr int kAlarmCount = 6;
constexpr std::array<Alarm, kAlarmCount> kAlarms = {Alarm::kBlack,     Alarm::kFrozen,
                                                    Alarm::kNoSignal,  Alarm::kLumaRange,
                                                    Alarm::kBroadcastRange, Alarm::kSaturation};

// "black", "frozen", "no_signal", "luma_out_of_range", "brng_high",
// "saturation_high": the alarm's name in JSON lines, in its metric
// (cudahist_<name>) and in the alerting-rules file; its config key
// <name>-hold with '-' for '_'.
const char* AlarmName(Alarm alarm);
std::string HoldKey(Alarm alarm);

// Thresholds in 8-bit code values (figures of deeper samples are scaled down
// to 8 bits before they are compared), times in seconds.
struct Thresholds {
  double black_luma = 32;       // black: YHIGH (90% of luma) at or below this
  double frozen_ydif = 0.02;    // frozen: YDIF (mean luma change to the previous frame) at or below this
  double luma_min = 16;         // luma range: YLOW (10% of luma) below this...
  double luma_max = 235;        // ...or YHIGH above this
  double brng_max = 0.01;       // brng: more than this fraction of pixels outside broadcast range
  double saturation_max = 118;  // saturation: SATHIGH (10% of pixels) above this
  std::array<double, kAlarmCount> hold = {2, 5, 2, 5, 5, 5};  // per Alarm, in kAlarms' order
  double clear = 2;             // every alarm: seconds its condition must stay away
};

// Returns "" when the thresholds make sense, else what is wrong.
std::string ValidateThresholds(const Thresholds& t);

// The figures the alarms read: the last frame of an interval, as the
// cudahistogram message carries them, scaled to 8 bits.
struct Figures {
  double y_low = 0, y_high = 0, y_dif = 0, brng = 0, sat_high = 0;
};

struct Observation {
  bool up = false;           // frames arrive
  bool has_figures = false;  // `figures` are this interval's
  Figures figures;
};

struct AlarmChange {
  Alarm alarm;
  bool raised;          // false: cleared
  double duration = 0;  // of the alarm, when cleared
};

// One stream's alarms over time. `now` is a monotonic time in seconds.
class AlarmTracker {
 public:
  explicit AlarmTracker(const Thresholds& thresholds) : thresholds_(thresholds) {}

  std::vector<AlarmChange> Observe(double now, const Observation& observation);

  bool active(Alarm alarm) const { return state(alarm).active; }
  // Seconds spent in the alarm so far, the current one included.
  double seconds_in(Alarm alarm, double now) const;
  const Thresholds& thresholds() const { return thresholds_; }

 private:
  struct State {
    bool active = false;
    bool condition = false;
    double condition_since = 0;  // when the condition last changed
    double active_since = 0;
    double closed_seconds = 0;   // of alarms already cleared
  };
  State& state(Alarm alarm) { return states_[static_cast<int>(alarm)]; }
  const State& state(Alarm alarm) const { return states_[static_cast<int>(alarm)]; }
  bool Condition(Alarm alarm, const Observation& o) const;

  Thresholds thresholds_;
  std::array<State, kAlarmCount> states_{};
};

}  // namespace monitor
