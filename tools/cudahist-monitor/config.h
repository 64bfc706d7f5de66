// The monitor's configuration: a GKeyFile with a [monitor] group and one
// [stream NAME] group per stream (docs/monitor.md is the reference), or the
// URIs of the command line. Every value is checked against its range (NaN
// and infinities refused); an error names the file and the line of the key
// that is wrong. The command line's settings are read by the same code as
// the [monitor] group's keys, so both accept and refuse the same values.
#pragma once

#include <string>
#include <utility>
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
  std::string uri;            // as given: secrets included, for the source alone (redact.h for showing it)
  std::string uri_where;      // "monitor.conf:12" or "command line": where the URI was given
  bool loop = false;          // files: start again at the end
  AudioMode audio = AudioMode::kAuto;
  bool reuse = false;         // sources that bind a port: let other programs bind it too
  std::string video_decoder;  // a GStreamer decoder for the video ("": the decoder choice's, decoder_choice.h)
  std::string video_decoder_where;  // "monitor.conf:14: " where it was given
  Thresholds thresholds;
  double stall_seconds = 5;   // no frames for this long: the stream is down and restarted
  double start_seconds = 10;  // a (re)started pipeline's first frame may take this long (connect, key frame)
  // Whether the stream runs the same (uri_where aside).
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

// The whole of the file `path` into `text`; false with "cannot read the
// WHAT: why" in `error`. The monitor's config and its web config are read so.
bool ReadConfigText(const std::string& path, const std::string& what, std::string* text, std::string* error);

// Reads `path` into `config`; false with "PATH:LINE: what is wrong" in `error`.
bool LoadConfigFile(const std::string& path, MonitorConfig* config, std::string* error);

// Parses `text` as if it were the file `path` (the tests' entry point).
bool ParseConfig(const std::string& text, const std::string& path, MonitorConfig* config,
                 std::string* error);

// [monitor] settings given on the command line ({"interval", "0.5"}: the
// key's name is the long option's) over `config`. False with
// "--interval=0: ..." in `error`, for exactly the values the config refuses.
bool ApplyCommandLineSettings(const std::vector<std::pair<std::string, std::string>>& settings, MonitorConfig* config,
                              std::string* error);

// A stream per URI, named after it as it may be shown (its secrets
// redacted), with the default thresholds.
std::vector<StreamConfig> StreamsFromUris(const std::vector<std::string>& uris);

// Every key whose value is a number with a range (thresholds, holds,
// timeouts; `interval` aside), for the tests that check each one's range.
std::vector<std::string> RangedKeys();

// Splits "HOST:PORT", "[IPV6]:PORT" or "NAME:PORT" (HOST without brackets);
// false when it is not that or the port is not 1-65535.
bool ParseListen(const std::string& listen, std::string* host, int* port);

}  // namespace monitor
