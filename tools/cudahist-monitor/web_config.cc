#include "web_config.h"

#include <crypt.h>
#include <gnutls/gnutls.h>
#include <yaml.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <set>

#include "config.h"

namespace monitor {
namespace {

// The exporter-toolkit's keys this monitor does not honour. Ignoring one
// would serve weaker TLS, or none of a limit, than the file asks for.
const std::set<std::string> kUnsupportedTlsKeys = {"cert", "key", "client_ca", "cipher_suites", "curve_preferences",
                                                   "client_allowed_sans"};

const std::map<std::string, ClientAuth>& ClientAuthTypes() {
  static const std::map<std::string, ClientAuth> types = {
      {"NoClientCert", ClientAuth::kNone},
      {"RequestClientCert", ClientAuth::kRequest},
      {"RequireAnyClientCert", ClientAuth::kRequireAny},
      {"RequireClientCert", ClientAuth::kRequireAny},  // the toolkit's older name
      {"VerifyClientCertIfGiven", ClientAuth::kVerifyIfGiven},
      {"RequireAndVerifyClientCert", ClientAuth::kRequireAndVerify}};
  return types;
}

const std::map<std::string, GTlsProtocolVersion>& TlsVersions() {
  static const std::map<std::string, GTlsProtocolVersion> versions = {{"TLS10", G_TLS_PROTOCOL_VERSION_TLS_1_0},
                                                                      {"TLS11", G_TLS_PROTOCOL_VERSION_TLS_1_1},
                                                                      {"TLS12", G_TLS_PROTOCOL_VERSION_TLS_1_2},
                                                                      {"TLS13", G_TLS_PROTOCOL_VERSION_TLS_1_3}};
  return versions;
}

template <typename T>
std::string Names(const std::map<std::string, T>& choices) {
  std::string names;
  for (const auto& [name, _] : choices) names += (names.empty() ? "" : ", ") + name;
  return names;
}

// bcrypt as the toolkit reads it: $2a$, $2b$ or $2y$, a two-digit cost from
// 4 to 31, 53 characters of salt and hash; and a setting libxcrypt takes.
bool IsBcryptHash(const std::string& hash) {
  if (hash.size() != 60 || hash[0] != '$' || hash[1] != '2' || std::strchr("aby", hash[2]) == nullptr ||
      hash[3] != '$' || hash[6] != '$' || !g_ascii_isdigit(hash[4]) || !g_ascii_isdigit(hash[5]))
    return false;
  const int cost = (hash[4] - '0') * 10 + (hash[5] - '0');
  return cost >= 4 && cost <= 31 && crypt_checksalt(hash.c_str()) == CRYPT_SALT_OK;
}

struct ParserDeleter {
  void operator()(yaml_parser_t* p) const {
    yaml_parser_delete(p);
    delete p;
  }
};
struct DocumentDeleter {
  void operator()(yaml_document_t* d) const {
    yaml_document_delete(d);
    delete d;
  }
};

// A YAML document's nodes, with the file's name for errors.
class Yaml {
 public:
  Yaml(yaml_document_t* document, std::string path) : document_(document), path_(std::move(path)) {}

  std::string Where(const yaml_node_t* node) const {
    return path_ + ":" + std::to_string(node->start_mark.line + 1) + ": ";
  }

  // Calls `each(key, value)` for every pair of a mapping; false (with the
  // error) when `node` is not a mapping, a key is not a string or is given
  // twice, or `each` says so.
  bool Pairs(const yaml_node_t* node, const std::string& what, std::string* error,
             const std::function<bool(const std::string&, const yaml_node_t*, const yaml_node_t*)>& each) const {
    if (node->type == YAML_SCALAR_NODE && node->data.scalar.length == 0) return true;  // "key:" with nothing: empty
    if (node->type != YAML_MAPPING_NODE) {
      *error = Where(node) + what + ": a mapping of keys to values";
      return false;
    }
    std::set<std::string> seen;
    for (yaml_node_pair_t* pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top; ++pair) {
      const yaml_node_t* key = yaml_document_get_node(document_, pair->key);
      const yaml_node_t* value = yaml_document_get_node(document_, pair->value);
      if (key->type != YAML_SCALAR_NODE) {
        *error = Where(key) + what + ": a key must be a string";
        return false;
      }
      const std::string name = Scalar(key);
      if (!seen.insert(name).second) {
        *error = Where(key) + what + ": '" + name + "' is given twice";
        return false;
      }
      if (!each(name, key, value)) return false;
    }
    return true;
  }

  // A string value; false with the error when the node is not a scalar.
  bool String(const yaml_node_t* node, const std::string& key, std::string* value, std::string* error) const {
    if (node->type != YAML_SCALAR_NODE) {
      *error = Where(node) + key + ": a string";
      return false;
    }
    *value = Scalar(node);
    return true;
  }

  template <typename T>
  bool Choice(const yaml_node_t* node, const std::string& key, const std::map<std::string, T>& choices, T* value,
              std::string* error) const {
    std::string name;
    if (!String(node, key, &name, error)) return false;
    auto it = choices.find(name);
    if (it == choices.end()) {
      *error = Where(node) + key + ": " + name + ": one of " + Names(choices);
      return false;
    }
    *value = it->second;
    return true;
  }

  static std::string Scalar(const yaml_node_t* node) {
    return std::string(reinterpret_cast<const char*>(node->data.scalar.value), node->data.scalar.length);
  }

 private:
  yaml_document_t* document_;
  std::string path_;
};

// A relative file name is the web config's folder's, as in the exporter-toolkit;
// made absolute (GIO's file database of client CAs takes no other).
std::string Beside(const std::string& config_path, const std::string& file) {
  if (file.empty()) return file;
  gchar* config = g_canonicalize_filename(config_path.c_str(), nullptr);
  gchar* folder = g_path_get_dirname(config);
  gchar* joined = g_canonicalize_filename(file.c_str(), folder);
  std::string path = joined;
  g_free(config);
  g_free(folder);
  g_free(joined);
  return path;
}

bool ReadTls(const Yaml& yaml, const yaml_node_t* node, const std::string& path, TlsServerConfig* tls,
             std::string* error) {
  const bool ok = yaml.Pairs(node, "tls_server_config", error, [&](const std::string& key, const yaml_node_t* k,
                                                                   const yaml_node_t* v) {
    tls->enabled = true;
    std::string file;
    if (key == "cert_file" || key == "key_file" || key == "client_ca_file") {
      if (!yaml.String(v, key, &file, error)) return false;
      (key == "cert_file" ? tls->cert_file : key == "key_file" ? tls->key_file : tls->client_ca_file) =
          Beside(path, file);
      return true;
    }
    if (key == "client_auth_type") return yaml.Choice(v, key, ClientAuthTypes(), &tls->client_auth, error);
    if (key == "min_version") return yaml.Choice(v, key, TlsVersions(), &tls->min_version, error);
    if (key == "max_version") return yaml.Choice(v, key, TlsVersions(), &tls->max_version, error);
    if (key == "prefer_server_cipher_suites") return true;  // Go ignores it since 1.18; so does GnuTLS's order
    if (kUnsupportedTlsKeys.count(key)) {
      *error = yaml.Where(k) + "tls_server_config: " + key +
               " is not supported by cudahist-monitor (it reads cert_file, key_file, client_ca_file, "
               "client_auth_type, min_version, max_version)";
      return false;
    }
    *error = yaml.Where(k) + "tls_server_config: unknown key '" + key + "'";
    return false;
  });
  if (!ok || !tls->enabled) return ok;
  const std::string where = yaml.Where(node) + "tls_server_config: ";
  if (tls->cert_file.empty() || tls->key_file.empty()) {
    *error = where + "cert_file and key_file are both needed for TLS";
    return false;
  }
  if (!tls->client_ca_file.empty() && tls->client_auth == ClientAuth::kNone) {
    *error = where + "client_ca_file is given without a client_auth_type that asks for a certificate "
                     "(RequireAndVerifyClientCert, VerifyClientCertIfGiven)";
    return false;
  }
  if (tls->client_ca_file.empty() &&
      (tls->client_auth == ClientAuth::kRequireAndVerify || tls->client_auth == ClientAuth::kVerifyIfGiven)) {
    *error = where + "client_auth_type verifies client certificates: it needs client_ca_file";
    return false;
  }
  if (tls->min_version > tls->max_version) {
    *error = where + "min_version is above max_version";
    return false;
  }
  return true;
}

bool ReadUsers(const Yaml& yaml, const yaml_node_t* node, std::map<std::string, std::string>* users,
               std::string* error) {
  return yaml.Pairs(node, "basic_auth_users", error, [&](const std::string& user, const yaml_node_t*,
                                                         const yaml_node_t* v) {
    std::string hash;
    if (!yaml.String(v, "basic_auth_users: " + user, &hash, error)) return false;
    if (!IsBcryptHash(hash)) {
      *error = yaml.Where(v) + "basic_auth_users: " + user +
               ": not a bcrypt hash ($2y$, $2b$ or $2a$, a cost from 04 to 31, 60 characters: htpasswd -nBC 10 \"\" "
               "makes one)";
      return false;
    }
    (*users)[user] = hash;
    return true;
  });
}

// The headers the toolkit lets a config add, with the values it allows (none listed: any).
const std::map<std::string, std::set<std::string>>& AllowedHeaders() {
  static const std::map<std::string, std::set<std::string>> headers = {
      {"Strict-Transport-Security", {}},
      {"X-Content-Type-Options", {"nosniff"}},
      {"X-Frame-Options", {"deny", "sameorigin"}},
      {"X-XSS-Protection", {}},
      {"Content-Security-Policy", {}}};
  return headers;
}

bool ReadHttp(const Yaml& yaml, const yaml_node_t* node, WebConfig* config, std::string* error) {
  return yaml.Pairs(node, "http_server_config", error, [&](const std::string& key, const yaml_node_t* k,
                                                           const yaml_node_t* v) {
    if (key == "http2") {
      // HTTP/1.1 is served either way: true only offers what a client may decline.
      std::string value;
      if (!yaml.String(v, key, &value, error)) return false;
      if (value == "true" || value == "false") return true;
      *error = yaml.Where(v) + "http_server_config: http2: true or false";
      return false;
    }
    if (key != "headers") {
      *error = yaml.Where(k) + "http_server_config: unknown key '" + key + "'";
      return false;
    }
    return yaml.Pairs(v, "headers", error, [&](const std::string& name, const yaml_node_t* hk, const yaml_node_t* hv) {
      auto allowed = AllowedHeaders().find(name);
      if (allowed == AllowedHeaders().end()) {
        *error = yaml.Where(hk) + "headers: " + name + " cannot be set (" + Names(AllowedHeaders()) + ")";
        return false;
      }
      std::string value;
      if (!yaml.String(hv, name, &value, error)) return false;
      if (!allowed->second.empty() && !allowed->second.count(value)) {
        std::string values;
        for (const std::string& a : allowed->second) values += (values.empty() ? "" : ", ") + a;
        *error = yaml.Where(hv) + "headers: " + name + ": " + value + ": one of " + values;
        return false;
      }
      if (!value.empty()) config->headers.emplace_back(name, value);
      return true;
    });
  });
}

std::string GnutlsProblem(int code) { return gnutls_strerror(code); }

}  // namespace

bool ParseWebConfig(const std::string& text, const std::string& path, WebConfig* config, std::string* error) {
  std::unique_ptr<yaml_parser_t, ParserDeleter> parser(new yaml_parser_t);
  yaml_parser_initialize(parser.get());
  yaml_parser_set_input_string(parser.get(), reinterpret_cast<const unsigned char*>(text.data()), text.size());
  std::unique_ptr<yaml_document_t, DocumentDeleter> document(new yaml_document_t);
  if (!yaml_parser_load(parser.get(), document.get())) {
    *error = path + ":" + std::to_string(parser->problem_mark.line + 1) + ": not YAML: " +
             (parser->problem ? parser->problem : "unreadable");
    // A failed load leaves no document to delete.
    delete document.release();
    return false;
  }
  WebConfig result;
  const yaml_node_t* root = yaml_document_get_root_node(document.get());
  if (root) {
    Yaml yaml(document.get(), path);
    const bool ok = yaml.Pairs(root, "the web config", error, [&](const std::string& key, const yaml_node_t* k,
                                                                  const yaml_node_t* v) {
      if (key == "tls_server_config") return ReadTls(yaml, v, path, &result.tls, error);
      if (key == "basic_auth_users") return ReadUsers(yaml, v, &result.users, error);
      if (key == "http_server_config") return ReadHttp(yaml, v, &result, error);
      if (key == "rate_limit") {
        *error = yaml.Where(k) + "rate_limit is not supported by cudahist-monitor";
        return false;
      }
      *error = yaml.Where(k) + "unknown key '" + key +
               "' (tls_server_config, basic_auth_users, http_server_config)";
      return false;
    });
    if (!ok) return false;
  }
  *config = result;
  return true;
}

bool LoadWebConfig(const std::string& path, WebConfig* config, std::string* error) {
  std::string text;
  return ReadConfigText(path, "web config (--web.config.file)", &text, error) &&
         ParseWebConfig(text, path, config, error);
}

TlsMaterial::~TlsMaterial() {
  g_clear_object(&certificate_);
  g_clear_object(&client_cas_);
}

bool TlsMaterial::Load(const TlsServerConfig& tls, std::string* error) {
  // GnuTLS (glib-networking's backend) says what GIO does not: whether the
  // key is the certificate's, and whether the CA file holds a certificate.
  gnutls_certificate_credentials_t credentials;
  if (gnutls_certificate_allocate_credentials(&credentials) < 0) {
    *error = "GnuTLS could not allocate credentials";
    return false;
  }
  std::unique_ptr<std::remove_pointer_t<gnutls_certificate_credentials_t>, void (*)(gnutls_certificate_credentials_t)>
      hold(credentials, gnutls_certificate_free_credentials);
  // GnuTLS says only "Error while reading file": the system says why.
  for (const std::string* file : {&tls.cert_file, &tls.key_file, &tls.client_ca_file}) {
    if (file->empty()) continue;
    FILE* f = fopen(file->c_str(), "r");
    if (!f) {
      *error = "cannot read " + *file + ": " + g_strerror(errno);
      return false;
    }
    fclose(f);
  }
  const int pair = gnutls_certificate_set_x509_key_file2(credentials, tls.cert_file.c_str(), tls.key_file.c_str(),
                                                         GNUTLS_X509_FMT_PEM, nullptr, 0);
  if (pair < 0) {
    *error = "cert_file " + tls.cert_file + " and key_file " + tls.key_file + ": " + GnutlsProblem(pair);
    return false;
  }
  if (!tls.client_ca_file.empty()) {
    const int count = gnutls_certificate_set_x509_trust_file(credentials, tls.client_ca_file.c_str(),
                                                             GNUTLS_X509_FMT_PEM);
    if (count <= 0) {
      *error = "client_ca_file " + tls.client_ca_file + ": " +
               (count < 0 ? GnutlsProblem(count) : std::string("no PEM certificate in it"));
      return false;
    }
  }
  GError* e = nullptr;
  GTlsCertificate* certificate = g_tls_certificate_new_from_files(tls.cert_file.c_str(), tls.key_file.c_str(), &e);
  GTlsDatabase* client_cas = nullptr;
  if (certificate && !tls.client_ca_file.empty()) client_cas = g_tls_file_database_new(tls.client_ca_file.c_str(), &e);
  if (e) {
    *error = std::string("TLS: ") + e->message;
    g_error_free(e);
    g_clear_object(&certificate);
    return false;
  }
  g_clear_object(&certificate_);
  g_clear_object(&client_cas_);
  certificate_ = certificate;
  client_cas_ = client_cas;
  return true;
}

bool PasswordMatches(const std::string& password, const std::string& bcrypt_hash) {
  auto data = std::make_unique<crypt_data>();  // about 32 KiB: not on the stack
  const char* hashed = crypt_rn(password.c_str(), bcrypt_hash.c_str(), data.get(), sizeof(crypt_data));
  if (!hashed || std::strlen(hashed) != bcrypt_hash.size()) return false;
  // Every byte compared, whatever the first difference: no timing to learn from.
  unsigned char difference = 0;
  for (size_t i = 0; i < bcrypt_hash.size(); ++i) difference |= hashed[i] ^ bcrypt_hash[i];
  return difference == 0;
}

const char* TlsVersionName(GTlsProtocolVersion version) {
  switch (version) {
    case G_TLS_PROTOCOL_VERSION_TLS_1_0: return "TLS 1.0";
    case G_TLS_PROTOCOL_VERSION_TLS_1_1: return "TLS 1.1";
    case G_TLS_PROTOCOL_VERSION_TLS_1_2: return "TLS 1.2";
    case G_TLS_PROTOCOL_VERSION_TLS_1_3: return "TLS 1.3";
    default: return "an older or unknown TLS version";
  }
}

}  // namespace monitor
