#include "frame_attributes.h"

#include <cstdio>
#include <cstring>
#include <iterator>

namespace qc {
namespace {

// The packets, and the caps whose codec_data their picture types need.
constexpr GstPadProbeType kPacketProbe =
    GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM);

bool HasKlass(GstElement* element, const char* word) {
  GstElementFactory* factory = gst_element_get_factory(element);
  const gchar* klass = factory ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : nullptr;
  return klass && std::strstr(klass, word);
}

std::string CapsName(GstPad* pad) {
  GstCaps* caps = gst_pad_get_current_caps(pad);
  if (!caps) caps = gst_pad_query_caps(pad, nullptr);
  std::string name = caps && !gst_caps_is_empty(caps) ? gst_structure_get_name(gst_caps_get_structure(caps, 0)) : "";
  if (caps) gst_caps_unref(caps);
  return name;
}

// Codecs whose every picture is coded on its own (FFmpeg reports pict_type I).
bool IsIntraOnlyCodec(const std::string& caps_name) {
  static const char* const kIntraOnly[] = {"video/x-ffv",      "video/x-prores", "video/x-dv",
                                           "image/jpeg",       "image/x-j2c",    "image/x-jpc",
                                           "video/x-huffyuv",  "video/x-dnxhd",  "video/x-raw",
                                           "video/x-cineform", "image/png"};
  for (const char* name : kIntraOnly)
    if (caps_name == name) return true;
  return false;
}

std::string YuvName(const GstVideoFormatInfo* info) {
  static const struct {
    guint w_sub, h_sub;
    const char* name;
  } kSampling[] = {{0, 0, "444"}, {1, 0, "422"}, {1, 1, "420"}, {2, 0, "411"}, {2, 2, "410"}, {0, 1, "440"}};
  const guint depth = GST_VIDEO_FORMAT_INFO_DEPTH(info, 0);
  std::string name;
  for (const auto& s : kSampling)
    if (GST_VIDEO_FORMAT_INFO_W_SUB(info, 1) == s.w_sub && GST_VIDEO_FORMAT_INFO_H_SUB(info, 1) == s.h_sub)
      name = std::string(GST_VIDEO_FORMAT_INFO_HAS_ALPHA(info) ? "yuva" : "yuv") + s.name + "p";
  if (name.empty()) return "";
  return depth > 8 ? name + std::to_string(depth) + (GST_VIDEO_FORMAT_INFO_IS_LE(info) ? "le" : "be") : name;
}

}  // namespace

std::string FfmpegPixelFormat(GstVideoFormat format) {
  static const struct {
    GstVideoFormat format;
    const char* name;
  } kNamed[] = {
      {GST_VIDEO_FORMAT_YUY2, "yuyv422"}, {GST_VIDEO_FORMAT_UYVY, "uyvy422"},  {GST_VIDEO_FORMAT_RGB, "rgb24"},
      {GST_VIDEO_FORMAT_BGR, "bgr24"},    {GST_VIDEO_FORMAT_RGBA, "rgba"},     {GST_VIDEO_FORMAT_BGRA, "bgra"},
      {GST_VIDEO_FORMAT_ARGB, "argb"},    {GST_VIDEO_FORMAT_ABGR, "abgr"},     {GST_VIDEO_FORMAT_RGBx, "rgb0"},
      {GST_VIDEO_FORMAT_BGRx, "bgr0"},    {GST_VIDEO_FORMAT_GBR, "gbrp"},      {GST_VIDEO_FORMAT_GBRA, "gbrap"},
      {GST_VIDEO_FORMAT_GRAY8, "gray"},   {GST_VIDEO_FORMAT_GRAY16_LE, "gray16le"},
      {GST_VIDEO_FORMAT_v210, "yuv422p10le"},
  };
  for (const auto& named : kNamed)
    if (named.format == format) return named.name;
  const GstVideoFormatInfo* info = gst_video_format_get_info(format);
  return info && GST_VIDEO_FORMAT_INFO_IS_YUV(info) ? YuvName(info) : "";
}

FrameAttributes AttributesOfBuffer(GstBuffer* buffer, const GstVideoInfo& info, const GstSegment& segment) {
  FrameAttributes a;
  const GstClockTime pts = GST_BUFFER_PTS(buffer);
  if (GST_CLOCK_TIME_IS_VALID(pts)) a.pts_time = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, pts);
  a.duration = GST_BUFFER_DURATION(buffer);
  a.key_frame = !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
  a.width = GST_VIDEO_INFO_WIDTH(&info);
  const GstVideoInterlaceMode mode = GST_VIDEO_INFO_INTERLACE_MODE(&info);
  // A single field is a picture of the field's height, as FFmpeg reports it.
  a.height = mode == GST_VIDEO_INTERLACE_MODE_ALTERNATE ? GST_VIDEO_INFO_FIELD_HEIGHT(&info) : GST_VIDEO_INFO_HEIGHT(&info);
  a.pix_fmt = FfmpegPixelFormat(GST_VIDEO_INFO_FORMAT(&info));
  a.sample_aspect_ratio = std::to_string(GST_VIDEO_INFO_PAR_N(&info)) + ":" + std::to_string(GST_VIDEO_INFO_PAR_D(&info));
  a.interlaced = mode == GST_VIDEO_INTERLACE_MODE_INTERLEAVED || mode == GST_VIDEO_INTERLACE_MODE_ALTERNATE ||
                 (mode == GST_VIDEO_INTERLACE_MODE_MIXED && GST_BUFFER_FLAG_IS_SET(buffer, GST_VIDEO_BUFFER_FLAG_INTERLACED));
  // A single field: FFmpeg's top_field_first says whether it is the top one.
  if (mode == GST_VIDEO_INTERLACE_MODE_ALTERNATE) {
    a.top_field_first = GST_VIDEO_BUFFER_IS_TOP_FIELD(buffer);
    a.field_order_known = true;
    return a;
  }
  a.top_field_first = a.interlaced && (GST_BUFFER_FLAG_IS_SET(buffer, GST_VIDEO_BUFFER_FLAG_TFF) ||
                                       GST_VIDEO_INFO_FIELD_ORDER(&info) == GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST);
  a.field_order_known = GST_BUFFER_FLAG_IS_SET(buffer, GST_VIDEO_BUFFER_FLAG_TFF) ||
                        GST_VIDEO_INFO_FIELD_ORDER(&info) != GST_VIDEO_FIELD_ORDER_UNKNOWN;
  a.repeat_pict = GST_BUFFER_FLAG_IS_SET(buffer, GST_VIDEO_BUFFER_FLAG_RFF) ? 1 : 0;
  return a;
}

std::string LayoutWarning(const GstVideoInfo& info, bool field_order_seen, bool laid_out_by_caps,
                          const std::string& decoder) {
  if (GST_VIDEO_INFO_INTERLACE_MODE(&info) == GST_VIDEO_INTERLACE_MODE_PROGRESSIVE) return "";
  std::string warning;
  const GstVideoFormatInfo* format = info.finfo;
  const bool chroma_rows_halved = GST_VIDEO_FORMAT_INFO_IS_YUV(format) && GST_VIDEO_FORMAT_INFO_N_COMPONENTS(format) >= 3 &&
                                  GST_VIDEO_FORMAT_INFO_H_SUB(format, 1) == 1;
  if (laid_out_by_caps && decoder.rfind("avdec_", 0) == 0 && chroma_rows_halved &&
      GST_VIDEO_INFO_HEIGHT(&info) % 4 == 2)
    warning = "interlaced 4:2:0 with an odd number of chroma rows, frames without a video meta: " + decoder +
              " writes V a row before where their caps put it, so the V figures differ from FFmpeg's";
  if (GST_VIDEO_INFO_INTERLACE_MODE(&info) == GST_VIDEO_INTERLACE_MODE_INTERLEAVED && !field_order_seen)
    warning += std::string(warning.empty() ? "" : "; ") +
               "interlaced, but the decoder gave no field order: top_field_first is written as 0";
  return warning;
}

std::string DepthWarning(const std::string& coded, const GstVideoInfo& decoded) {
  GstCaps* caps = gst_caps_from_string(coded.c_str());
  if (!caps) return "";
  const GstStructure* s = gst_caps_is_empty(caps) ? nullptr : gst_caps_get_structure(caps, 0);
  const char* variant = s && gst_structure_has_name(s, "video/x-prores") ? gst_structure_get_string(s, "variant")
                                                                          : nullptr;
  const bool prores_4444 = variant && g_str_has_prefix(variant, "4444");
  gst_caps_unref(caps);
  const guint depth = GST_VIDEO_INFO_COMP_DEPTH(&decoded, 0);
  if (!prores_4444 || depth >= 12) return "";
  return "ProRes 4444 decoded to " + std::to_string(depth) +
         " bits: FFmpeg decodes it to 12, so every figure differs from qcli's";
}

void PacketLedger::Watch(GstElement* pipeline) {
  g_signal_connect(pipeline, "deep-element-added", G_CALLBACK(OnElementAdded), this);
}

void PacketLedger::OnElementAdded(GstBin*, GstBin*, GstElement* element, gpointer self) {
  PacketLedger* ledger = static_cast<PacketLedger*>(self);
  if (HasKlass(element, "Demux")) {
    {
      std::lock_guard<std::mutex> lock(ledger->mutex_);
      ledger->watching_ = true;
      GstElementFactory* factory = gst_element_get_factory(element);
      if (factory && std::strcmp(GST_OBJECT_NAME(factory), "matroskademux") == 0) {
        ledger->time_base_num_ = 1;  // Matroska's default TimecodeScale of 1 ms
        ledger->time_base_den_ = 1000;
      }
    }
    GstPad* sink = gst_element_get_static_pad(element, "sink");
    if (sink) {
      gst_pad_add_probe(sink, GstPadProbeType(GST_PAD_PROBE_TYPE_PULL | GST_PAD_PROBE_TYPE_BUFFER), OnRangeRead,
                        self, nullptr);
      gst_object_unref(sink);
    }
    g_signal_connect(element, "pad-added", G_CALLBACK(OnPadAdded), self);
  } else if (HasKlass(element, "Parser") && HasKlass(element, "Video")) {
    // An elementary stream has no demuxer: its parser's frames are the packets.
    std::lock_guard<std::mutex> lock(ledger->mutex_);
    if (ledger->watching_) return;
    GstPad* src = gst_element_get_static_pad(element, "src");
    if (!src) return;
    ledger->watching_ = true;
    gst_pad_add_probe(src, kPacketProbe, OnPacket, self, nullptr);
    gst_object_unref(src);
  }
}

void PacketLedger::OnPadAdded(GstElement*, GstPad* pad, gpointer self) {
  const std::string caps = CapsName(pad);
  if (caps.rfind("video/", 0) != 0 && caps.rfind("image/", 0) != 0) return;
  PacketLedger* ledger = static_cast<PacketLedger*>(self);
  {
    std::lock_guard<std::mutex> lock(ledger->mutex_);
    ledger->intra_only_ = IsIntraOnlyCodec(caps);
  }
  gst_pad_add_probe(pad, kPacketProbe, OnPacket, self, nullptr);
}

GstPadProbeReturn PacketLedger::OnRangeRead(GstPad*, GstPadProbeInfo* info, gpointer self) {
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (!buffer || GST_BUFFER_OFFSET(buffer) == GST_BUFFER_OFFSET_NONE) return GST_PAD_PROBE_OK;
  PacketLedger* ledger = static_cast<PacketLedger*>(self);
  std::lock_guard<std::mutex> lock(ledger->mutex_);
  ledger->last_read_size_ = int64_t(gst_buffer_get_size(buffer));
  ledger->last_read_offset_ = int64_t(GST_BUFFER_OFFSET(buffer));
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn PacketLedger::OnPacket(GstPad*, GstPadProbeInfo* info, gpointer self) {
  PacketLedger* ledger = static_cast<PacketLedger*>(self);
  if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent* event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
      GstCaps* caps = nullptr;
      gst_event_parse_caps(event, &caps);
      gchar* text = gst_caps_to_string(caps);
      std::lock_guard<std::mutex> lock(ledger->mutex_);
      ledger->coded_pictures_.SetCaps(caps);
      ledger->coded_caps_ = text ? text : "";
      g_free(text);
    }
    return GST_PAD_PROBE_OK;
  }
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
  const int64_t size = int64_t(gst_buffer_get_size(buffer));
  std::lock_guard<std::mutex> lock(ledger->mutex_);
  const int64_t pos = ledger->last_read_size_ == size ? ledger->last_read_offset_ : -1;
  ledger->last_read_size_ = -1;
  const CodedPicture picture = ledger->coded_pictures_.Read(buffer);
  const bool key = picture.known ? picture.key : !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
  const char type = picture.known ? picture.type : (ledger->intra_only_ || key) ? 'I' : '?';
  ledger->packets_[GST_BUFFER_PTS(buffer)] = PacketFacts{size, pos, GST_BUFFER_DURATION(buffer), key, type, "", picture};
  if (picture.known) ledger->PlaceTimecode(GST_BUFFER_PTS(buffer), picture);
  return GST_PAD_PROBE_OK;
}

// FFmpeg's MPEG-1/2 decoder tags the frame it outputs while decoding the
// packet that held the GOP header. It outputs a B picture at once and an I
// or P picture when the next I or P is decoded (one frame of delay; none
// when the sequence is low_delay), so the time code of a GOP lands on the
// reference picture decoded before the GOP's I picture; without one (the
// first GOP) on the next frame output: a B picture that follows, or else
// the I picture itself.
void PacketLedger::PlaceTimecode(GstClockTime pts, const CodedPicture& picture) {
  const bool reference = picture.type != 'B';
  if (GST_CLOCK_TIME_IS_VALID(timecode_waits_at_) && timecode_waits_at_ != pts) {
    if (!reference) std::swap(packets_[pts].timecode, packets_[timecode_waits_at_].timecode);
    timecode_waits_at_ = GST_CLOCK_TIME_NONE;
  }
  if (!picture.timecode.empty()) {
    auto previous = packets_.find(last_reference_pts_);
    if (picture.low_delay || !reference) {
      packets_[pts].timecode = picture.timecode;
    } else if (previous != packets_.end()) {
      previous->second.timecode = picture.timecode;
    } else {
      packets_[pts].timecode = picture.timecode;
      timecode_waits_at_ = pts;
    }
  }
  if (reference) last_reference_pts_ = pts;
}

bool PacketLedger::Take(GstClockTime pts, PacketFacts* facts) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto packet = packets_.find(pts);
  if (packet == packets_.end()) return false;
  *facts = packet->second;
  // Packets older than this frame that no frame took were dropped by the decoder.
  const guint64 dropped = guint64(std::distance(packets_.begin(), packet));
  if (frame_taken_ && dropped > 0) {
    if (lost_ == 0) first_lost_ = packets_.begin()->first;
    lost_ += dropped;
  }
  frame_taken_ = true;
  packets_.erase(packets_.begin(), std::next(packet));
  return true;
}

std::string PacketLedger::LostPictures() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (lost_ == 0) return "";
  char at[32];
  std::snprintf(at, sizeof at, "%.3f s", double(first_lost_) / GST_SECOND);
  return "damaged stream: " + std::to_string(lost_) + " coded picture" + (lost_ > 1 ? "s" : "") +
         " gave no frame, the first at " + at + " (a corrupt or missing picture the decoder dropped)";
}

std::string PacketLedger::CodedCaps() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return coded_caps_;
}

void PacketLedger::TimeBase(int* num, int* den) const {
  std::lock_guard<std::mutex> lock(mutex_);
  *num = time_base_num_;
  *den = time_base_den_;
}

}  // namespace qc
