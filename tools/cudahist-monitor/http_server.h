// The monitor's one HTTP port (libsoup): /metrics for Prometheus, / the
// status page, /status.json and /events.json its data, /scope?stream=NAME and
// /thumbnail?stream=NAME the stream's latest scope (PNG) and picture (JPEG),
// POST /-/reload to read the config again.
#pragma once

#include <libsoup/soup.h>

#include <functional>
#include <string>

namespace monitor {

struct HttpHandlers {
  std::function<std::string()> metrics;                  // text exposition format
  std::function<std::string()> status_json;
  std::function<std::string(const std::string&)> scope;      // PNG bytes of a stream, "" when none
  std::function<std::string(const std::string&)> thumbnail;  // JPEG bytes of a stream, "" when none
  std::function<std::string()> events_json;                  // the last alarm events
  std::function<std::string()> reload;                   // "" when reloaded, else the error
};

class HttpServer {
 public:
  explicit HttpServer(HttpHandlers handlers) : handlers_(std::move(handlers)) {}
  ~HttpServer();
  // Listens on "HOST:PORT"; false with the reason (a port in use, a bad address).
  bool Listen(const std::string& listen, std::string* error);

 private:
  static void OnRequest(SoupServer*, SoupServerMessage* msg, const char* path, GHashTable* query, gpointer self);
  void Handle(SoupServerMessage* msg, const std::string& path, GHashTable* query);

  HttpHandlers handlers_;
  SoupServer* server_ = nullptr;
};

}  // namespace monitor
