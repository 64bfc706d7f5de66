// What RedactUri, RedactUrisIn and UriSecrets leave of a URI's secrets: nothing.
#include <gtest/gtest.h>

#include <string>

#include "redact.h"

namespace {

using cudahist_tools::IsCredentialName;
using cudahist_tools::RedactUri;
using cudahist_tools::RedactUrisIn;
using cudahist_tools::UriSecrets;

struct Case {
  const char* uri;
  const char* shown;
};

class RedactUriTest : public testing::TestWithParam<Case> {};

TEST_P(RedactUriTest, ShowsNoSecret) { EXPECT_EQ(RedactUri(GetParam().uri), GetParam().shown); }

INSTANTIATE_TEST_SUITE_P(
    Uris, RedactUriTest,
    testing::Values(
        Case{"rtsp://admin:S3cretPass@127.0.0.1:47011/stream", "rtsp://REDACTED@127.0.0.1:47011/stream"},
        Case{"rtsp://admin@cam/stream", "rtsp://REDACTED@cam/stream"},
        // Percent-encoded '@', ':' and '/' in the password.
        Case{"rtsp://admin:p%40ss%3Aw%2Frd@cam:554/live", "rtsp://REDACTED@cam:554/live"},
        // Written raw, against RFC 3986: everything to the last '@' goes.
        Case{"rtsp://admin:pa/ss@cam/live", "rtsp://REDACTED@cam/live"},
        Case{"rtsp://admin:pa?ss@cam/live", "rtsp://REDACTED@cam/live"},
        Case{"rtsp://admin:p@ss@cam/live", "rtsp://REDACTED@cam/live"},
        Case{"srt://127.0.0.1:7001?mode=caller&passphrase=0123456789ab&pbkeylen=16",
             "srt://127.0.0.1:7001?mode=caller&passphrase=REDACTED&pbkeylen=REDACTED"},
        Case{"https://cdn.example/live.m3u8?token=abc;x=1#t", "https://cdn.example/live.m3u8?token=REDACTED;x=1#t"},
        Case{"https://u:p@cdn.example/a?X-Amz-Signature=ff&api_key=k&Pass%77ord=w",
             "https://REDACTED@cdn.example/a?X-Amz-Signature=REDACTED&api_key=REDACTED&Pass%77ord=REDACTED"},
        // Nothing secret: unchanged, an '@' in the path or query included.
        Case{"udp://@:5000", "udp://@:5000"},
        Case{"udp://127.0.0.1:5000", "udp://127.0.0.1:5000"},
        Case{"rtp://127.0.0.1:5004?encoding-name=MP2T", "rtp://127.0.0.1:5004?encoding-name=MP2T"},
        Case{"http://cdn.example/users/a@b/playlist.m3u8", "http://cdn.example/users/a@b/playlist.m3u8"},
        Case{"http://[::1]:8080/x?mail=a@b", "http://[::1]:8080/x?mail=a@b"},
        Case{"file:///media/a%20b.mp4", "file:///media/a%20b.mp4"},
        Case{"not a uri", "not a uri"}));

TEST(RedactUrisIn, EveryUriInAText) {
  EXPECT_EQ(RedactUrisIn("rtspsrc0: Could not open (rtsp://admin:pw@10.0.0.9/s), then http://u:p@h/x?token=t (end)"),
            "rtspsrc0: Could not open (rtsp://REDACTED@10.0.0.9/s), then http://REDACTED@h/x?token=REDACTED (end)");
  EXPECT_EQ(RedactUrisIn("\"rtsp://a:b@h/s\" and 'srt://h:1?passphrase=x'"),
            "\"rtsp://REDACTED@h/s\" and 'srt://h:1?passphrase=REDACTED'");
  EXPECT_EQ(RedactUrisIn("no uri here: 10:20 a@b"), "no uri here: 10:20 a@b");
  EXPECT_EQ(RedactUrisIn("://x@y"), "://x@y");
}

TEST(UriSecrets, ScrubsThePasswordWrittenOrDecodedOutsideTheUri) {
  UriSecrets secrets("rtsp://admin:p%40ss%3Aw%2Frd@cam/live?token=t0k%2Ben");
  EXPECT_EQ(secrets.Scrub("auth failed for admin with p@ss:w/rd, p%40ss%3Aw%2Frd, token t0k+en"),
            "auth failed for admin with REDACTED, REDACTED, token REDACTED");
  EXPECT_EQ(secrets.Scrub("see rtsp://admin:p%40ss%3Aw%2Frd@cam/live"), "see rtsp://REDACTED@cam/live");
}

TEST(UriSecrets, AUriWithoutSecretsChangesNothing) {
  UriSecrets secrets("udp://@:5000");
  EXPECT_EQ(secrets.Scrub("udpsrc0: bind failed on udp://@:5000"), "udpsrc0: bind failed on udp://@:5000");
}

TEST(IsCredentialName, NamesLikeCredentials) {
  for (const char* name : {"password", "passwd", "pwd", "passphrase", "token", "access_token", "apikey", "API-Key",
                           "secret", "client_secret", "auth", "Authorization", "sig", "X-Amz-Signature", "sessionid",
                           "credential"})
    EXPECT_TRUE(IsCredentialName(name)) << name;
  for (const char* name : {"mode", "encoding-name", "latency", "streamid", "user", "port", "signal"})
    EXPECT_FALSE(IsCredentialName(name)) << name;
}

}  // namespace
