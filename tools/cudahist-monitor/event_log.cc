#include "event_log.h"

#include <json-glib/json-glib.h>

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
}

void EventLog::Alarm(const std::string& stream, const AlarmChange& change, const std::string& detail) {
  JsonBuilder* b = json_builder_new();
  json_builder_begin_object(b);
  GDateTime* now = g_date_time_new_now_utc();
  gchar* time = g_date_time_format_iso8601(now);
  json_builder_set_member_name(b, "time");
  json_builder_add_string_value(b, time);
  g_free(time);
  g_date_time_unref(now);
  json_builder_set_member_name(b, "stream");
  json_builder_add_string_value(b, stream.c_str());
  json_builder_set_member_name(b, "alarm");
  json_builder_add_string_value(b, AlarmName(change.alarm));
  json_builder_set_member_name(b, "state");
  json_builder_add_string_value(b, change.raised ? "raised" : "cleared");
  if (!change.raised) {
    json_builder_set_member_name(b, "seconds");
    json_builder_add_double_value(b, change.duration);
  }
  if (!detail.empty()) {
    json_builder_set_member_name(b, "detail");
    json_builder_add_string_value(b, detail.c_str());
  }
  json_builder_end_object(b);
  JsonNode* root = json_builder_get_root(b);
  gchar* line = json_to_string(root, FALSE);
  fprintf(out_, "%s\n", line);
  fflush(out_);
  g_free(line);
  json_node_unref(root);
  g_object_unref(b);
}

void EventLog::Say(const std::string& stream, const std::string& text) {
  g_printerr("cudahist-monitor: stream %s: %s\n", stream.c_str(), text.c_str());
}

}  // namespace monitor
