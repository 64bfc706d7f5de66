// Where the monitor tells what happened: alarms as JSON lines (stdout or a
// file, for a log shipper), stream state changes as lines on stderr.
#pragma once

#include <cstdio>
#include <string>

#include "alerts.h"

namespace monitor {

class EventLog {
 public:
  // "-" is stdout; else the file is appended to. False with `error` when it cannot be opened.
  bool Open(const std::string& target, std::string* error);
  ~EventLog();

  // {"time": ISO 8601 UTC, "stream": ..., "alarm": ..., "state": "raised"|"cleared",
  //  "seconds": how long it lasted (cleared only), "detail": ... (when given)}
  void Alarm(const std::string& stream, const AlarmChange& change, const std::string& detail);

  // "cudahist-monitor: stream NAME: TEXT" on stderr.
  static void Say(const std::string& stream, const std::string& text);

 private:
  FILE* out_ = stdout;
};

}  // namespace monitor
