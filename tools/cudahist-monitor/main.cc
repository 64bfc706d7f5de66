// cudahist-monitor: watches live streams with the cudahistogram element and
// serves what it sees to Prometheus, to a status page and as alarm JSON lines.
#include <glib-unix.h>
#include <gst/gst.h>
#include <json-glib/json-glib.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis_pipeline.h"
#include "command_line.h"
#include "config.h"
#include "event_log.h"
#include "http_server.h"
#include "log_lines.h"
#include "metrics.h"
#include "redact.h"
#include "source_elements.h"
#include "stream.h"

namespace monitor {
namespace {

constexpr guint kTickMs = 250;
constexpr double kDrainSeconds = 5;
// Streams starting at once (StartGate). More than a few keep a GPU's
// decoders busy opening; a 30 fps stream's first frame comes within a second
// or two of its turn.
constexpr int kStartsAtOnce = 16;

struct Options {
  gchar* config = nullptr;
  gchar* listen = nullptr;
  gchar* alerts_log = nullptr;
  gchar* decoder = nullptr;
  gchar* scope = nullptr;
  gchar* interval = nullptr;
  gchar* web_config_file = nullptr;
  gboolean enable_lifecycle = FALSE;
  gchar** allowed_hosts = nullptr;
  gboolean version = FALSE;
  gchar** uris = nullptr;
  ~Options() {
    for (gchar* s : {config, listen, alerts_log, decoder, scope, interval, web_config_file}) g_free(s);
    g_strfreev(allowed_hosts);
    g_strfreev(uris);
  }
};

class App {
 public:
  App(MonitorConfig config, std::string config_path, std::vector<StreamConfig> cli_streams, PipelineChoice choice,
      WebOptions web)
      : config_(std::move(config)),
        config_path_(std::move(config_path)),
        cli_streams_(std::move(cli_streams)),
        choice_(choice),
        web_(std::move(web)),
        http_(Handlers()) {}

  int Run() {
    std::string error;
    web_.listen = config_.listen;
    if (!log_.Open(config_.alerts_log, &error) || !http_.Start(web_, &error)) {
      g_printerr("cudahist-monitor: %s\n", error.c_str());
      return 1;
    }
    loop_ = g_main_loop_new(nullptr, FALSE);
    Apply(WantedStreams(config_));
    g_printerr("cudahist-monitor: listening on %s (%zu streams)\n", http_.Urls().c_str(), order_.size());
    const guint tick = g_timeout_add(kTickMs, OnTick, this);
    const guint term = g_unix_signal_add(SIGTERM, OnStopSignal, this);
    const guint interrupt = g_unix_signal_add(SIGINT, OnStopSignal, this);
    const guint hangup = g_unix_signal_add(SIGHUP, OnHangup, this);
    g_main_loop_run(loop_);
    for (guint id : {tick, term, interrupt, hangup}) g_source_remove(id);
    RemoveAll();
    g_main_loop_unref(loop_);
    g_printerr("cudahist-monitor: stopped\n");
    return 0;
  }

 private:
  HttpHandlers Handlers() {
    HttpHandlers h;
    h.metrics = [this] { return metrics_.Exposition(); };
    h.status_json = [this] { return StatusJson(); };
    h.scope = [this](const std::string& name) {
      auto it = streams_.find(name);
      return it == streams_.end() ? std::string() : it->second->scope_png();
    };
    h.thumbnail = [this](const std::string& name) {
      auto it = streams_.find(name);
      return it == streams_.end() ? std::string() : it->second->thumbnail_jpeg();
    };
    h.events_json = [this] { return Json([this](JsonBuilder* b) { log_.AddRecent(b); }); };
    h.reload = [this] { return Reload(); };
    return h;
  }

  std::vector<StreamConfig> WantedStreams(const MonitorConfig& config) const {
    std::vector<StreamConfig> wanted = config.streams;
    for (const StreamConfig& s : cli_streams_) {
      const bool named = std::any_of(wanted.begin(), wanted.end(), [&](const StreamConfig& w) { return w.name == s.name; });
      if (!named) wanted.push_back(s);
    }
    return wanted;
  }

  // Streams whose source did not change keep running: new thresholds only
  // clear the alarms whose rule changed.
  void Apply(const std::vector<StreamConfig>& wanted) {
    std::map<std::string, const StreamConfig*> by_name;
    for (const StreamConfig& s : wanted) by_name[s.name] = &s;
    for (const std::string& name : std::vector<std::string>(order_)) {
      auto w = by_name.find(name);
      Stream& running = *streams_[name];
      if (w == by_name.end()) Remove(name, ClearReason::kStreamRemoved);
      else if (!w->second->SameSource(running.config())) Remove(name, ClearReason::kStreamReconfigured);
      else if (w->second->thresholds != running.config().thresholds) running.SetThresholds(w->second->thresholds);
    }
    const double now = NowSeconds();
    for (const StreamConfig& s : wanted) {
      if (streams_.count(s.name)) continue;
      EventLog::Say(s.name, "monitoring " + cudahist_tools::RedactUri(s.uri));
      auto stream = std::make_unique<Stream>(s, choice_, metrics_.Add(s.name), &log_, &starts_);
      stream->Start(now);
      streams_[s.name] = std::move(stream);
    }
    order_.clear();
    for (const StreamConfig& s : wanted) order_.push_back(s.name);
  }

  void Remove(const std::string& name, ClearReason reason) {
    EventLog::Say(name, "removed");
    streams_[name]->ClearAlarms(reason);
    streams_.erase(name);  // stops its pipeline before its series go
    metrics_.Remove(name);
    order_.erase(std::remove(order_.begin(), order_.end(), name), order_.end());
  }

  void RemoveAll() {
    for (const std::string& name : std::vector<std::string>(order_)) {
      streams_[name]->ClearAlarms(ClearReason::kShutdown);
      streams_.erase(name);
      metrics_.Remove(name);
    }
    order_.clear();
  }

  std::string Reload() {
    if (config_path_.empty()) return "no config file to reload (the streams came from the command line)";
    MonitorConfig fresh;
    std::string error;
    if (!LoadConfigFile(config_path_, &fresh, &error) || !(error = UnreadableSource(fresh.streams)).empty() ||
        !(error = UnknownVideoDecoder(fresh.streams)).empty()) {
      g_printerr("cudahist-monitor: reload refused, the running streams are kept: %s\n", error.c_str());
      return error;
    }
    Apply(WantedStreams(fresh));
    config_.streams = fresh.streams;
    g_printerr("cudahist-monitor: reloaded %s (%zu streams)\n", config_path_.c_str(), order_.size());
    return "";
  }

  std::string StatusJson() const {
    return Json([this](JsonBuilder* b) {
      json_builder_begin_array(b);
      for (const std::string& name : order_) streams_.at(name)->AddStatus(b);
      json_builder_end_array(b);
    });
  }

  // What `build` adds to a JSON builder, as text.
  static std::string Json(const std::function<void(JsonBuilder*)>& build) {
    JsonBuilder* b = json_builder_new();
    build(b);
    JsonNode* root = json_builder_get_root(b);
    gchar* text = json_to_string(root, FALSE);
    std::string json = text;
    g_free(text);
    json_node_unref(root);
    g_object_unref(b);
    return json;
  }

  static gboolean OnTick(gpointer data) {
    App* app = static_cast<App*>(data);
    const double now = NowSeconds();
    for (auto& [name, stream] : app->streams_) stream->Tick(now);
    return G_SOURCE_CONTINUE;
  }

  static gboolean OnHangup(gpointer data) {
    static_cast<App*>(data)->Reload();
    return G_SOURCE_CONTINUE;
  }

  // Ends every stream with EOS, waits for them to come out (at most
  // kDrainSeconds), then leaves the loop.
  static gboolean OnStopSignal(gpointer data) {
    App* app = static_cast<App*>(data);
    if (app->stopping_) return G_SOURCE_CONTINUE;
    app->stopping_ = true;
    g_printerr("cudahist-monitor: stopping: draining %zu streams\n", app->streams_.size());
    for (auto& [name, stream] : app->streams_) stream->Drain();
    app->drain_deadline_ = NowSeconds() + kDrainSeconds;
    g_timeout_add(50, OnDrainCheck, app);
    return G_SOURCE_CONTINUE;
  }

  static gboolean OnDrainCheck(gpointer data) {
    App* app = static_cast<App*>(data);
    const bool all = std::all_of(app->streams_.begin(), app->streams_.end(),
                                 [](const auto& s) { return s.second->drained(); });
    if (!all && NowSeconds() < app->drain_deadline_) return G_SOURCE_CONTINUE;
    for (const auto& [name, stream] : app->streams_)
      if (!stream->drained())
        EventLog::Say(name, "did not drain in " + std::to_string(int(kDrainSeconds)) + " s (no EOS yet at " +
                                stream->SinksWithoutEos() + ")");
    g_main_loop_quit(app->loop_);
    return G_SOURCE_REMOVE;
  }

  MonitorConfig config_;
  std::string config_path_;
  std::vector<StreamConfig> cli_streams_;
  PipelineChoice choice_;
  WebOptions web_;
  Metrics metrics_;
  EventLog log_;
  HttpServer http_;
  StartGate starts_{kStartsAtOnce};
  std::map<std::string, std::unique_ptr<Stream>> streams_;
  std::vector<std::string> order_;  // as configured: the status page's order
  GMainLoop* loop_ = nullptr;
  bool stopping_ = false;
  double drain_deadline_ = 0;
};

constexpr char kSummary[] =
    "Watches live streams with the cudahistogram element (signalstats=true): one pipeline per stream,\n"
    "NVDEC when a GPU is there, the CPU decoders and the element's CPU backend otherwise.\n"
    "\n"
    "One HTTP port serves:\n"
    "  /metrics           Prometheus metrics (cudahist_stream_up, cudahist_frames_total, cudahist_y_avg, ...,\n"
    "                     cudahist_alarm_active{alarm=...}, ...), label stream=NAME\n"
    "  /                  the status page: a tile per stream with its state, figures and a live scope\n"
    "  /status.json       the page's data, /events.json the last alarm events\n"
    "  /scope?stream=NAME, /thumbnail?stream=NAME  the latest scope (PNG) and picture (JPEG)\n"
    "  POST /-/reload     read the config again (as SIGHUP does), with --web.enable-lifecycle\n"
    "On a network: --web.config.file for TLS, mutual TLS and basic auth (the Prometheus exporters' format),\n"
    "and --web.allowed-host for the names Prometheus and browsers reach the monitor by (docs/monitor.md).\n"
    "Alarms (no_signal, black, frozen, luma_out_of_range, brng_high, saturation_high, audio_loss, silence,\n"
    "loudness_out_of_range) are written as JSON lines on stdout (or --alerts-log), each raised and cleared\n"
    "once under an id of its own. SIGTERM drains the pipelines, clears the alarms and exits.\n"
    "\n"
    "Examples:\n"
    "  cudahist-monitor --listen 127.0.0.1:9720 udp://127.0.0.1:5000 srt://127.0.0.1:7001 file:///media/a.mp4\n"
    "  cudahist-monitor --config /etc/cudahist-monitor.conf\n"
    "  cudahist-monitor --config monitor.conf --listen 0.0.0.0:9720 --web.config.file web.yml --web.enable-lifecycle\n"
    "\n"
    "The config file (docs/monitor.md has every key):\n"
    "  [monitor]\n"
    "  listen=127.0.0.1:9720\n"
    "  black-hold=2\n"
    "  [stream studio-a]\n"
    "  uri=srt://127.0.0.1:7001\n"
    "  [stream promo]\n"
    "  uri=file:///media/promo.mp4\n"
    "  loop=true";

bool ParseOptions(int* argc, char*** argv, Options* o, std::string* error) {
  const GOptionEntry entries[] = {
      {"config", 'c', 0, G_OPTION_ARG_FILENAME, &o->config, "Streams and thresholds from this file", "FILE"},
      {"listen", 'l', 0, G_OPTION_ARG_STRING, &o->listen, "HTTP address (default 127.0.0.1:9720)", "HOST:PORT"},
      {"alerts-log", 0, 0, G_OPTION_ARG_FILENAME, &o->alerts_log, "Append alarm JSON lines here (default: stdout)",
       "FILE"},
      {"interval", 'i', 0, G_OPTION_ARG_STRING, &o->interval, "Seconds per figures message and metric update (default 1)",
       "SECONDS"},
      {"decoder", 0, 0, G_OPTION_ARG_STRING, &o->decoder,
       "auto (NVDEC and the GPU when there is one), nvdec (GPU or fail), cpu (CPU decoders and backend)", "WHICH"},
      {"scope", 0, 0, G_OPTION_ARG_STRING, &o->scope, "The status page's scope: waveform (default) or vectorscope",
       "STYLE"},
      {"web.config.file", 0, 0, G_OPTION_ARG_FILENAME, &o->web_config_file,
       "TLS and basic authentication: the exporter-toolkit's web config (YAML), read again for every request", "FILE"},
      {"web.enable-lifecycle", 0, 0, G_OPTION_ARG_NONE, &o->enable_lifecycle, "Reload the config on POST /-/reload",
       nullptr},
      {"web.allowed-host", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->allowed_hosts,
       "A name requests may give as Host besides this machine's, the --listen name, localhost and IP addresses "
       "(repeat for more)",
       "NAME"},
      {"version", 0, 0, G_OPTION_ARG_NONE, &o->version, "Print the version and exit", nullptr},
      {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->uris, nullptr, "URI..."},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  return cudahist_tools::ParseCommandLine("- live stream monitor on cudahistogram", kSummary, nullptr, entries, argc,
                                          argv, error);
}

// The command line over the config's [monitor] group: the same keys, read by the same code.
bool MergeOptions(const Options& o, MonitorConfig* config, std::vector<StreamConfig>* cli_streams, std::string* error) {
  std::vector<std::pair<std::string, std::string>> settings;
  for (auto [key, value] : {std::make_pair("listen", o.listen), std::make_pair("alerts-log", o.alerts_log),
                            std::make_pair("interval", o.interval), std::make_pair("decoder", o.decoder),
                            std::make_pair("scope", o.scope)})
    if (value) settings.emplace_back(key, value);
  if (!ApplyCommandLineSettings(settings, config, error)) return false;
  std::vector<std::string> uris;
  for (gchar** u = o.uris; u && *u; ++u) {
    std::string problem;
    const std::string uri = cudahist_tools::InputUri(*u, &problem);
    if (uri.empty()) {
      *error = cudahist_tools::RedactUri(*u) + ": " + problem;
      return false;
    }
    uris.push_back(uri);
  }
  *cli_streams = StreamsFromUris(uris);
  return true;
}

bool ChooseBackend(const MonitorConfig& config, PipelineChoice* choice, std::string* error) {
  choice->interval_seconds = config.interval_seconds;
  choice->scope = config.scope;
  if (config.decoder == Decoder::kCpu) {
    g_printerr("cudahist-monitor: CPU decoders and backend (decoder=cpu)\n");
    return true;
  }
  const cudahist_tools::Backend backend = cudahist_tools::ProbeBackend();
  if (config.decoder == Decoder::kNvdec && !backend.gpu) {
    *error = "decoder=nvdec, but no GPU: " + backend.why_not;
    return false;
  }
  choice->gpu = backend.gpu;
  g_printerr("cudahist-monitor: %s\n", cudahist_tools::DescribeBackend(backend).c_str());
  return true;
}

}  // namespace
}  // namespace monitor

int main(int argc, char** argv) {
  using namespace monitor;
  StampStderrLines();
  Options options;
  std::string error;
  if (!ParseOptions(&argc, &argv, &options, &error)) {
    g_printerr("cudahist-monitor: %s\n", error.c_str());
    return 2;
  }
  if (options.version) {
    gchar* gstreamer = gst_version_string();
    g_print("cudahist-monitor %s (%s, libsoup %u.%u.%u)\n", CUDAHIST_MONITOR_VERSION, gstreamer,
            soup_get_major_version(), soup_get_minor_version(), soup_get_micro_version());
    g_free(gstreamer);
    return 0;
  }
  MonitorConfig config;
  std::vector<StreamConfig> cli_streams;
  PipelineChoice choice;
  if ((options.config && !LoadConfigFile(options.config, &config, &error)) ||
      !MergeOptions(options, &config, &cli_streams, &error) || !ChooseBackend(config, &choice, &error)) {
    g_printerr("cudahist-monitor: %s\n", error.c_str());
    return 2;
  }
  for (const auto* streams : {&config.streams, &cli_streams}) {
    error = UnreadableSource(*streams);
    if (error.empty()) error = UnknownVideoDecoder(*streams);
    if (!error.empty()) {
      g_printerr("cudahist-monitor: %s\n", error.c_str());
      return 2;
    }
  }
  if (config.streams.empty() && cli_streams.empty()) {
    g_printerr("cudahist-monitor: no streams: give URIs or --config FILE (see --help)\n");
    return 2;
  }
  WebOptions web;
  web.config_file = options.web_config_file ? options.web_config_file : "";
  bool tls = false;
  if (!web.config_file.empty() && !HttpServer::CheckWebConfig(web.config_file, &tls, &error)) {
    g_printerr("cudahist-monitor: %s\n", error.c_str());
    return 2;
  }
  web.enable_lifecycle = options.enable_lifecycle;
  for (gchar** h = options.allowed_hosts; h && *h; ++h) web.allowed_hosts.push_back(*h);
  App app(config, options.config ? options.config : "", cli_streams, choice, web);
  const int rc = app.Run();
  gst_deinit();
  return rc;
}
