// decoded_frames FILE DECODER [--bits N] [--raw OUT]: the frames DECODER hands over for
// FILE, one JSON line each: the format, size and scan GStreamer gives, and an
// md5 of every component's samples, laid out as FFmpeg's raw output of the
// same pixel format lays them out (planar, the component's own width and
// height rounded up as FFmpeg rounds them, 8-bit samples as bytes, deeper
// ones as little-endian 16-bit values). Equal md5s mean equal samples.
// --bits N: the stream's bit depth; samples the decoder gives in more bits
// (NVDEC's P016 for 10-bit video) are shifted down to N, and the frame says
// whether a bit shifted out was set ("low_bits").
// decodebin plugs the demuxer and parser, as in the programs, and only
// DECODER among the decoders. An NVDEC decoder's frames come through
// cudadownload: its CUDA memory where it gives that (1.22's parser-based
// decoders may give system memory, which cudadownload passes on). The frames are read where the decoder wrote them (its
// GstVideoMeta: the sink accepts it, as the analysis pipeline's does).
// --raw writes those samples too, frame after frame, for the sample
// differences (tests/decode/decode_matrix.py).
// Exit status: 0 when the file decoded to its end, 1 otherwise (the error
// on stderr), 2 for a wrong command line.
#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// FFmpeg's rows and columns of a subsampled component: AV_CEIL_RSHIFT.
int CeilShift(int size, int shift) { return -((-size) >> shift); }

// The frame as GStreamer's own unpack function reads it, row after row:
// four 16-bit values a pixel (A, then Y, U, V or R, G, B), each sample in
// the high bits and the low bits left as the frame has them. The format's
// own description of where a component sits is not used: GStreamer's
// GstVideoFormatInfo gives P010's and P016's V a byte offset of 1 in the
// UV pair, where it sits at 2.
std::vector<guint16> UnpackedFrame(const GstVideoFrame& frame, int width, int height) {
  const GstVideoFormatInfo* format = frame.info.finfo;
  const GstVideoFormatInfo* unpacked = gst_video_format_get_info(format->unpack_format);
  const bool wide = GST_VIDEO_FORMAT_INFO_DEPTH(unpacked, 0) > 8;
  std::vector<guint8> row(size_t(width) * (wide ? 8 : 4));
  std::vector<guint16> pixels(size_t(width) * height * 4);
  guint16* out = pixels.data();
  for (int y = 0; y < height; ++y) {
    format->unpack_func(format, GST_VIDEO_PACK_FLAG_TRUNCATE_RANGE, row.data(), frame.data, frame.info.stride, 0, y,
                        width);
    for (size_t i = 0; i < size_t(width) * 4; ++i) {
      *out++ = wide ? guint16(row[2 * i] | (row[2 * i + 1] << 8)) : guint16(row[i] << 8);
    }
  }
  return pixels;
}

// One component of the unpacked frame in FFmpeg's raw layout, in `bits`
// bits (0: the format's own).
std::vector<guint8> ComponentSamples(const GstVideoFormatInfo* format, const std::vector<guint16>& pixels,
                                     int component, int width, int height, int bits, bool* low_bits) {
  const int w_sub = GST_VIDEO_FORMAT_INFO_W_SUB(format, component);
  const int h_sub = GST_VIDEO_FORMAT_INFO_H_SUB(format, component);
  const int w = CeilShift(width, w_sub);
  const int h = CeilShift(height, h_sub);
  const int depth = GST_VIDEO_FORMAT_INFO_DEPTH(format, component);
  const int drop = bits > 0 && depth > bits ? depth - bits : 0;
  const int slot = component == 3 ? 0 : component + 1;  // alpha first in the unpacked pixel
  std::vector<guint8> samples;
  samples.reserve(size_t(w) * h * (depth > 8 ? 2 : 1));
  for (int y = 0; y < h; ++y) {
    const guint16* row = pixels.data() + size_t(y << h_sub) * width * 4;
    for (int x = 0; x < w; ++x) {
      guint16 value = guint16(row[size_t(x << w_sub) * 4 + slot] >> (16 - depth));
      if (value & ((1u << drop) - 1)) *low_bits = true;
      value = guint16(value >> drop);
      if (depth - drop <= 8) {
        samples.push_back(guint8(value));
        continue;
      }
      samples.push_back(guint8(value & 0xff));
      samples.push_back(guint8(value >> 8));
    }
  }
  return samples;
}

std::string Md5(const std::vector<guint8>& bytes) {
  gchar* sum = g_compute_checksum_for_data(G_CHECKSUM_MD5, bytes.data(), bytes.size());
  std::string text = sum;
  g_free(sum);
  return text;
}

// decodebin's candidates: its parsers and demuxers as it ranks them, then
// the named decoder and no other (as the programs' decoder choice orders
// them: a decoder put before the parser would be tried on the unparsed
// stream).
GValueArray* OnlyTheNamedDecoder(GstElement*, GstPad*, GstCaps*, GValueArray* factories, gpointer name) {
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GValueArray* kept = g_value_array_new(factories->n_values);
  GValue* decoder = nullptr;
  for (guint i = 0; i < factories->n_values; ++i) {
    GValue* value = g_value_array_get_nth(factories, i);
    auto* factory = GST_ELEMENT_FACTORY(g_value_get_object(value));
    const char* klass = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS);
    if (!klass || !std::strstr(klass, "Decoder")) g_value_array_append(kept, value);
    else if (std::strcmp(GST_OBJECT_NAME(factory), static_cast<const char*>(name)) == 0) decoder = value;
  }
  if (decoder) g_value_array_append(kept, decoder);
  if (kept->n_values == 0) {  // decodebin takes no empty list: SkipOtherDecoders refuses them
    g_value_array_free(kept);
    kept = nullptr;
  }
  G_GNUC_END_IGNORE_DEPRECATIONS
  return kept;
}

// decodebin's GstAutoplugSelectResult, which no public header declares.
enum AutoplugSelect { kTry = 0, kSkip = 2 };

gint SkipOtherDecoders(GstElement*, GstPad*, GstCaps*, GstElementFactory* factory, gpointer name) {
  const char* klass = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS);
  if (!klass || !std::strstr(klass, "Decoder")) return kTry;
  return std::strcmp(GST_OBJECT_NAME(factory), static_cast<const char*>(name)) == 0 ? kTry : kSkip;
}

// The sink takes frames laid out by their GstVideoMeta, as fakevideosink
// does in the programs' pipelines: decoders then hand over their own buffers.
GstPadProbeReturn AcceptVideoMeta(GstPad*, GstPadProbeInfo* info, gpointer) {
  GstQuery* query = GST_PAD_PROBE_INFO_QUERY(info);
  if (GST_QUERY_TYPE(query) == GST_QUERY_ALLOCATION)
    gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  return GST_PAD_PROBE_OK;
}

bool PrintFrame(GstSample* sample, guint64 index, int bits, FILE* raw) {
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, gst_sample_get_caps(sample))) return false;
  GstBuffer* buffer = gst_sample_get_buffer(sample);
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ)) return false;
  const bool alternate = GST_VIDEO_INFO_INTERLACE_MODE(&info) == GST_VIDEO_INTERLACE_MODE_ALTERNATE;
  const int width = GST_VIDEO_INFO_WIDTH(&info);
  const int height = alternate ? GST_VIDEO_INFO_FIELD_HEIGHT(&info) : GST_VIDEO_INFO_HEIGHT(&info);
  const bool interlaced = GST_VIDEO_INFO_IS_INTERLACED(&info) &&
                          (GST_VIDEO_INFO_INTERLACE_MODE(&info) != GST_VIDEO_INTERLACE_MODE_MIXED ||
                           GST_BUFFER_FLAG_IS_SET(buffer, GST_VIDEO_BUFFER_FLAG_INTERLACED));
  std::string line = "{\"frame\":" + std::to_string(index) + ",\"pts\":" +
                     (GST_BUFFER_PTS_IS_VALID(buffer) ? std::to_string(GST_BUFFER_PTS(buffer)) : "null") +
                     ",\"format\":\"" + GST_VIDEO_INFO_NAME(&info) + "\",\"width\":" + std::to_string(width) +
                     ",\"height\":" + std::to_string(height) + ",\"interlaced\":" + (interlaced ? "true" : "false") +
                     ",\"field\":\"" +
                     (GST_BUFFER_FLAG_IS_SET(buffer, GST_VIDEO_BUFFER_FLAG_TOP_FIELD)      ? "top"
                      : GST_BUFFER_FLAG_IS_SET(buffer, GST_VIDEO_BUFFER_FLAG_BOTTOM_FIELD) ? "bottom"
                                                                                            : "both") +
                     "\",\"components\":[";
  bool low_bits = false;
  const std::vector<guint16> pixels = UnpackedFrame(frame, width, height);
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    const std::vector<guint8> samples = ComponentSamples(info.finfo, pixels, int(c), width, height, bits, &low_bits);
    if (raw && std::fwrite(samples.data(), 1, samples.size(), raw) != samples.size()) {
      gst_video_frame_unmap(&frame);
      return false;
    }
    line += std::string(c ? "," : "") + "\"" + Md5(samples) + "\"";
  }
  gst_video_frame_unmap(&frame);
  std::printf("%s],\"low_bits\":%s}\n", line.c_str(), low_bits ? "true" : "false");
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  int bits = 0;
  const char* raw_path = nullptr;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--bits") == 0) bits = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--raw") == 0) raw_path = argv[i + 1];
    else argc = 0;
  }
  if (argc < 3 || argc % 2 == 0) {
    std::fprintf(stderr, "usage: decoded_frames FILE DECODER [--bits N] [--raw OUT]\n");
    return 2;
  }
  const std::string decoder = argv[2];
  if (GstElementFactory* factory = gst_element_factory_find(decoder.c_str())) {
    gst_object_unref(factory);
  } else {
    std::fprintf(stderr, "decoded_frames: no element named %s\n", decoder.c_str());
    return 2;
  }
  // NVDEC's CUDA memory comes down as the programs' frames do.
  const bool nvdec = decoder.rfind("nv", 0) == 0;
  gchar* location = g_strescape(argv[1], nullptr);
  const std::string description = "filesrc location=\"" + std::string(location) +
                                  "\" ! decodebin name=decode expose-all-streams=false caps=\"video/x-raw(ANY)\" ! " +
                                  (nvdec ? "cudadownload ! " : "") +
                                  "appsink name=sink sync=false";
  g_free(location);
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (!pipeline) {
    std::fprintf(stderr, "decoded_frames: %s\n", error ? error->message : "cannot build the pipeline");
    g_clear_error(&error);
    return 1;
  }
  g_clear_error(&error);
  FILE* raw = raw_path ? std::fopen(raw_path, "wb") : nullptr;
  if (raw_path && !raw) {
    std::fprintf(stderr, "decoded_frames: cannot write %s\n", raw_path);
    return 1;
  }
  GstElement* decodebin = gst_bin_get_by_name(GST_BIN(pipeline), "decode");
  g_signal_connect(decodebin, "autoplug-sort", G_CALLBACK(OnlyTheNamedDecoder), argv[2]);
  g_signal_connect(decodebin, "autoplug-select", G_CALLBACK(SkipOtherDecoders), argv[2]);
  gst_object_unref(decodebin);
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstPad* pad = gst_element_get_static_pad(sink, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, AcceptVideoMeta, nullptr, nullptr);
  gst_object_unref(pad);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  // An error stops the stream without an EOS: the appsink would wait for a
  // sample for ever, so the bus is read between short waits.
  int status = 0;
  guint64 index = 0;
  GstBus* bus = gst_element_get_bus(pipeline);
  for (;;) {
    if (GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), GST_SECOND / 10)) {
      const bool printed = PrintFrame(sample, index++, bits, raw);
      gst_sample_unref(sample);
      if (printed) continue;
      std::fprintf(stderr, "decoded_frames: frame %llu could not be read\n", (unsigned long long)(index - 1));
      status = 1;
      break;
    }
    if (GstMessage* message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) {
      GError* failure = nullptr;
      gchar* debug = nullptr;
      gst_message_parse_error(message, &failure, &debug);
      std::fprintf(stderr, "decoded_frames: %s: %s (%s)\n", GST_OBJECT_NAME(GST_MESSAGE_SRC(message)),
                   failure->message, debug ? debug : "");
      g_clear_error(&failure);
      g_free(debug);
      gst_message_unref(message);
      status = 1;
      break;
    }
    if (gst_app_sink_is_eos(GST_APP_SINK(sink))) break;
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  if (raw && std::fclose(raw) != 0) status = 1;
  return status;
}
