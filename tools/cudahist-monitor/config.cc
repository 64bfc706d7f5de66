#include "config.h"

#include <glib.h>

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace monitor {
namespace {

constexpr char kMonitorGroup[] = "monitor";
constexpr char kStreamPrefix[] = "stream ";

struct KeyFileDeleter {
  void operator()(GKeyFile* f) const { g_key_file_free(f); }
};
using KeyFilePtr = std::unique_ptr<GKeyFile, KeyFileDeleter>;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string Trim(const std::string& s) {
  const char* space = " \t\r";
  const size_t b = s.find_first_not_of(space);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(space) - b + 1);
}

// GKeyFile's errors name no line: these find it in the text.
class LineFinder {
 public:
  explicit LineFinder(const std::string& text) : lines_(Lines(text)) {}

  // The first line GKeyFile cannot read: not blank, a comment, a group or KEY=VALUE.
  int Unparsable() const {
    for (size_t i = 0; i < lines_.size(); ++i) {
      const std::string l = Trim(lines_[i]);
      if (l.empty() || l[0] == '#') continue;
      if (l[0] == '[' ? l.back() != ']' : l.find('=') == std::string::npos) return int(i) + 1;
    }
    return 0;
  }

  // GKeyFile merges a group given twice and keeps the last of a key given
  // twice: both are mistakes in a config. The line of the second, and what
  // it repeats; 0 when nothing is.
  int Repeated(std::string* what) const {
    std::set<std::string> groups, keys;
    std::string group;
    for (size_t i = 0; i < lines_.size(); ++i) {
      const std::string l = Trim(lines_[i]);
      if (l.empty() || l[0] == '#') continue;
      if (l[0] == '[') {
        group = l;
        keys.clear();
        if (groups.insert(group).second) continue;
        *what = "group " + group + " is given twice";
        return int(i) + 1;
      }
      const std::string key = Trim(l.substr(0, l.find('=')));
      if (keys.insert(key).second) continue;
      *what = "key '" + key + "' is given twice in " + group;
      return int(i) + 1;
    }
    return 0;
  }

  // The line of `key` in `group` (of the group's header when key is empty).
  int Of(const std::string& group, const std::string& key) const {
    bool in_group = false;
    for (size_t i = 0; i < lines_.size(); ++i) {
      const std::string l = Trim(lines_[i]);
      if (!l.empty() && l[0] == '[') {
        in_group = l == "[" + group + "]";
        if (in_group && key.empty()) return int(i) + 1;
        continue;
      }
      const size_t eq = l.find('=');
      if (in_group && eq != std::string::npos && Trim(l.substr(0, eq)) == key) return int(i) + 1;
    }
    return 0;
  }

 private:
  std::vector<std::string> lines_;
};

// The keys a group may hold and how each is read: the alarm table's
// thresholds, holds and clear times.
struct ThresholdKey {
  std::string key;
  std::function<double&(Thresholds&)> field;
};

const std::vector<ThresholdKey>& ThresholdKeys() {
  static const std::vector<ThresholdKey> keys = [] {
    std::vector<ThresholdKey> k;
    for (const ThresholdSpec& t : ThresholdTable()) {
      k.push_back({t.key, [which = t.threshold](Thresholds& v) -> double& { return v[which]; }});
    }
    for (const AlarmSpec& a : AlarmTable()) {
      k.push_back({HoldKey(a.alarm), [which = a.alarm](Thresholds& v) -> double& { return v.hold_of(which); }});
      k.push_back({ClearKey(a.alarm), [which = a.alarm](Thresholds& v) -> double& { return v.clear_of(which); }});
    }
    return k;
  }();
  return keys;
}

struct Timeouts {
  double stall = StreamConfig().stall_seconds;
  double start = StreamConfig().start_seconds;
};

class Reader {
 public:
  Reader(GKeyFile* file, const std::string& text, const std::string& path)
      : file_(file), lines_(text), path_(path) {}

  std::string Where(const std::string& group, const std::string& key) const {
    const int line = lines_.Of(group, key);
    return path_ + ":" + (line ? std::to_string(line) : std::string("?")) + ": ";
  }

  bool Double(const std::string& group, const char* key, double* value, std::string* error) const {
    if (!g_key_file_has_key(file_, group.c_str(), key, nullptr)) return true;
    gchar* raw = g_key_file_get_value(file_, group.c_str(), key, nullptr);
    char* end = nullptr;
    const double v = g_ascii_strtod(raw, &end);
    const bool ok = end != raw && Trim(end).empty();
    if (!ok) *error = Where(group, key) + key + "=" + raw + ": not a number";
    else *value = v;
    g_free(raw);
    return ok;
  }

  bool Bool(const std::string& group, const char* key, bool* value, std::string* error) const {
    if (!g_key_file_has_key(file_, group.c_str(), key, nullptr)) return true;
    GError* e = nullptr;
    const gboolean v = g_key_file_get_boolean(file_, group.c_str(), key, &e);
    if (e) {
      *error = Where(group, key) + key + ": true or false";
      g_error_free(e);
      return false;
    }
    *value = v;
    return true;
  }

  bool String(const std::string& group, const char* key, std::string* value) const {
    gchar* raw = g_key_file_get_string(file_, group.c_str(), key, nullptr);
    if (!raw) return false;
    *value = raw;
    g_free(raw);
    return true;
  }

  // An error for every key of `group` that is not in `allowed` (typos do not pass silently).
  bool OnlyKnownKeys(const std::string& group, const std::set<std::string>& allowed, std::string* error) const {
    gsize n = 0;
    gchar** keys = g_key_file_get_keys(file_, group.c_str(), &n, nullptr);
    bool ok = true;
    for (gsize i = 0; ok && i < n; ++i) {
      if (allowed.count(keys[i])) continue;
      *error = Where(group, keys[i]) + "unknown key '" + keys[i] + "' in [" + group + "]";
      ok = false;
    }
    g_strfreev(keys);
    return ok;
  }

  bool Thresholds(const std::string& group, monitor::Thresholds* t, Timeouts* timeouts, std::string* error) const {
    for (const ThresholdKey& k : ThresholdKeys()) {
      if (!Double(group, k.key.c_str(), &k.field(*t), error)) return false;
    }
    if (!Double(group, "stall-timeout", &timeouts->stall, error) ||
        !Double(group, "start-timeout", &timeouts->start, error))
      return false;
    const ThresholdProblem problem = ValidateThresholds(*t);
    if (!problem.keys.empty()) {
      // The line of a key this group sets, else the group's (its values are inherited).
      std::string line_of;
      for (const std::string& key : problem.keys)
        if (line_of.empty() && g_key_file_has_key(file_, group.c_str(), key.c_str(), nullptr)) line_of = key;
      *error = Where(group, line_of) + "[" + group + "]: " + problem.text;
      return false;
    }
    for (auto [key, value] : {std::make_pair("stall-timeout", timeouts->stall),
                              std::make_pair("start-timeout", timeouts->start)}) {
      if (value > 0) continue;
      *error = Where(group, key) + key + " must be above 0";
      return false;
    }
    return true;
  }

 private:
  GKeyFile* file_;
  LineFinder lines_;
  std::string path_;
};

std::set<std::string> ThresholdKeyNames() {
  std::set<std::string> names = {"stall-timeout", "start-timeout"};
  for (const ThresholdKey& k : ThresholdKeys()) names.insert(k.key);
  return names;
}

bool ReadMonitorGroup(const Reader& r, MonitorConfig* config, monitor::Thresholds* defaults, Timeouts* timeouts,
                      std::string* error) {
  std::set<std::string> allowed = ThresholdKeyNames();
  allowed.insert({"listen", "alerts-log", "interval", "decoder", "scope"});
  if (!r.OnlyKnownKeys(kMonitorGroup, allowed, error)) return false;
  r.String(kMonitorGroup, "listen", &config->listen);
  std::string host;
  int port = 0;
  if (!ParseListen(config->listen, &host, &port)) {
    *error = r.Where(kMonitorGroup, "listen") + "listen=" + config->listen + ": HOST:PORT, e.g. 127.0.0.1:9720";
    return false;
  }
  r.String(kMonitorGroup, "alerts-log", &config->alerts_log);
  if (!r.Double(kMonitorGroup, "interval", &config->interval_seconds, error)) return false;
  if (config->interval_seconds <= 0 || config->interval_seconds > 60) {
    *error = r.Where(kMonitorGroup, "interval") + "interval is in seconds, above 0 and at most 60";
    return false;
  }
  std::string value;
  if (r.String(kMonitorGroup, "decoder", &value)) {
    static const std::map<std::string, Decoder> decoders = {
        {"auto", Decoder::kAuto}, {"nvdec", Decoder::kNvdec}, {"cpu", Decoder::kCpu}};
    if (!decoders.count(value)) {
      *error = r.Where(kMonitorGroup, "decoder") + "decoder=" + value + ": auto, nvdec or cpu";
      return false;
    }
    config->decoder = decoders.at(value);
  }
  if (r.String(kMonitorGroup, "scope", &value)) {
    if (value != "waveform" && value != "vectorscope") {
      *error = r.Where(kMonitorGroup, "scope") + "scope=" + value + ": waveform or vectorscope";
      return false;
    }
    config->scope = value == "waveform" ? ScopeStyle::kWaveform : ScopeStyle::kVectorscope;
  }
  return r.Thresholds(kMonitorGroup, defaults, timeouts, error);
}

bool ReadStreamGroup(const Reader& r, const std::string& group, const monitor::Thresholds& defaults,
                     const Timeouts& default_timeouts, StreamConfig* stream, std::string* error) {
  std::set<std::string> allowed = ThresholdKeyNames();
  allowed.insert({"uri", "loop", "audio"});
  if (!r.OnlyKnownKeys(group, allowed, error)) return false;
  stream->name = Trim(group.substr(strlen(kStreamPrefix)));
  if (stream->name.empty()) {
    *error = r.Where(group, "") + "[" + group + "]: a stream needs a name: [stream NAME]";
    return false;
  }
  if (!r.String(group, "uri", &stream->uri) || stream->uri.empty()) {
    *error = r.Where(group, "") + "[" + group + "] has no uri=";
    return false;
  }
  gchar* scheme = g_uri_parse_scheme(stream->uri.c_str());
  const bool has_scheme = scheme != nullptr;
  g_free(scheme);
  if (!has_scheme) {
    *error = r.Where(group, "uri") + "uri=" + stream->uri + ": not a URI (SCHEME://...)";
    return false;
  }
  std::string audio;
  if (r.String(group, "audio", &audio)) {
    static const std::map<std::string, AudioMode> modes = {
        {"auto", AudioMode::kAuto}, {"required", AudioMode::kRequired}, {"off", AudioMode::kOff}};
    if (!modes.count(audio)) {
      *error = r.Where(group, "audio") + "audio=" + audio + ": auto, required or off";
      return false;
    }
    stream->audio = modes.at(audio);
  }
  stream->thresholds = defaults;
  Timeouts timeouts = default_timeouts;
  if (!r.Bool(group, "loop", &stream->loop, error) || !r.Thresholds(group, &stream->thresholds, &timeouts, error))
    return false;
  stream->stall_seconds = timeouts.stall;
  stream->start_seconds = timeouts.start;
  return true;
}

}  // namespace

bool StreamConfig::operator==(const StreamConfig& o) const {
  return SameSource(o) && thresholds == o.thresholds;
}

bool StreamConfig::SameSource(const StreamConfig& o) const {
  return name == o.name && uri == o.uri && loop == o.loop && audio == o.audio && stall_seconds == o.stall_seconds &&
         start_seconds == o.start_seconds;
}

bool ParseConfig(const std::string& text, const std::string& path, MonitorConfig* config,
                 std::string* error) {
  KeyFilePtr file(g_key_file_new());
  GError* e = nullptr;
  if (!g_key_file_load_from_data(file.get(), text.data(), text.size(), G_KEY_FILE_NONE, &e)) {
    const int line = LineFinder(text).Unparsable();
    *error = path + ":" + (line ? std::to_string(line) : std::string("?")) + ": " + e->message;
    g_error_free(e);
    return false;
  }
  std::string repeated;
  if (const int line = LineFinder(text).Repeated(&repeated)) {
    *error = path + ":" + std::to_string(line) + ": " + repeated;
    return false;
  }
  Reader r(file.get(), text, path);
  MonitorConfig result;
  Thresholds defaults;
  Timeouts timeouts;
  if (g_key_file_has_group(file.get(), kMonitorGroup) &&
      !ReadMonitorGroup(r, &result, &defaults, &timeouts, error)) {
    return false;
  }
  gchar** groups = g_key_file_get_groups(file.get(), nullptr);
  std::set<std::string> names;
  bool ok = true;
  for (gchar** g = groups; ok && *g; ++g) {
    const std::string group = *g;
    if (group == kMonitorGroup) continue;
    if (group.rfind(kStreamPrefix, 0) != 0) {
      *error = r.Where(group, "") + "unknown group [" + group + "]: [monitor] or [stream NAME]";
      ok = false;
      break;
    }
    StreamConfig stream;
    ok = ReadStreamGroup(r, group, defaults, timeouts, &stream, error);
    if (ok && !names.insert(stream.name).second) {
      *error = r.Where(group, "") + "stream '" + stream.name + "' is named twice";
      ok = false;
    }
    if (ok) result.streams.push_back(stream);
  }
  g_strfreev(groups);
  if (!ok) return false;
  *config = result;
  return true;
}

bool LoadConfigFile(const std::string& path, MonitorConfig* config, std::string* error) {
  gchar* contents = nullptr;
  gsize length = 0;
  GError* e = nullptr;
  if (!g_file_get_contents(path.c_str(), &contents, &length, &e)) {
    *error = std::string("cannot read the config: ") + e->message;
    g_error_free(e);
    return false;
  }
  const std::string text(contents, length);
  g_free(contents);
  return ParseConfig(text, path, config, error);
}

std::vector<StreamConfig> StreamsFromUris(const std::vector<std::string>& uris) {
  std::vector<StreamConfig> streams;
  for (const std::string& uri : uris) {
    StreamConfig s;
    s.name = uri;
    s.uri = uri;
    streams.push_back(s);
  }
  return streams;
}

bool ParseListen(const std::string& listen, std::string* host, int* port) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  char* end = nullptr;
  const long p = strtol(listen.c_str() + colon + 1, &end, 10);
  if (end == listen.c_str() + colon + 1 || *end || p < 0 || p > 65535) return false;
  *host = listen.substr(0, colon);
  *port = int(p);
  return true;
}

}  // namespace monitor
