// The cudavideoscope element: caps (default and downstream sizes), the
// pictures of known frames (a flat frame on a waveform, SMPTE bars on the
// vectorscope), bad input, and (with a CUDA device) its GPU pictures byte
// for byte against its CPU pictures of the same frames.
#include <gst/app/gstappsink.h>
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cudahist/histogrammer.h"
#include "element_test_util.h"

using element_test::CapsString;
using element_test::CudaCapsString;
using element_test::kFrame;
using element_test::OddTightLayouts;
using element_test::PopErrorText;
using element_test::TightLayout;
using element_test::VideoInfo;

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new element_test::PluginEnvironment("cudavideoscope"));

constexpr uint32_t kBlack = 0xff000000u;
constexpr uint32_t kGraticule = 200u | 150u << 8 | 0u << 16 | 0xffu << 24;  // scope_plan.cc's amber

// An RGBA picture copied out of a buffer (its stride dropped).
struct Picture {
  int width = 0, height = 0;
  std::vector<uint32_t> pixels;
  uint32_t at(int x, int y) const { return pixels[size_t(y) * width + x]; }
};

Picture PictureOf(GstCaps* caps, GstBuffer* buffer) {
  Picture p;
  GstVideoInfo info;
  EXPECT_TRUE(gst_video_info_from_caps(&info, caps));
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ)) {
    ADD_FAILURE() << "cannot map the picture";
    return p;
  }
  p.width = GST_VIDEO_FRAME_WIDTH(&frame);
  p.height = GST_VIDEO_FRAME_HEIGHT(&frame);
  p.pixels.resize(size_t(p.width) * p.height);
  for (int y = 0; y < p.height; ++y) {
    std::memcpy(&p.pixels[size_t(y) * p.width],
                static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)) +
                    size_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0),
                size_t(p.width) * 4);
  }
  gst_video_frame_unmap(&frame);
  return p;
}

// A harness around one cudavideoscope, its bus kept to read errors.
class Harness : public element_test::Harness {
 public:
  explicit Harness(const std::string& properties) : element_test::Harness(properties, "cudavideoscope") {}

  // Pushes `frame` (taken) with caps of `info`; returns the picture, empty on failure.
  Picture Draw(const GstVideoInfo& info, GstBuffer* frame, const std::string& picture_caps = "") {
    SetCaps(info);
    if (!picture_caps.empty()) gst_harness_set_sink_caps_str(h(), picture_caps.c_str());
    GST_BUFFER_PTS(frame) = 0;
    GST_BUFFER_DURATION(frame) = kFrame;
    if (gst_harness_push(h(), frame) != GST_FLOW_OK) return Picture();
    GstBuffer* out = gst_harness_pull(h());
    GstCaps* caps = gst_pad_get_current_caps(h()->sinkpad);
    Picture p = PictureOf(caps, out);
    gst_caps_unref(caps);
    gst_buffer_unref(out);
    return p;
  }
};

// A frame whose every sample of every component holds `value` (in the
// component's own bits: P010's 10 bits sit high in 16).
GstBuffer* FlatFrame(const GstVideoInfo& info, guint value) {
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame frame;
  gst_video_frame_map(&frame, const_cast<GstVideoInfo*>(&info), buffer, GST_MAP_WRITE);
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    const guint shift = GST_VIDEO_FORMAT_INFO_SHIFT(info.finfo, c);
    const guint pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE(info.finfo, c);
    const guint bytes = GST_VIDEO_FORMAT_INFO_BITS(info.finfo) > 8 ? 2 : 1;
    for (guint y = 0; y < guint(GST_VIDEO_FRAME_COMP_HEIGHT(&frame, c)); ++y) {
      uint8_t* row = static_cast<uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&frame, c)) +
                     size_t(y) * GST_VIDEO_FRAME_COMP_STRIDE(&frame, c);
      for (guint x = 0; x < guint(GST_VIDEO_FRAME_COMP_WIDTH(&frame, c)); ++x) {
        const guint word = value << shift;
        std::memcpy(row + size_t(x) * pstride, &word, bytes);
      }
    }
  }
  gst_video_frame_unmap(&frame);
  return buffer;
}

// --- caps -------------------------------------------------------------------------

TEST(ScopeCaps, OpenSizesTakeTheStyleDefault) {
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 32);
  for (const auto& [style, width, height] : {std::tuple<const char*, int, int>{"waveform", 1024, 512},
                                             {"parade", 1024, 512},
                                             {"histogram", 1024, 512},
                                             {"vectorscope", 512, 512}}) {
    Harness hx(std::string("style=") + style);
    const Picture p = hx.Draw(info, FlatFrame(info, 100));
    EXPECT_EQ(p.width, width) << style << " " << PopErrorText(hx.bus());
    EXPECT_EQ(p.height, height) << style;
  }
}

TEST(ScopeCaps, DownstreamChoosesTheSizeAndTheFrameRateIsKept) {
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_I420, 64, 32);
  Harness hx("style=parade");
  const Picture p = hx.Draw(info, FlatFrame(info, 100), "video/x-raw,format=RGBA,width=333,height=77");
  EXPECT_EQ(p.width, 333);
  EXPECT_EQ(p.height, 77);
  GstCaps* caps = gst_pad_get_current_caps(hx.h()->sinkpad);
  gint n = 0, d = 0;
  EXPECT_TRUE(gst_structure_get_fraction(gst_caps_get_structure(caps, 0), "framerate", &n, &d));
  EXPECT_EQ(n * GST_VIDEO_INFO_FPS_D(&info), d * GST_VIDEO_INFO_FPS_N(&info));
  gst_caps_unref(caps);
}

TEST(ScopeCaps, ANewStyleWhilePlayingTakesItsDefaultSize) {
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_I420, 64, 32);
  Harness hx("");
  EXPECT_EQ(hx.Draw(info, FlatFrame(info, 100)).width, 1024);
  gst_util_set_object_arg(G_OBJECT(hx.element()), "style", "vectorscope");
  const Picture p = hx.Draw(info, FlatFrame(info, 100));
  EXPECT_EQ(p.width, 512) << PopErrorText(hx.bus());
  EXPECT_EQ(p.height, 512);
}

// A state cycle drops the state and builds it again (the CPU path; the GPU
// path's cycle is in the GPU tests below).
TEST(ScopeCaps, StateCyclesNullPlayingNull) {
  for (int i = 0; i < 20; ++i) {
    GstElement* p = gst_parse_launch(
        "videotestsrc num-buffers=2 ! video/x-raw,format=NV12,width=64,height=32 ! cudavideoscope style=parade ! "
        "fakesink",
        nullptr);
    ASSERT_NE(p, nullptr);
    ASSERT_NE(gst_element_set_state(p, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
    GstBus* bus = gst_element_get_bus(p);
    GstMessage* m = gst_bus_timed_pop_filtered(bus, 10 * GST_SECOND, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(GST_MESSAGE_TYPE(m), GST_MESSAGE_EOS);
    gst_message_unref(m);
    gst_object_unref(bus);
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(p);
  }
}

TEST(ScopeCaps, SystemMemoryInGivesSystemMemoryOut) {
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_GRAY8, 16, 16);
  Harness hx("");
  hx.Draw(info, FlatFrame(info, 1));
  GstCaps* caps = gst_pad_get_current_caps(hx.h()->sinkpad);
  GstCapsFeatures* f = gst_caps_get_features(caps, 0);
  EXPECT_FALSE(f && gst_caps_features_contains(f, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY));
  EXPECT_STREQ(gst_structure_get_string(gst_caps_get_structure(caps, 0), "format"), "RGBA");
  gst_caps_unref(caps);
}

// --- pictures ---------------------------------------------------------------------

// The rows of column x that are neither black nor graticule.
TEST(ScopeCaps, ThePictureKeepsTheFramesDisplayShape) {
  const GstVideoInfo small = VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 32);
  Harness open("style=picture");
  Picture p = open.Draw(small, FlatFrame(small, 100));
  EXPECT_EQ(p.width, 64) << PopErrorText(open.bus());
  EXPECT_EQ(p.height, 32);
  // A thumbnail asks for its width: the height keeps the frame's 16:9.
  const GstVideoInfo hd = VideoInfo(GST_VIDEO_FORMAT_I420, 1920, 1080);
  Harness thumbnail("style=picture");
  p = thumbnail.Draw(hd, FlatFrame(hd, 100), "video/x-raw,format=RGBA,width=320");
  EXPECT_EQ(p.width, 320) << PopErrorText(thumbnail.bus());
  EXPECT_EQ(p.height, 180);
  // PAL's 16:15 pixels display 720x576 as 768x576: 320 wide is 240 high.
  GstVideoInfo pal = VideoInfo(GST_VIDEO_FORMAT_I420, 720, 576);
  pal.par_n = 16;
  pal.par_d = 15;
  Harness anamorphic("style=picture");
  p = anamorphic.Draw(pal, FlatFrame(pal, 100), "video/x-raw,format=RGBA,width=320");
  EXPECT_EQ(p.width, 320) << PopErrorText(anamorphic.bus());
  EXPECT_EQ(p.height, 240);
}

std::vector<int> LitRows(const Picture& p, int x) {
  std::vector<int> rows;
  for (int y = 0; y < p.height; ++y) {
    if (p.at(x, y) != kBlack && p.at(x, y) != kGraticule) rows.push_back(y);
  }
  return rows;
}

TEST(ScopePictures, FlatFrameLightsOneRowInEveryColumnOfAWaveform) {
  struct Case {
    GstVideoFormat format;
    guint value;
    int height;  // one row per bin: 2^depth rows
  };
  for (const Case& c : {Case{GST_VIDEO_FORMAT_GRAY8, 77, 256}, Case{GST_VIDEO_FORMAT_NV12, 200, 256},
                        Case{GST_VIDEO_FORMAT_P010_10LE, 700, 1024}, Case{GST_VIDEO_FORMAT_Y444_10LE, 700, 1024}}) {
    const GstVideoInfo info = VideoInfo(c.format, 50, 20);
    SCOPED_TRACE(CapsString(info));
    for (const char* scale : {"linear", "logarithmic"}) {
      Harness hx(std::string("style=waveform graticule=none scale=") + scale);
      const Picture p = hx.Draw(info, FlatFrame(info, c.value),
                                "video/x-raw,format=RGBA,width=40,height=" + std::to_string(c.height));
      ASSERT_EQ(p.width, 40) << PopErrorText(hx.bus());
      const int row = c.height - 1 - int(c.value);  // bin = value, row from the bottom = bin
      for (int x = 0; x < p.width; ++x) {
        ASSERT_EQ(LitRows(p, x), std::vector<int>{row}) << "column " << x << " " << scale;
        // Every sample of the column group in one bin: full intensity, white (Y's tint).
        ASSERT_EQ(p.at(x, row), 0xffffffffu);
      }
    }
  }
}

TEST(ScopePictures, FlatFrameOnTheDefaultWaveformLightsTheRowsOfItsBin) {
  // 512 rows for 256 bins: bin b shows on rows 2b and 2b + 1 from the bottom.
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_I420, 64, 36);
  Harness hx("graticule=none");
  const Picture p = hx.Draw(info, FlatFrame(info, 100));
  ASSERT_EQ(p.height, 512);
  for (int x = 0; x < p.width; x += 7) EXPECT_EQ(LitRows(p, x), (std::vector<int>{511 - 201, 511 - 200}));
}

TEST(ScopePictures, LegalLinesAt16And235AndTheTraceOverThem) {
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_GRAY8, 32, 8);
  Harness hx("graticule=legal");
  const Picture p = hx.Draw(info, FlatFrame(info, 16), "video/x-raw,format=RGBA,width=32,height=256");
  for (int x = 0; x < p.width; ++x) {
    EXPECT_EQ(p.at(x, 255 - 235), kGraticule);
    EXPECT_EQ(p.at(x, 255 - 16), 0xffffffffu) << "the trace is drawn over the line";
    EXPECT_EQ(p.at(x, 255 - 17), kBlack);
  }
}

TEST(ScopePictures, ParadeDrawsEachComponentInItsPanel) {
  // Y 50, U 100, V 150: panel i (a third of the width) lights its value's row only.
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_Y444, 30, 10);
  GstBuffer* frame = FlatFrame(info, 50);
  GstVideoFrame f;
  gst_video_frame_map(&f, const_cast<GstVideoInfo*>(&info), frame, GST_MAP_WRITE);
  std::memset(GST_VIDEO_FRAME_COMP_DATA(&f, 1), 100, GST_VIDEO_FRAME_COMP_STRIDE(&f, 1) * 10);
  std::memset(GST_VIDEO_FRAME_COMP_DATA(&f, 2), 150, GST_VIDEO_FRAME_COMP_STRIDE(&f, 2) * 10);
  gst_video_frame_unmap(&f);
  Harness hx("style=parade graticule=none");
  const Picture p = hx.Draw(info, frame, "video/x-raw,format=RGBA,width=90,height=256");
  for (int x = 0; x < 90; ++x) {
    const int value = x < 30 ? 50 : x < 60 ? 100 : 150;
    EXPECT_EQ(LitRows(p, x), std::vector<int>{255 - value}) << "column " << x;
  }
}

// The 75% bars' chroma at 8 bits, limited range, for matrix (kr, kb).
void BarTarget(int bar, double kr, double kb, double* cb, double* cr) {
  static const double kBars[6][3] = {{.75, .75, 0}, {0, .75, .75}, {0, .75, 0}, {.75, 0, .75}, {.75, 0, 0}, {0, 0, .75}};
  const double r = kBars[bar][0], g = kBars[bar][1], b = kBars[bar][2];
  const double y = kr * r + (1 - kr - kb) * g + kb * b;
  *cb = 128 + 224 * (b - y) / (2 * (1 - kb));
  *cr = 128 + 224 * (r - y) / (2 * (1 - kr));
}

GstPadProbeReturn CountCudaPictures(GstPad*, GstPadProbeInfo* info, gpointer cuda_pictures) {
  GstBuffer* b = GST_PAD_PROBE_INFO_BUFFER(info);
  if (gst_buffer_n_memory(b) > 0 && gst_is_cuda_memory(gst_buffer_peek_memory(b, 0))) {
    ++*static_cast<int*>(cuda_pictures);
  }
  return GST_PAD_PROBE_OK;
}

// Every picture the pipeline's appsink "sink" receives, and the pipeline's
// first error ("" when none); `cuda_pictures`, when given, counts those the
// element named "scope" pushed in CUDA memory.
std::vector<Picture> AllPictures(const std::string& description, std::string* error,
                                 int* cuda_pictures = nullptr) {
  std::vector<Picture> pictures;
  error->clear();
  GError* e = nullptr;
  GstElement* p = gst_parse_launch(description.c_str(), &e);
  if (e) {
    *error = e->message;
    g_error_free(e);
    if (p) gst_object_unref(p);
    return pictures;
  }
  if (cuda_pictures != nullptr) {
    GstElement* scope = gst_bin_get_by_name(GST_BIN(p), "scope");
    GstPad* src = gst_element_get_static_pad(scope, "src");
    gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, CountCudaPictures, cuda_pictures, nullptr);
    gst_object_unref(src);
    gst_object_unref(scope);
  }
  GstElement* sink = gst_bin_get_by_name(GST_BIN(p), "sink");
  GstBus* bus = gst_element_get_bus(p);
  gst_element_set_state(p, GST_STATE_PLAYING);
  // Until EOS, an error (after which no EOS comes), or 20 s without a picture.
  for (int idle_seconds = 0; idle_seconds < 20 && !gst_app_sink_is_eos(GST_APP_SINK(sink));) {
    GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), GST_SECOND);
    if (sample) {
      pictures.push_back(PictureOf(gst_sample_get_caps(sample), gst_sample_get_buffer(sample)));
      gst_sample_unref(sample);
      idle_seconds = 0;
      continue;
    }
    ++idle_seconds;
    GstMessage* failed = gst_bus_timed_pop_filtered(bus, 0, GST_MESSAGE_ERROR);
    if (failed) {
      *error = element_test::ErrorText(failed);
      gst_message_unref(failed);
      break;
    }
  }
  if (error->empty()) *error = PopErrorText(bus);
  gst_object_unref(bus);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(p);
  return pictures;
}

// The real-valued RGB of a limited-range YUV sample of `depth` bits by the
// standard's Kr and Kb, clamped to 0..255.
std::array<double, 3> ExactRgb(double y, double u, double v, int depth, double kr, double kb) {
  const double unit = double(1 << (depth - 8));
  const double luma = (y / unit - 16) * 255 / 219, cb = (u / unit - 128) * 255 / 224, cr = (v / unit - 128) * 255 / 224;
  const double kg = 1 - kr - kb;
  const std::array<double, 3> rgb = {luma + 2 * (1 - kr) * cr, luma - 2 * (1 - kb) * kb / kg * cb - 2 * (1 - kr) * kr / kg * cr,
                                     luma + 2 * (1 - kb) * cb};
  return {std::clamp(rgb[0], 0.0, 255.0), std::clamp(rgb[1], 0.0, 255.0), std::clamp(rgb[2], 0.0, 255.0)};
}

TEST(ScopePictures, ThePictureOfYuvIsTheStandardsRgb) {
  // Random 4:4:4 samples (out-of-range codes too) under BT.601 and BT.709,
  // at the frame's own size, against the equations in real numbers: the Q8
  // coefficients (each within 0.5 / 256 of the real ones) and the final
  // rounding keep every channel within 1 code, at 8 and at 10 bits.
  std::mt19937 rng(11);
  for (const auto& [format, depth] : {std::pair<GstVideoFormat, int>{GST_VIDEO_FORMAT_Y444, 8},
                                      {GST_VIDEO_FORMAT_Y444_10LE, 10}}) {
    for (const auto& [matrix, kr, kb] : {std::tuple<const char*, double, double>{"bt601", 0.299, 0.114},
                                         {"bt709", 0.2126, 0.0722}}) {
      SCOPED_TRACE(std::string(gst_video_format_to_string(format)) + " " + matrix);
      GstVideoInfo info = VideoInfo(format, 96, 64);
      ASSERT_TRUE(gst_video_colorimetry_from_string(&info.colorimetry, matrix));
      GstBuffer* frame = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
      GstVideoFrame map;
      ASSERT_TRUE(gst_video_frame_map(&map, &info, frame, GST_MAP_WRITE));
      std::vector<std::array<uint32_t, 3>> samples(96 * 64);
      for (int c = 0; c < 3; ++c) {
        for (int y = 0; y < 64; ++y) {
          uint8_t* row = static_cast<uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&map, c)) + y * GST_VIDEO_FRAME_COMP_STRIDE(&map, c);
          for (int x = 0; x < 96; ++x) {
            const uint32_t v = rng() % (1u << depth);
            samples[size_t(y) * 96 + x][c] = v;
            if (depth == 8) {
              row[x] = uint8_t(v);
            } else {
              const uint16_t word = uint16_t(v);
              std::memcpy(row + 2 * x, &word, 2);
            }
          }
        }
      }
      gst_video_frame_unmap(&map);
      Harness hx("style=picture");
      const Picture p = hx.Draw(info, frame);
      ASSERT_EQ(p.width, 96) << PopErrorText(hx.bus());
      double largest = 0;
      for (size_t i = 0; i < samples.size(); ++i) {
        const std::array<double, 3> want = ExactRgb(samples[i][0], samples[i][1], samples[i][2], depth, kr, kb);
        for (int c = 0; c < 3; ++c) largest = std::max(largest, std::fabs(double((p.pixels[i] >> (8 * c)) & 0xff) - want[c]));
        EXPECT_EQ(p.pixels[i] >> 24, 0xffu);
      }
      EXPECT_LE(largest, 1.0);
    }
  }
}

TEST(ScopePictures, RgbAndGrayPicturesAtTheFramesSizeAreTheFrame) {
  for (const char* format : {"RGBA", "GRAY8"}) {
    SCOPED_TRACE(format);
    const std::string source =
        "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=" + std::string(format) + ",width=320,height=240 ! ";
    std::string error;
    const std::vector<Picture> ours = AllPictures(source + "cudavideoscope style=picture ! appsink name=sink", &error);
    ASSERT_EQ(error, "");
    const std::vector<Picture> frame =
        AllPictures(source + "videoconvert ! video/x-raw,format=RGBA ! appsink name=sink", &error);
    ASSERT_EQ(error, "");
    ASSERT_EQ(ours.size(), 1u);
    ASSERT_EQ(frame.size(), 1u);
    EXPECT_TRUE(ours[0].pixels == frame[0].pixels);
  }
}

TEST(ScopePictures, AThumbnailPixelIsItsBoxsMean) {
  // Columns of luma 16, 16, 235, 235, ... in 4:4:4 with neutral chroma: 64
  // columns into 16 make boxes of 16, 16, 235, 235, whose rounded mean
  // (502 + 2) / 4 = 126 BT.601's matrix makes (298 * 110 + 128) >> 8 = 128 grey.
  GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_Y444, 64, 32);
  GstBuffer* frame = FlatFrame(info, 128);
  GstVideoFrame map;
  ASSERT_TRUE(gst_video_frame_map(&map, &info, frame, GST_MAP_WRITE));
  for (int y = 0; y < 32; ++y) {
    uint8_t* row = static_cast<uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&map, 0)) + y * GST_VIDEO_FRAME_COMP_STRIDE(&map, 0);
    for (int x = 0; x < 64; ++x) row[x] = (x / 2) % 2 == 0 ? 16 : 235;
  }
  gst_video_frame_unmap(&map);
  Harness hx("style=picture");
  const Picture whole = hx.Draw(info, gst_buffer_copy(frame), "video/x-raw,format=RGBA,width=64");
  ASSERT_EQ(whole.width, 64) << PopErrorText(hx.bus());
  EXPECT_EQ(whole.at(0, 0), 0xff000000u);
  EXPECT_EQ(whole.at(2, 0), 0xffffffffu);
  Harness half("style=picture");
  const Picture p = half.Draw(info, frame, "video/x-raw,format=RGBA,width=16");
  ASSERT_EQ(p.width, 16) << PopErrorText(half.bus());
  ASSERT_EQ(p.height, 8);
  for (uint32_t pixel : p.pixels) EXPECT_EQ(pixel, 0xff808080u);
}

TEST(ScopePictures, SmpteBarsLandOnTheVectorscopeTargets) {
  // 640x480 is BT.601 to videotestsrc, 1280x720 BT.709: the targets follow the caps.
  for (const auto& [width, height, kr, kb] : {std::tuple<int, int, double, double>{640, 480, 0.299, 0.114},
                                              {1280, 720, 0.2126, 0.0722}}) {
    std::string error;
    const std::vector<Picture> pictures =
        AllPictures("videotestsrc num-buffers=1 pattern=smpte75 ! video/x-raw,format=I420,width=" +
                        std::to_string(width) + ",height=" + std::to_string(height) +
                        " ! cudavideoscope style=vectorscope ! appsink name=sink",
                    &error);
    ASSERT_EQ(pictures.size(), 1u) << error;
    const Picture& p = pictures[0];
    ASSERT_EQ(p.width, 512);
    for (int bar = 0; bar < 6; ++bar) {
      double cb = 0, cr = 0;
      BarTarget(bar, kr, kb, &cb, &cr);
      // 256 bins on 512 pixels: code c shows on pixels 2c and 2c + 1.
      const int tx = int(std::lround(cb)) * 2, ty = 511 - int(std::lround(cr)) * 2;
      int lit = 0;
      for (int y = ty - 4; y <= ty + 4; ++y) {
        for (int x = tx - 4; x <= tx + 4; ++x) lit += p.at(x, y) != kBlack && p.at(x, y) != kGraticule;
      }
      EXPECT_GE(lit, 4) << width << "x" << height << " bar " << bar << " at (" << cb << ", " << cr << ")";
      // The graticule's box is around the same place.
      int box = 0;
      for (int y = ty - 10; y <= ty + 10; ++y) {
        for (int x = tx - 10; x <= tx + 10; ++x) box += p.at(x, y) == kGraticule;
      }
      EXPECT_GT(box, 8) << "no target box near bar " << bar;
    }
  }
}

// --- bad input ----------------------------------------------------------------------

std::string ErrorOf(const std::string& description) {
  std::string error;
  AllPictures(description, &error);
  return error;
}

TEST(ScopeErrors, BadRequestsAreClearErrors) {
  const std::string gray = "videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8,width=64,height=32 ! ";
  const std::string nv12 = "videotestsrc num-buffers=1 ! video/x-raw,format=NV12,width=64,height=32 ! ";
  const std::string rgba = "videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=64,height=32 ! ";
  const std::string sink = " ! appsink name=sink";
  struct Case {
    std::string pipeline, want;
  };
  for (const Case& c : {
           Case{gray + "cudavideoscope ! video/x-raw,width=0,height=100" + sink,
                "can't handle caps video/x-raw, width=(int)0"},
           Case{gray + "cudavideoscope ! video/x-raw,width=20000,height=100" + sink, "Output size 20000x100"},
           Case{gray + "cudavideoscope style=vectorscope" + sink, "needs two chroma components: GRAY8 has only Y"},
           Case{nv12 + "cudavideoscope components=A" + sink, "\"A\" is not a component of NV12"},
           Case{rgba + "cudavideoscope style=vectorscope" + sink, "set components to two of R,G,B"},
           Case{nv12 + "cudavideoscope style=vectorscope components=Y,U" + sink, "sampled differently"},
           Case{nv12 + "cudavideoscope style=vectorscope components=U" + sink, "names 1"},
           Case{nv12 + "cudavideoscope style=parade ! video/x-raw,width=2,height=64" + sink, "too narrow"},
           Case{nv12 + "cudavideoscope style=picture components=Y" + sink,
                "style picture draws every colour component of the frame"},
       }) {
    const std::string error = ErrorOf(c.pipeline);
    EXPECT_NE(error.find(c.want), std::string::npos) << c.pipeline << "\n  gave: " << error;
  }
}

TEST(ScopeErrors, BufferSmallerThanItsCapsIsAnError) {
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 32);
  Harness hx("");
  gst_harness_set_src_caps_str(hx.h(), CapsString(info).c_str());
  EXPECT_EQ(gst_harness_push(hx.h(), gst_buffer_new_allocate(nullptr, 100, nullptr)), GST_FLOW_ERROR);
  const std::string text = PopErrorText(hx.bus());
  EXPECT_NE(text.find("Buffer too small for its caps"), std::string::npos) << text;
}

// Frames laid out by their GstVideoMeta, packed tighter than the caps'
// default (as FFmpeg packs them), draw the picture of the same pixels in the
// default layout.
TEST(ScopePictures, TightFramesDrawThePicturesOfTheSameFramesInTheDefaultLayout) {
  for (const TightLayout& layout : OddTightLayouts()) {
    SCOPED_TRACE(gst_video_format_to_string(layout.format));
    const GstVideoInfo info = layout.Info();
    GstBuffer* plain = nullptr;
    GstBuffer* tight = element_test::RandomTightFrame(layout, 5, &plain);
    Harness plain_scope("style=parade"), tight_scope("style=parade");
    const Picture expected = plain_scope.Draw(info, plain);
    const Picture got = tight_scope.Draw(info, tight);
    ASSERT_EQ(got.width, 1024) << PopErrorText(tight_scope.bus());
    EXPECT_TRUE(got.pixels == expected.pixels);
  }
}

TEST(ScopeErrors, BufferShorterThanItsMetaLayoutIsAnError) {
  const TightLayout& layout = OddTightLayouts()[0];
  const GstVideoInfo info = layout.Info();
  GstBuffer* plain = nullptr;
  GstBuffer* tight = element_test::RandomTightFrame(layout, 5, &plain);
  gst_buffer_unref(plain);
  gst_buffer_resize(tight, 0, gssize(layout.Size()) - 1);
  Harness hx("");
  gst_harness_set_src_caps_str(hx.h(), CapsString(info).c_str());
  EXPECT_EQ(gst_harness_push(hx.h(), tight), GST_FLOW_ERROR);
  const std::string text = PopErrorText(hx.bus());
  EXPECT_NE(text.find("Buffer too small for the layout of its video meta"), std::string::npos) << text;
}

// Without a driver (CI) CUDA caps fail negotiation with an element error, not
// an abort inside gst-cuda; on a GPU host the same holds for a device id that
// does not exist.
TEST(ScopeErrors, CudaCapsWithoutAUsableDeviceAreAnElementError) {
  const bool have_cuda = cudahist::CheckCudaDevice().ok();
  Harness hx(have_cuda ? "cuda-device-id=99" : "");
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 32, 16);
  gst_harness_set_src_caps_str(hx.h(), CudaCapsString(info).c_str());
  EXPECT_NE(gst_harness_push(hx.h(), gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr)),
            GST_FLOW_OK);
  const std::string text = PopErrorText(hx.bus());
  EXPECT_NE(text.find(have_cuda ? "No usable CUDA device for cuda-device-id 99" : "CUDA"), std::string::npos) << text;
}

// Properties set while playing take effect on the next frame; one the
// format cannot meet is an error then.
TEST(ScopeErrors, PropertiesChangeBetweenFrames) {
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_Y444, 30, 10);
  Harness hx("graticule=none");
  const std::string size = "video/x-raw,format=RGBA,width=90,height=256";
  EXPECT_EQ(LitRows(hx.Draw(info, FlatFrame(info, 50), size), 80), std::vector<int>{255 - 50});  // waveform: Y
  GstElement* scope = hx.element();
  g_object_set(scope, "components", "V", nullptr);
  EXPECT_EQ(LitRows(hx.Draw(info, FlatFrame(info, 50), size), 80), std::vector<int>{255 - 50});
  GstBuffer* frame = FlatFrame(info, 50);
  GstVideoFrame f;
  gst_video_frame_map(&f, const_cast<GstVideoInfo*>(&info), frame, GST_MAP_WRITE);
  std::memset(GST_VIDEO_FRAME_COMP_DATA(&f, 2), 150, GST_VIDEO_FRAME_COMP_STRIDE(&f, 2) * 10);
  gst_video_frame_unmap(&f);
  EXPECT_EQ(LitRows(hx.Draw(info, frame, size), 80), std::vector<int>{255 - 150}) << "V is drawn now";
  g_object_set(scope, "components", "G", nullptr);
  EXPECT_EQ(hx.Draw(info, FlatFrame(info, 50), size).width, 0);
  const std::string text = PopErrorText(hx.bus());
  EXPECT_NE(text.find("\"G\" is not a component of Y444"), std::string::npos) << text;
}

TEST(ScopeErrors, PropertyRangesAreEnforced) {
  GstElement* e = gst_element_factory_make("cudavideoscope", nullptr);
  ASSERT_NE(e, nullptr);
  GParamSpec* gain = g_object_class_find_property(G_OBJECT_GET_CLASS(e), "gain");
  ASSERT_NE(gain, nullptr);
  EXPECT_EQ(G_PARAM_SPEC_UINT(gain)->minimum, 1u);
  EXPECT_EQ(G_PARAM_SPEC_UINT(gain)->maximum, 65535u);
  for (const char* name : {"style", "components", "scale", "graticule", "gain", "cuda-device-id"}) {
    GParamSpec* spec = g_object_class_find_property(G_OBJECT_GET_CLASS(e), name);
    ASSERT_NE(spec, nullptr) << name;
    EXPECT_GT(strlen(g_param_spec_get_blurb(spec)), 20u) << name;
  }
  gst_object_unref(e);
}

// --- GPU ------------------------------------------------------------------------------

class GpuScope : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {};

TEST_P(GpuScope, GpuPicturesEqualCpuPicturesOfTheSameFrames) {
  SKIP_WITHOUT_CUDA();
  const std::string format = std::get<0>(GetParam()), style = std::get<1>(GetParam());
  const bool rgb = format == "RGBA" || format == "BGR";
  const std::string components = style == "vectorscope" && rgb ? " components=B,R" : "";
  for (const char* scale : {"linear", "logarithmic"}) {
    for (const char* pattern : {"smpte", "zone-plate kx2=20 ky2=20 kt=1"}) {
      SCOPED_TRACE(format + " " + style + " " + scale + " " + pattern);
      // GStreamer's CUDA copies lose the last V sample of each row of
      // odd-width packed 4:2:2 (docs/versions.md): those formats are 334 wide.
      const bool packed_422 = format == "YUY2" || format == "UYVY";
      const std::string source = "videotestsrc num-buffers=3 pattern=" + std::string(pattern) +
                                 " ! video/x-raw,format=" + format + ",width=" + (packed_422 ? "334" : "333") +
                                 ",height=187 ! ";
      const std::string scope = "cudavideoscope name=scope style=" + style + " scale=" + scale + components;
      const std::string size = ",width=301,height=203";
      std::string error;
      int cuda = 0, host = 0;
      const std::vector<Picture> gpu =
          AllPictures(source + "cudaupload ! video/x-raw(memory:CUDAMemory) ! " + scope +
                          " ! video/x-raw(memory:CUDAMemory)" + size + " ! cudadownload ! appsink name=sink",
                      &error, &cuda);
      ASSERT_EQ(error, "");
      const std::vector<Picture> cpu =
          AllPictures(source + scope + " ! video/x-raw" + size + " ! appsink name=sink", &error, &host);
      ASSERT_EQ(error, "");
      EXPECT_EQ(cuda, 3) << "the GPU pipeline's pictures were not in CUDA memory";
      EXPECT_EQ(host, 0);
      ASSERT_EQ(gpu.size(), 3u);
      ASSERT_EQ(cpu.size(), 3u);
      for (size_t i = 0; i < 3; ++i) {
        ASSERT_EQ(gpu[i].width, 301);
        EXPECT_TRUE(gpu[i].pixels == cpu[i].pixels) << "picture " << i << " differs";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(GpuPicture, GpuScope,
                         ::testing::Combine(::testing::Values("NV12", "I420", "P010_10LE", "RGBA", "BGR", "Y444",
                                                              "YUY2", "UYVY", "I422_10LE", "RGB10A2_LE"),
                                            ::testing::Values("picture")),
                         [](const auto& p) {
                           return std::string(std::get<0>(p.param)) + "_" + std::get<1>(p.param);
                         });

INSTANTIATE_TEST_SUITE_P(Gpu, GpuScope,
                         ::testing::Combine(::testing::Values("NV12", "I420", "P010_10LE", "RGBA", "Y444"),
                                            ::testing::Values("histogram", "waveform", "parade", "vectorscope")),
                         [](const auto& p) {
                           return std::string(std::get<0>(p.param)) + "_" + std::get<1>(p.param);
                         });

// A tight frame in GstCudaMemory (what an application wrapping FFmpeg's
// device frames hands on), pushed by an appsrc in the element's context:
// the picture of the same pixels in the default layout, drawn on the CPU.
TEST(GpuTightScope, CudaFramesDrawThePicturesOfTheSameFramesInTheDefaultLayout) {
  SKIP_WITHOUT_CUDA();
  std::string why;
  // gst-cuda's entry points are loaded on first use by its elements, not by a context of our own.
  ASSERT_TRUE(gst_cuda_load_library());
  GstCudaContext* context = gst_cuda_context_new(0);
  ASSERT_NE(context, nullptr);
  for (const TightLayout& layout : OddTightLayouts()) {
    SCOPED_TRACE(gst_video_format_to_string(layout.format));
    const GstVideoInfo info = layout.Info();
    GstBuffer* plain = nullptr;
    GstBuffer* tight = element_test::RandomTightFrame(layout, 9, &plain);
    GstBuffer* cuda = element_test::TightCudaCopy(context, layout, tight, &why);
    ASSERT_NE(cuda, nullptr) << why;
    Harness cpu_scope("style=parade");
    const Picture expected = cpu_scope.Draw(info, plain);
    GstElement* p = gst_parse_launch(("appsrc name=src caps=\"" + CudaCapsString(info) +
                                      "\" ! cudavideoscope style=parade ! cudadownload ! appsink name=sink")
                                         .c_str(),
                                     nullptr);
    ASSERT_NE(p, nullptr);
    GstContext* shared = gst_context_new_cuda_context(context);
    gst_element_set_context(p, shared);
    gst_context_unref(shared);
    GstElement* src = gst_bin_get_by_name(GST_BIN(p), "src");
    GstElement* sink = gst_bin_get_by_name(GST_BIN(p), "sink");
    gst_element_set_state(p, GST_STATE_PLAYING);
    GstFlowReturn pushed = GST_FLOW_OK;
    GST_BUFFER_PTS(cuda) = 0;
    g_signal_emit_by_name(src, "push-buffer", cuda, &pushed);
    g_signal_emit_by_name(src, "end-of-stream", &pushed);
    GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 20 * GST_SECOND);
    GstBus* bus = gst_element_get_bus(p);
    ASSERT_NE(sample, nullptr) << PopErrorText(bus);
    const Picture got = PictureOf(gst_sample_get_caps(sample), gst_sample_get_buffer(sample));
    EXPECT_EQ(got.width, expected.width);
    EXPECT_TRUE(got.pixels == expected.pixels);
    gst_sample_unref(sample);
    gst_object_unref(bus);
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(sink);
    gst_object_unref(src);
    gst_object_unref(p);
    gst_buffer_unref(cuda);
    gst_buffer_unref(tight);
  }
  gst_object_unref(context);
}

TEST(GpuScopeErrors, StateCyclesWithCudaMemory) {
  SKIP_WITHOUT_CUDA();
  for (int i = 0; i < 20; ++i) {
    std::string error;
    const std::vector<Picture> pictures = AllPictures(
        "videotestsrc num-buffers=2 ! video/x-raw,format=NV12,width=64,height=32 ! cudaupload ! "
        "video/x-raw(memory:CUDAMemory) ! cudavideoscope name=scope style=vectorscope ! cudadownload ! "
        "appsink name=sink",
        &error);
    ASSERT_EQ(error, "");
    ASSERT_EQ(pictures.size(), 2u);
  }
}

TEST(GpuScopeErrors, InvalidCudaDeviceIdIsAnElementError) {
  SKIP_WITHOUT_CUDA();
  const std::string error = ErrorOf(
      "videotestsrc num-buffers=1 ! video/x-raw,format=NV12,width=64,height=32 ! cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! cudavideoscope cuda-device-id=99 ! cudadownload ! appsink name=sink");
  EXPECT_NE(error.find("No usable CUDA device for cuda-device-id 99"), std::string::npos) << error;
}

}  // namespace
