// decoded_frames FILE DECODER [--raw OUT]: the frames DECODER hands over for
// FILE, one JSON line each: the format, size and scan GStreamer gives, and an
// md5 of every component's samples, laid out as FFmpeg's raw output of the
// same pixel format lays them out (planar, the component's own width and
// height rounded up as FFmpeg rounds them, 8-bit samples as bytes, deeper
// ones as little-endian 16-bit values). Equal md5s mean equal samples.
// An NVDEC decoder's CUDA frames come through cudadownload, as the programs
// count them. The frames are read where the decoder wrote them (its
// GstVideoMeta: the sink accepts it, as the analysis pipeline's does).
// --raw writes those samples too, frame after frame, for the sample
// differences (tests/decode/decode_matrix.py).
// Exit status: 0 when the file decoded to its end, 1 otherwise (the error
// on stderr), 2 for a wrong command line.
#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

// FFmpeg's rows and columns of a subsampled component: AV_CEIL_RSHIFT.
int CeilShift(int size, int shift) { return -((-size) >> shift); }

// The component's samples in FFmpeg's raw layout.
std::vector<guint8> ComponentSamples(const GstVideoFrame& frame, int component, int width, int height) {
  const GstVideoFormatInfo* format = frame.info.finfo;
  const int w = CeilShift(width, GST_VIDEO_FORMAT_INFO_W_SUB(format, component));
  const int h = CeilShift(height, GST_VIDEO_FORMAT_INFO_H_SUB(format, component));
  const int depth = GST_VIDEO_FORMAT_INFO_DEPTH(format, component);
  const int shift = GST_VIDEO_FORMAT_INFO_SHIFT(format, component);
  const int pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, component);
  const int row_stride = GST_VIDEO_FRAME_COMP_STRIDE(&frame, component);
  const bool little_endian = GST_VIDEO_FORMAT_INFO_IS_LE(format);
  const auto* base = static_cast<const guint8*>(GST_VIDEO_FRAME_COMP_DATA(&frame, component));
  std::vector<guint8> samples;
  samples.reserve(size_t(w) * h * (depth > 8 ? 2 : 1));
  for (int y = 0; y < h; ++y) {
    const guint8* row = base + ptrdiff_t(y) * row_stride;
    for (int x = 0; x < w; ++x) {
      const guint8* at = row + ptrdiff_t(x) * pixel_stride;
      if (depth <= 8) {
        samples.push_back(at[0]);
        continue;
      }
      const guint16 word = little_endian ? GST_READ_UINT16_LE(at) : GST_READ_UINT16_BE(at);
      const guint16 value = guint16((word >> shift) & ((1u << depth) - 1));
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

// The sink takes frames laid out by their GstVideoMeta, as fakevideosink
// does in the programs' pipelines: decoders then hand over their own buffers.
GstPadProbeReturn AcceptVideoMeta(GstPad*, GstPadProbeInfo* info, gpointer) {
  GstQuery* query = GST_PAD_PROBE_INFO_QUERY(info);
  if (GST_QUERY_TYPE(query) == GST_QUERY_ALLOCATION)
    gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  return GST_PAD_PROBE_OK;
}

bool PrintFrame(GstSample* sample, guint64 index, FILE* raw) {
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
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    const std::vector<guint8> samples = ComponentSamples(frame, int(c), width, height);
    if (raw && std::fwrite(samples.data(), 1, samples.size(), raw) != samples.size()) {
      gst_video_frame_unmap(&frame);
      return false;
    }
    line += std::string(c ? "," : "") + "\"" + Md5(samples) + "\"";
  }
  gst_video_frame_unmap(&frame);
  std::printf("%s]}\n", line.c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  if (argc != 3 && !(argc == 5 && std::strcmp(argv[3], "--raw") == 0)) {
    std::fprintf(stderr, "usage: decoded_frames FILE DECODER [--raw OUT]\n");
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
  const std::string description = "filesrc location=\"" + std::string(location) + "\" ! parsebin ! " + decoder +
                                  (nvdec ? " ! video/x-raw(memory:CUDAMemory) ! cudadownload" : "") +
                                  " ! appsink name=sink sync=false";
  g_free(location);
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (!pipeline) {
    std::fprintf(stderr, "decoded_frames: %s\n", error ? error->message : "cannot build the pipeline");
    g_clear_error(&error);
    return 1;
  }
  g_clear_error(&error);
  FILE* raw = argc == 5 ? std::fopen(argv[4], "wb") : nullptr;
  if (argc == 5 && !raw) {
    std::fprintf(stderr, "decoded_frames: cannot write %s\n", argv[4]);
    return 1;
  }
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstPad* pad = gst_element_get_static_pad(sink, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, AcceptVideoMeta, nullptr, nullptr);
  gst_object_unref(pad);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  int status = 0;
  guint64 index = 0;
  while (GstSample* sample = gst_app_sink_pull_sample(GST_APP_SINK(sink))) {
    const bool printed = PrintFrame(sample, index++, raw);
    gst_sample_unref(sample);
    if (!printed) {
      std::fprintf(stderr, "decoded_frames: frame %llu could not be read\n", (unsigned long long)(index - 1));
      status = 1;
      break;
    }
  }
  GstBus* bus = gst_element_get_bus(pipeline);
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
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  if (raw && std::fclose(raw) != 0) status = 1;
  return status;
}
