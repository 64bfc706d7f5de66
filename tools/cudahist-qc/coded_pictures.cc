#include "coded_pictures.h"

#include <gst/codecparsers/gstmpegvideoparser.h>

#include <cstdio>
#include <cstring>
#include <initializer_list>

namespace qc {
namespace {

// FFmpeg's letters (av_get_picture_type_char) for H.264's slice_type % 5:
// P, B, I, SP, SI.
constexpr char kH264Letters[] = {'P', 'B', 'I', 'p', 'i'};

char H265Letter(guint8 slice_type) {
  switch (slice_type) {
    case GST_H265_B_SLICE: return 'B';
    case GST_H265_P_SLICE: return 'P';
    case GST_H265_I_SLICE: return 'I';
    default: return '?';
  }
}

// FFmpeg's letters for MPEG-1/2's picture_coding_type 1 to 4.
char Mpeg12Letter(GstMpegVideoPictureType type) {
  switch (type) {
    case GST_MPEG_VIDEO_PICTURE_TYPE_I: return 'I';
    case GST_MPEG_VIDEO_PICTURE_TYPE_P: return 'P';
    case GST_MPEG_VIDEO_PICTURE_TYPE_B: return 'B';
    case GST_MPEG_VIDEO_PICTURE_TYPE_D: return 'I';  // FFmpeg decodes D pictures as I
    default: return '?';
  }
}

// As FFmpeg's av_timecode_make_mpeg_tc_string: ';' before the frames of a
// drop-frame time code.
std::string GopTimecode(const GstMpegVideoGop& gop) {
  char text[16];
  std::snprintf(text, sizeof text, "%02u:%02u:%02u%c%02u", gop.hour, gop.minute, gop.second,
                gop.drop_frame_flag ? ';' : ':', gop.frame);
  return text;
}

// HEVC's coded pictures are NAL unit types 0 to 31 (VCL), its random access
// points (BLA, IDR, CRA and the reserved IRAP types) 16 to 23; 32 to 34 are
// VPS, SPS and PPS.
bool IsH265Picture(guint8 type) { return type < 32; }
bool IsH265Irap(guint8 type) { return type >= 16 && type <= 23; }
bool IsH265ParameterSet(guint8 type) {
  return type == GST_H265_NAL_VPS || type == GST_H265_NAL_SPS || type == GST_H265_NAL_PPS;
}

// The length size of hvcC's NAL units is in its 22nd byte, the arrays of
// parameter sets follow its 23-byte header (ISO/IEC 14496-15, 8.3.3.1).
constexpr gsize kHvcCHeaderBytes = 23;
constexpr guint8 kHvcCArrayLengthBytes = 2;

const GValue* CodecData(const GstStructure* s) {
  const GValue* value = gst_structure_get_value(s, "codec_data");
  return value && G_VALUE_HOLDS(value, GST_TYPE_BUFFER) ? value : nullptr;
}

}  // namespace

CodedPictures::CodedPictures() = default;

CodedPictures::~CodedPictures() {
  if (h264_) gst_h264_nal_parser_free(h264_);
  if (h265_) gst_h265_parser_free(h265_);
}

void CodedPictures::SetCaps(const GstCaps* caps) {
  if (h264_) gst_h264_nal_parser_free(h264_);
  if (h265_) gst_h265_parser_free(h265_);
  h264_ = nullptr;
  h265_ = nullptr;
  codec_ = Codec::kOther;
  nal_length_size_ = 0;
  if (!caps || gst_caps_is_empty(caps)) return;
  const GstStructure* s = gst_caps_get_structure(caps, 0);
  const char* name = gst_structure_get_name(s);
  if (std::strcmp(name, "video/x-h264") == 0) {
    codec_ = Codec::kH264;
    h264_ = gst_h264_nal_parser_new();
  } else if (std::strcmp(name, "video/x-h265") == 0) {
    codec_ = Codec::kH265;
    h265_ = gst_h265_parser_new();
  } else {
    int version = 0;
    if (std::strcmp(name, "video/mpeg") == 0 && gst_structure_get_int(s, "mpegversion", &version) &&
        (version == 1 || version == 2))
      codec_ = Codec::kMpeg12;
    return;
  }
  // Byte-stream packets carry their parameter sets in band; avc and hvc1
  // packets are length-prefixed, with the parameter sets in codec_data.
  const char* format = gst_structure_get_string(s, "stream-format");
  const GValue* codec_data = CodecData(s);
  if (!codec_data || (format && std::strcmp(format, "byte-stream") == 0)) return;
  GstMapInfo map;
  GstBuffer* buffer = gst_value_get_buffer(codec_data);
  if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return;
  if (codec_ == Codec::kH264) ReadH264Config(map.data, map.size);
  else ReadH265Config(map.data, map.size);
  gst_buffer_unmap(buffer, &map);
}

void CodedPictures::ReadH264Config(const guint8* data, gsize size) {
  GstH264DecoderConfigRecord* config = nullptr;
  if (gst_h264_parser_parse_decoder_config_record(h264_, data, size, &config) != GST_H264_PARSER_OK) return;
  nal_length_size_ = config->length_size_minus_one + 1;
  for (GArray* sets : {config->sps, config->pps}) {
    for (guint i = 0; i < sets->len; ++i) gst_h264_parser_parse_nal(h264_, &g_array_index(sets, GstH264NalUnit, i));
  }
  gst_h264_decoder_config_record_free(config);
}

void CodedPictures::ReadH265Config(const guint8* data, gsize size) {
  if (size < kHvcCHeaderBytes) return;
  nal_length_size_ = (data[21] & 3) + 1;
  const guint arrays = data[22];
  gsize offset = kHvcCHeaderBytes;
  for (guint a = 0; a < arrays && offset + 3 <= size; ++a) {
    // After the array's NAL type byte, big-endian, at any offset: read by
    // bytes (GST_READ_UINT16_BE loads it unaligned on x86, undefined in C++).
    const guint units = guint(data[offset + 1]) << 8 | data[offset + 2];
    offset += 3;
    for (guint u = 0; u < units; ++u) {
      GstH265NalUnit nalu;
      if (gst_h265_parser_identify_nalu_hevc(h265_, data, guint(offset), size, kHvcCArrayLengthBytes, &nalu) !=
          GST_H265_PARSER_OK)
        return;
      if (IsH265ParameterSet(nalu.type)) gst_h265_parser_parse_nal(h265_, &nalu);
      offset = nalu.offset + nalu.size;
    }
  }
}

CodedPicture CodedPictures::Read(GstBuffer* packet) {
  if (codec_ == Codec::kOther) return CodedPicture();
  GstMapInfo map;
  if (!gst_buffer_map(packet, &map, GST_MAP_READ)) return CodedPicture();
  const CodedPicture picture = codec_ == Codec::kH264   ? ReadH264(map.data, map.size)
                              : codec_ == Codec::kH265 ? ReadH265(map.data, map.size)
                                                       : ReadMpeg12(map.data, map.size);
  gst_buffer_unmap(packet, &map);
  return picture;
}

CodedPicture CodedPictures::ReadH264(const guint8* data, gsize size) {
  GstH264NalUnit nalu;
  GstH264PicTiming timing{};
  bool timed = false;
  for (guint offset = 0; offset < size; offset = nalu.offset + nalu.size) {
    const GstH264ParserResult found =
        nal_length_size_ ? gst_h264_parser_identify_nalu_avc(h264_, data, offset, size, nal_length_size_, &nalu)
                         : gst_h264_parser_identify_nalu(h264_, data, offset, size, &nalu);
    if (found != GST_H264_PARSER_OK && found != GST_H264_PARSER_NO_NAL_END) break;
    if (nalu.type == GST_H264_NAL_SPS || nalu.type == GST_H264_NAL_PPS) {
      gst_h264_parser_parse_nal(h264_, &nalu);
    } else if (nalu.type == GST_H264_NAL_SEI) {
      GArray* messages = nullptr;
      if (gst_h264_parser_parse_sei(h264_, &nalu, &messages) == GST_H264_PARSER_OK) {
        for (guint i = 0; i < messages->len; ++i) {
          const GstH264SEIMessage& message = g_array_index(messages, GstH264SEIMessage, i);
          if (message.payloadType != GST_H264_SEI_PIC_TIMING) continue;
          timing = message.payload.pic_timing;
          timed = true;
        }
      }
      if (messages) g_array_free(messages, TRUE);
    } else if (nalu.type == GST_H264_NAL_SLICE || nalu.type == GST_H264_NAL_SLICE_IDR) {
      GstH264SliceHdr slice;
      if (gst_h264_parser_parse_slice_hdr(h264_, &nalu, &slice, FALSE, FALSE) != GST_H264_PARSER_OK ||
          slice.first_mb_in_slice != 0)
        continue;
      CodedPicture picture;
      picture.known = true;
      picture.type = kH264Letters[slice.type % 5];
      picture.key = nalu.type == GST_H264_NAL_SLICE_IDR;
      ReadH264Scan(slice, timed ? &timing : nullptr, &picture);
      return picture;
    }
  }
  return CodedPicture();
}

// How many clock timestamps a pic_struct carries (H.264, table D-1).
int ClockTimestamps(guint8 pic_struct) {
  static const int kCount[] = {1, 1, 1, 2, 2, 3, 3, 2, 3};
  return pic_struct < G_N_ELEMENTS(kCount) ? kCount[pic_struct] : 0;
}

// FFmpeg's h264_field_start (libavcodec/h264_slice.c), for frame pictures;
// a field picture's pair is left to the decoder's flags.
void CodedPictures::ReadH264Scan(const GstH264SliceHdr& slice, const GstH264PicTiming* timing,
                                 CodedPicture* picture) {
  const GstH264SPS* sps = slice.pps ? slice.pps->sequence : nullptr;
  if (!sps || slice.field_pic_flag) return;
  const bool mbaff = sps->mb_adaptive_frame_field_flag;
  const bool pic_struct_present =
      sps->vui_parameters_present_flag && sps->vui_parameters.pic_struct_present_flag && timing != nullptr;
  bool interlaced = false;
  int repeat = 0;
  if (pic_struct_present) {
    switch (timing->pic_struct) {
      case GST_H264_SEI_PIC_STRUCT_TOP_FIELD:
      case GST_H264_SEI_PIC_STRUCT_BOTTOM_FIELD: interlaced = true; break;
      case GST_H264_SEI_PIC_STRUCT_TOP_BOTTOM:
      case GST_H264_SEI_PIC_STRUCT_BOTTOM_TOP: interlaced = mbaff || previous_interlaced_; break;
      case GST_H264_SEI_PIC_STRUCT_TOP_BOTTOM_TOP:
      case GST_H264_SEI_PIC_STRUCT_BOTTOM_TOP_BOTTOM: repeat = 1; break;
      case GST_H264_SEI_PIC_STRUCT_FRAME_DOUBLING: repeat = 2; break;
      case GST_H264_SEI_PIC_STRUCT_FRAME_TRIPLING: repeat = 4; break;
      default: break;
    }
    // FFmpeg ORs 1 << ct_type over the clock timestamps: progressive 1, interlaced 2.
    unsigned ct_types = 0;
    for (int i = 0; i < ClockTimestamps(timing->pic_struct); ++i)
      if (timing->clock_timestamp_flag[i]) ct_types |= 1u << timing->clock_timestamp[i].ct_type;
    if ((ct_types & 3) && timing->pic_struct <= GST_H264_SEI_PIC_STRUCT_BOTTOM_TOP) interlaced = ct_types & 2;
  } else {
    interlaced = mbaff;
  }
  previous_interlaced_ = interlaced;
  // The two fields' order counts of a frame differ by what its slice header
  // and SPS add to the bottom one.
  int bottom_minus_top = 0;
  if (sps->pic_order_cnt_type == 0) bottom_minus_top = slice.delta_pic_order_cnt_bottom;
  else if (sps->pic_order_cnt_type == 1)
    bottom_minus_top = sps->offset_for_top_to_bottom_field + slice.delta_pic_order_cnt[1];
  bool top_first;
  if (bottom_minus_top != 0) top_first = bottom_minus_top > 0;
  else if (pic_struct_present)
    top_first = timing->pic_struct == GST_H264_SEI_PIC_STRUCT_TOP_BOTTOM ||
                timing->pic_struct == GST_H264_SEI_PIC_STRUCT_TOP_BOTTOM_TOP;
  else top_first = interlaced;
  picture->scan_known = true;
  picture->interlaced = interlaced;
  picture->top_field_first = top_first;
  picture->repeat_pict = repeat;
}

// FFmpeg's hevc_sei.c and hevc_refs.c: pic_struct 1, 9, 11 a top field,
// 2, 10, 12 a bottom one; 7 and 8 frame doubling and tripling.
void ReadH265Scan(guint8 pic_struct, CodedPicture* picture) {
  const bool top = pic_struct == 1 || pic_struct == 9 || pic_struct == 11;
  const bool bottom = pic_struct == 2 || pic_struct == 10 || pic_struct == 12;
  picture->scan_known = true;
  picture->interlaced = top || bottom;
  picture->top_field_first = top;
  picture->field = top ? 't' : bottom ? 'b' : 0;
  picture->repeat_pict = pic_struct == 7 ? 2 : pic_struct == 8 ? 4 : 0;
}

CodedPicture CodedPictures::ReadH265(const guint8* data, gsize size) {
  GstH265NalUnit nalu;
  int pic_struct = -1;
  for (guint offset = 0; offset < size; offset = nalu.offset + nalu.size) {
    const GstH265ParserResult found =
        nal_length_size_ ? gst_h265_parser_identify_nalu_hevc(h265_, data, offset, size, nal_length_size_, &nalu)
                         : gst_h265_parser_identify_nalu(h265_, data, offset, size, &nalu);
    if (found != GST_H265_PARSER_OK && found != GST_H265_PARSER_NO_NAL_END) break;
    if (IsH265ParameterSet(nalu.type)) {
      gst_h265_parser_parse_nal(h265_, &nalu);
    } else if (nalu.type == GST_H265_NAL_PREFIX_SEI) {
      GArray* messages = nullptr;
      if (gst_h265_parser_parse_sei(h265_, &nalu, &messages) == GST_H265_PARSER_OK) {
        for (guint i = 0; i < messages->len; ++i) {
          const GstH265SEIMessage& message = g_array_index(messages, GstH265SEIMessage, i);
          if (message.payloadType == GST_H265_SEI_PIC_TIMING) pic_struct = message.payload.pic_timing.pic_struct;
        }
      }
      if (messages) g_array_free(messages, TRUE);
    } else if (IsH265Picture(nalu.type)) {
      GstH265SliceHdr slice;
      if (gst_h265_parser_parse_slice_hdr(h265_, &nalu, &slice) != GST_H265_PARSER_OK) continue;
      const bool first = slice.first_slice_segment_in_pic_flag;
      CodedPicture picture;
      picture.known = true;
      picture.type = H265Letter(slice.type);
      picture.key = IsH265Irap(nalu.type);
      gst_h265_slice_hdr_free(&slice);  // the entry point offsets the parser allocated
      if (!first) continue;
      // pic_struct is in the SEI only where the SPS says so (GStreamer's parser
      // leaves it 0 otherwise, and reads no such SPS in some of x265's field
      // streams: then the decoder's field flags tell).
      const GstH265SPS* sps = slice.pps ? slice.pps->sps : nullptr;
      if (pic_struct >= 0 && sps && sps->vui_parameters_present_flag && sps->vui_params.frame_field_info_present_flag)
        ReadH265Scan(guint8(pic_struct), &picture);
      return picture;
    }
  }
  return CodedPicture();
}

CodedPicture CodedPictures::ReadMpeg12(const guint8* data, gsize size) {
  CodedPicture picture;
  GstMpegVideoPacket packet;
  for (guint offset = 0; gst_mpeg_video_parse(&packet, data, size, offset); offset = packet.offset) {
    if (packet.type == GST_MPEG_VIDEO_PACKET_EXTENSION) {
      GstMpegVideoSequenceExt extension;
      if (gst_mpeg_video_packet_parse_sequence_extension(&packet, &extension)) low_delay_ = extension.low_delay;
    } else if (packet.type == GST_MPEG_VIDEO_PACKET_GOP) {
      GstMpegVideoGop gop;
      if (gst_mpeg_video_packet_parse_gop(&packet, &gop)) picture.timecode = GopTimecode(gop);
    } else if (packet.type == GST_MPEG_VIDEO_PACKET_PICTURE) {
      GstMpegVideoPictureHdr header;
      if (!gst_mpeg_video_packet_parse_picture_header(&packet, &header)) return CodedPicture();
      picture.known = true;
      picture.type = Mpeg12Letter(GstMpegVideoPictureType(header.pic_type));
      picture.key = header.pic_type == GST_MPEG_VIDEO_PICTURE_TYPE_I;
      picture.low_delay = low_delay_;
      return picture;
    }
  }
  return CodedPicture();
}

}  // namespace qc
