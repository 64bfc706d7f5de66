// The decoder choice as a unit: the factories decodebin offers and the
// stream's parsed caps in, the order of decoders out.
#include "decoder_choice.h"

#include <gst/gst.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cudahist_tools {
namespace {

StreamKind KindOf(const char* caps_text) {
  GstCaps* caps = gst_caps_from_string(caps_text);
  StreamKind kind = StreamKindOfCaps(caps);
  gst_caps_unref(caps);
  return kind;
}

const char* kH264Interlaced =
    "video/x-h264, stream-format=avc, alignment=au, profile=high, width=720, height=480, "
    "coded-picture-structure=field, chroma-format=4:2:0, bit-depth-luma=(uint)8, parsed=true";
const char* kH264Progressive =
    "video/x-h264, stream-format=avc, alignment=au, profile=high, width=640, height=360, "
    "coded-picture-structure=frame, chroma-format=4:2:0, bit-depth-luma=(uint)8, parsed=true";
const char* kMpeg2Interlaced =
    "video/mpeg, mpegversion=2, systemstream=false, parsed=true, width=1920, height=1080, profile=main, "
    "interlace-mode=mixed";

DecoderPolicy Gpu(unsigned gst_minor) {
  DecoderPolicy policy;
  policy.gpu = true;
  policy.gst_minor = gst_minor;
  return policy;
}

TEST(StreamKindOfCaps, ReadsWhatDecidesTheDecoder) {
  const StreamKind h264 = KindOf(kH264Interlaced);
  EXPECT_EQ(h264.codec, "video/x-h264");
  EXPECT_TRUE(h264.interlaced);
  EXPECT_EQ(h264.profile, "high");
  EXPECT_EQ(h264.chroma_format, "4:2:0");
  EXPECT_EQ(h264.bit_depth, 8u);
  EXPECT_FALSE(KindOf(kH264Progressive).interlaced);
  const StreamKind mpeg2 = KindOf(kMpeg2Interlaced);
  EXPECT_EQ(mpeg2.mpeg_version, 2);
  EXPECT_TRUE(mpeg2.interlaced);
  EXPECT_FALSE(KindOf("video/x-h265, interlace-mode=progressive, parsed=true").interlaced);
  EXPECT_TRUE(KindOf("video/x-h265, interlace-mode=alternate, parsed=true").interlaced);
  EXPECT_EQ(DescribeStream(h264), "H.264 interlaced 4:2:0 8-bit");
}

TEST(ChooseDecoders, ParserBasedNvdecFirstOnInterlacedH264With122) {
  const auto choice = ChooseDecoders({"nvh264sldec", "avdec_h264", "nvh264dec"}, KindOf(kH264Interlaced), Gpu(22));
  EXPECT_EQ(choice.order, (std::vector<std::string>{"nvh264dec", "avdec_h264"}));
  EXPECT_EQ(choice.why, "");
  EXPECT_EQ(choice.problem, "");
}

TEST(ChooseDecoders, StatelessOnlyForProgressiveH264With122) {
  const auto progressive =
      ChooseDecoders({"nvh264sldec", "nvh264dec", "avdec_h264"}, KindOf(kH264Progressive), Gpu(22));
  EXPECT_EQ(progressive.order, (std::vector<std::string>{"nvh264dec", "nvh264sldec", "avdec_h264"}));
  const auto interlaced = ChooseDecoders({"nvh264sldec", "avdec_h264"}, KindOf(kH264Interlaced), Gpu(22));
  EXPECT_EQ(interlaced.order, (std::vector<std::string>{"avdec_h264"}));
  EXPECT_NE(interlaced.why.find("nvh264sldec (GStreamer 1.22) is not shown to decode H.264 interlaced"),
            std::string::npos)
      << interlaced.why;
}

TEST(ChooseDecoders, InterlacedH264OnTheCpuFrom124) {
  const auto interlaced = ChooseDecoders({"nvh264dec", "avdec_h264"}, KindOf(kH264Interlaced), Gpu(26));
  EXPECT_EQ(interlaced.order, (std::vector<std::string>{"avdec_h264"}));
  EXPECT_NE(interlaced.why.find("nvh264dec (GStreamer 1.26)"), std::string::npos) << interlaced.why;
  const auto progressive = ChooseDecoders({"nvh264dec", "avdec_h264"}, KindOf(kH264Progressive), Gpu(26));
  EXPECT_EQ(progressive.order, (std::vector<std::string>{"nvh264dec", "avdec_h264"}));
  EXPECT_EQ(progressive.why, "");
}

TEST(ChooseDecoders, DeeperStreamsOnTheCpuWhereNotShownExact) {
  const auto choice = ChooseDecoders(
      {"nvh265dec", "avdec_h265"},
      KindOf("video/x-h265, interlace-mode=progressive, chroma-format=4:2:0, bit-depth-luma=(uint)12, parsed=true"),
      Gpu(26));
  EXPECT_EQ(choice.order, (std::vector<std::string>{"avdec_h265"}));
  EXPECT_NE(choice.why.find("HEVC progressive 4:2:0 12-bit"), std::string::npos) << choice.why;
  const auto fields = ChooseDecoders(
      {"nvh265dec", "avdec_h265"},
      KindOf("video/x-h265, interlace-mode=interleaved, chroma-format=4:2:0, bit-depth-luma=(uint)10, parsed=true"),
      Gpu(22));
  EXPECT_EQ(fields.order, (std::vector<std::string>{"avdec_h265"}));
}

// The decoding matrix (H100/H200, 2026-11-28): NVDEC's 10-bit HEVC and VP9
// frames equal FFmpeg's on 1.22 and 1.26.
TEST(ChooseDecoders, TenBitHevcAndVp9OnNvdec) {
  const char* hevc10 = "video/x-h265, interlace-mode=progressive, chroma-format=4:2:0, bit-depth-luma=(uint)10, parsed=true";
  for (unsigned minor : {22u, 26u}) {
    const auto choice = ChooseDecoders({"nvh265dec", "avdec_h265"}, KindOf(hevc10), Gpu(minor));
    EXPECT_EQ(choice.order, (std::vector<std::string>{"nvh265dec", "avdec_h265"})) << minor;
  }
  const auto vp9 = ChooseDecoders({"nvvp9dec", "avdec_vp9"}, KindOf("video/x-vp9, bit-depth-luma=(uint)10"), Gpu(26));
  EXPECT_EQ(vp9.order, (std::vector<std::string>{"nvvp9dec", "avdec_vp9"}));
}

TEST(ChooseDecoders, ToleranceCodecsAsFfmpegUnlessAsked) {
  const std::vector<std::string> offered = {"nvmpeg2videodec", "avdec_mpeg2video", "mpeg2dec"};
  const auto qc = ChooseDecoders(offered, KindOf(kMpeg2Interlaced), Gpu(22));
  EXPECT_EQ(qc.order, (std::vector<std::string>{"avdec_mpeg2video", "mpeg2dec"}));
  EXPECT_NE(qc.why.find("MPEG-2 leaves the IDCT to a tolerance"), std::string::npos) << qc.why;
  EXPECT_NE(qc.why.find("--decoder nvmpeg2videodec"), std::string::npos) << qc.why;
  DecoderPolicy monitor = Gpu(22);
  monitor.gpu_for_tolerance_codecs = true;
  const auto live = ChooseDecoders(offered, KindOf(kMpeg2Interlaced), monitor);
  EXPECT_EQ(live.order, (std::vector<std::string>{"nvmpeg2videodec", "avdec_mpeg2video", "mpeg2dec"}));
  EXPECT_EQ(live.why, "");
}

TEST(ChooseDecoders, NoNvdecWithoutAGpuAndNoOtherDevicesDecoders) {
  DecoderPolicy cpu;
  cpu.gst_minor = 22;
  const auto without = ChooseDecoders({"nvh264dec", "avdec_h264"}, KindOf(kH264Progressive), cpu);
  EXPECT_EQ(without.order, (std::vector<std::string>{"avdec_h264"}));
  EXPECT_EQ(without.why, "");
  DecoderPolicy device1 = Gpu(22);
  device1.cuda_device = 1;
  const auto second = ChooseDecoders({"nvh264dec", "nvh264device1dec", "nvh264sldevice1dec", "avdec_h264"},
                                     KindOf(kH264Interlaced), device1);
  EXPECT_EQ(second.order, (std::vector<std::string>{"nvh264device1dec", "avdec_h264"}));
}

TEST(ChooseDecoders, FfmpegsDecodersBeforeOtherCpuDecoders) {
  const auto choice = ChooseDecoders({"openh264dec", "avdec_h264"}, KindOf(kH264Progressive), DecoderPolicy{});
  EXPECT_EQ(choice.order, (std::vector<std::string>{"avdec_h264", "openh264dec"}));
}

TEST(ChooseDecoders, AForcedDecoderOrAProblem) {
  DecoderPolicy forced = Gpu(26);
  forced.forced = "nvh264dec";
  const auto taken = ChooseDecoders({"nvh264dec", "avdec_h264"}, KindOf(kH264Interlaced), forced);
  EXPECT_EQ(taken.order, (std::vector<std::string>{"nvh264dec"}));
  forced.forced = "nvh265dec";
  const auto refused = ChooseDecoders({"nvh264dec", "avdec_h264"}, KindOf(kH264Interlaced), forced);
  EXPECT_TRUE(refused.order.empty());
  EXPECT_EQ(refused.problem,
            "the decoder nvh265dec does not decode this stream (H.264 interlaced 4:2:0 8-bit); the decoders "
            "GStreamer offers for it: nvh264dec, avdec_h264");
}

TEST(CheckDecoderName, NamesWhatIsWrong) {
  EXPECT_EQ(CheckDecoderName("nosuchdecoder"),
            "there is no GStreamer element named 'nosuchdecoder' (gst-inspect-1.0 lists the elements; a "
            "decoder's Klass has Decoder/Video)");
  EXPECT_EQ(CheckDecoderName("videotestsrc"), "'videotestsrc' is not a video decoder (its Klass is Source/Video)");
  EXPECT_EQ(CheckDecoderName("avdec_h264"), "");
}

}  // namespace
}  // namespace cudahist_tools

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
