#include "config.h"

#include <glib.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "redact.h"
#include "source.h"

namespace monitor {
namespace {

constexpr char kMonitorGroup[] = "monitor";
constexpr char kStreamPrefix[] = "stream ";
constexpr char kCommandLine[] = "command line";

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

// A value as an error may quote it: a URI without its secrets, and a value
// that is not one (a missing ':', say) without anything before its last '@'.
std::string Shown(const std::string& key, const std::string& value) {
  if (key != "uri") return value;
  const std::string shown = cudahist_tools::RedactUri(value);
  const size_t at = shown.rfind('@');
  if (shown.find("://") != std::string::npos || at == std::string::npos) return shown;
  return cudahist_tools::kRedacted + shown.substr(at);
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

// The values a number may take. Every number key has one.
struct Range {
  double min, max;
  bool above_min;    // min itself is refused
  const char* unit;  // what the number counts, for the error
};

constexpr Range kHold = {0, 3600, false, "seconds"};
constexpr Range kTimeout = {0, 3600, true, "seconds"};
constexpr Range kInterval = {0, 60, true, "seconds"};

std::string Number(double v) {
  char text[32];
  g_snprintf(text, sizeof text, "%g", v);
  return text;
}

std::string Describe(const Range& r) {
  return (r.above_min ? "above " : "from ") + Number(r.min) + (r.above_min ? " and at most " : " to ") +
         Number(r.max) + " (" + r.unit + ")";
}

struct Timeouts {
  double stall = StreamConfig().stall_seconds;
  double start = StreamConfig().start_seconds;
};

// What a threshold or timeout key sets, and its range.
struct NumberKey {
  std::string key;
  Range range;
  std::function<double&(Thresholds&, Timeouts&)> field;
};

// The alarm table's thresholds (their ranges and scales are the table's),
// holds and clear times, and the timeouts.
const std::vector<NumberKey>& NumberKeys() {
  static const std::vector<NumberKey> keys = [] {
    std::vector<NumberKey> k;
    for (const ThresholdSpec& t : ThresholdTable()) {
      k.push_back({t.key, {t.min, t.max, false, ScaleName(t.scale)},
                   [which = t.threshold](Thresholds& v, Timeouts&) -> double& { return v[which]; }});
    }
    for (const AlarmSpec& a : AlarmTable()) {
      k.push_back({HoldKey(a.alarm), kHold, [which = a.alarm](Thresholds& v, Timeouts&) -> double& {
                     return v.hold_of(which);
                   }});
      k.push_back({ClearKey(a.alarm), kHold, [which = a.alarm](Thresholds& v, Timeouts&) -> double& {
                     return v.clear_of(which);
                   }});
    }
    k.push_back({"stall-timeout", kTimeout, [](Thresholds&, Timeouts& o) -> double& { return o.stall; }});
    k.push_back({"start-timeout", kTimeout, [](Thresholds&, Timeouts& o) -> double& { return o.start; }});
    return k;
  }();
  return keys;
}

// The [monitor] settings the command line also gives, and how one is taken over.
struct Setting {
  const char* key;
  std::function<void(const MonitorConfig& from, MonitorConfig* to)> take;
};

const std::vector<Setting>& Settings() {
  static const std::vector<Setting> settings = {
      {"listen", [](const MonitorConfig& f, MonitorConfig* t) { t->listen = f.listen; }},
      {"alerts-log", [](const MonitorConfig& f, MonitorConfig* t) { t->alerts_log = f.alerts_log; }},
      {"interval", [](const MonitorConfig& f, MonitorConfig* t) { t->interval_seconds = f.interval_seconds; }},
      {"decoder", [](const MonitorConfig& f, MonitorConfig* t) { t->decoder = f.decoder; }},
      {"scope", [](const MonitorConfig& f, MonitorConfig* t) { t->scope = f.scope; }},
  };
  return settings;
}

class Reader {
 public:
  Reader(GKeyFile* file, const std::string& text, const std::string& path)
      : file_(file), lines_(text), path_(path) {}

  // "PATH:LINE: " of `key` in `group` (of the group when key is empty); "--" on the command line.
  std::string Where(const std::string& group, const std::string& key) const {
    if (path_ == kCommandLine) return "--";
    const int line = lines_.Of(group, key);
    return path_ + ":" + (line ? std::to_string(line) : std::string("?")) + ": ";
  }

  // "PATH:LINE: KEY=VALUE: REASON", or "--KEY=VALUE: REASON" on the command line.
  std::string Problem(const std::string& group, const std::string& key, const std::string& reason) const {
    return Where(group, key) + key + "=" + Shown(key, Raw(group, key)) + ": " + reason;
  }

  bool Has(const std::string& group, const std::string& key) const {
    return g_key_file_has_key(file_, group.c_str(), key.c_str(), nullptr);
  }

  std::string Raw(const std::string& group, const std::string& key) const {
    gchar* raw = g_key_file_get_value(file_, group.c_str(), key.c_str(), nullptr);
    std::string value = raw ? raw : "";
    g_free(raw);
    return value;
  }

  bool Double(const std::string& group, const std::string& key, const Range& range, double* value,
              std::string* error) const {
    if (!Has(group, key)) return true;
    const std::string raw = Raw(group, key);
    char* end = nullptr;
    const double v = g_ascii_strtod(raw.c_str(), &end);
    if (end == raw.c_str() || !Trim(end).empty()) {
      *error = Problem(group, key, "not a number");
      return false;
    }
    if (!std::isfinite(v)) {
      *error = Problem(group, key, "not a finite number; " + Describe(range));
      return false;
    }
    if (v < range.min || v > range.max || (range.above_min && v == range.min)) {
      *error = Problem(group, key, "out of range: " + Describe(range));
      return false;
    }
    *value = v;
    return true;
  }

  bool Bool(const std::string& group, const std::string& key, bool* value, std::string* error) const {
    if (!Has(group, key)) return true;
    GError* e = nullptr;
    const gboolean v = g_key_file_get_boolean(file_, group.c_str(), key.c_str(), &e);
    if (e) {
      *error = Problem(group, key, "true or false");
      g_error_free(e);
      return false;
    }
    *value = v;
    return true;
  }

  bool String(const std::string& group, const std::string& key, std::string* value) const {
    gchar* raw = g_key_file_get_string(file_, group.c_str(), key.c_str(), nullptr);
    if (!raw) return false;
    *value = raw;
    g_free(raw);
    return true;
  }

  // One of `choices`' names, into `value`.
  template <typename T>
  bool Choice(const std::string& group, const std::string& key, const std::map<std::string, T>& choices, T* value,
              std::string* error) const {
    std::string name;
    if (!String(group, key, &name)) return true;
    auto it = choices.find(name);
    if (it == choices.end()) {
      std::string names;
      for (const auto& [n, _] : choices) names += (names.empty() ? "" : ", ") + n;
      *error = Problem(group, key, "one of " + names);
      return false;
    }
    *value = it->second;
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
    for (const NumberKey& k : NumberKeys()) {
      if (!Double(group, k.key, k.range, &k.field(*t, *timeouts), error)) return false;
    }
    const ThresholdProblem problem = ValidateThresholds(*t);
    if (!problem.keys.empty()) {
      // A key of this group that makes the pair wrong (the other is a default or [monitor]'s).
      std::string key;
      for (const std::string& k : problem.keys)
        if (key.empty() && Has(group, k)) key = k;
      *error = key.empty() ? Where(group, "") + "[" + group + "]: " + problem.text : Problem(group, key, problem.text);
      return false;
    }
    return true;
  }

 private:
  GKeyFile* file_;
  LineFinder lines_;
  std::string path_;
};

std::set<std::string> NumberKeyNames() {
  const std::vector<std::string> keys = RangedKeys();
  return std::set<std::string>(keys.begin(), keys.end());
}

bool ReadMonitorGroup(const Reader& r, MonitorConfig* config, monitor::Thresholds* defaults, Timeouts* timeouts,
                      std::string* error) {
  std::set<std::string> allowed = NumberKeyNames();
  for (const Setting& s : Settings()) allowed.insert(s.key);
  if (!r.OnlyKnownKeys(kMonitorGroup, allowed, error)) return false;
  r.String(kMonitorGroup, "listen", &config->listen);
  std::string host;
  int port = 0;
  if (!ParseListen(config->listen, &host, &port)) {
    *error = r.Problem(kMonitorGroup, "listen",
                       "HOST:PORT with a port from 1 to 65535: 127.0.0.1:9720, localhost:9720, [::1]:9720");
    return false;
  }
  r.String(kMonitorGroup, "alerts-log", &config->alerts_log);
  if (config->alerts_log.empty()) {
    *error = r.Problem(kMonitorGroup, "alerts-log", "a file name, or - for stdout");
    return false;
  }
  if (!r.Double(kMonitorGroup, "interval", kInterval, &config->interval_seconds, error)) return false;
  static const std::map<std::string, Decoder> decoders = {
      {"auto", Decoder::kAuto}, {"nvdec", Decoder::kNvdec}, {"cpu", Decoder::kCpu}};
  static const std::map<std::string, ScopeStyle> scopes = {{"waveform", ScopeStyle::kWaveform},
                                                           {"vectorscope", ScopeStyle::kVectorscope}};
  if (!r.Choice(kMonitorGroup, "decoder", decoders, &config->decoder, error) ||
      !r.Choice(kMonitorGroup, "scope", scopes, &config->scope, error))
    return false;
  return r.Thresholds(kMonitorGroup, defaults, timeouts, error);
}

bool ReadStreamGroup(const Reader& r, const std::string& group, const monitor::Thresholds& defaults,
                     const Timeouts& default_timeouts, StreamConfig* stream, std::string* error) {
  std::set<std::string> allowed = NumberKeyNames();
  allowed.insert({"uri", "loop", "reuse", "audio", "video-decoder"});
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
  stream->uri_where = r.Where(group, "uri");
  stream->uri_where.resize(stream->uri_where.size() - 2);  // without ": "
  gchar* scheme = g_uri_parse_scheme(stream->uri.c_str());
  const bool has_scheme = scheme != nullptr;
  g_free(scheme);
  if (!has_scheme) {
    *error = r.Problem(group, "uri", "not a URI (SCHEME://...)");
    return false;
  }
  if (r.String(group, "video-decoder", &stream->video_decoder)) {
    stream->video_decoder = Trim(stream->video_decoder);
    stream->video_decoder_where = r.Where(group, "video-decoder");
  }
  static const std::map<std::string, AudioMode> audio_modes = {
      {"auto", AudioMode::kAuto}, {"required", AudioMode::kRequired}, {"off", AudioMode::kOff}};
  if (!r.Choice(group, "audio", audio_modes, &stream->audio, error)) return false;
  stream->thresholds = defaults;
  Timeouts timeouts = default_timeouts;
  if (!r.Bool(group, "loop", &stream->loop, error) || !r.Bool(group, "reuse", &stream->reuse, error) ||
      !r.Thresholds(group, &stream->thresholds, &timeouts, error))
    return false;
  const SourceType& type = SourceTypeOf(stream->uri);
  if (stream->loop && !type.is_file) {
    *error = r.Problem(group, "loop", std::string("only a file can loop; this is a ") + type.kind + " source");
    return false;
  }
  if (stream->reuse && !type.binds_port) {
    *error = r.Problem(group, "reuse", std::string("only a source that binds a port (udp, rtp) shares it; this is a ") +
                                           type.kind + " source");
    return false;
  }
  stream->stall_seconds = timeouts.stall;
  stream->start_seconds = timeouts.start;
  return true;
}

bool ParseConfigText(const std::string& text, const std::string& path, MonitorConfig* config, std::string* error) {
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

}  // namespace

bool StreamConfig::operator==(const StreamConfig& o) const {
  return SameSource(o) && thresholds == o.thresholds;
}

bool StreamConfig::SameSource(const StreamConfig& o) const {
  return name == o.name && uri == o.uri && loop == o.loop && reuse == o.reuse && audio == o.audio &&
         video_decoder == o.video_decoder && stall_seconds == o.stall_seconds && start_seconds == o.start_seconds;
}

bool ParseConfig(const std::string& text, const std::string& path, MonitorConfig* config, std::string* error) {
  if (ParseConfigText(text, path, config, error)) return true;
  // GKeyFile quotes a line it cannot read, a URI with its password maybe.
  *error = cudahist_tools::RedactUrisIn(*error);
  return false;
}

bool ReadConfigText(const std::string& path, const std::string& what, std::string* text, std::string* error) {
  gchar* contents = nullptr;
  gsize length = 0;
  GError* e = nullptr;
  if (!g_file_get_contents(path.c_str(), &contents, &length, &e)) {
    *error = "cannot read the " + what + ": " + e->message;
    g_error_free(e);
    return false;
  }
  text->assign(contents, length);
  g_free(contents);
  return true;
}

bool LoadConfigFile(const std::string& path, MonitorConfig* config, std::string* error) {
  std::string text;
  return ReadConfigText(path, "config", &text, error) && ParseConfig(text, path, config, error);
}

bool ApplyCommandLineSettings(const std::vector<std::pair<std::string, std::string>>& settings, MonitorConfig* config,
                              std::string* error) {
  if (settings.empty()) return true;
  KeyFilePtr file(g_key_file_new());
  for (const auto& [key, value] : settings) {
    // A config's value is one line: a line break would make a second key of the rest.
    if (value.find_first_of("\r\n") != std::string::npos) {
      *error = "--" + key + ": a value on one line";
      return false;
    }
    g_key_file_set_value(file.get(), kMonitorGroup, key.c_str(), value.c_str());
  }
  gchar* text = g_key_file_to_data(file.get(), nullptr, nullptr);
  MonitorConfig given;
  const bool ok = ParseConfig(text, kCommandLine, &given, error);
  g_free(text);
  if (!ok) return false;
  for (const Setting& s : Settings()) {
    for (const auto& [key, value] : settings)
      if (key == s.key) s.take(given, config);
  }
  return true;
}

std::vector<StreamConfig> StreamsFromUris(const std::vector<std::string>& uris) {
  std::vector<StreamConfig> streams;
  for (const std::string& uri : uris) {
    StreamConfig s;
    s.name = cudahist_tools::RedactUri(uri);
    s.uri = uri;
    s.uri_where = kCommandLine;
    streams.push_back(s);
  }
  return streams;
}

std::vector<std::string> RangedKeys() {
  std::vector<std::string> keys;
  for (const NumberKey& k : NumberKeys()) keys.push_back(k.key);
  return keys;
}

bool ParseListen(const std::string& listen, std::string* host, int* port) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  std::string name = listen.substr(0, colon);
  if (name.front() == '[') {
    if (name.back() != ']' || name.size() < 3) return false;
    name = name.substr(1, name.size() - 2);
  } else if (name.find(':') != std::string::npos) {
    return false;  // an IPv6 address without brackets: where its port begins is a guess
  }
  char* end = nullptr;
  const long p = strtol(listen.c_str() + colon + 1, &end, 10);
  if (end == listen.c_str() + colon + 1 || *end || p < 1 || p > 65535) return false;
  *host = name;
  *port = int(p);
  return true;
}

}  // namespace monitor
