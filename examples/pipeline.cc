#include "pipeline.h"

#include <cstring>

#include "gvalue_items.h"

namespace examples {
namespace {

using cudahist_tools::Item;
using cudahist_tools::ItemCount;

std::string SourceDescription(const Input& input) {
  if (input.file.empty())
    return "videotestsrc num-buffers=" + std::to_string(input.frames) + " pattern=" + input.pattern +
           " ! video/x-raw,format=NV12,width=" + std::to_string(input.width) +
           ",height=" + std::to_string(input.height) + ",framerate=30/1";
  GError* error = nullptr;
  gchar* uri = gst_filename_to_uri(input.file.c_str(), &error);
  std::string description;
  if (uri) {
    // Only the video stream is exposed; a decoder that outputs CUDA memory
    // (nvh264dec) keeps it there when the GPU path asks for it.
    description = std::string("uridecodebin uri=\"") + uri +
                  "\" caps=\"video/x-raw(ANY)\" expose-all-streams=false";
    g_free(uri);
  } else {
    description = "filesrc location=\"" + input.file + "\" ! decodebin";  // lets GStreamer word the error
    g_clear_error(&error);
  }
  return description;
}

template <typename T, typename Read>
std::vector<T> Items(const GValue* v, Read read) {
  std::vector<T> items;
  for (guint i = 0; i < ItemCount(v); ++i) items.push_back(read(Item(v, i)));
  return items;
}

// "<element>: <message> (<debug>)" of an error message.
std::string ErrorText(GstMessage* message) {
  GError* error = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(message, &error, &debug);
  std::string text = std::string(GST_OBJECT_NAME(GST_MESSAGE_SRC(message))) + ": " + error->message +
                     (debug ? std::string(" (") + debug + ")" : std::string());
  g_clear_error(&error);
  g_free(debug);
  return text;
}

void OnDeepElementAdded(GstBin*, GstBin*, GstElement* element, gpointer program) {
  GstElementFactory* factory = gst_element_get_factory(element);
  const gchar* klass = factory ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : nullptr;
  if (klass && strstr(klass, "Decoder") && strstr(klass, "Video"))
    g_printerr("%s: decoder: %s\n", static_cast<const char*>(program), GST_OBJECT_NAME(factory));
}

}  // namespace

GstElement* BuildPipeline(const std::string& description, std::string* problem) {
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (!error) return pipeline;
  *problem = std::string("cannot build the pipeline '") + description + "': " + error->message;
  g_clear_error(&error);
  if (pipeline) gst_object_unref(pipeline);
  GstElementFactory* histogram = gst_element_factory_find("cudahistogram");
  if (histogram) gst_object_unref(histogram);
  else *problem += " (the cudahistogram element was not found: set GST_PLUGIN_PATH to <builddir>/gst-plugin)";
  return nullptr;
}

void ReportDecoders(GstElement* pipeline, const char* program) {
  g_signal_connect(pipeline, "deep-element-added", G_CALLBACK(OnDeepElementAdded),
                   const_cast<char*>(program));
}

std::string DescribePipeline(const Input& input, bool gpu, const std::string& histogram_properties,
                             const std::string& scope_properties) {
  // cudaupload passes CUDA memory through untouched and uploads system memory;
  // the caps filter keeps it from settling on system memory downstream.
  const char* memory = gpu ? " ! cudaupload ! video/x-raw(memory:CUDAMemory)"
                           : " ! capsfilter caps=video/x-raw";
  const std::string properties = histogram_properties.empty() ? "" : " " + histogram_properties;
  const std::string head = SourceDescription(input) + memory + " ! cudahistogram name=histogram" + properties;
  if (scope_properties.empty()) return head + " ! fakesink sync=false";
  // The scope's sink does not preroll (async=false): it sees one frame in a
  // whole stream, and the pipeline must not wait for it to reach PLAYING.
  return head + " ! tee name=frames ! queue ! fakesink sync=false frames. ! queue ! cudavideoscope name=scope " +
         scope_properties + (gpu ? " ! cudadownload" : "") +
         " ! pngenc name=scope_png ! fakesink sync=false async=false";
}

std::string RunToEnd(GstElement* pipeline, const std::function<void(GstMessage*)>& on_message) {
  GstBus* bus = gst_element_get_bus(pipeline);
  std::string failure;
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    GstMessage* error = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    failure = error ? ErrorText(error) : "the pipeline refused to start";
    if (error) gst_message_unref(error);
  }
  while (failure.empty()) {
    GstMessage* message = gst_bus_timed_pop(bus, GST_CLOCK_TIME_NONE);
    on_message(message);
    const GstMessageType type = GST_MESSAGE_TYPE(message);
    if (type == GST_MESSAGE_ERROR) failure = ErrorText(message);
    gst_message_unref(message);
    if (type == GST_MESSAGE_EOS) break;
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  return failure;
}

const GstStructure* HistogramMessage(GstMessage* message) {
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return nullptr;
  const GstStructure* s = gst_message_get_structure(message);
  return (s && gst_structure_has_name(s, "cudahistogram")) ? s : nullptr;
}

std::vector<std::string> StringsField(const GstStructure* s, const char* field) {
  return Items<std::string>(gst_structure_get_value(s, field), [](const GValue* item) {
    return G_VALUE_HOLDS_STRING(item) ? std::string(g_value_get_string(item)) : std::string();
  });
}

std::vector<double> DoublesField(const GstStructure* s, const char* field) {
  return Items<double>(gst_structure_get_value(s, field), [](const GValue* item) {
    return G_VALUE_HOLDS_DOUBLE(item) ? g_value_get_double(item) : 0.0;
  });
}

std::vector<std::vector<uint64_t>> HistogramsField(const GstStructure* s) {
  return Items<std::vector<uint64_t>>(gst_structure_get_value(s, "histograms"), [](const GValue* row) {
    return Items<uint64_t>(row, [](const GValue* count) -> uint64_t {
      if (G_VALUE_HOLDS_UINT64(count)) return g_value_get_uint64(count);
      return G_VALUE_HOLDS_UINT(count) ? g_value_get_uint(count) : 0;
    });
  });
}

}  // namespace examples
