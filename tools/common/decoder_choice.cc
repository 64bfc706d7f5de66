#include "decoder_choice.h"

#include <algorithm>
#include <cstring>
#include <regex>

namespace cudahist_tools {
namespace {

enum class Scans { kProgressive, kAll };

constexpr unsigned kLatest = 999;

// The GPU decoders whose frames equal FFmpeg's, per codec, GStreamer
// version and scan: the decoding matrix's verdicts (scripts/gpuhost/decode.sh
// compares an md5 of every plane of every frame with FFmpeg's decode of the
// same clip; docs/versions.md has the table and the clips). First match is
// the first choice. Up to 1.22 nvcodec's nv*dec decoders drive NVIDIA's own
// parser (the Video Codec SDK's nvcuvid) and the nv*sldec ones GStreamer's
// GstCodecs parsers; from 1.24 on nv*dec are the GstCodecs ones.
struct ExactGpuDecoder {
  const char* codec;
  const char* decoder;  // device 0's factory name
  unsigned first_minor, last_minor;
  Scans scans;
  unsigned max_bit_depth;  // deeper streams: not shown exact (or given in more bits than they have)
};
constexpr ExactGpuDecoder kExactGpuDecoders[] = {
    {"video/x-h264", "nvh264dec", 22, 23, Scans::kAll, 8},
    // The stateless decoder decodes interlaced (MBAFF, B-frames) H.264
    // inexactly: 28 of 29 frames of a 480i x264 clip differ.
    {"video/x-h264", "nvh264sldec", 22, 23, Scans::kProgressive, 8},
    {"video/x-h264", "nvh264dec", 24, kLatest, Scans::kProgressive, 8},
    {"video/x-h265", "nvh265dec", 22, 23, Scans::kAll, 8},
    {"video/x-h265", "nvh265dec", 22, 23, Scans::kProgressive, 10},
    {"video/x-h265", "nvh265sldec", 22, 23, Scans::kProgressive, 10},
    {"video/x-h265", "nvh265dec", 24, kLatest, Scans::kProgressive, 10},
    {"video/x-vp8", "nvvp8dec", 22, kLatest, Scans::kAll, 8},
    {"video/x-vp9", "nvvp9dec", 22, kLatest, Scans::kAll, 10},
    {"video/x-av1", "nvav1dec", 22, kLatest, Scans::kAll, 8},
};

// Codecs whose standard lets decoders differ within an IDCT accuracy.
struct ToleranceCodec {
  const char* codec;
  int mpeg_version;  // video/mpeg's; 0: any
  const char* name;
};
constexpr ToleranceCodec kToleranceCodecs[] = {
    {"video/mpeg", 1, "MPEG-1"},      {"video/mpeg", 2, "MPEG-2"},   {"video/mpeg", 4, "MPEG-4 Part 2"},
    {"video/x-divx", 0, "MPEG-4 Part 2"}, {"video/x-xvid", 0, "MPEG-4 Part 2"}, {"video/x-wmv", 0, "VC-1"},
    {"image/jpeg", 0, "JPEG"},
};

struct CodecName {
  const char* codec;
  const char* name;
};
constexpr CodecName kCodecNames[] = {{"video/x-h264", "H.264"}, {"video/x-h265", "HEVC"}, {"video/x-vp8", "VP8"},
                                     {"video/x-vp9", "VP9"},    {"video/x-av1", "AV1"}};

const ToleranceCodec* ToleranceOf(const StreamKind& stream) {
  for (const ToleranceCodec& codec : kToleranceCodecs)
    if (stream.codec == codec.codec && (codec.mpeg_version == 0 || codec.mpeg_version == stream.mpeg_version))
      return &codec;
  return nullptr;
}

std::string CodecNameOf(const StreamKind& stream) {
  if (const ToleranceCodec* codec = ToleranceOf(stream)) return codec->name;
  for (const CodecName& codec : kCodecNames)
    if (stream.codec == codec.codec) return codec.name;
  return stream.codec;
}

// nvcodec names device N's decoders nvh264deviceNdec, nvh264sldeviceNdec.
std::string DeviceZeroName(const std::string& factory) {
  static const std::regex device("device[0-9]+");
  return std::regex_replace(factory, device, "");
}

int DeviceOf(const std::string& factory) {
  const size_t at = factory.find("device");
  return at == std::string::npos ? 0 : std::atoi(factory.c_str() + at + 6);
}

bool ShownExact(const std::string& factory, const StreamKind& stream, unsigned gst_minor) {
  const std::string name = DeviceZeroName(factory);
  for (const ExactGpuDecoder& entry : kExactGpuDecoders) {
    if (stream.codec != entry.codec || name != entry.decoder) continue;
    if (gst_minor < entry.first_minor || gst_minor > entry.last_minor) continue;
    if (stream.interlaced && entry.scans == Scans::kProgressive) continue;
    if (stream.bit_depth > entry.max_bit_depth) continue;
    return true;
  }
  return false;
}

// Among exact decoders the table's order; the rest keep decodebin's.
int TableRank(const std::string& factory) {
  const std::string name = DeviceZeroName(factory);
  for (size_t i = 0; i < std::size(kExactGpuDecoders); ++i)
    if (name == kExactGpuDecoders[i].decoder) return int(i);
  return int(std::size(kExactGpuDecoders));
}

// FFmpeg's decoders (gst-libav) before other CPU decoders: the reports are
// compared with qcli's, which decodes with FFmpeg.
std::vector<std::string> CpuDecoders(const std::vector<std::string>& offered) {
  std::vector<std::string> ffmpeg, other;
  for (const std::string& name : offered) {
    if (IsNvdecDecoder(name)) continue;
    (name.rfind("avdec_", 0) == 0 ? ffmpeg : other).push_back(name);
  }
  ffmpeg.insert(ffmpeg.end(), other.begin(), other.end());
  return ffmpeg;
}

std::string Joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

std::string WhyNotGpu(const std::vector<std::string>& passed_over, const StreamKind& stream,
                      const DecoderPolicy& policy) {
  const std::string gst = "GStreamer 1." + std::to_string(policy.gst_minor);
  if (const ToleranceCodec* codec = ToleranceOf(stream)) {
    return std::string(codec->name) + " leaves the IDCT to a tolerance: decoded as FFmpeg decodes it, so the " +
           "figures equal FFmpeg's (--decoder " + passed_over.front() + " decodes it with NVDEC)";
  }
  return passed_over.front() + " (" + gst + ") is not shown to decode " + DescribeStream(stream) +
         " as FFmpeg does (docs/versions.md): decoded by FFmpeg's decoder, frames uploaded";
}

}  // namespace

bool IsNvdecDecoder(const std::string& factory) {
  return factory.size() > 5 && factory.compare(0, 2, "nv") == 0 && factory.compare(factory.size() - 3, 3, "dec") == 0;
}

StreamKind StreamKindOfCaps(const GstCaps* caps) {
  StreamKind stream;
  if (!caps || gst_caps_is_empty(caps) || gst_caps_is_any(caps)) return stream;
  const GstStructure* s = gst_caps_get_structure(caps, 0);
  stream.codec = gst_structure_get_name(s);
  gst_structure_get_int(s, "mpegversion", &stream.mpeg_version);
  const char* mode = gst_structure_get_string(s, "interlace-mode");
  const char* structure = gst_structure_get_string(s, "coded-picture-structure");
  stream.interlaced = (mode && std::strcmp(mode, "progressive") != 0) ||
                      (structure && std::strcmp(structure, "frame") != 0);
  stream.scan_known = mode || structure;
  if (const char* profile = gst_structure_get_string(s, "profile")) stream.profile = profile;
  if (const char* chroma = gst_structure_get_string(s, "chroma-format")) stream.chroma_format = chroma;
  guint depth = 0;
  if (gst_structure_get_uint(s, "bit-depth-luma", &depth)) stream.bit_depth = depth;
  return stream;
}

std::string DescribeStream(const StreamKind& stream) {
  std::string text = CodecNameOf(stream);
  if (stream.scan_known) text += stream.interlaced ? " interlaced" : " progressive";
  if (!stream.chroma_format.empty()) text += " " + stream.chroma_format;
  if (stream.bit_depth) text += " " + std::to_string(stream.bit_depth) + "-bit";
  return text;
}

DecoderChoice ChooseDecoders(const std::vector<std::string>& offered, const StreamKind& stream,
                             const DecoderPolicy& policy) {
  DecoderChoice choice;
  if (!policy.forced.empty()) {
    if (std::find(offered.begin(), offered.end(), policy.forced) != offered.end()) {
      choice.order = {policy.forced};
    } else {
      choice.problem = "the decoder " + policy.forced + " does not decode this stream (" + DescribeStream(stream) +
                       "); the decoders GStreamer offers for it: " + Joined(offered);
    }
    return choice;
  }
  std::vector<std::string> exact, passed_over;
  for (const std::string& name : offered) {
    if (!IsNvdecDecoder(name) || !policy.gpu || DeviceOf(name) != policy.cuda_device) continue;
    const bool tolerated = ToleranceOf(stream) != nullptr && policy.gpu_for_tolerance_codecs;
    (tolerated || ShownExact(name, stream, policy.gst_minor) ? exact : passed_over).push_back(name);
  }
  std::stable_sort(exact.begin(), exact.end(),
                   [](const std::string& a, const std::string& b) { return TableRank(a) < TableRank(b); });
  choice.order = exact;
  const std::vector<std::string> cpu = CpuDecoders(offered);
  choice.order.insert(choice.order.end(), cpu.begin(), cpu.end());
  if (exact.empty() && !passed_over.empty()) choice.why = WhyNotGpu(passed_over, stream, policy);
  return choice;
}

std::string CheckDecoderName(const std::string& name) {
  GstElementFactory* factory = gst_element_factory_find(name.c_str());
  if (!factory) {
    return "there is no GStreamer element named '" + name +
           "' (gst-inspect-1.0 lists the elements; a decoder's Klass has Decoder/Video)";
  }
  const char* metadata = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS);
  const std::string klass = metadata ? metadata : "";
  gst_object_unref(factory);
  const bool video_decoder = klass.find("Decoder") != std::string::npos && klass.find("Video") != std::string::npos;
  return video_decoder ? "" : "'" + name + "' is not a video decoder (its Klass is " + klass + ")";
}

}  // namespace cudahist_tools
