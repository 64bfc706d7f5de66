#include "event_log.h"

#include <cmath>

namespace monitor {

bool EventLog::Open(const std::string& target, std::string* error) {
  if (target == "-") return true;
  FILE* f = fopen(target.c_str(), "a");
  if (!f) {
    *error = "cannot open the alerts log '" + target + "': " + g_strerror(errno);
    return false;
  }
  out_ = f;
  return true;
}

EventLog::~EventLog() {
  if (out_ != stdout) fclose(out_);
  for (JsonNode* event : recent_) json_node_unref(event);
}

namespace {

void Member(JsonBuilder* b, const char* name, const char* value) {
  json_builder_set_member_name(b, name);
  json_builder_add_string_value(b, value);
}

void Member(JsonBuilder* b, const char* name, double value) {
  json_builder_set_member_name(b, name);
  if (std::isfinite(value)) json_builder_add_double_value(b, value);
  else json_builder_add_null_value(b);  // JSON has no infinity (digital silence is -inf dBFS)
}

}  // namespace

void EventLog::Alarm(const std::string& stream, const AlarmChange& change, const std::string& detail) {
  const AlarmSpec& spec = SpecOf(change.alarm);
  JsonBuilder* b = json_builder_new();
  json_builder_begin_object(b);
  GDateTime* now = g_date_time_new_now_utc();
  gchar* time = g_date_time_format_iso8601(now);
  Member(b, "time", time);
  g_free(time);
  g_date_time_unref(now);
  Member(b, "id", change.id.c_str());
  Member(b, "stream", stream.c_str());
  Member(b, "alarm", spec.name);
  Member(b, "severity", SeverityName(spec.severity));
  Member(b, "state", change.raised ? "raised" : "cleared");
  if (change.raised) {
    Member(b, "hold", change.hold);
    if (change.test) {
      Member(b, "figure", change.test->figure);
      Member(b, "value", change.value);
      Member(b, "comparison", CompareSymbol(change.test->compare));
      Member(b, "threshold", change.threshold);
      Member(b, "scale", ScaleName(SpecOf(change.test->threshold).scale));
    }
  } else {
    Member(b, "reason", ClearReasonName(change.reason));
    Member(b, "seconds", change.duration);
  }
  if (!detail.empty()) Member(b, "detail", detail.c_str());
  json_builder_end_object(b);
  JsonNode* root = json_builder_get_root(b);
  gchar* line = json_to_string(root, FALSE);
  fprintf(out_, "%s\n", line);
  fflush(out_);
  g_free(line);
  recent_.push_back(root);
  if (recent_.size() > kRecent) {
    json_node_unref(recent_.front());
    recent_.pop_front();
  }
  g_object_unref(b);
}

void EventLog::AddRecent(JsonBuilder* b) const {
  json_builder_begin_array(b);
  for (JsonNode* event : recent_) json_builder_add_value(b, json_node_copy(event));
  json_builder_end_array(b);
}

void EventLog::Say(const std::string& stream, const std::string& text) {
  g_printerr("cudahist-monitor: stream %s: %s\n", stream.c_str(), text.c_str());
}

}  // namespace monitor
