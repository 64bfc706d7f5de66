#include "source.h"

#include <glib.h>

namespace monitor {
namespace {

std::string Scheme(const std::string& uri) {
  gchar* scheme = g_uri_parse_scheme(uri.c_str());
  std::string text = scheme ? scheme : "";
  g_free(scheme);
  return text;
}

}  // namespace

const std::vector<SourceType>& SourceTypes() {
  static const std::vector<SourceType> types = {
      {"file", {"file"}, true, false, false},
      {"udp", {"udp"}, false, true, true},
      {"rtp", {"rtp"}, false, true, true},
      {"srt", {"srt"}, false, true, false},
      {"rtsp", {"rtsp", "rtspt", "rtspu", "rtsps", "rtspsu", "rtspst", "rtsph"}, false, true, false},
      {"http", {"http", "https"}, false, true, false},
      {"device", {"v4l2"}, false, false, false},
      // Anything else an installed element reads: live, by a host if it names one.
      {"other", {}, false, true, false},
  };
  return types;
}

const SourceType& SourceTypeOf(const std::string& uri) {
  const std::string scheme = Scheme(uri);
  for (const SourceType& type : SourceTypes()) {
    for (const std::string& s : type.schemes)
      if (g_ascii_strcasecmp(s.c_str(), scheme.c_str()) == 0) return type;
  }
  return SourceTypes().back();
}

std::string HostToResolve(const std::string& uri) {
  if (!SourceTypeOf(uri).resolves_host) return "";
  gchar* host = nullptr;
  if (!g_uri_split_network(uri.c_str(), G_URI_FLAGS_NONE, nullptr, &host, nullptr, nullptr)) return "";
  std::string name = host && *host && !g_hostname_is_ip_address(host) ? host : "";
  g_free(host);
  return name;
}

}  // namespace monitor
