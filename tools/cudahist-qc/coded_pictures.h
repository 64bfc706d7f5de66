// What FFmpeg's decoder says of a frame's coded picture, as ffprobe prints
// it in pict_type and key_frame, read from the compressed packet with
// GStreamer's codec parsers (gst-codecparsers): GStreamer's decoders do not
// say whether a frame was coded P or B, and some demuxers (tsdemux) mark no
// packet as a delta unit.
//
// FFmpeg's H.264 and HEVC decoders take a frame's type from the slice that
// starts the picture (first_mb_in_slice 0, first_slice_segment_in_pic_flag),
// and call it a key frame when that picture is IDR (H.264) or IRAP (HEVC).
// Its H.264 decoder also takes interlaced_frame, top_field_first and
// repeat_pict from the bitstream (the picture timing SEI's pic_struct and
// ct_type, else the decoding process: a field or MBAFF picture, and the
// fields' order counts): read the same way here, so that they do not depend
// on what a GPU decoder puts in its buffer flags.
// Its HEVC decoder takes them from the picture timing SEI's pic_struct
// alone: a field picture is interlaced, top field first when it is the top
// one; frame doubling and tripling repeat it.
// Its MPEG-1/2 decoder takes the picture header's coding type and calls I
// pictures key frames; the picture after a GOP header carries the GOP's time
// code, which ffprobe prints as the frame's `timecode` tag.
// Other codecs are left to the demuxer's flags and the intra-only list.
#pragma once

#include <gst/codecparsers/gsth264parser.h>
#include <gst/codecparsers/gsth265parser.h>
#include <gst/gst.h>

#include <string>

namespace qc {

struct CodedPicture {
  bool known = false;  // a picture of a codec read here starts in the packet
  char type = '?';     // FFmpeg's letter: 'I', 'P', 'B', and 'i', 'p' for H.264's switching slices
  bool key = false;    // IDR (H.264), IRAP (HEVC), I (MPEG-1/2)
  std::string timecode;  // the GOP header's before the picture, as FFmpeg prints it ("" none)
  bool low_delay = false;  // MPEG-2's sequence says so: FFmpeg outputs each picture as it decodes it
  // H.264 frame pictures and HEVC: FFmpeg's interlaced_frame, top_field_first and repeat_pict.
  bool scan_known = false;
  // HEVC field pictures (the field SEI's pic_struct): which field ('t', 'b'), or 0.
  char field = 0;
  bool interlaced = false, top_field_first = false;
  int repeat_pict = 0;
};

class CodedPictures {
 public:
  CodedPictures();
  ~CodedPictures();
  CodedPictures(const CodedPictures&) = delete;
  CodedPictures& operator=(const CodedPictures&) = delete;

  // The stream's caps (from the demuxer or parser): the codec, the packets'
  // framing (length-prefixed or start codes) and the parameter sets of
  // codec_data.
  void SetCaps(const GstCaps* caps);

  // The picture that starts in `packet`; not known where the codec is
  // not one of those above, or no picture starts there.
  CodedPicture Read(GstBuffer* packet);

 private:
  enum class Codec { kOther, kH264, kH265, kMpeg12 };

  void ReadH264Config(const guint8* data, gsize size);
  void ReadH265Config(const guint8* data, gsize size);
  CodedPicture ReadH264(const guint8* data, gsize size);
  void ReadH264Scan(const GstH264SliceHdr& slice, const GstH264PicTiming* timing, CodedPicture* picture);
  CodedPicture ReadH265(const guint8* data, gsize size);
  CodedPicture ReadMpeg12(const guint8* data, gsize size);

  Codec codec_ = Codec::kOther;
  guint8 nal_length_size_ = 0;  // 0: start codes (byte-stream)
  bool low_delay_ = false;      // MPEG-2's sequence extension
  bool previous_interlaced_ = false;  // H.264: the last picture's interlaced_frame, for soft telecine
  GstH264NalParser* h264_ = nullptr;
  GstH265Parser* h265_ = nullptr;
};

}  // namespace qc
