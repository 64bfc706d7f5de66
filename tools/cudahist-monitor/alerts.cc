#include "alerts.h"

namespace monitor {

const char* AlarmName(Alarm alarm) {
  switch (alarm) {
    case Alarm::kBlack: return "black";
    case Alarm::kFrozen: return "frozen";
    case Alarm::kNoSignal: return "no_signal";
    case Alarm::kLumaRange: return "luma_out_of_range";
    case Alarm::kBroadcastRange: return "brng_high";
    case Alarm::kSaturation: return "saturation_high";
  }
  return "?";
}

std::string HoldKey(Alarm alarm) {
  std::string key = std::string(AlarmName(alarm)) + "-hold";
  for (char& c : key) c = c == '_' ? '-' : c;
  return key;
}

std::string ValidateThresholds(const Thresholds& t) {
  if (t.luma_min >= t.luma_max) return "luma-min must be below luma-max";
  if (t.brng_max < 0 || t.brng_max > 1) return "brng-max is a fraction between 0 and 1";
  for (int i = 0; i < kAlarmCount; ++i) {
    if (t.hold[i] < 0) return HoldKey(kAlarms[i]) + " must not be negative";
  }
  if (t.clear < 0) return "clear-hold must not be negative";
  return "";
}

bool AlarmTracker::Condition(Alarm alarm, const Observation& o) const {
  const Thresholds& t = thresholds_;
  const Figures& f = o.figures;
  if (alarm == Alarm::kNoSignal) return !o.up;
  // Without this interval's figures nothing is known about the picture: its
  // alarms clear after their clear time, and no_signal speaks instead.
  if (!o.up || !o.has_figures) return false;
  switch (alarm) {
    case Alarm::kBlack: return f.y_high <= t.black_luma;
    case Alarm::kFrozen: return f.y_dif <= t.frozen_ydif;
    case Alarm::kLumaRange: return f.y_low < t.luma_min || f.y_high > t.luma_max;
    case Alarm::kBroadcastRange: return f.brng > t.brng_max;
    case Alarm::kSaturation: return f.sat_high > t.saturation_max;
    case Alarm::kNoSignal: break;
  }
  return false;
}

std::vector<AlarmChange> AlarmTracker::Observe(double now, const Observation& observation) {
  std::vector<AlarmChange> changes;
  for (int i = 0; i < kAlarmCount; ++i) {
    const Alarm alarm = kAlarms[i];
    State& s = state(alarm);
    const bool condition = Condition(alarm, observation);
    if (condition != s.condition) {
      s.condition = condition;
      s.condition_since = now;
    }
    const double lasted = now - s.condition_since;
    if (!s.active && s.condition && lasted >= thresholds_.hold[i]) {
      s.active = true;
      s.active_since = now;
      changes.push_back({alarm, true, 0});
    } else if (s.active && !s.condition && lasted >= thresholds_.clear) {
      s.active = false;
      s.closed_seconds += now - s.active_since;
      changes.push_back({alarm, false, now - s.active_since});
    }
  }
  return changes;
}

double AlarmTracker::seconds_in(Alarm alarm, double now) const {
  const State& s = state(alarm);
  return s.closed_seconds + (s.active ? now - s.active_since : 0);
}

}  // namespace monitor
