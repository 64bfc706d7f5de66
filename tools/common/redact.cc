#include "redact.h"

#include <glib.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace cudahist_tools {

const char kRedacted[] = "REDACTED";

namespace {

constexpr char kAuthorityMark[] = "://";
// Where a URI quoted in a text ends.
constexpr char kUriDelimiters[] = " \t\r\n\"'<>`";
// Parts of a parameter's name that say it carries a credential (compared
// lower-case, without '-' and '_'): "password", "passphrase" (SRT), "token",
// "api_key", "X-Amz-Signature", "auth", "sessionid", ...
constexpr const char* kCredentialWords[] = {"pass", "pwd", "secret", "token", "key", "auth", "signature", "credential",
                                            "session"};
// Whole names too short to look for inside others.
constexpr const char* kCredentialNames[] = {"sig", "sid", "pw"};

bool IsSchemeChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.'; }

std::string Unescaped(const std::string& text) {
  gchar* plain = g_uri_unescape_string(text.c_str(), nullptr);
  std::string result = plain ? plain : text;
  g_free(plain);
  return result;
}

// Where the user-info of `uri` lies: [begin, end) before its '@'; false when it has none.
bool FindUserInfo(const std::string& uri, size_t* begin, size_t* end) {
  const size_t mark = uri.find(kAuthorityMark);
  if (mark == std::string::npos) return false;
  *begin = mark + strlen(kAuthorityMark);
  size_t at;
  if (g_uri_is_valid(uri.c_str(), G_URI_FLAGS_NONE, nullptr)) {
    const size_t authority_end = std::min(uri.find_first_of("/?#", *begin), uri.size());
    at = uri.rfind('@', authority_end == 0 ? 0 : authority_end - 1);
  } else {
    // A raw '/', '?' or '#' in a password moves where a parser thinks the
    // authority ends: everything up to the last '@' may be the password.
    at = uri.rfind('@');
  }
  if (at == std::string::npos || at < *begin) return false;
  *end = at;
  return true;
}

struct Parameter {
  size_t value_begin, value_end;
  std::string name;
};

// The query's NAME=VALUE pairs, found after `from`.
std::vector<Parameter> QueryParameters(const std::string& uri, size_t from) {
  std::vector<Parameter> parameters;
  const size_t query = uri.find('?', from);
  if (query == std::string::npos) return parameters;
  const size_t query_end = std::min(uri.find('#', query), uri.size());
  for (size_t begin = query + 1; begin < query_end;) {
    const size_t end = std::min(uri.find_first_of("&;", begin), query_end);
    const size_t equals = uri.find('=', begin);
    if (equals != std::string::npos && equals < end)
      parameters.push_back({equals + 1, end, Unescaped(uri.substr(begin, equals - begin))});
    begin = end + 1;
  }
  return parameters;
}

size_t AfterUserInfo(const std::string& uri) {
  size_t begin = 0, end = 0;
  if (FindUserInfo(uri, &begin, &end)) return end;
  const size_t mark = uri.find(kAuthorityMark);
  return mark == std::string::npos ? 0 : mark;
}

}  // namespace

bool IsCredentialName(const std::string& name) {
  std::string word;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c))) word += char(std::tolower(static_cast<unsigned char>(c)));
  for (const char* part : kCredentialWords)
    if (word.find(part) != std::string::npos) return true;
  for (const char* whole : kCredentialNames)
    if (word == whole) return true;
  return false;
}

std::string RedactUri(const std::string& uri) {
  std::string shown = uri;
  // The query's values first: replacing them leaves the user-info's place as it is.
  const std::vector<Parameter> parameters = QueryParameters(uri, AfterUserInfo(uri));
  for (auto p = parameters.rbegin(); p != parameters.rend(); ++p) {
    if (p->value_end > p->value_begin && IsCredentialName(p->name))
      shown.replace(p->value_begin, p->value_end - p->value_begin, kRedacted);
  }
  size_t begin = 0, end = 0;
  if (FindUserInfo(uri, &begin, &end) && end > begin) shown.replace(begin, end - begin, kRedacted);
  return shown;
}

std::string RedactUrisIn(const std::string& text) {
  std::string result;
  size_t copied = 0;
  for (size_t mark = text.find(kAuthorityMark); mark != std::string::npos; mark = text.find(kAuthorityMark, mark + 1)) {
    size_t start = mark;
    while (start > copied && IsSchemeChar(text[start - 1])) --start;
    while (start < mark && !std::isalpha(static_cast<unsigned char>(text[start])))
      ++start;  // a scheme begins with a letter
    if (start == mark) continue;
    const size_t end = std::min(text.find_first_of(kUriDelimiters, mark), text.size());
    result += text.substr(copied, start - copied) + RedactUri(text.substr(start, end - start));
    copied = end;
    mark = end == 0 ? 0 : end - 1;
  }
  return result + text.substr(std::min(copied, text.size()));
}

UriSecrets::UriSecrets(const std::string& uri) {
  auto add = [this](const std::string& secret) {
    for (const std::string& form : {secret, Unescaped(secret)})
      if (!form.empty() && std::find(secrets_.begin(), secrets_.end(), form) == secrets_.end())
        secrets_.push_back(form);
  };
  size_t begin = 0, end = 0;
  if (FindUserInfo(uri, &begin, &end) && end > begin) {
    const std::string user_info = uri.substr(begin, end - begin);
    add(user_info);
    const size_t colon = user_info.find(':');
    if (colon != std::string::npos) add(user_info.substr(colon + 1));
  }
  for (const Parameter& p : QueryParameters(uri, AfterUserInfo(uri)))
    if (IsCredentialName(p.name)) add(uri.substr(p.value_begin, p.value_end - p.value_begin));
  std::sort(secrets_.begin(), secrets_.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

std::string UriSecrets::Scrub(const std::string& text) const {
  std::string scrubbed = RedactUrisIn(text);
  for (const std::string& secret : secrets_) {
    for (size_t at = scrubbed.find(secret); at != std::string::npos; at = scrubbed.find(secret, at + strlen(kRedacted)))
      scrubbed.replace(at, secret.size(), kRedacted);
  }
  return scrubbed;
}

}  // namespace cudahist_tools
