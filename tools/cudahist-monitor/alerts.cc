#include "alerts.h"

#include <glib.h>

#include <cmath>

namespace monitor {
namespace {

using A = Alarm;
using T = Threshold;
using C = Compare;

std::string KeyOf(Alarm alarm, const char* suffix) {
  std::string key = std::string(AlarmName(alarm)) + "-" + suffix;
  for (char& c : key) c = c == '_' ? '-' : c;
  return key;
}

bool Holds(Compare compare, double value, double threshold) {
  switch (compare) {
    case C::kAtOrBelow: return value <= threshold;
    case C::kBelow: return value < threshold;
    case C::kAbove: return value > threshold;
  }
  return false;
}

std::string Number(double v) {
  char text[32];
  g_ascii_formatd(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

const char* ScaleName(Scale scale) {
  switch (scale) {
    case Scale::kCodeValue8Bit: return "8-bit code value";
    case Scale::kRatio: return "ratio";
    case Scale::kDbfs: return "dBFS";
    case Scale::kLufs: return "LUFS";
  }
  return "?";
}

const char* CompareSymbol(Compare compare) {
  switch (compare) {
    case C::kAtOrBelow: return "<=";
    case C::kBelow: return "<";
    case C::kAbove: return ">";
  }
  return "?";
}

const char* SeverityName(Severity severity) { return severity == Severity::kCritical ? "critical" : "warning"; }

const char* ClearReasonName(ClearReason reason) {
  switch (reason) {
    case ClearReason::kRecovered: return "recovered";
    case ClearReason::kNoSignal: return "no_signal";
    case ClearReason::kRuleChanged: return "rule_changed";
    case ClearReason::kStreamRemoved: return "stream_removed";
    case ClearReason::kStreamReconfigured: return "stream_reconfigured";
    case ClearReason::kShutdown: return "shutdown";
  }
  return "?";
}

// The values the config accepts. Code values go up to 255 in 8 bits; SATHIGH
// at most to the chroma's distance from grey at a corner of the 8-bit CbCr
// square. Audio levels are at most 0 dBFS; -200 is below anything a 32-bit
// float carries. Loudness below -70 LUFS is gated out by EBU R128 itself.
const std::array<ThresholdSpec, kThresholdCount>& ThresholdTable() {
  static const std::array<ThresholdSpec, kThresholdCount> table = {{
      {T::kBlackLuma, "black-luma", 32, 0, 255, Scale::kCodeValue8Bit},
      {T::kFrozenYdif, "frozen-ydif", 0.02, 0, 255, Scale::kCodeValue8Bit},
      {T::kLumaMin, "luma-min", 16, 0, 255, Scale::kCodeValue8Bit},
      {T::kLumaMax, "luma-max", 235, 0, 255, Scale::kCodeValue8Bit},
      {T::kBrngMax, "brng-max", 0.01, 0, 1, Scale::kRatio},
      {T::kSaturationMax, "saturation-max", 118, 0, std::hypot(128.0, 128.0), Scale::kCodeValue8Bit},
      {T::kSilenceLevel, "silence-level", -60, -200, 0, Scale::kDbfs},
      {T::kLoudnessMin, "loudness-min", -40, -70, 0, Scale::kLufs},
      {T::kLoudnessMax, "loudness-max", -14, -70, 0, Scale::kLufs},
  }};
  return table;
}

const ThresholdSpec& SpecOf(Threshold threshold) { return ThresholdTable()[static_cast<int>(threshold)]; }

// Figures by the names of the cudahistogram message (frame_figures.h) and of
// the audio branch's (audio_branch.h). Rows are in Alarm's order: no_signal
// first, so that a stream that lost its signal clears its other alarms
// before they are looked at.
const std::array<AlarmSpec, kAlarmCount>& AlarmTable() {
  static const std::array<AlarmSpec, kAlarmCount> table = {{
      {A::kNoSignal, "no_signal", Severity::kCritical, Watches::kSignal, {}, 2, 2, A::kNoSignal,
       "no frames reach the analysis (the source is down, ended or failing)"},
      {A::kBlack, "black", Severity::kCritical, Watches::kPicture, {{"y-high", C::kAtOrBelow, T::kBlackLuma}}, 2, 2,
       A::kBlack, "YHIGH (90% of the luma) at or below black-luma"},
      {A::kFrozen, "frozen", Severity::kCritical, Watches::kPicture, {{"y-dif", C::kAtOrBelow, T::kFrozenYdif}}, 5, 2,
       A::kFrozen, "YDIF (mean luma change to the previous frame) at or below frozen-ydif"},
      {A::kLumaRange, "luma_out_of_range", Severity::kWarning, Watches::kPicture,
       {{"y-low", C::kBelow, T::kLumaMin}, {"y-high", C::kAbove, T::kLumaMax}}, 5, 2, A::kLumaRange,
       "YLOW below luma-min or YHIGH above luma-max (over 10% of the luma outside)"},
      {A::kBroadcastRange, "brng_high", Severity::kWarning, Watches::kPicture, {{"brng", C::kAbove, T::kBrngMax}}, 5,
       2, A::kBroadcastRange, "BRNG (fraction of pixels outside broadcast range) above brng-max"},
      {A::kSaturation, "saturation_high", Severity::kWarning, Watches::kPicture,
       {{"sat-high", C::kAbove, T::kSaturationMax}}, 5, 2, A::kSaturation, "SATHIGH (10% of pixels) above saturation-max"},
      {A::kAudioLoss, "audio_loss", Severity::kCritical, Watches::kAudioPresent, {}, 2, 2, A::kAudioLoss,
       "the picture arrives, its audio does not (the stream had audio, or audio=required)"},
      {A::kSilence, "silence", Severity::kCritical, Watches::kAudio,
       {{"rms-dbfs-max", C::kBelow, T::kSilenceLevel}}, 5, 2, A::kSilence,
       "the loudest channel's RMS level below silence-level"},
      {A::kLoudness, "loudness_out_of_range", Severity::kWarning, Watches::kAudio,
       {{"short-term-lufs", C::kBelow, T::kLoudnessMin}, {"short-term-lufs", C::kAbove, T::kLoudnessMax}}, 10, 5,
       A::kSilence, "EBU R128 short-term loudness below loudness-min or above loudness-max (not while silent)"},
  }};
  return table;
}

const AlarmSpec& SpecOf(Alarm alarm) { return AlarmTable()[static_cast<int>(alarm)]; }
const char* AlarmName(Alarm alarm) { return SpecOf(alarm).name; }
std::string HoldKey(Alarm alarm) { return KeyOf(alarm, "hold"); }
std::string ClearKey(Alarm alarm) { return KeyOf(alarm, "clear"); }

Thresholds::Thresholds() {
  for (const ThresholdSpec& t : ThresholdTable()) value[static_cast<int>(t.threshold)] = t.default_value;
  for (const AlarmSpec& a : AlarmTable()) {
    hold[static_cast<int>(a.alarm)] = a.default_hold;
    clear[static_cast<int>(a.alarm)] = a.default_clear;
  }
}

bool Thresholds::SameRule(const Thresholds& o, Alarm alarm) const {
  const int i = static_cast<int>(alarm);
  if (hold[i] != o.hold[i] || clear[i] != o.clear[i]) return false;
  for (const AlarmTest& test : SpecOf(alarm).any_of)
    if ((*this)[test.threshold] != o[test.threshold]) return false;
  return true;
}

ThresholdProblem ValidateThresholds(const Thresholds& t) {
  auto below = [&t](Threshold low, Threshold high) -> ThresholdProblem {
    if (t[low] < t[high]) return {};
    const std::string l = SpecOf(low).key, h = SpecOf(high).key;
    return {{l, h}, l + " (" + Number(t[low]) + ") must be below " + h + " (" + Number(t[high]) + ")"};
  };
  ThresholdProblem problem = below(T::kLumaMin, T::kLumaMax);
  return problem.keys.empty() ? below(T::kLoudnessMin, T::kLoudnessMax) : problem;
}

std::string NewAlarmId() {
  gchar* uuid = g_uuid_string_random();
  std::string id = uuid;
  g_free(uuid);
  return id;
}

bool AlarmTracker::Condition(const AlarmSpec& spec, const Observation& o, bool* known, const AlarmTest** test,
                             double* value) const {
  *known = true;
  switch (spec.watches) {
    case Watches::kSignal: return !o.up;
    case Watches::kAudioPresent:
      // Without frames nothing is known of the stream: no_signal speaks.
      *known = o.up;
      return o.up && o.audio_expected && !o.audio;
    case Watches::kPicture:
    case Watches::kAudio: break;
  }
  *known = o.up && (spec.watches == Watches::kPicture ? o.picture : o.audio);
  if (!*known) return false;
  if (spec.masked_by != spec.alarm && active(spec.masked_by)) return false;
  for (const AlarmTest& t : spec.any_of) {
    auto figure = o.figures.find(t.figure);
    if (figure == o.figures.end()) continue;
    if (Holds(t.compare, figure->second, thresholds_[t.threshold])) {
      *test = &t;
      *value = figure->second;
      return true;
    }
  }
  return false;
}

AlarmChange AlarmTracker::Raise(double now, const AlarmSpec& spec) {
  State& s = state(spec.alarm);
  s.active = true;
  s.active_since = now;
  s.id = NewAlarmId();
  AlarmChange change{spec.alarm, true, s.id};
  change.test = s.test;
  change.value = s.value;
  change.threshold = s.test ? thresholds_[s.test->threshold] : 0;
  change.hold = thresholds_.hold[static_cast<int>(spec.alarm)];
  return change;
}

AlarmChange AlarmTracker::Clear(double now, Alarm alarm, ClearReason reason) {
  State& s = state(alarm);
  s.active = false;
  s.closed_seconds += now - s.active_since;
  AlarmChange change{alarm, false, s.id};
  change.duration = now - s.active_since;
  change.reason = reason;
  s.id.clear();
  return change;
}

std::vector<AlarmChange> AlarmTracker::Observe(double now, const Observation& observation) {
  std::vector<AlarmChange> changes;
  for (const AlarmSpec& spec : AlarmTable()) {
    State& s = state(spec.alarm);
    const int i = static_cast<int>(spec.alarm);
    if (spec.watches != Watches::kSignal && active(Alarm::kNoSignal)) {
      // The stream lost its signal: what it said of the picture and the sound no longer stands.
      if (s.active) changes.push_back(Clear(now, spec.alarm, ClearReason::kNoSignal));
      s.condition = false;
      s.condition_since = now;
      continue;
    }
    bool known = false;
    const AlarmTest* test = nullptr;
    double value = 0;
    const bool condition = Condition(spec, observation, &known, &test, &value);
    if (!known) continue;  // the condition, and how long it has lasted, stand until it is known again
    if (condition != s.condition) {
      s.condition = condition;
      s.condition_since = now;
    }
    if (condition) {
      s.test = test;
      s.value = value;
    }
    const double lasted = now - s.condition_since;
    if (!s.active && s.condition && lasted >= thresholds_.hold[i]) {
      changes.push_back(Raise(now, spec));
    } else if (s.active && !s.condition && lasted >= thresholds_.clear[i]) {
      changes.push_back(Clear(now, spec.alarm, ClearReason::kRecovered));
    }
  }
  return changes;
}

std::vector<AlarmChange> AlarmTracker::SetThresholds(double now, const Thresholds& thresholds) {
  std::vector<AlarmChange> changes;
  for (const AlarmSpec& spec : AlarmTable()) {
    if (thresholds_.SameRule(thresholds, spec.alarm)) continue;
    State& s = state(spec.alarm);
    if (s.active) changes.push_back(Clear(now, spec.alarm, ClearReason::kRuleChanged));
    s.condition = false;
    s.condition_since = now;
  }
  thresholds_ = thresholds;
  return changes;
}

std::vector<AlarmChange> AlarmTracker::ClearAll(double now, ClearReason reason) {
  std::vector<AlarmChange> changes;
  for (const AlarmSpec& spec : AlarmTable()) {
    State& s = state(spec.alarm);
    if (s.active) changes.push_back(Clear(now, spec.alarm, reason));
    s.condition = false;
    s.condition_since = now;
  }
  return changes;
}

std::vector<ActiveAlarm> AlarmTracker::Active(double now) const {
  std::vector<ActiveAlarm> raised;
  for (const AlarmSpec& spec : AlarmTable()) {
    const State& s = state(spec.alarm);
    if (s.active) raised.push_back({spec.alarm, s.id, now - s.active_since});
  }
  return raised;
}

double AlarmTracker::seconds_in(Alarm alarm, double now) const {
  const State& s = state(alarm);
  return s.closed_seconds + (s.active ? now - s.active_since : 0);
}

}  // namespace monitor
