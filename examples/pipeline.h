// The pipelines the C++ examples run, and the bus loop they share.
#pragma once

#include <gst/gst.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace examples {

struct Input {
  std::string file;                // decode this file; empty: videotestsrc
  std::string pattern = "smpte";   // videotestsrc pattern
  int frames = 60;                 // videotestsrc num-buffers
  int width = 640, height = 360;   // videotestsrc size
};

// A gst-launch description ending in `cudahistogram name=histogram
// <histogram_properties> ! fakesink`. On the GPU the frames reach the element
// in CUDA memory (a decoder's own, or cudaupload's); on the CPU in system memory.
// With `scope_properties`, a tee after the histogram also feeds
// `cudavideoscope name=scope <scope_properties>`, whose pictures (downloaded
// from the GPU when drawn there) reach `pngenc name=scope_png ! fakesink`.
std::string DescribePipeline(const Input& input, bool gpu, const std::string& histogram_properties,
                             const std::string& scope_properties = "");

// gst_parse_launch, or nullptr with the reason in `problem` (naming
// GST_PLUGIN_PATH when the cudahistogram element is what is missing).
GstElement* BuildPipeline(const std::string& description, std::string* problem);

// Prints "<program>: decoder: <factory>" on stderr for every decoder that
// decodebin plugs into `pipeline`, so that a run shows whether NVDEC
// (nvh264dec: CUDA memory) or a software decoder did the work.
void ReportDecoders(GstElement* pipeline, const char* program);

// Sets the pipeline PLAYING and dispatches bus messages until EOS or an
// error. `on_message` sees every message. Returns "" at EOS, else the error
// with its debug detail. Leaves the pipeline in NULL.
std::string RunToEnd(GstElement* pipeline, const std::function<void(GstMessage*)>& on_message);

// The structure of a "cudahistogram" element message, or nullptr.
const GstStructure* HistogramMessage(GstMessage* message);

// The per-component fields of that message (GstValueArray or GValueArray;
// empty when the field is missing or of another type).
std::vector<std::string> StringsField(const GstStructure* s, const char* field);
std::vector<double> DoublesField(const GstStructure* s, const char* field);
std::vector<std::vector<uint64_t>> HistogramsField(const GstStructure* s);

}  // namespace examples
