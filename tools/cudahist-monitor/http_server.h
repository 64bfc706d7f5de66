// The monitor's one HTTP port (libsoup): /metrics for Prometheus, / the
// status page, /status.json and /events.json its data, /scope?stream=NAME and
// /thumbnail?stream=NAME the stream's latest scope (PNG) and picture (JPEG),
// POST /-/reload to read the config again.
//
// It follows the Prometheus exporters' conventions for a port on a network:
// --web.config.file (TLS, mutual TLS, basic auth with bcrypt hashes; read
// again for every request and every new connection), /-/reload only with
// --web.enable-lifecycle and only by POST, cross-site POSTs refused (Origin,
// Sec-Fetch-Site), and a request whose Host is not a name of this monitor
// refused (DNS rebinding) unless --web.allowed-host names it.
//
// Connections are accepted here (a GSocketService), put through TLS when the
// web config asks for it, and handed to libsoup's server.
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "web_config.h"

namespace monitor {

struct HttpHandlers {
  std::function<std::string()> metrics;                  // text exposition format
  std::function<std::string()> status_json;
  std::function<std::string(const std::string&)> scope;      // PNG bytes of a stream, "" when none
  std::function<std::string(const std::string&)> thumbnail;  // JPEG bytes of a stream, "" when none
  std::function<std::string()> events_json;                  // the last alarm events
  std::function<std::string()> reload;                   // "" when reloaded, else the error
};

struct WebOptions {
  std::string listen = "127.0.0.1:9720";  // HOST:PORT, NAME:PORT or [IPV6]:PORT
  std::string config_file;                // --web.config.file; "" for plain HTTP without auth
  bool enable_lifecycle = false;          // --web.enable-lifecycle: POST /-/reload answers
  std::vector<std::string> allowed_hosts; // --web.allowed-host: more names a request's Host may give
};

class HttpServer {
 public:
  explicit HttpServer(HttpHandlers handlers);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Reads and checks the web config (its certificates included); false with
  // "--web.config.file FILE: what is wrong". Start checks it too.
  static bool CheckWebConfig(const std::string& path, bool* tls, std::string* error);

  // Reads and checks the web config (its certificates included), resolves
  // the listen address and listens on every address it names. False with
  // the reason: a broken web config, a name that does not resolve, a port in use.
  bool Start(const WebOptions& options, std::string* error);
  // "http://127.0.0.1:9720/" (and one per further address), for the log.
  std::string Urls() const;

  struct Incoming;  // a connection on its way to libsoup

 private:
  static gboolean OnIncoming(GSocketService*, GSocketConnection* connection, GObject*, gpointer self);
  static gboolean OnFirstBytes(GSocket* socket, GIOCondition, gpointer incoming);
  static void OnHandshake(GObject* tls, GAsyncResult* result, gpointer incoming);
  static void ReadHead(Incoming* in);
  static void OnHeadRead(GObject* head, GAsyncResult* result, gpointer incoming);
  static void Refuse(Incoming* in, const std::string& why);
  static void Release(Incoming* in);
  void Serve(Incoming* in, const std::string& request);

  static void OnRequest(SoupServer*, SoupServerMessage* msg, const char* path, GHashTable* query, gpointer self);
  void Handle(SoupServerMessage* msg);
  bool HostAllowed(SoupServerMessage* msg) const;
  static void OnPasswordChecked(GObject*, GAsyncResult* result, gpointer check);
  void Route(SoupServerMessage* msg);

  HttpHandlers handlers_;
  WebOptions options_;
  bool tls_ = false;                         // decided at the start, as the toolkit does
  std::set<std::string> host_names_;         // lower case: the Host names a request may give
  std::vector<std::string> urls_;
  SoupServer* server_ = nullptr;
  GSocketService* service_ = nullptr;
  GCancellable* closing_ = nullptr;          // cancels handshakes and password checks under way
  std::map<std::string, bool> checked_;      // digest of (user, hash, password) -> whether it matched
};

}  // namespace monitor
