#include "source_elements.h"

#include <cstring>
#include <set>

#include "redact.h"
#include "source.h"

namespace monitor {

std::vector<std::string> ReadableSchemes() {
  std::set<std::string> schemes;
  GList* factories = gst_registry_get_feature_list(gst_registry_get(), GST_TYPE_ELEMENT_FACTORY);
  for (GList* f = factories; f; f = f->next) {
    GstElementFactory* factory = GST_ELEMENT_FACTORY(f->data);
    if (gst_element_factory_get_uri_type(factory) != GST_URI_SRC) continue;
    for (const gchar* const* p = gst_element_factory_get_uri_protocols(factory); p && *p; ++p) schemes.insert(*p);
  }
  gst_plugin_feature_list_free(factories);
  return std::vector<std::string>(schemes.begin(), schemes.end());
}

std::string UnreadableSource(const std::vector<StreamConfig>& streams) {
  for (const StreamConfig& s : streams) {
    gchar* scheme = g_uri_parse_scheme(s.uri.c_str());
    const std::string name = scheme ? scheme : "";
    g_free(scheme);
    if (!name.empty() && gst_uri_protocol_is_supported(GST_URI_SRC, name.c_str())) continue;
    std::string readable;
    for (const std::string& r : ReadableSchemes()) readable += (readable.empty() ? "" : ", ") + r;
    return s.uri_where + ": uri=" + cudahist_tools::RedactUri(s.uri) + ": no installed GStreamer element reads " +
           name + ":// URIs (stream '" + s.name + "'); these schemes are read here: " + readable;
  }
  return "";
}

std::string SourceErrorHint(const StreamConfig& stream, GstMessage* error) {
  if (!SourceTypeOf(stream.uri).binds_port) return "";
  GError* e = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(error, &e, &debug);
  // udpsrc's own words, whatever the system's language says after them.
  const bool bind_failed = g_error_matches(e, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS) && debug &&
                           strstr(debug, "bind failed");
  g_clear_error(&e);
  g_free(debug);
  if (!bind_failed) return "";
  return stream.reuse ? "its port cannot be bound: "
                      : "its port cannot be bound (another program may hold it; a source shares its port only with "
                        "reuse=true): ";
}

}  // namespace monitor
