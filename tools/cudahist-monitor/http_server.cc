#include "http_server.h"

#include <gio/gio.h>

#include "config.h"
#include "status_page.h"

namespace monitor {
namespace {

void Respond(SoupServerMessage* msg, guint status, const char* type, const std::string& body) {
  soup_server_message_set_status(msg, status, nullptr);
  soup_server_message_set_response(msg, type, SOUP_MEMORY_COPY, body.data(), body.size());
  soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Cache-Control", "no-store");
}

}  // namespace

HttpServer::~HttpServer() {
  if (server_) {
    soup_server_disconnect(server_);
    g_object_unref(server_);
  }
}

bool HttpServer::Listen(const std::string& listen, std::string* error) {
  std::string host;
  int port = 0;
  if (!ParseListen(listen, &host, &port)) {
    *error = "--listen " + listen + ": HOST:PORT, e.g. 127.0.0.1:9720";
    return false;
  }
  GInetAddress* address = g_inet_address_new_from_string(host.c_str());
  if (!address) {
    *error = "--listen " + listen + ": '" + host + "' is not an IP address";
    return false;
  }
  GSocketAddress* socket_address = g_inet_socket_address_new(address, guint16(port));
  g_object_unref(address);
  server_ = soup_server_new("server-header", "cudahist-monitor", nullptr);
  soup_server_add_handler(server_, nullptr, OnRequest, this, nullptr);
  GError* e = nullptr;
  const bool ok = soup_server_listen(server_, socket_address, SoupServerListenOptions(0), &e);
  g_object_unref(socket_address);
  if (!ok) {
    *error = "cannot listen on " + listen + ": " + e->message;
    g_error_free(e);
  }
  return ok;
}

void HttpServer::OnRequest(SoupServer*, SoupServerMessage* msg, const char* path, GHashTable* query, gpointer self) {
  static_cast<HttpServer*>(self)->Handle(msg, path, query);
}

void HttpServer::Handle(SoupServerMessage* msg, const std::string& path, GHashTable* query) {
  const std::string method = soup_server_message_get_method(msg);
  if (path == "/-/reload") {
    if (method != "POST") return Respond(msg, 405, "text/plain", "POST to reload the config\n");
    const std::string problem = handlers_.reload();
    return problem.empty() ? Respond(msg, 200, "text/plain", "reloaded\n")
                           : Respond(msg, 400, "text/plain", problem + "\n");
  }
  if (method != "GET" && method != "HEAD") return Respond(msg, 405, "text/plain", "GET only\n");
  if (path == "/metrics") return Respond(msg, 200, "text/plain; version=0.0.4; charset=utf-8", handlers_.metrics());
  if (path == "/" || path == "/index.html") return Respond(msg, 200, "text/html; charset=utf-8", StatusPageHtml());
  if (path == "/status.json") return Respond(msg, 200, "application/json", handlers_.status_json());
  if (path == "/events.json") return Respond(msg, 200, "application/json", handlers_.events_json());
  if (path == "/scope" || path == "/thumbnail") {
    const bool scope = path == "/scope";
    const char* stream = query ? static_cast<const char*>(g_hash_table_lookup(query, "stream")) : nullptr;
    const std::string picture = stream ? (scope ? handlers_.scope : handlers_.thumbnail)(stream) : "";
    if (picture.empty()) return Respond(msg, 404, "text/plain", "no picture for this stream yet\n");
    return Respond(msg, 200, scope ? "image/png" : "image/jpeg", picture);
  }
  Respond(msg, 404, "text/plain",
          "not found: /metrics, /, /status.json, /events.json, /scope?stream=NAME, /thumbnail?stream=NAME, "
          "POST /-/reload\n");
}

}  // namespace monitor
