// The web config reader (--web.config.file) on plain text: what it takes,
// what it refuses and on which line, and bcrypt through libxcrypt against
// hashes other tools made. TLS material is tested by web_test.py with
// certificates openssl makes.
#include <gtest/gtest.h>

#include <string>

#include "web_config.h"

namespace monitor {
namespace {

// Made by `htpasswd -nbBC 4 "" 'pass word'` (Apache's, $2y$) and by Python's
// bcrypt package (bcrypt.hashpw(b'pass word', bcrypt.gensalt(4)), $2b$).
constexpr char kHtpasswdHash[] = "$2y$04$0fBkpxo4Gk4lxyKJZLC9Oe2AzWddh7kqHpSa9Z99i2wMojq.zaOB6";
constexpr char kPythonHash[] = "$2b$04$YzI.qhEiOAhYrpOUP8Gn1.yiROkGDhhPTOcdYnc4p7I8f8XAMMaSG";

TEST(PasswordMatches, HashesOfOtherTools) {
  for (const char* hash : {kHtpasswdHash, kPythonHash}) {
    EXPECT_TRUE(PasswordMatches("pass word", hash)) << hash;
    EXPECT_FALSE(PasswordMatches("pass words", hash)) << hash;
    EXPECT_FALSE(PasswordMatches("", hash)) << hash;
  }
  EXPECT_FALSE(PasswordMatches("pass word", "not a hash"));
}

TEST(WebConfig, ReadsTheToolkitsKeys) {
  WebConfig c;
  std::string error;
  ASSERT_TRUE(ParseWebConfig(std::string("tls_server_config:\n"
                                         "  cert_file: server.crt\n"
                                         "  key_file: /etc/keys/server.key\n"
                                         "  client_ca_file: ca.crt\n"
                                         "  client_auth_type: RequireAndVerifyClientCert\n"
                                         "  min_version: TLS13\n"
                                         "http_server_config:\n"
                                         "  headers:\n"
                                         "    X-Frame-Options: deny\n"
                                         "basic_auth_users:\n"
                                         "  alice: ") +
                                 kHtpasswdHash + "\n  bob: '" + kPythonHash + "'\n",
                             "/srv/web/web.yml", &c, &error))
      << error;
  EXPECT_TRUE(c.tls.enabled);
  EXPECT_EQ(c.tls.cert_file, "/srv/web/server.crt");  // beside the web config, as the toolkit reads it
  EXPECT_EQ(c.tls.key_file, "/etc/keys/server.key");
  EXPECT_EQ(c.tls.client_ca_file, "/srv/web/ca.crt");
  EXPECT_EQ(c.tls.client_auth, ClientAuth::kRequireAndVerify);
  EXPECT_EQ(c.tls.min_version, G_TLS_PROTOCOL_VERSION_TLS_1_3);
  EXPECT_EQ(c.users.size(), 2u);
  EXPECT_EQ(c.users["bob"], kPythonHash);
  ASSERT_EQ(c.headers.size(), 1u);
  EXPECT_EQ(c.headers[0].first, "X-Frame-Options");
}

// GIO's database of client CAs takes an absolute path only.
TEST(WebConfig, FilesOfAConfigNamedRelativelyAreAbsolute) {
  WebConfig c;
  std::string error;
  ASSERT_TRUE(ParseWebConfig("tls_server_config:\n  cert_file: a.crt\n  key_file: ../b.key\n", "conf/web.yml", &c,
                             &error))
      << error;
  gchar* here = g_get_current_dir();
  EXPECT_EQ(c.tls.cert_file, std::string(here) + "/conf/a.crt");
  EXPECT_EQ(c.tls.key_file, std::string(here) + "/b.key");
  g_free(here);
}

TEST(WebConfig, EmptyMeansPlainHttpWithoutAuth) {
  for (const char* text : {"", "tls_server_config:\nbasic_auth_users:\n", "# nothing\n"}) {
    WebConfig c;
    std::string error;
    ASSERT_TRUE(ParseWebConfig(text, "web.yml", &c, &error)) << error;
    EXPECT_FALSE(c.tls.enabled);
    EXPECT_TRUE(c.users.empty());
  }
}

struct Malformed {
  const char* text;
  const char* where;
  const char* saying;
  const char* hidden = nullptr;  // a secret of the text the error must not quote
};

class MalformedWebConfig : public testing::TestWithParam<Malformed> {};

TEST_P(MalformedWebConfig, ErrorNamesTheLineAndNeverAHash) {
  WebConfig c;
  std::string error;
  EXPECT_FALSE(ParseWebConfig(GetParam().text, "web.yml", &c, &error));
  EXPECT_EQ(error.rfind(GetParam().where, 0), 0u) << error;
  EXPECT_NE(error.find(GetParam().saying), std::string::npos) << error;
  if (GetParam().hidden) {
    EXPECT_EQ(error.find(GetParam().hidden), std::string::npos) << error;
  }
}

INSTANTIATE_TEST_SUITE_P(
    WebConfig, MalformedWebConfig,
    testing::Values(
        // A hash that is not bcrypt's: a truncated one, a SHA-512 crypt, a plain password.
        Malformed{"basic_auth_users:\n  alice: $2y$10$tooShort\n", "web.yml:2:", "alice: not a bcrypt hash", "tooShort"},
        Malformed{"basic_auth_users:\n  alice: $6$salt$abcdefgh\n", "web.yml:2:", "alice: not a bcrypt hash", "salt"},
        Malformed{"basic_auth_users:\n  bob: S3cret\n", "web.yml:2:", "bob: not a bcrypt hash", "S3cret"},
        Malformed{"basic_auth_users:\n  bob: $2y$03$0fBkpxo4Gk4lxyKJZLC9Oe2AzWddh7kqHpSa9Z99i2wMojq.zaOB6\n",
                  "web.yml:2:", "a cost from 04 to 31", "0fBkpxo4"},
        Malformed{"tls_server_config:\n  cert_file: a.crt\n", "web.yml:2:", "cert_file and key_file are both needed"},
        Malformed{"tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n  client_auth_type: Sometimes\n",
                  "web.yml:4:", "Sometimes: one of NoClientCert"},
        Malformed{"tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n  client_ca_file: ca.crt\n",
                  "web.yml:2:", "client_ca_file is given without a client_auth_type"},
        Malformed{"tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n"
                  "  client_auth_type: RequireAndVerifyClientCert\n",
                  "web.yml:2:", "it needs client_ca_file"},
        Malformed{"tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n  min_version: TLS14\n", "web.yml:4:",
                  "TLS14: one of TLS10, TLS11, TLS12, TLS13"},
        Malformed{"tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n  min_version: TLS13\n"
                  "  max_version: TLS12\n",
                  "web.yml:2:", "min_version is above max_version"},
        Malformed{"tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n",
                  "web.yml:4:", "cipher_suites is not supported by cudahist-monitor"},
        Malformed{"tls_server_config:\n  cert: |\n    -----BEGIN CERTIFICATE-----\n", "web.yml:2:",
                  "cert is not supported"},
        Malformed{"rate_limit:\n  interval: 1s\n", "web.yml:1:", "rate_limit is not supported"},
        Malformed{"tls_config:\n  cert_file: a.crt\n", "web.yml:1:", "unknown key 'tls_config'"},
        Malformed{"http_server_config:\n  headers:\n    X-Powered-By: me\n", "web.yml:3:", "X-Powered-By cannot be set"},
        Malformed{"http_server_config:\n  headers:\n    X-Frame-Options: allow\n", "web.yml:3:",
                  "one of deny, sameorigin"},
        Malformed{"basic_auth_users:\n  alice: $2y$04$0fBkpxo4Gk4lxyKJZLC9Oe2AzWddh7kqHpSa9Z99i2wMojq.zaOB6\n"
                  "  alice: $2b$04$YzI.qhEiOAhYrpOUP8Gn1.yiROkGDhhPTOcdYnc4p7I8f8XAMMaSG\n",
                  "web.yml:3:", "'alice' is given twice"},
        Malformed{"basic_auth_users: [alice]\n", "web.yml:1:", "a mapping of keys to values"},
        Malformed{"tls_server_config:\n  cert_file: a.crt\n key_file: b\n", "web.yml:3:", "not YAML"}));

}  // namespace
}  // namespace monitor
