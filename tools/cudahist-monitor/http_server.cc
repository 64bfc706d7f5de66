#include "http_server.h"

#include <sys/socket.h>

#include <cstring>
#include <mutex>

#include "config.h"
#include "status_page.h"

namespace monitor {
namespace {

// A client has this long to finish its TLS handshake and send its request's
// head: one that connects and says nothing does not hold a connection for ever.
constexpr guint kIncomingSeconds = 10;
// Remembered password checks (bcrypt costs tens of ms each): forgotten all
// at once when there are this many, so guessing cannot grow the memory.
constexpr size_t kRememberedChecks = 1024;
// The hash a user who does not exist is checked against, so that the time
// an answer takes says nothing about which users exist.
constexpr char kNoSuchUserHash[] = "$2y$10$z9vcYTtvqxy0FCtvwF/jXOEw5HRFPlwHos57X62S3SMrcu0D5ovK6";
constexpr char kRealm[] = "Basic realm=\"cudahist-monitor\"";

void Respond(SoupServerMessage* msg, guint status, const std::string& body, const char* type = "text/plain") {
  soup_server_message_set_status(msg, status, nullptr);
  soup_server_message_set_response(msg, type, SOUP_MEMORY_COPY, body.data(), body.size());
  soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Cache-Control", "no-store");
}

void Unauthorized(SoupServerMessage* msg) {
  soup_message_headers_replace(soup_server_message_get_response_headers(msg), "WWW-Authenticate", kRealm);
  Respond(msg, SOUP_STATUS_UNAUTHORIZED, "Unauthorized\n");
}

const char* RequestHeader(SoupServerMessage* msg, const char* name) {
  return soup_message_headers_get_one(soup_server_message_get_request_headers(msg), name);
}

std::string Lower(const std::string& text) {
  gchar* lower = g_ascii_strdown(text.c_str(), -1);
  std::string result = lower;
  g_free(lower);
  return result;
}

// "Host: NAME:PORT" or "[IPV6]:PORT": the name, lower case, without a final dot; the port or -1.
std::string HostName(const std::string& host, int* port = nullptr) {
  std::string name = host, port_text;
  if (!name.empty() && name[0] == '[') {
    const size_t close = name.find(']');
    port_text =
        close != std::string::npos && close + 1 < name.size() && name[close + 1] == ':' ? name.substr(close + 2) : "";
    name = name.substr(1, close == std::string::npos ? std::string::npos : close - 1);
  } else if (name.find(':') == name.rfind(':') && name.find(':') != std::string::npos) {
    port_text = name.substr(name.find(':') + 1);
    name = name.substr(0, name.find(':'));
  }
  if (!name.empty() && name.back() == '.') name.pop_back();
  if (port) *port = port_text.empty() ? -1 : atoi(port_text.c_str());
  return Lower(name);
}

// The user and password of "Authorization: Basic BASE64(USER:PASSWORD)".
bool BasicCredentials(SoupServerMessage* msg, std::string* user, std::string* password) {
  const char* header = RequestHeader(msg, "Authorization");
  if (!header || g_ascii_strncasecmp(header, "Basic ", 6) != 0) return false;
  gsize length = 0;
  guchar* decoded = g_base64_decode(header + 6, &length);
  const std::string pair(reinterpret_cast<const char*>(decoded), length);
  g_free(decoded);
  const size_t colon = pair.find(':');
  if (colon == std::string::npos) return false;
  *user = pair.substr(0, colon);
  *password = pair.substr(colon + 1);
  return true;
}

std::string Digest(const std::string& user, const std::string& hash, const std::string& password) {
  const std::string text = user + '\0' + hash + '\0' + password;
  gchar* digest = g_compute_checksum_for_data(G_CHECKSUM_SHA256, reinterpret_cast<const guchar*>(text.data()),
                                              text.size());
  std::string result = digest;
  g_free(digest);
  return result;
}

std::string PeerOf(GSocketConnection* connection) {
  GSocketAddress* address = g_socket_connection_get_remote_address(connection, nullptr);
  if (!address) return "?";
  gchar* text = g_socket_connectable_to_string(G_SOCKET_CONNECTABLE(address));
  std::string peer = text;
  g_free(text);
  g_object_unref(address);
  return peer;
}

GTlsAuthenticationMode AuthenticationMode(ClientAuth auth) {
  switch (auth) {
    case ClientAuth::kNone: return G_TLS_AUTHENTICATION_NONE;
    case ClientAuth::kRequest:
    case ClientAuth::kVerifyIfGiven: return G_TLS_AUTHENTICATION_REQUESTED;
    case ClientAuth::kRequireAny:
    case ClientAuth::kRequireAndVerify: return G_TLS_AUTHENTICATION_REQUIRED;
  }
  return G_TLS_AUTHENTICATION_REQUIRED;
}

// A TLS server connection asks here about every client certificate, with
// what its verification against the client CAs found: taken when nothing
// was found, or when the config asks for any certificate (RequestClientCert,
// RequireAnyClientCert).
gboolean OnClientCertificate(GTlsConnection*, GTlsCertificate*, GTlsCertificateFlags errors, gpointer accept_any) {
  return GPOINTER_TO_INT(accept_any) || errors == 0;
}

// Why a state-changing request comes from another site, or "". A browser
// says it in Sec-Fetch-Site, and in Origin, which must then be this server
// as the request reached it.
std::string CrossSiteRefusal(SoupServerMessage* msg, bool tls) {
  const char* site = RequestHeader(msg, "Sec-Fetch-Site");
  if (site && g_strcmp0(site, "same-origin") != 0 && g_strcmp0(site, "none") != 0)
    return std::string("cross-site request refused (Sec-Fetch-Site: ") + site + ")";
  const char* origin = RequestHeader(msg, "Origin");
  if (!origin) return "";
  const char* scheme = tls ? "https" : "http";
  const int default_port = tls ? 443 : 80;
  GUri* parsed = g_uri_parse(origin, G_URI_FLAGS_NONE, nullptr);
  int host_port = -1;
  const char* host = RequestHeader(msg, "Host");
  const std::string expected_host = HostName(host ? host : "", &host_port);
  const bool same = parsed && g_ascii_strcasecmp(g_uri_get_scheme(parsed), scheme) == 0 &&
                    g_uri_get_host(parsed) && HostName(g_uri_get_host(parsed)) == expected_host &&
                    (g_uri_get_port(parsed) < 0 ? default_port : g_uri_get_port(parsed)) ==
                        (host_port < 0 ? default_port : host_port);
  if (parsed) g_uri_unref(parsed);
  return same ? "" : std::string("cross-site request refused (Origin: ") + origin + ")";
}

struct PasswordCheck {
  HttpServer* server;
  SoupServerMessage* msg;
  std::string password, hash, digest;
  bool user_exists;
};

// bcrypt is made to be slow: one check at a time, off the main loop, so that
// guessing costs one core at most and the streams never wait for it.
void CheckPasswordInThread(GTask* task, gpointer, gpointer data, GCancellable*) {
  static std::mutex one_at_a_time;
  const auto* check = static_cast<const PasswordCheck*>(data);
  std::lock_guard<std::mutex> hold(one_at_a_time);
  g_task_return_boolean(task, PasswordMatches(check->password, check->hash));
}

// What Go's servers answer plain HTTP on a TLS port: a person at curl or a browser learns why.
constexpr char kPlainHttpAnswer[] =
    "HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n"
    "Client sent an HTTP request to an HTTPS server.\n";
// libsoup's own limit on a request's head (which it meets by closing the
// connection without a word), and one on a body: no endpoint here reads one.
constexpr gsize kHeadLimit = 64 * 1024;
constexpr gsize kBodyLimit = 64 * 1024;
constexpr char kHeadTooLargeAnswer[] =
    "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n"
    "The request's header is over 64 KiB.\n";
constexpr char kBodyTooLargeAnswer[] =
    "HTTP/1.1 413 Content Too Large\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n"
    "The request's body is over 64 KiB.\n";
constexpr char kLengthRequiredAnswer[] =
    "HTTP/1.1 411 Length Required\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n"
    "A request's body needs a Content-Length here.\n";

// How much of a connection's first bytes is its request, once that is known.
struct RequestSize {
  gsize whole = 0;                  // head and body; 0: the head is not complete yet
  std::string refusal;              // for the log, when the request is refused
  const char* answer = nullptr;     // the refusal's HTTP answer
};

// The value of header `name` in `head` (lines after the request line), or "".
std::string HeadValue(const std::string& head, const char* name) {
  const std::string wanted = Lower(name) + ":";
  for (size_t line = head.find('\n'); line != std::string::npos && line + 1 < head.size();
       line = head.find('\n', line + 1)) {
    const std::string rest = Lower(head.substr(line + 1, wanted.size()));
    if (rest != wanted) continue;
    const size_t end = head.find('\n', line + 1);
    std::string value = head.substr(line + 1 + wanted.size(),
                                    end == std::string::npos ? std::string::npos : end - line - 1 - wanted.size());
    return std::string(g_strstrip(value.data()));
  }
  return "";
}

RequestSize SizeOf(const std::string& bytes) {
  RequestSize size;
  size_t head_end = bytes.find("\r\n\r\n");
  head_end = head_end == std::string::npos ? bytes.find("\n\n") : head_end + 2;
  if (head_end == std::string::npos || head_end + 2 > kHeadLimit) {
    if (bytes.size() >= kHeadLimit || head_end != std::string::npos) {
      size.refusal = "its request's header is over 64 KiB";
      size.answer = kHeadTooLargeAnswer;
    }
    return size;
  }
  const std::string head = bytes.substr(0, head_end);
  if (!HeadValue(head, "Transfer-Encoding").empty()) {
    size.refusal = "its request's body has no Content-Length";
    size.answer = kLengthRequiredAnswer;
    return size;
  }
  const std::string length = HeadValue(head, "Content-Length");
  char* end = nullptr;
  const unsigned long long body = length.empty() ? 0 : g_ascii_strtoull(length.c_str(), &end, 10);
  if (!length.empty() && (*end || body > kBodyLimit)) {
    size.refusal = "its request's body is over 64 KiB (Content-Length: " + length + ")";
    size.answer = kBodyTooLargeAnswer;
    return size;
  }
  size.whole = head_end + 2 + body;
  return size;
}
// A TLS connection's first byte: the record type of its ClientHello.
constexpr guint8 kTlsHandshakeRecord = 0x16;

}  // namespace

// A new connection on its way to libsoup: through TLS when the web config
// asks for it, then its request's head read whole.
struct HttpServer::Incoming {
  HttpServer* server;
  GSocketConnection* connection;
  GIOStream* stream;                  // the connection, or its TLS
  GBufferedInputStream* head;         // the request's first bytes, kept for libsoup
  GCancellable* cancellable;          // cancelled at the deadline
  guint deadline;
  GTlsProtocolVersion min_version, max_version;
};

HttpServer::HttpServer(HttpHandlers handlers) : handlers_(std::move(handlers)), closing_(g_cancellable_new()) {}

HttpServer::~HttpServer() {
  g_cancellable_cancel(closing_);
  if (service_) {
    g_socket_service_stop(service_);
    g_socket_listener_close(G_SOCKET_LISTENER(service_));
    g_object_unref(service_);
  }
  if (server_) {
    soup_server_disconnect(server_);
    g_object_unref(server_);
  }
  g_object_unref(closing_);
}

bool HttpServer::CheckWebConfig(const std::string& path, bool* tls, std::string* error) {
  WebConfig web;
  TlsMaterial material;
  std::string problem;
  if (!LoadWebConfig(path, &web, error)) return false;  // "PATH:LINE: ..."
  if (web.tls.enabled && !material.Load(web.tls, &problem)) {
    *error = path + ": " + problem;
    return false;
  }
  *tls = web.tls.enabled;
  return true;
}

bool HttpServer::Start(const WebOptions& options, std::string* error) {
  options_ = options;
  if (!options_.config_file.empty() && !CheckWebConfig(options_.config_file, &tls_, error)) return false;
  std::string host;
  int port = 0;
  if (!ParseListen(options_.listen, &host, &port)) {
    *error = "listen " + options_.listen + ": HOST:PORT, e.g. 127.0.0.1:9720, localhost:9720, [::1]:9720";
    return false;
  }
  std::vector<GInetAddress*> addresses;
  if (GInetAddress* literal = g_inet_address_new_from_string(host.c_str())) {
    addresses.push_back(literal);
  } else {
    GResolver* resolver = g_resolver_get_default();
    GError* e = nullptr;
    GList* found = g_resolver_lookup_by_name(resolver, host.c_str(), nullptr, &e);
    g_object_unref(resolver);
    if (!found) {
      *error = "cannot resolve '" + host + "' to listen on " + options_.listen + ": " + e->message;
      g_error_free(e);
      return false;
    }
    for (GList* a = found; a; a = a->next) addresses.push_back(G_INET_ADDRESS(g_object_ref(a->data)));
    g_resolver_free_addresses(found);
    host_names_.insert(HostName(host));
  }
  host_names_.insert({"localhost", HostName(g_get_host_name())});
  for (const std::string& name : options_.allowed_hosts) host_names_.insert(HostName(name));

  server_ = soup_server_new("server-header", "cudahist-monitor", nullptr);
  soup_server_add_handler(server_, nullptr, OnRequest, this, nullptr);
  service_ = g_socket_service_new();
  bool ok = true;
  for (GInetAddress* address : addresses) {
    GSocketAddress* socket_address = g_inet_socket_address_new(address, guint16(port));
    GError* e = nullptr;
    gchar* text = g_socket_connectable_to_string(G_SOCKET_CONNECTABLE(socket_address));
    const std::string where = text;
    g_free(text);
    if (ok && !g_socket_listener_add_address(G_SOCKET_LISTENER(service_), socket_address, G_SOCKET_TYPE_STREAM,
                                             G_SOCKET_PROTOCOL_TCP, nullptr, nullptr, &e)) {
      *error = "cannot listen on " + where + " (listen " + options_.listen + "): " + e->message;
      g_error_free(e);
      ok = false;
    }
    urls_.push_back(std::string(tls_ ? "https://" : "http://") + where + "/");
    g_object_unref(socket_address);
    g_object_unref(address);
  }
  if (!ok) return false;
  g_signal_connect(service_, "incoming", G_CALLBACK(OnIncoming), this);
  g_socket_service_start(service_);
  return true;
}

std::string HttpServer::Urls() const {
  std::string text;
  for (const std::string& url : urls_) text += (text.empty() ? "" : " and ") + url;
  return text;
}

gboolean HttpServer::OnIncoming(GSocketService*, GSocketConnection* connection, GObject*, gpointer self) {
  auto* in = new Incoming{static_cast<HttpServer*>(self), G_SOCKET_CONNECTION(g_object_ref(connection)),
                          G_IO_STREAM(g_object_ref(connection)), nullptr, g_cancellable_new(), 0,
                          G_TLS_PROTOCOL_VERSION_UNKNOWN, G_TLS_PROTOCOL_VERSION_UNKNOWN};
  in->deadline = g_timeout_add_seconds(
      kIncomingSeconds, [](gpointer cancellable) -> gboolean {
        g_cancellable_cancel(G_CANCELLABLE(cancellable));
        return G_SOURCE_REMOVE;
      },
      in->cancellable);
  if (!in->server->tls_) {
    ReadHead(in);
    return TRUE;
  }
  GSource* readable = g_socket_create_source(g_socket_connection_get_socket(connection), G_IO_IN, in->cancellable);
  g_source_set_callback(readable, G_SOURCE_FUNC(OnFirstBytes), in, nullptr);
  g_source_attach(readable, nullptr);
  g_source_unref(readable);
  return TRUE;
}

void HttpServer::Refuse(Incoming* in, const std::string& why) {
  g_printerr("cudahist-monitor: %s: refused a connection from %s: %s\n", in->server->tls_ ? "https" : "http",
             PeerOf(in->connection).c_str(), why.c_str());
  g_io_stream_close(in->stream, nullptr, nullptr);
  Release(in);
}

void HttpServer::Release(Incoming* in) {
  if (!g_cancellable_is_cancelled(in->cancellable)) g_source_remove(in->deadline);
  if (in->head) g_object_unref(in->head);
  g_object_unref(in->stream);
  g_object_unref(in->connection);
  g_object_unref(in->cancellable);
  delete in;
}

// Every new connection reads the web config and its certificates again, as
// the exporter-toolkit does: a renewed certificate counts from the next one.
// The first byte the client sends tells TLS (a handshake record) from plain
// HTTP, which is answered in words instead of a failed handshake.
gboolean HttpServer::OnFirstBytes(GSocket* socket, GIOCondition, gpointer data) {
  auto* in = static_cast<Incoming*>(data);
  const std::string& path = in->server->options_.config_file;
  guint8 first = 0;
  const ssize_t peeked = recv(g_socket_get_fd(socket), &first, 1, MSG_PEEK | MSG_DONTWAIT);
  WebConfig web;
  TlsMaterial material;
  std::string refusal;
  if (g_cancellable_is_cancelled(in->cancellable)) {
    refusal = "nothing sent within " + std::to_string(kIncomingSeconds) + " s";
  } else if (peeked <= 0) {
    refusal = "closed before a TLS handshake";
  } else if (first != kTlsHandshakeRecord) {
    g_output_stream_write_all(g_io_stream_get_output_stream(in->stream), kPlainHttpAnswer, strlen(kPlainHttpAnswer),
                              nullptr, nullptr, nullptr);
    refusal = "plain HTTP on the HTTPS port";
  } else if (!LoadWebConfig(path, &web, &refusal)) {
  } else if (!web.tls.enabled) {
    refusal = path + ": tls_server_config is gone (TLS was on at the start; a restart turns it off)";
  } else {
    material.Load(web.tls, &refusal);
  }
  GError* e = nullptr;
  GIOStream* tls = refusal.empty() ? g_tls_server_connection_new(in->stream, material.certificate(), &e) : nullptr;
  if (e) {
    refusal = e->message;
    g_error_free(e);
  }
  if (!tls) {
    Refuse(in, refusal);
    return G_SOURCE_REMOVE;
  }
  const bool accept_any = web.tls.client_auth == ClientAuth::kRequest || web.tls.client_auth == ClientAuth::kRequireAny;
  g_object_set(tls, "authentication-mode", AuthenticationMode(web.tls.client_auth), nullptr);
  g_tls_connection_set_database(G_TLS_CONNECTION(tls), material.client_cas());
  g_tls_connection_set_require_close_notify(G_TLS_CONNECTION(tls), FALSE);
  const gchar* protocols[] = {"http/1.1", nullptr};
  g_tls_connection_set_advertised_protocols(G_TLS_CONNECTION(tls), protocols);
  g_signal_connect(tls, "accept-certificate", G_CALLBACK(OnClientCertificate), GINT_TO_POINTER(accept_any));
  in->min_version = web.tls.min_version;
  in->max_version = web.tls.max_version;
  g_object_unref(in->stream);
  in->stream = tls;
  g_tls_connection_handshake_async(G_TLS_CONNECTION(tls), G_PRIORITY_DEFAULT, in->cancellable, OnHandshake, in);
  return G_SOURCE_REMOVE;
}

void HttpServer::OnHandshake(GObject* tls, GAsyncResult* result, gpointer data) {
  auto* in = static_cast<Incoming*>(data);
  GError* e = nullptr;
  if (!g_tls_connection_handshake_finish(G_TLS_CONNECTION(tls), result, &e)) {
    const std::string why = e->message;
    g_error_free(e);
    return Refuse(in, why);
  }
  const GTlsProtocolVersion version = g_tls_connection_get_protocol_version(G_TLS_CONNECTION(tls));
  if (version < in->min_version || version > in->max_version)
    return Refuse(in,
                  std::string(TlsVersionName(version)) + " is outside the web config's min_version and max_version");
  ReadHead(in);
}

// The request is read whole here before libsoup sees it: libsoup closes a
// connection whose head is over its limit without a word, and waits for a
// slow client as long as it likes. libsoup serves one request per connection
// accepted this way (it keeps a connection open only for its own listeners),
// so it gets that request's bytes alone.
void HttpServer::ReadHead(Incoming* in) {
  in->head = G_BUFFERED_INPUT_STREAM(
      g_buffered_input_stream_new_sized(g_io_stream_get_input_stream(in->stream), kHeadLimit + kBodyLimit));
  g_buffered_input_stream_fill_async(in->head, -1, G_PRIORITY_DEFAULT, in->cancellable, OnHeadRead, in);
}

void HttpServer::OnHeadRead(GObject* head, GAsyncResult* result, gpointer data) {
  auto* in = static_cast<Incoming*>(data);
  GError* e = nullptr;
  const gssize read = g_buffered_input_stream_fill_finish(G_BUFFERED_INPUT_STREAM(head), result, &e);
  if (e) {
    const std::string why = g_error_matches(e, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                                ? "no whole request within " + std::to_string(kIncomingSeconds) + " s"
                                : std::string(e->message);
    g_error_free(e);
    return Refuse(in, why);
  }
  gsize length = 0;
  const char* bytes = static_cast<const char*>(g_buffered_input_stream_peek_buffer(in->head, &length));
  const std::string text(bytes, length);
  const RequestSize size = SizeOf(text);
  if (!size.refusal.empty()) {
    g_output_stream_write_all(g_io_stream_get_output_stream(in->stream), size.answer, strlen(size.answer), nullptr,
                              nullptr, nullptr);
    return Refuse(in, size.refusal);
  }
  if (size.whole && length >= size.whole) return in->server->Serve(in, text.substr(0, size.whole));
  if (read == 0) {
    // Closed by the client before a whole request: nothing to answer, nothing to say.
    g_io_stream_close(in->stream, nullptr, nullptr);
    return Release(in);
  }
  g_buffered_input_stream_fill_async(in->head, -1, G_PRIORITY_DEFAULT, in->cancellable, OnHeadRead, in);
}

// libsoup reads the request from its bytes and writes its answer to the
// connection (its TLS or its socket), which the stream holds.
void HttpServer::Serve(Incoming* in, const std::string& request) {
  GBytes* bytes = g_bytes_new(request.data(), request.size());
  GInputStream* input = g_memory_input_stream_new_from_bytes(bytes);
  g_bytes_unref(bytes);
  GIOStream* stream = g_simple_io_stream_new(input, g_io_stream_get_output_stream(in->stream));
  g_object_unref(input);
  g_object_set_data_full(G_OBJECT(stream), "cudahist-monitor-connection", g_object_ref(in->stream), g_object_unref);
  GSocketAddress* local = g_socket_connection_get_local_address(in->connection, nullptr);
  GSocketAddress* remote = g_socket_connection_get_remote_address(in->connection, nullptr);
  soup_server_accept_iostream(server_, stream, local, remote, nullptr);
  if (local) g_object_unref(local);
  if (remote) g_object_unref(remote);
  g_object_unref(stream);
  Release(in);
}

void HttpServer::OnRequest(SoupServer*, SoupServerMessage* msg, const char*, GHashTable*, gpointer self) {
  static_cast<HttpServer*>(self)->Handle(msg);
}

bool HttpServer::HostAllowed(SoupServerMessage* msg) const {
  const char* host = RequestHeader(msg, "Host");
  if (!host) return true;
  // An address cannot be rebound by DNS: only a name can point a browser's
  // page at this port.
  const std::string name = HostName(host);
  return g_hostname_is_ip_address(name.c_str()) || host_names_.count(name);
}

// The web config is read again for every request (its users and headers), as the exporter-toolkit does.
void HttpServer::Handle(SoupServerMessage* msg) {
  WebConfig web;
  std::string problem;
  if (!options_.config_file.empty() && !LoadWebConfig(options_.config_file, &web, &problem)) {
    g_printerr("cudahist-monitor: %s\n", problem.c_str());
    return Respond(msg, SOUP_STATUS_INTERNAL_SERVER_ERROR, "Internal Server Error: the web config cannot be read\n");
  }
  SoupMessageHeaders* response = soup_server_message_get_response_headers(msg);
  for (const auto& [name, value] : web.headers) soup_message_headers_replace(response, name.c_str(), value.c_str());
  if (!HostAllowed(msg)) {
    return Respond(msg, SOUP_STATUS_FORBIDDEN,
                   std::string("Host '") + RequestHeader(msg, "Host") +
                       "' is not a name of this monitor (--web.allowed-host NAME lets one in)\n");
  }
  if (web.users.empty()) return Route(msg);
  std::string user, password;
  if (!BasicCredentials(msg, &user, &password)) return Unauthorized(msg);
  const auto found = web.users.find(user);
  const bool exists = found != web.users.end();
  const std::string hash = exists ? found->second : kNoSuchUserHash;
  const std::string digest = Digest(user, hash, password);
  if (const auto checked = checked_.find(digest); checked != checked_.end())
    return checked->second && exists ? Route(msg) : Unauthorized(msg);
  soup_server_message_pause(msg);
  auto* check = new PasswordCheck{this, SOUP_SERVER_MESSAGE(g_object_ref(msg)), password, hash, digest, exists};
  GTask* task = g_task_new(nullptr, closing_, OnPasswordChecked, check);
  g_task_set_task_data(task, check, nullptr);
  g_task_run_in_thread(task, CheckPasswordInThread);
  g_object_unref(task);
}

void HttpServer::OnPasswordChecked(GObject*, GAsyncResult* result, gpointer data) {
  auto* check = static_cast<PasswordCheck*>(data);
  GError* e = nullptr;
  const bool matched = g_task_propagate_boolean(G_TASK(result), &e);
  if (e) {
    g_error_free(e);  // the server is closing
  } else {
    HttpServer* server = check->server;
    if (server->checked_.size() >= kRememberedChecks) server->checked_.clear();
    server->checked_[check->digest] = matched;
    if (matched && check->user_exists) server->Route(check->msg);
    else Unauthorized(check->msg);
    soup_server_message_unpause(check->msg);
  }
  g_object_unref(check->msg);
  delete check;
}

void HttpServer::Route(SoupServerMessage* msg) {
  const std::string method = soup_server_message_get_method(msg);
  GUri* uri = soup_server_message_get_uri(msg);
  const std::string path = g_uri_get_path(uri);
  if (path == "/-/reload") {
    if (!options_.enable_lifecycle)
      return Respond(msg, SOUP_STATUS_FORBIDDEN,
                     "Lifecycle API is not enabled: start the monitor with --web.enable-lifecycle\n");
    if (method != "POST") {
      soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Allow", "POST");
      return Respond(msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "POST to reload the config\n");
    }
    const std::string refusal = CrossSiteRefusal(msg, tls_);
    if (!refusal.empty()) return Respond(msg, SOUP_STATUS_FORBIDDEN, refusal + "\n");
    const std::string problem = handlers_.reload();
    return problem.empty() ? Respond(msg, SOUP_STATUS_OK, "reloaded\n")
                           : Respond(msg, SOUP_STATUS_BAD_REQUEST, problem + "\n");
  }
  if (method != "GET" && method != "HEAD") {
    soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Allow", "GET, HEAD");
    return Respond(msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "GET only\n");
  }
  if (path == "/metrics")
    return Respond(msg, SOUP_STATUS_OK, handlers_.metrics(), "text/plain; version=0.0.4; charset=utf-8");
  if (path == "/" || path == "/index.html")
    return Respond(msg, SOUP_STATUS_OK, StatusPageHtml(), "text/html; charset=utf-8");
  if (path == "/status.json") return Respond(msg, SOUP_STATUS_OK, handlers_.status_json(), "application/json");
  if (path == "/events.json") return Respond(msg, SOUP_STATUS_OK, handlers_.events_json(), "application/json");
  if (path == "/scope" || path == "/thumbnail") {
    const bool scope = path == "/scope";
    const char* query = g_uri_get_query(uri);
    GHashTable* form = query ? soup_form_decode(query) : nullptr;
    const char* stream = form ? static_cast<const char*>(g_hash_table_lookup(form, "stream")) : nullptr;
    const std::string picture = stream ? (scope ? handlers_.scope : handlers_.thumbnail)(stream) : "";
    if (form) g_hash_table_unref(form);
    if (picture.empty()) return Respond(msg, SOUP_STATUS_NOT_FOUND, "no picture for this stream yet\n");
    return Respond(msg, SOUP_STATUS_OK, picture, scope ? "image/png" : "image/jpeg");
  }
  Respond(msg, SOUP_STATUS_NOT_FOUND,
          "not found: /metrics, /, /status.json, /events.json, /scope?stream=NAME, /thumbnail?stream=NAME, "
          "POST /-/reload\n");
}

}  // namespace monitor
