// The monitor's configuration: a GKeyFile with a [monitor] group and one
// [stream NAME] group per stream (docs/monitor.md is the reference), or the
// URIs of the command line. Errors name the file's line.
#pragma once

#include <string>
#include <vector>

#include "alerts.h"

namespace monitor {

enum class Decoder { kAuto, kNvdec, kCpu };
enum class ScopeStyle { kWaveform, kVectorscope };
// A stream's audio: auto (measured when the input has some; its loss is an
// alarm once it was there), required (its absence is an alarm from the
// start), off (not decoded).
enum class AudioMode { kAuto, kRequired, kOff };

struct StreamConfig {
  std::string name;
  std::string uri;
  bool loop = false;          // files: start again at the end
  AudioMode audio = AudioMode::kAuto;
  Thresholds thresholds;
  double stall_seconds = 5;   // no frames for this long: the stream is down and restarted
  double start_seconds = 10;  // a (re)started pipeline's first frame may take this long (connect, key frame)
  bool operator==(const StreamConfig& o) const;
  bool operator!=(const StreamConfig& o) const { return !(*this == o); }
  // Everything but the thresholds: the same pipeline.
  bool SameSource(const StreamConfig& o) const;
};

struct MonitorConfig {
  std::string listen = "127.0.0.1:9720";
  std::string alerts_log = "-";  // JSON lines of alarms: "-" is stdout, else a file appended to
  double interval_seconds = 1;   // one figures message per stream per interval
  Decoder decoder = Decoder::kAuto;
  ScopeStyle scope = ScopeStyle::kWaveform;
  std::vector<StreamConfig> streams;
};

// Reads `path` into `config`; false with "PATH:LINE: what is wrong" in `error`.
bool LoadConfigFile(const std::string& path, MonitorConfig* config, std::string* error);

// Parses `text` as if it were the file `path` (the tests' entry point).
bool ParseConfig(const std::string& text, const std::string& path, MonitorConfig* config,
                 std::string* error);

// A stream per URI, named after it, with the default thresholds.
std::vector<StreamConfig> StreamsFromUris(const std::vector<std::string>& uris);

// Splits "HOST:PORT"; false when it is not that.
bool ParseListen(const std::string& listen, std::string* host, int* port);

}  // namespace monitor
