// The web configuration file of the Prometheus ecosystem's exporters
// (--web.config.file, the exporter-toolkit's format): TLS, mutual TLS and
// basic authentication with bcrypt hashes. docs/monitor.md lists what is
// read; a key of the format this monitor does not honour (cipher_suites,
// rate_limit, ...) is an error, not ignored. Like the exporter-toolkit, the
// file is read again for every request (its users) and every new connection
// (its certificates), so a changed password or a renewed certificate counts
// at once.
#pragma once

#include <gio/gio.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace monitor {

// client_auth_type: whether a client certificate is asked for, needed, and checked against client_ca_file.
enum class ClientAuth { kNone, kRequest, kRequireAny, kVerifyIfGiven, kRequireAndVerify };

struct TlsServerConfig {
  std::string cert_file, key_file, client_ca_file;  // joined with the web config's folder
  ClientAuth client_auth = ClientAuth::kNone;
  GTlsProtocolVersion min_version = G_TLS_PROTOCOL_VERSION_TLS_1_2;
  GTlsProtocolVersion max_version = G_TLS_PROTOCOL_VERSION_TLS_1_3;
  bool enabled = false;  // any TLS key given: cert_file and key_file are then needed
};

struct WebConfig {
  TlsServerConfig tls;
  std::map<std::string, std::string> users;                 // basic_auth_users: name -> bcrypt hash
  std::vector<std::pair<std::string, std::string>> headers;  // http_server_config.headers, added to every response
};

// Reads and checks `path` (every hash a bcrypt hash); false with
// "PATH:LINE: what is wrong" in `error`. A hash is never quoted.
bool LoadWebConfig(const std::string& path, WebConfig* config, std::string* error);

// Parses `text` as if it were the file `path` (the tests' entry point).
bool ParseWebConfig(const std::string& text, const std::string& path, WebConfig* config, std::string* error);

// The server's certificate with its key, and the client CAs, read and
// checked: the key is the certificate's, the CA file holds certificates.
class TlsMaterial {
 public:
  TlsMaterial() = default;
  ~TlsMaterial();
  TlsMaterial(const TlsMaterial&) = delete;
  TlsMaterial& operator=(const TlsMaterial&) = delete;

  bool Load(const TlsServerConfig& tls, std::string* error);
  GTlsCertificate* certificate() const { return certificate_; }
  GTlsDatabase* client_cas() const { return client_cas_; }  // null without client_ca_file

 private:
  GTlsCertificate* certificate_ = nullptr;
  GTlsDatabase* client_cas_ = nullptr;
};

// Whether `password` hashes to `bcrypt_hash` (libxcrypt's crypt). Takes the
// hash's cost in time: about 70 ms at cost 10.
bool PasswordMatches(const std::string& password, const std::string& bcrypt_hash);

// "TLS 1.2" for the log.
const char* TlsVersionName(GTlsProtocolVersion version);

}  // namespace monitor
