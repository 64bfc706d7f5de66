// Which decoder a stream gets: the one decision between the decoders
// decodebin offers for a stream and the figures the programs report.
//
// The figures are only as exact as the frames. H.264, HEVC, VP8, VP9 and AV1
// are defined bit for bit, so a GPU decoder is used for a kind of stream only
// where the decoding matrix (scripts/gpuhost/decode.sh, docs/versions.md)
// showed its frames equal to FFmpeg's; every other stream of those codecs is
// decoded by FFmpeg's own decoder (gst-libav) and its frames uploaded.
// MPEG-1/2, MPEG-4 Part 2, VC-1 and JPEG leave the IDCT to a tolerance:
// cudahist-qc decodes them as FFmpeg does (so its reports equal qcli's), the
// monitor may take NVDEC for them.
//
// Pure logic on names and caps fields, so that CI tests it without a GPU.
#pragma once

#include <gst/gst.h>

#include <string>
#include <vector>

namespace cudahist_tools {

// What in a stream's parsed caps decides its decoder.
struct StreamKind {
  std::string codec;     // the caps' name: "video/x-h264", "video/mpeg" ...
  int mpeg_version = 0;  // video/mpeg's mpegversion (1, 2, 4)
  bool interlaced = false;
  bool scan_known = false;  // the caps said (a parser's do; a demuxer's may not)
  std::string profile;
  std::string chroma_format;  // "4:2:0" ... ("" when the parser did not say)
  unsigned bit_depth = 0;     // luma bits (0 when the parser did not say)
};

// The stream as its parser describes it: H.264 with frame_mbs_only_flag 0
// (h264parse's coded-picture-structure=field) or any interlace-mode but
// progressive counts as interlaced.
StreamKind StreamKindOfCaps(const GstCaps* caps);

// "H.264 interlaced 4:2:0 8-bit", for the reasons the programs print.
std::string DescribeStream(const StreamKind& stream);

struct DecoderPolicy {
  bool gpu = false;            // NVDEC may decode (a GPU is used)
  int cuda_device = 0;         // whose NVDEC decoders (nvcodec names them per device)
  bool gpu_for_tolerance_codecs = false;  // NVDEC for MPEG-2, MPEG-4 Part 2, VC-1, JPEG too
  std::string forced;          // a decoder the user named (--decoder): that one or none
  unsigned gst_minor = GST_VERSION_MINOR;  // the runtime's GStreamer 1.x
};

struct DecoderChoice {
  std::vector<std::string> order;  // the decoders to try, first choice first
  // Why the first is not the GPU decoder decodebin offered ("" when the
  // first is what one would expect, or no GPU is used).
  std::string why;
  // Set when no offered decoder may decode the stream (a forced name that
  // does not take it): the error to report.
  std::string problem;
};

// Orders `offered` (decoder factory names, decodebin's order) for `stream`.
DecoderChoice ChooseDecoders(const std::vector<std::string>& offered, const StreamKind& stream,
                             const DecoderPolicy& policy);

// Whether a factory is one of nvcodec's NVDEC decoders (any device).
bool IsNvdecDecoder(const std::string& factory);

// A decoder the user names must exist and decode video: "" or the error.
std::string CheckDecoderName(const std::string& name);

}  // namespace cudahist_tools
