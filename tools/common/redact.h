// URIs as the programs in tools/ may show them: no secret leaves the
// process. A URI's user-info ("admin:S3cret@") and the values of query
// parameters named like credentials (password, passphrase, token, key, ...)
// are replaced by "REDACTED" wherever a URI is printed, served or used as a
// name. The real URI stays inside, for the source that opens it.
#pragma once

#include <string>
#include <vector>

namespace cudahist_tools {

// The word that stands for a secret.
extern const char kRedacted[];

// `uri` with its user-info and credential-like query values replaced.
// "rtsp://admin:p%40ss@cam:554/s?token=abc&x=1" ->
// "rtsp://REDACTED@cam:554/s?token=REDACTED&x=1". A URI that does not parse
// (a raw '/' or '?' in a password) loses everything between "//" and its
// last '@'. Text without "SCHEME://" comes back unchanged.
std::string RedactUri(const std::string& uri);

// Every URI quoted in `text` (an element's error, a log line) redacted.
std::string RedactUrisIn(const std::string& text);

// Whether a query parameter of this name carries a credential.
bool IsCredentialName(const std::string& name);

// The secrets one URI carries, in every form a message may quote them (as
// written and percent-decoded: "p%40ss" and "p@ss"), for texts that quote
// them outside a URI.
class UriSecrets {
 public:
  explicit UriSecrets(const std::string& uri);
  // `text` with the URIs in it redacted and each secret replaced.
  std::string Scrub(const std::string& text) const;

 private:
  std::vector<std::string> secrets_;  // longest first: a secret's part never hides the rest of it
};

}  // namespace cudahist_tools
