// Where the monitor tells what happened: alarms as JSON lines (stdout or a
// file, for a log shipper), stream state changes as lines on stderr.
#pragma once

#include <json-glib/json-glib.h>

#include <cstdio>
#include <deque>
#include <string>

#include "alerts.h"

namespace monitor {

class EventLog {
 public:
  // "-" is stdout; else the file is appended to. False with `error` when it cannot be opened.
  bool Open(const std::string& target, std::string* error);
  ~EventLog();

  // One JSON line per raised or cleared alarm (docs/monitor.md, "Alarm
  // events", is the schema): time, id, stream, alarm, severity, state;
  // raised: hold, and figure, value, comparison, threshold, scale where a
  // figure raised it; cleared: reason, seconds; detail when given.
  void Alarm(const std::string& stream, const AlarmChange& change, const std::string& detail);

  // The last events (at most kRecent), oldest first, as a JSON array in `b`.
  void AddRecent(JsonBuilder* b) const;
  static constexpr size_t kRecent = 100;

  // "cudahist-monitor: stream NAME: TEXT" on stderr.
  static void Say(const std::string& stream, const std::string& text);

 private:
  FILE* out_ = stdout;
  std::deque<JsonNode*> recent_;
};

}  // namespace monitor
