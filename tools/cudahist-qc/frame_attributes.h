// What ffprobe prints as a video frame's attributes, found in GStreamer:
// the demuxer's packets (size, position, key frame and picture type, matched
// to the decoded frame by PTS), the decoded buffer (timestamps, interlace flags) and its caps
// (size, aspect ratio, pixel format).
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "coded_pictures.h"

namespace qc {

// One frame's attributes. Unknown values are left out of the report, as
// ffprobe leaves out "N/A" fields in its XML.
struct FrameAttributes {
  GstClockTime pts_time = GST_CLOCK_TIME_NONE;  // stream time of the PTS
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  bool key_frame = false;
  int64_t pkt_pos = -1;   // byte offset of the packet in the file; -1 unknown
  int64_t pkt_size = -1;  // bytes of the packet; -1 unknown
  int width = 0, height = 0;
  std::string pix_fmt;                   // FFmpeg's name
  std::string sample_aspect_ratio;       // "1:1"
  char pict_type = '?';                  // FFmpeg's letter where known, else '?'
  bool interlaced = false, top_field_first = false;
  bool field_order_known = false;  // a TFF flag on the buffer, or a field order in the caps
  int repeat_pict = 0;
  int time_base_num = 0, time_base_den = 0;  // the stream's, when the container's is known
  std::string timecode;  // ffprobe's `timecode` tag: the GOP header's of MPEG-1/2 ("" none)
};

// What the demuxer's packet of a frame says of it.
struct PacketFacts {
  int64_t size = -1, pos = -1;  // -1: unknown
  GstClockTime duration = GST_CLOCK_TIME_NONE;  // the demuxer's, which FFmpeg gives its frame
  bool key = false;
  char picture_type = '?';
  std::string timecode;
  CodedPicture picture;  // what the bitstream says of the frame's scan (H.264)
};

// FFmpeg's pixel format name for the samples of a GStreamer format as
// FFmpeg's software decoders present them ("yuv420p" for I420 and for
// NVDEC's NV12; "yuv422p10le" for I422_10LE), or "" when there is none.
std::string FfmpegPixelFormat(GstVideoFormat format);

// The packets of the video stream as the demuxer sends them to the decoder
// (a probe on the demuxer's video pad), and the file ranges it read (a probe
// on its sink pad in pull mode): a packet's position is the offset of the
// range read just before it when that range is exactly the packet (qtdemux
// reads each sample so); otherwise it is unknown. Thread-safe: probes run in the
// streaming threads, lookups in the main loop's.
class PacketLedger {
 public:
  // Hooks the ledger onto the demuxer (or, without one, the parser) that
  // decodebin plugs: connect to the pipeline's "deep-element-added".
  void Watch(GstElement* pipeline);

  // The packet of the decoded frame with this PTS (the demuxer's running PTS),
  // forgotten once taken: its size, position, whether it is a key frame (as
  // FFmpeg's decoder says for H.264 and HEVC, else the demuxer's flag) and
  // its picture type ('?' where neither the codec's parser nor the
  // intra-only list tells). False when none was seen.
  bool Take(GstClockTime pts, PacketFacts* facts);

  // "" or what says the stream is damaged: coded pictures after the first
  // decoded frame that the decoder gave no frame for (a corrupt or missing
  // reference: FFmpeg's decoder drops such pictures too).
  std::string LostPictures() const;

  // The container's time base when it is fixed by the format (Matroska: 1/1000).
  void TimeBase(int* num, int* den) const;
  // The video stream's caps as the demuxer gave them ("" before), as text.
  std::string CodedCaps() const;

 private:
  static void OnElementAdded(GstBin*, GstBin*, GstElement* element, gpointer self);
  static void OnPadAdded(GstElement* element, GstPad* pad, gpointer self);
  static GstPadProbeReturn OnPacket(GstPad*, GstPadProbeInfo* info, gpointer self);
  static GstPadProbeReturn OnRangeRead(GstPad*, GstPadProbeInfo* info, gpointer self);
  void WatchPacketPad(GstPad* pad);
  void PlaceTimecode(GstClockTime pts, const CodedPicture& picture);

  mutable std::mutex mutex_;
  std::map<GstClockTime, PacketFacts> packets_;
  CodedPictures coded_pictures_;
  std::string coded_caps_;
  int64_t last_read_size_ = -1, last_read_offset_ = -1;
  bool watching_ = false;
  bool intra_only_ = false;  // FFV1, ProRes, DV, JPEG...: every picture is I
  // MPEG-1/2 pictures in decode order, for the frame FFmpeg tags with a GOP's time code.
  GstClockTime last_reference_pts_ = GST_CLOCK_TIME_NONE;  // the last I or P picture's
  GstClockTime timecode_waits_at_ = GST_CLOCK_TIME_NONE;   // a first GOP's I picture, holding its time code
  int time_base_num_ = 0, time_base_den_ = 0;
  bool frame_taken_ = false;  // pictures before the first frame (an open GOP's) are not lost
  guint64 lost_ = 0;
  GstClockTime first_lost_ = GST_CLOCK_TIME_NONE;
};

// What a report of frames decoded with `decoder` in this layout cannot carry
// as qcli's would ("" when nothing): GStreamer's avdec decoders write
// interlaced 4:2:0 with an odd number of chroma rows (heights 2 mod 4, such
// as 486) with V where FFmpeg's layout has it, a row before where the caps'
// layout puts it (docs/versions.md). A frame with a GstVideoMeta (the
// analysis asks for it, and avdec gives it) is read where the meta says, so
// only frames laid out by their caps (`laid_out_by_caps`) get V figures
// that differ from FFmpeg's. An interlaced stream whose field order
// GStreamer was not told is reported with top_field_first 0.
std::string LayoutWarning(const GstVideoInfo& info, bool field_order_seen, bool laid_out_by_caps,
                          const std::string& decoder);

// What a report of `coded` video decoded to `decoded` cannot carry as qcli's
// would because the decoder gives fewer bits than FFmpeg's ("" when
// nothing): FFmpeg decodes ProRes 4444 to 12 bits, GStreamer's avdec_prores
// to 10, so every figure is of other samples.
std::string DepthWarning(const std::string& coded, const GstVideoInfo& decoded);

// Attributes of a decoded buffer with its caps, before the packet's are added
// (key_frame is the decoder's until the packet's flag replaces it; pict_type is left '?').
FrameAttributes AttributesOfBuffer(GstBuffer* buffer, const GstVideoInfo& info, const GstSegment& segment);

}  // namespace qc
