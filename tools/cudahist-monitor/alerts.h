// The alarms the monitor raises from a stream's figures, kept apart from any
// pipeline so that they are tested on plain values (tests/rules_test.cc).
//
// Every alarm is a row of one table (AlarmTable): the figures it reads by
// their message names, the thresholds it compares them with, a hold time the
// condition must last before the alarm is raised, and a clear time it must
// stay away before the alarm clears: a picture that flickers around a
// threshold raises one alarm, not one a frame. The config keys, the metrics'
// `alarm` label, the JSON lines and the status page all derive from it.
//
// Each raised alarm is an event with an id of its own, cleared exactly once:
// when its condition ends (recovered), when its stream loses its signal
// (no_signal), when a reload changes its rule or removes its stream, and at
// shutdown.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

namespace monitor {

enum class Alarm {
  kNoSignal, kBlack, kFrozen, kLumaRange, kBroadcastRange, kSaturation, kAudioLoss, kSilence, kLoudness
};
constexpr int kAlarmCount = 9;

// The config's thresholds; each alarm test names one.
enum class Threshold {
  kBlackLuma, kFrozenYdif, kLumaMin, kLumaMax, kBrngMax, kSaturationMax, kSilenceLevel, kLoudnessMin, kLoudnessMax
};
constexpr int kThresholdCount = 9;

// What a threshold and the figure it is compared with are measured in.
enum class Scale {
  kCodeValue8Bit,  // video code values, figures of deeper samples scaled down to 8 bits
  kRatio,          // a fraction of the pixels, 0 to 1
  kDbfs,           // audio level, decibels relative to full scale
  kLufs,           // EBU R128 loudness
};
const char* ScaleName(Scale scale);  // "8-bit code value", "ratio", "dBFS", "LUFS"

struct ThresholdSpec {
  Threshold threshold;
  const char* key;  // the config key
  double default_value;
  double min, max;  // the values the config accepts (config.cc reads them with these)
  Scale scale;
};
const std::array<ThresholdSpec, kThresholdCount>& ThresholdTable();
const ThresholdSpec& SpecOf(Threshold threshold);

// What an alarm's condition watches.
enum class Watches {
  kSignal,        // the stream: no frames (its tests are empty)
  kPicture,       // figures of the cudahistogram message
  kAudioPresent,  // the stream's audio: none arrives while its picture does (tests empty)
  kAudio,         // figures of the audio branch
};

enum class Compare { kAtOrBelow, kBelow, kAbove };
const char* CompareSymbol(Compare compare);  // "<=", "<", ">"

// One comparison of a figure, by its message name, with a threshold.
struct AlarmTest {
  const char* figure;  // "y-high", "rms-dbfs-max", ...
  Compare compare;
  Threshold threshold;
};

enum class Severity { kCritical, kWarning };
const char* SeverityName(Severity severity);  // "critical", "warning"

struct AlarmSpec {
  Alarm alarm;
  const char* name;  // in JSON lines, the metrics' `alarm` label and the rules; keys <name>-hold, <name>-clear
  Severity severity;
  Watches watches;
  std::vector<AlarmTest> any_of;  // the condition: any of these holds
  double default_hold, default_clear;  // seconds
  // Not evaluated while this alarm is raised (silent audio is also too
  // quiet: one alarm says so); the alarm itself where nothing masks it.
  Alarm masked_by;
  const char* meaning;  // for --help and the docs
};
const std::array<AlarmSpec, kAlarmCount>& AlarmTable();
const AlarmSpec& SpecOf(Alarm alarm);
const char* AlarmName(Alarm alarm);
std::string HoldKey(Alarm alarm);   // "black-hold", "no-signal-hold", ...
std::string ClearKey(Alarm alarm);  // "black-clear", ...

// A stream's thresholds and times, defaults from the tables.
struct Thresholds {
  Thresholds();
  std::array<double, kThresholdCount> value;
  std::array<double, kAlarmCount> hold, clear;
  double& operator[](Threshold t) { return value[static_cast<int>(t)]; }
  double operator[](Threshold t) const { return value[static_cast<int>(t)]; }
  double& hold_of(Alarm a) { return hold[static_cast<int>(a)]; }
  double& clear_of(Alarm a) { return clear[static_cast<int>(a)]; }
  bool operator==(const Thresholds& o) const { return value == o.value && hold == o.hold && clear == o.clear; }
  bool operator!=(const Thresholds& o) const { return !(*this == o); }
  // Whether `alarm` is judged the same way under both.
  bool SameRule(const Thresholds& o, Alarm alarm) const;
};

// What is wrong with a set of thresholds taken together (each value's range
// is the config's to check, from the table), naming the keys to blame.
struct ThresholdProblem {
  std::vector<std::string> keys;  // empty when they make sense
  std::string text;               // "luma-min (30) must be below luma-max (20)", ...
};
ThresholdProblem ValidateThresholds(const Thresholds& t);

// One interval's view of a stream.
struct Observation {
  bool up = false;             // frames arrive
  bool picture = false;        // `figures` hold the picture's figures
  bool audio_expected = false; // the stream carries audio (or did): its absence is an alarm
  bool audio = false;          // audio figures came within the last interval: `figures` hold them
  // By the tests' figure names, in their threshold's scale (video code
  // values scaled to 8 bits).
  std::map<std::string, double> figures;
};

// Why an alarm cleared.
enum class ClearReason { kRecovered, kNoSignal, kRuleChanged, kStreamRemoved, kStreamReconfigured, kShutdown };
const char* ClearReasonName(ClearReason reason);  // "recovered", "no_signal", "rule_changed", ...

struct AlarmChange {
  Alarm alarm;
  bool raised;      // false: cleared
  std::string id;   // the raised alarm's, repeated when it clears
  // Raised by a test (none for no_signal and audio_loss): the figure, its
  // value, the comparison and the threshold it crossed.
  const AlarmTest* test = nullptr;
  double value = 0, threshold = 0;
  double hold = 0;      // raised: the hold it lasted
  double duration = 0;  // cleared: seconds it was raised
  ClearReason reason = ClearReason::kRecovered;
};

// A raised alarm as the status page shows it.
struct ActiveAlarm {
  Alarm alarm;
  std::string id;
  double seconds;  // since it was raised
};

// A new alarm id: a random UUID, unique across streams, alarms and restarts.
std::string NewAlarmId();

// One stream's alarms over time. `now` is a monotonic time in seconds.
class AlarmTracker {
 public:
  explicit AlarmTracker(const Thresholds& thresholds) : thresholds_(thresholds) {}

  std::vector<AlarmChange> Observe(double now, const Observation& observation);
  // New thresholds: every raised alarm whose rule changed clears
  // (rule_changed) and its condition is judged again from now.
  std::vector<AlarmChange> SetThresholds(double now, const Thresholds& thresholds);
  // Clears every raised alarm with `reason` (the stream removed, shutdown).
  std::vector<AlarmChange> ClearAll(double now, ClearReason reason);

  bool active(Alarm alarm) const { return state(alarm).active; }
  std::vector<ActiveAlarm> Active(double now) const;
  // Seconds spent in the alarm so far, the current one included.
  double seconds_in(Alarm alarm, double now) const;
  const Thresholds& thresholds() const { return thresholds_; }

 private:
  struct State {
    bool active = false;
    bool condition = false;
    double condition_since = 0;  // when the condition last changed
    std::string id;
    double active_since = 0;
    double closed_seconds = 0;  // of alarms already cleared
    const AlarmTest* test = nullptr;  // the test that last held
    double value = 0;                 // its figure's value then
  };
  State& state(Alarm alarm) { return states_[static_cast<int>(alarm)]; }
  const State& state(Alarm alarm) const { return states_[static_cast<int>(alarm)]; }
  // The condition now: true, false, or unknown (returns false with *known false).
  bool Condition(const AlarmSpec& spec, const Observation& o, bool* known, const AlarmTest** test, double* value) const;
  AlarmChange Raise(double now, const AlarmSpec& spec);
  AlarmChange Clear(double now, Alarm alarm, ClearReason reason);

  Thresholds thresholds_;
  std::array<State, kAlarmCount> states_{};
};

}  // namespace monitor
