#include "source_elements.h"

#include "decoder_choice.h"

#include <cstring>
#include <set>

#include "redact.h"
#include "source.h"

namespace monitor {
namespace {

constexpr char kReuseProperty[] = "reuse";  // udpsrc's: SO_REUSEADDR on its socket

void SetReuse(GObject* element, gboolean reuse) {
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), kReuseProperty))
    g_object_set(element, kReuseProperty, reuse, nullptr);
}

void OnElementAdded(GstBin*, GstBin*, GstElement* element, gpointer reuse) {
  SetReuse(G_OBJECT(element), GPOINTER_TO_INT(reuse));
}

}  // namespace

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

std::string UnknownVideoDecoder(const std::vector<StreamConfig>& streams) {
  for (const StreamConfig& s : streams) {
    if (s.video_decoder.empty()) continue;
    const std::string problem = cudahist_tools::CheckDecoderName(s.video_decoder);
    if (!problem.empty()) return s.video_decoder_where + "video-decoder=" + s.video_decoder + ": " + problem;
  }
  return "";
}

void SetUpSource(GstElement* source, const StreamConfig& stream) {
  if (!SourceTypeOf(stream.uri).binds_port) return;
  SetReuse(G_OBJECT(source), stream.reuse);
  if (!GST_IS_BIN(source)) return;
  // A bin's sockets are its elements' (rtpsrc makes its udpsrc elements when
  // it is made): those in it now, and those added later, before they bind in READY.
  GstIterator* children = gst_bin_iterate_recurse(GST_BIN(source));
  gst_iterator_foreach(
      children,
      [](const GValue* child, gpointer reuse) {
        SetReuse(G_OBJECT(g_value_get_object(child)), GPOINTER_TO_INT(reuse));
      },
      GINT_TO_POINTER(stream.reuse));
  gst_iterator_free(children);
  g_signal_connect(source, "deep-element-added", G_CALLBACK(OnElementAdded), GINT_TO_POINTER(stream.reuse));
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
