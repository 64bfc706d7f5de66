// The picture type ffprobe prints as a frame's pict_type, read from the
// compressed packet with GStreamer's codec parsers (gst-codecparsers), since
// GStreamer's decoders do not say whether a frame was coded P or B.
//
// FFmpeg's H.264 and HEVC decoders give a frame the type of the picture's
// slices as coded; the packet's first slice (first_mb_in_slice 0,
// first_slice_segment_in_pic_flag) is read here. Other codecs are either
// intra-only (the ledger's 'I') or left '?'.
#pragma once

#include <gst/codecparsers/gsth264parser.h>
#include <gst/codecparsers/gsth265parser.h>
#include <gst/gst.h>

namespace qc {

class PictureTypes {
 public:
  PictureTypes();
  ~PictureTypes();
  PictureTypes(const PictureTypes&) = delete;
  PictureTypes& operator=(const PictureTypes&) = delete;

  // The stream's caps (from the demuxer or parser): the codec, the packets'
  // framing (length-prefixed or start codes) and the parameter sets of
  // codec_data.
  void SetCaps(const GstCaps* caps);

  // FFmpeg's letter for the packet's picture ('I', 'P', 'B', and 'i', 'p'
  // for H.264's switching slices), or '?' where the codec is neither H.264
  // nor HEVC or no picture starts in the packet.
  char TypeOf(GstBuffer* packet);

 private:
  enum class Codec { kOther, kH264, kH265 };

  void ReadH264Config(const guint8* data, gsize size);
  void ReadH265Config(const guint8* data, gsize size);
  char H264Type(const guint8* data, gsize size);
  char H265Type(const guint8* data, gsize size);

  Codec codec_ = Codec::kOther;
  guint8 nal_length_size_ = 0;  // 0: start codes (byte-stream)
  GstH264NalParser* h264_ = nullptr;
  GstH265Parser* h265_ = nullptr;
};

}  // namespace qc
