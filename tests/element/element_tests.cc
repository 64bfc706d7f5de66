// The cudahistogram element through GstHarness and small pipelines.
// System-memory tests run anywhere; GPU tests (cudaupload) skip without a
// CUDA device. The plugin is found through GST_PLUGIN_PATH (set by meson).
#include <gst/check/gstharness.h>
#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cudahist/histogrammer.h"
#include "element_test_util.h"
#include "gstcudahistogrammeta.h"
#include "seeded_rng.h"
#include "test_planes.h"

using namespace element_test;

namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new PluginEnvironment("cudahistogram"));

std::vector<std::string> MetaNames(const GstCudaHistogramMeta* m) {
  return std::vector<std::string>(m->component_names, m->component_names + m->n_components);
}

std::vector<uint64_t> Widen(const uint32_t* counts, guint bins) {
  return std::vector<uint64_t>(counts, counts + bins);
}

void ExpectMessageMatches(const GstStructure* s, const Expected& e, guint bins) {
  EXPECT_EQ(MessageStrings(s, "components"), e.names);
  const auto hist = MessageHistograms(s);
  ASSERT_EQ(hist.size(), e.names.size());
  for (size_t c = 0; c < hist.size(); ++c) {
    EXPECT_EQ(hist[c], Widen(e.counts.data() + c * bins, bins)) << "component " << e.names[c];
  }
}

// Pushes `frame` (kept by the caller) at `pts` and drops what comes out.
void PushAndDrop(Harness* hx, GstBuffer* frame, GstClockTime pts) {
  ASSERT_EQ(hx->Push(frame, pts, kFrame), GST_FLOW_OK);
  gst_buffer_unref(gst_harness_pull(hx->h()));
}

// Sets `info` on `hx` and pushes a random frame of it (from the fixed `seed`)
// at `pts`, dropping what comes out; the frame is the caller's in *frame.
void PushFirstFrame(Harness* hx, const GstVideoInfo& info, uint64_t seed, GstClockTime pts, GstBuffer** frame) {
  hx->SetCaps(info);
  std::mt19937_64 rng(seed);
  *frame = RandomFrame(info, rng);
  PushAndDrop(hx, *frame, pts);
}

// One frame through the element; checks meta and message against the reference.
void CheckOneFrame(GstVideoFormat format, guint width, guint height, guint bins,
                   const std::string& properties, const std::vector<guint>& components,
                   const FrameRoi& roi) {
  cudahist_test::SeededRng rng;
  const GstVideoInfo info = VideoInfo(format, width, height);
  SCOPED_TRACE(CapsString(info) + " " + properties);
  Harness hx("bins=" + std::to_string(bins) + " " + properties);
  hx.SetCaps(info);
  GstBuffer* frame = RandomFrame(info, rng);
  const Expected e = ExpectedCounts(info, frame, bins, components, roi);
  ASSERT_EQ(hx.Push(frame, 0, kFrame), GST_FLOW_OK) << PopErrorText(hx.bus());
  GstBuffer* out = gst_harness_pull(hx.h());
  ASSERT_NE(out, nullptr);
  GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(out);
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(meta->format, format);
  EXPECT_EQ(meta->width, width);
  EXPECT_EQ(meta->height, height);
  EXPECT_EQ(meta->bins, bins);
  EXPECT_EQ(MetaNames(meta), e.names);
  EXPECT_EQ(std::vector<guint>(meta->component_depth, meta->component_depth + meta->n_components),
            e.depths);
  EXPECT_EQ(MetaCounts(meta), e.counts);
  // The pixels passed through untouched and were not copied.
  GstMapInfo in_map, out_map;
  gst_buffer_map(frame, &in_map, GST_MAP_READ);
  gst_buffer_map(out, &out_map, GST_MAP_READ);
  EXPECT_EQ(in_map.data, out_map.data) << "frame data was copied";
  gst_buffer_unmap(out, &out_map);
  gst_buffer_unmap(frame, &in_map);
  GstMessage* m = PopHistogramMessage(hx.bus());
  ASSERT_NE(m, nullptr);
  ExpectMessageMatches(gst_message_get_structure(m), e, bins);
  gst_message_unref(m);
  gst_buffer_unref(out);
  gst_buffer_unref(frame);
}

const GstVideoFormat kSystemFormats[] = {
    GST_VIDEO_FORMAT_I420,       GST_VIDEO_FORMAT_YV12,       GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_NV21,       GST_VIDEO_FORMAT_P010_10LE,  GST_VIDEO_FORMAT_P016_LE,
    GST_VIDEO_FORMAT_I420_10LE,  GST_VIDEO_FORMAT_Y444,       GST_VIDEO_FORMAT_Y444_16LE,
    GST_VIDEO_FORMAT_BGRA,       GST_VIDEO_FORMAT_RGBA,       GST_VIDEO_FORMAT_RGBx,
    GST_VIDEO_FORMAT_BGRx,       GST_VIDEO_FORMAT_ARGB,       GST_VIDEO_FORMAT_ABGR,
    GST_VIDEO_FORMAT_RGB,        GST_VIDEO_FORMAT_BGR,        GST_VIDEO_FORMAT_BGR10A2_LE,
    GST_VIDEO_FORMAT_RGB10A2_LE, GST_VIDEO_FORMAT_Y42B,       GST_VIDEO_FORMAT_I422_10LE,
    GST_VIDEO_FORMAT_I422_12LE,  GST_VIDEO_FORMAT_YUY2,       GST_VIDEO_FORMAT_UYVY,
    GST_VIDEO_FORMAT_RGBP,       GST_VIDEO_FORMAT_BGRP,       GST_VIDEO_FORMAT_GBR,
    GST_VIDEO_FORMAT_GBRA,       GST_VIDEO_FORMAT_GRAY8,      GST_VIDEO_FORMAT_GRAY16_LE,
    GST_VIDEO_FORMAT_Y444_10LE,
};

class EveryFormat : public ::testing::TestWithParam<std::tuple<GstVideoFormat, SizeCase>> {};

TEST_P(EveryFormat, MetaAndMessageEqualReference) {
  const GstVideoFormat format = std::get<0>(GetParam());
  const SizeCase size = std::get<1>(GetParam());
  const GstVideoInfo info = VideoInfo(format, size.width, size.height);
  CheckOneFrame(format, size.width, size.height, 256, "", AllComponentsFor(info, 256), FrameRoi());
}

// One code value per bin: the exact histogram of every component (alpha of
// RGB10A2 included), at the deepest component's resolution.
TEST_P(EveryFormat, OneBinPerCodeValue) {
  const GstVideoFormat format = std::get<0>(GetParam());
  const SizeCase size = std::get<1>(GetParam());
  const GstVideoInfo info = VideoInfo(format, size.width, size.height);
  guint min_depth = 16;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    min_depth = std::min<guint>(min_depth, GST_VIDEO_INFO_COMP_DEPTH(&info, c));
  }
  const guint bins = 1u << min_depth;
  CheckOneFrame(format, size.width, size.height, bins, "", AllComponentsFor(info, bins), FrameRoi());
}

INSTANTIATE_TEST_SUITE_P(
    SystemMemory, EveryFormat,
    ::testing::Combine(::testing::ValuesIn(kSystemFormats),
                       ::testing::Values(SizeCase{33, 17}, SizeCase{1, 1}, SizeCase{2, 3})),
    FormatAndSizeName);

TEST(Element, MessageFieldsHaveTheirTypes) {
  Harness hx;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 33, 17);
  GstBuffer* frame = nullptr;
  ASSERT_NO_FATAL_FAILURE(PushFirstFrame(&hx, info, 1, 5 * kFrame, &frame));
  GstMessage* m = PopHistogramMessage(hx.bus());
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(GST_MESSAGE_SRC(m), GST_OBJECT(hx.element()));
  const GstStructure* s = gst_message_get_structure(m);
  const struct {
    const char* name;
    GType type;
  } fields[] = {
      {"timestamp", G_TYPE_UINT64},  {"stream-time", G_TYPE_UINT64},
      {"running-time", G_TYPE_UINT64}, {"duration", G_TYPE_UINT64},
      {"frames", G_TYPE_UINT},       {"format", G_TYPE_STRING},
      {"width", G_TYPE_UINT},        {"height", G_TYPE_UINT},
      {"roi-x", G_TYPE_UINT},        {"roi-y", G_TYPE_UINT},
      {"roi-width", G_TYPE_UINT},    {"roi-height", G_TYPE_UINT},
      {"bins", G_TYPE_UINT},
  };
  for (const auto& f : fields) {
    ASSERT_TRUE(gst_structure_has_field(s, f.name)) << f.name;
    EXPECT_EQ(gst_structure_get_field_type(s, f.name), f.type) << f.name;
  }
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  for (const char* name : {"components", "depths", "histograms", "mean", "stddev", "min", "max",
                           "clipped-low", "clipped-high"}) {
    ASSERT_TRUE(gst_structure_has_field(s, name)) << name;
    EXPECT_EQ(gst_structure_get_field_type(s, name), g_value_array_get_type()) << name;
  }
  G_GNUC_END_IGNORE_DEPRECATIONS
  guint64 ts = 0, duration = 0, running = 0;
  guint frames = 0;
  gst_structure_get(s, "timestamp", G_TYPE_UINT64, &ts, "duration", G_TYPE_UINT64, &duration,
                    "running-time", G_TYPE_UINT64, &running, "frames", G_TYPE_UINT, &frames,
                    nullptr);
  EXPECT_EQ(ts, 5 * kFrame);
  EXPECT_EQ(running, 5 * kFrame);  // the harness's segment starts at 0
  EXPECT_EQ(duration, kFrame);
  EXPECT_EQ(frames, 1u);
  EXPECT_STREQ(gst_structure_get_string(s, "format"), "NV12");
  EXPECT_EQ(MessageStrings(s, "components"), (std::vector<std::string>{"Y", "U", "V"}));
  for (const char* name : {"mean", "stddev", "min", "max", "clipped-low", "clipped-high"}) {
    EXPECT_EQ(MessageDoubles(s, name).size(), 3u) << name;
  }
  gst_message_unref(m);
  gst_buffer_unref(frame);
}

// A GRAY8 frame whose left half holds `low` and right half `high`.
GstBuffer* TwoValueFrame(const GstVideoInfo& info, uint8_t low, uint8_t high) {
  GstBuffer* b = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame f;
  gst_video_frame_map(&f, &info, b, GST_MAP_WRITE);
  for (gint y = 0; y < GST_VIDEO_INFO_HEIGHT(&info); ++y) {
    uint8_t* row = static_cast<uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&f, 0)) +
                   y * GST_VIDEO_FRAME_PLANE_STRIDE(&f, 0);
    for (gint x = 0; x < GST_VIDEO_INFO_WIDTH(&info); ++x) {
      row[x] = x < GST_VIDEO_INFO_WIDTH(&info) / 2 ? low : high;
    }
  }
  gst_video_frame_unmap(&f);
  return b;
}

// The message of one 16x4 GRAY8 frame, half `low`, half `high`, at `bins`.
GstMessage* TwoValueFrameMessage(guint bins, uint8_t low, uint8_t high) {
  Harness hx("bins=" + std::to_string(bins));
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_GRAY8, 16, 4);
  hx.SetCaps(info);
  GstBuffer* frame = TwoValueFrame(info, low, high);
  const GstFlowReturn ret = hx.Push(frame, 0, kFrame);
  gst_buffer_unref(frame);
  if (ret != GST_FLOW_OK) return nullptr;
  gst_buffer_unref(gst_harness_pull(hx.h()));
  return PopHistogramMessage(hx.bus());
}

TEST(Element, StatisticsExactWithOneBinPerValue) {
  GstMessage* m = TwoValueFrameMessage(256, 10, 20);
  ASSERT_NE(m, nullptr);
  const GstStructure* s = gst_message_get_structure(m);
  EXPECT_EQ(MessageDoubles(s, "mean"), std::vector<double>{15.0});
  EXPECT_EQ(MessageDoubles(s, "stddev"), std::vector<double>{5.0});
  EXPECT_EQ(MessageDoubles(s, "min"), std::vector<double>{10.0});
  EXPECT_EQ(MessageDoubles(s, "max"), std::vector<double>{20.0});
  EXPECT_EQ(MessageDoubles(s, "clipped-low"), std::vector<double>{0.0});
  EXPECT_EQ(MessageDoubles(s, "clipped-high"), std::vector<double>{0.0});
  gst_message_unref(m);
}

TEST(Element, StatisticsWithCoarseBinsUseBinCentresAndBounds) {
  // bins of 16 code values: 0..15, 16..31, ...
  GstMessage* m = TwoValueFrameMessage(16, 0, 255);
  ASSERT_NE(m, nullptr);
  const GstStructure* s = gst_message_get_structure(m);
  EXPECT_EQ(MessageDoubles(s, "mean"), std::vector<double>{(7.5 + 247.5) / 2});
  EXPECT_EQ(MessageDoubles(s, "min"), std::vector<double>{0.0});
  EXPECT_EQ(MessageDoubles(s, "max"), std::vector<double>{255.0});
  EXPECT_EQ(MessageDoubles(s, "clipped-low"), std::vector<double>{0.5});
  EXPECT_EQ(MessageDoubles(s, "clipped-high"), std::vector<double>{0.5});
  gst_message_unref(m);
}

guint MessageFrames(const GstStructure* s) {
  guint frames = 0;
  gst_structure_get_uint(s, "frames", &frames);
  return frames;
}

TEST(Element, IntervalAddsFramesUpAndPostsTheRestAtEos) {
  Harness hx("interval=" + std::to_string(3 * kFrame));
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_I420, 33, 17);
  hx.SetCaps(info);
  cudahist_test::SeededRng rng;
  std::vector<uint64_t> sum(256 * 3, 0), rest(256 * 3, 0);
  for (int i = 0; i < 5; ++i) {
    GstBuffer* frame = RandomFrame(info, rng);
    const Expected e = ExpectedCounts(info, frame, 256, {0, 1, 2}, FrameRoi());
    for (size_t k = 0; k < e.counts.size(); ++k) (i < 3 ? sum : rest)[k] += e.counts[k];
    ASSERT_NO_FATAL_FAILURE(PushAndDrop(&hx, frame, i * kFrame));
    gst_buffer_unref(frame);
    GstMessage* m = PopHistogramMessage(hx.bus());
    EXPECT_EQ(m != nullptr, i == 2) << "frame " << i;
    if (m) {
      const GstStructure* s = gst_message_get_structure(m);
      EXPECT_EQ(MessageFrames(s), 3u);
      guint64 duration = 0, ts = 1;
      gst_structure_get_uint64(s, "duration", &duration);
      gst_structure_get_uint64(s, "timestamp", &ts);
      EXPECT_EQ(duration, 3 * kFrame);
      EXPECT_EQ(ts, 0u);
      const auto hist = MessageHistograms(s);
      ASSERT_EQ(hist.size(), 3u);
      for (size_t c = 0; c < 3; ++c) {
        EXPECT_EQ(hist[c], std::vector<uint64_t>(sum.begin() + c * 256, sum.begin() + (c + 1) * 256));
      }
      gst_message_unref(m);
    }
  }
  ASSERT_TRUE(gst_harness_push_event(hx.h(), gst_event_new_eos()));
  GstMessage* m = PopHistogramMessage(hx.bus());
  ASSERT_NE(m, nullptr) << "pending interval not posted at EOS";
  const GstStructure* s = gst_message_get_structure(m);
  EXPECT_EQ(MessageFrames(s), 2u);
  const auto hist = MessageHistograms(s);
  ASSERT_EQ(hist.size(), 3u);
  EXPECT_EQ(hist[0], std::vector<uint64_t>(rest.begin(), rest.begin() + 256));
  gst_message_unref(m);
}

TEST(Element, FlushDropsTheAccumulation) {
  Harness hx("interval=" + std::to_string(GST_SECOND * 100));
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_GRAY8, 8, 8);
  hx.SetCaps(info);
  std::mt19937_64 rng(3);
  GstBuffer* frame = RandomFrame(info, rng);
  for (int i = 0; i < 2; ++i) {
    ASSERT_NO_FATAL_FAILURE(PushAndDrop(&hx, frame, i * kFrame));
  }
  EXPECT_EQ(PopHistogramMessage(hx.bus()), nullptr);
  ASSERT_TRUE(gst_harness_push_event(hx.h(), gst_event_new_flush_start()));
  ASSERT_TRUE(gst_harness_push_event(hx.h(), gst_event_new_flush_stop(TRUE)));
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  ASSERT_TRUE(gst_harness_push_event(hx.h(), gst_event_new_segment(&segment)));
  ASSERT_NO_FATAL_FAILURE(PushAndDrop(&hx, frame, 0));
  ASSERT_TRUE(gst_harness_push_event(hx.h(), gst_event_new_eos()));
  GstMessage* m = PopHistogramMessage(hx.bus());
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(MessageFrames(gst_message_get_structure(m)), 1u);
  gst_message_unref(m);
  EXPECT_EQ(PopHistogramMessage(hx.bus()), nullptr);
  gst_buffer_unref(frame);
}

TEST(Element, RenegotiationToANewSizePostsThePendingCountsFirst) {
  Harness hx("interval=" + std::to_string(GST_SECOND * 100));
  std::mt19937_64 rng(4);
  const GstVideoInfo first = VideoInfo(GST_VIDEO_FORMAT_NV12, 33, 17);
  const GstVideoInfo second = VideoInfo(GST_VIDEO_FORMAT_NV12, 20, 9);
  hx.SetCaps(first);
  GstBuffer* a = RandomFrame(first, rng);
  ASSERT_NO_FATAL_FAILURE(PushAndDrop(&hx, a, 0));
  hx.SetCaps(second);
  GstBuffer* b = RandomFrame(second, rng);
  const Expected e = ExpectedCounts(second, b, 256, {0, 1, 2}, FrameRoi());
  ASSERT_EQ(hx.Push(b, kFrame, kFrame), GST_FLOW_OK);
  GstBuffer* out = gst_harness_pull(hx.h());
  GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(out);
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(meta->width, 20u);
  EXPECT_EQ(meta->height, 9u);
  EXPECT_EQ(MetaCounts(meta), e.counts);
  GstMessage* m = PopHistogramMessage(hx.bus());
  ASSERT_NE(m, nullptr) << "the 33x17 frame was not posted when the size changed";
  guint width = 0;
  gst_structure_get_uint(gst_message_get_structure(m), "width", &width);
  EXPECT_EQ(width, 33u);
  gst_message_unref(m);
  ASSERT_TRUE(gst_harness_push_event(hx.h(), gst_event_new_eos()));
  m = PopHistogramMessage(hx.bus());
  ASSERT_NE(m, nullptr);
  ExpectMessageMatches(gst_message_get_structure(m), e, 256);
  gst_message_unref(m);
  gst_buffer_unref(out);
  gst_buffer_unref(a);
  gst_buffer_unref(b);
}

TEST(Element, RoiInsideTheFrame) {
  const FrameRoi roi{5, 3, 10, 7};
  CheckOneFrame(GST_VIDEO_FORMAT_I420, 33, 17, 256, "roi-x=5 roi-y=3 roi-width=10 roi-height=7",
                {0, 1, 2}, roi);
}

TEST(Element, RoiWithOddEdgesOnSubsampledAndPackedFormats) {
  const FrameRoi roi{3, 1, 6, 4};
  for (GstVideoFormat f : {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_RGB,
                           GST_VIDEO_FORMAT_P010_10LE}) {
    CheckOneFrame(f, 33, 17, 256, "roi-x=3 roi-y=1 roi-width=6 roi-height=4", {0, 1, 2}, roi);
  }
}

TEST(Element, RoiIsClippedToTheFrame) {
  const FrameRoi clipped{30, 10, 3, 7};
  CheckOneFrame(GST_VIDEO_FORMAT_I420, 33, 17, 256, "roi-x=30 roi-y=10 roi-width=100 roi-height=100",
                {0, 1, 2}, clipped);
  Harness hx("roi-x=30 roi-y=10 roi-width=100");
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_GRAY8, 33, 17);
  hx.SetCaps(info);
  std::mt19937_64 rng(5);
  GstBuffer* frame = RandomFrame(info, rng);
  ASSERT_EQ(hx.Push(frame, 0, kFrame), GST_FLOW_OK);
  GstBuffer* out = gst_harness_pull(hx.h());
  const GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(out);
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(meta->roi_x, 30u);
  EXPECT_EQ(meta->roi_y, 10u);
  EXPECT_EQ(meta->roi_width, 3u);
  EXPECT_EQ(meta->roi_height, 7u);
  gst_buffer_unref(out);
  gst_buffer_unref(frame);
}

TEST(Element, ComponentsSubsetKeepsFormatOrder) {
  CheckOneFrame(GST_VIDEO_FORMAT_I420, 33, 17, 256, "components=V,Y", {0, 2}, FrameRoi());
  CheckOneFrame(GST_VIDEO_FORMAT_BGRA, 33, 17, 256, "components=a,r", {0, 3}, FrameRoi());
  CheckOneFrame(GST_VIDEO_FORMAT_RGB10A2_LE, 5, 3, 4, "components=A", {3}, FrameRoi());
}

TEST(Element, BinsAboveTheFormatDepthAreRefusedAtNegotiation) {
  const std::string text = RefusedWith("bins=512", VideoInfo(GST_VIDEO_FORMAT_GRAY8, 8, 8));
  EXPECT_NE(text.find("bins 512 exceeds the 256 code values of the 8-bit component Y of GRAY8"),
            std::string::npos)
      << text;
  const std::string named =
      RefusedWith("bins=8 components=A", VideoInfo(GST_VIDEO_FORMAT_RGB10A2_LE, 8, 8));
  EXPECT_NE(named.find("bins 8 exceeds the 4 code values of the 2-bit component A"),
            std::string::npos)
      << named;
}

TEST(Element, UnknownOrRepeatedComponentIsAnError) {
  const GstVideoInfo nv12 = VideoInfo(GST_VIDEO_FORMAT_NV12, 8, 8);
  std::string text = RefusedWith("components=Y,R", nv12);
  EXPECT_NE(text.find("\"R\" is not a component of NV12 (it has Y,U,V"), std::string::npos) << text;
  text = RefusedWith("components=Y,y", nv12);
  EXPECT_NE(text.find("\"y\" is named twice"), std::string::npos) << text;
  text = RefusedWith("components=A", nv12);
  EXPECT_NE(text.find("\"A\" is not a component of NV12"), std::string::npos) << text;
}

TEST(Element, RoiOutsideTheFrameIsAnError) {
  const std::string text =
      RefusedWith("roi-x=40", VideoInfo(GST_VIDEO_FORMAT_I420, 33, 17));
  EXPECT_NE(text.find("roi-x 40, roi-y 0 lies outside the 33x17 frame"), std::string::npos) << text;
}

TEST(Element, BufferSmallerThanItsCapsIsAnError) {
  Harness hx;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_I420, 33, 17);
  hx.SetCaps(info);
  GstBuffer* small = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info) / 2, nullptr);
  EXPECT_EQ(hx.Push(small, 0, kFrame), GST_FLOW_ERROR);
  gst_buffer_unref(small);
  const std::string text = PopErrorText(hx.bus());
  EXPECT_NE(text.find("Buffer too small for its caps"), std::string::npos) << text;
}

// Memory that cannot be mapped, nor copied (GstBuffer copies a writable
// buffer's memory when a map fails): what a producer's memory whose map
// fails looks like to the element.
struct UnmappableMemory {
  GstMemory mem;
};

GType UnmappableAllocatorType() {
  static const GType type = g_type_register_static_simple(
      GST_TYPE_ALLOCATOR, "CudaHistogramTestUnmappableAllocator", sizeof(GstAllocatorClass),
      [](gpointer klass, gpointer) {
        GST_ALLOCATOR_CLASS(klass)->free = [](GstAllocator*, GstMemory* m) {
          g_free(reinterpret_cast<UnmappableMemory*>(m));
        };
      },
      sizeof(GstAllocator),
      [](GTypeInstance* instance, gpointer) {
        GstAllocator* a = GST_ALLOCATOR(instance);
        a->mem_type = "UnmappableMemory";
        a->mem_map = [](GstMemory*, gsize, GstMapFlags) -> gpointer { return nullptr; };
        a->mem_unmap = [](GstMemory*) {};
        a->mem_copy = [](GstMemory*, gssize, gssize) -> GstMemory* { return nullptr; };
        a->mem_share = [](GstMemory*, gssize, gssize) -> GstMemory* { return nullptr; };
      },
      GTypeFlags(0));
  return type;
}

GstMemory* NewUnmappableMemory(gsize size) {
  static GstAllocator* const allocator = GST_ALLOCATOR(g_object_new(UnmappableAllocatorType(), nullptr));
  auto* m = g_new0(UnmappableMemory, 1);
  gst_memory_init(&m->mem, GstMemoryFlags(0), allocator, nullptr, size, 0, 0, size);
  return &m->mem;
}

// A frame whose map fails: an element error, and nothing counted (the
// histogram path and the signalstats path alike).
TEST(Element, FrameThatCannotBeMappedIsAnError) {
  for (const char* properties : {"", "signalstats=true"}) {
    SCOPED_TRACE(properties);
    Harness hx(properties);
    const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_I420, 33, 17);
    hx.SetCaps(info);
    GstBuffer* frame = gst_buffer_new();
    gst_buffer_append_memory(frame, NewUnmappableMemory(GST_VIDEO_INFO_SIZE(&info)));
    EXPECT_EQ(hx.Push(frame, 0, kFrame), GST_FLOW_ERROR);
    gst_buffer_unref(frame);
    const std::string text = PopErrorText(hx.bus());
    EXPECT_NE(text.find("Could not map the video frame for reading"), std::string::npos) << text;
    EXPECT_EQ(PopHistogramMessage(hx.bus()), nullptr);
  }
}

// CUDA caps need a CUDA device: without a driver (CI) the element must fail
// negotiation with an element error, not abort inside gst-cuda; on a GPU host
// the same holds for a device id that does not exist.
TEST(Element, CudaCapsWithoutAUsableDeviceAreAnElementError) {
  const bool have_cuda = cudahist::CheckCudaDevice().ok();
  Harness hx(have_cuda ? "cuda-device-id=99" : "");
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 32, 16);
  gst_harness_set_src_caps_str(hx.h(), CudaCapsString(info).c_str());
  GstBuffer* frame = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  EXPECT_NE(hx.Push(frame, 0, kFrame), GST_FLOW_OK);
  gst_buffer_unref(frame);
  const std::string text = PopErrorText(hx.bus());
  EXPECT_NE(text.find(have_cuda ? "No usable CUDA device for cuda-device-id 99" : "CUDA"),
            std::string::npos)
      << text;
}

// upload=true brings system-memory frames to the GPU: with no usable device
// (no driver in CI, a device id that does not exist on a GPU host) the
// element fails negotiation naming upload=true, and never falls back to
// counting on the CPU unasked.
TEST(Element, UploadWithoutAUsableDeviceIsAnElementErrorNamingUpload) {
  const bool have_cuda = cudahist::CheckCudaDevice().ok();
  Harness hx(have_cuda ? "upload=true cuda-device-id=99" : "upload=true");
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_I420, 33, 17);
  hx.SetCaps(info);
  GstBuffer* frame = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  EXPECT_NE(hx.Push(frame, 0, kFrame), GST_FLOW_OK);
  gst_buffer_unref(frame);
  const std::string text = PopErrorText(hx.bus());
  EXPECT_NE(text.find("upload=true"), std::string::npos) << text;
  EXPECT_NE(text.find(have_cuda ? "No usable CUDA device for cuda-device-id 99" : "CUDA"), std::string::npos)
      << text;
  EXPECT_EQ(PopHistogramMessage(hx.bus()), nullptr);
}

TEST(Element, PropertySettingsChangeBetweenFrames) {
  Harness hx;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 33, 17);
  GstBuffer* frame = nullptr;
  ASSERT_NO_FATAL_FAILURE(PushFirstFrame(&hx, info, 7, 0, &frame));
  g_object_set(hx.element(), "bins", 64u, "components", "U", nullptr);
  ASSERT_EQ(hx.Push(frame, kFrame, kFrame), GST_FLOW_OK);
  GstBuffer* out = gst_harness_pull(hx.h());
  const GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(out);
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(meta->bins, 64u);
  EXPECT_EQ(MetaNames(meta), std::vector<std::string>{"U"});
  EXPECT_EQ(MetaCounts(meta), ExpectedCounts(info, frame, 64, {1}, FrameRoi()).counts);
  gst_buffer_unref(out);
  // Neither meta nor messages: the buffer passes through untouched.
  g_object_set(hx.element(), "attach-meta", FALSE, "post-messages", FALSE, nullptr);
  while (GstMessage* m = PopHistogramMessage(hx.bus())) gst_message_unref(m);
  ASSERT_EQ(hx.Push(frame, 2 * kFrame, kFrame), GST_FLOW_OK);
  out = gst_harness_pull(hx.h());
  EXPECT_EQ(gst_buffer_get_cuda_histogram_meta(out), nullptr);
  EXPECT_EQ(PopHistogramMessage(hx.bus()), nullptr);
  gst_buffer_unref(out);
  gst_buffer_unref(frame);
}

// --- properties: ranges, defaults, refusals -----------------------------------

struct LogCatcher {
  LogCatcher() {
    id = g_log_set_handler("GLib-GObject", GLogLevelFlags(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL),
                           Handler, this);
  }
  ~LogCatcher() { g_log_remove_handler("GLib-GObject", id); }
  static void Handler(const gchar*, GLogLevelFlags, const gchar* message, gpointer self) {
    static_cast<LogCatcher*>(self)->messages.push_back(message);
  }
  guint id;
  std::vector<std::string> messages;
};

TEST(Properties, RangesAndDefaults) {
  GstElement* e = gst_element_factory_make("cudahistogram", nullptr);
  ASSERT_NE(e, nullptr);
  GObjectClass* klass = G_OBJECT_GET_CLASS(e);
  const struct {
    const char* name;
    guint64 min, max, def;
  } uints[] = {
      {"bins", 1, 65536, 256},        {"roi-x", 0, G_MAXUINT, 0},      {"roi-y", 0, G_MAXUINT, 0},
      {"roi-width", 0, G_MAXUINT, 0}, {"roi-height", 0, G_MAXUINT, 0},
  };
  for (const auto& u : uints) {
    GParamSpecUInt* p = G_PARAM_SPEC_UINT(g_object_class_find_property(klass, u.name));
    ASSERT_NE(p, nullptr) << u.name;
    EXPECT_EQ(p->minimum, u.min) << u.name;
    EXPECT_EQ(p->maximum, u.max) << u.name;
    EXPECT_EQ(p->default_value, u.def) << u.name;
  }
  GParamSpecUInt64* interval = G_PARAM_SPEC_UINT64(g_object_class_find_property(klass, "interval"));
  EXPECT_EQ(interval->default_value, 0u);
  GParamSpecInt* device = G_PARAM_SPEC_INT(g_object_class_find_property(klass, "cuda-device-id"));
  EXPECT_EQ(device->minimum, -1);
  EXPECT_EQ(device->default_value, -1);
  gchar* components = nullptr;
  gboolean attach = FALSE, post = FALSE;
  gint algorithm = -1;
  g_object_get(e, "components", &components, "attach-meta", &attach, "post-messages", &post,
               "algorithm", &algorithm, nullptr);
  EXPECT_STREQ(components, "all");
  EXPECT_TRUE(attach);
  EXPECT_TRUE(post);
  g_free(components);
  GEnumClass* algorithms = G_ENUM_CLASS(g_type_class_ref(
      G_PARAM_SPEC_VALUE_TYPE(g_object_class_find_property(klass, "algorithm"))));
  for (const char* nick : {"auto", "privatized", "privatized-packed", "privatized-shared", "two-phase"}) {
    GEnumValue* v = g_enum_get_value_by_nick(algorithms, nick);
    ASSERT_NE(v, nullptr) << nick;
    cudahist::Algorithm a;
    ASSERT_TRUE(cudahist::AlgorithmFromName(nick, &a)) << nick;
    EXPECT_EQ(v->value, int(a)) << nick;
  }
  EXPECT_EQ(g_enum_get_value(algorithms, algorithm)->value_nick, std::string("auto"));
  g_type_class_unref(algorithms);
  gst_object_unref(e);
}

TEST(Properties, OutOfRangeValuesAreRefusedWithAWarning) {
  GstElement* e = gst_element_factory_make("cudahistogram", nullptr);
  const struct {
    const char* name;
    guint value;
  } bad_uints[] = {{"bins", 0}, {"bins", 65537}};
  for (const auto& b : bad_uints) {
    LogCatcher log;
    g_object_set(e, b.name, b.value, nullptr);
    guint now = 0;
    g_object_get(e, b.name, &now, nullptr);
    EXPECT_EQ(now, 256u) << b.name << "=" << b.value << " was taken";
    ASSERT_EQ(log.messages.size(), 1u);
    EXPECT_NE(log.messages[0].find("out of range for property 'bins'"), std::string::npos)
        << log.messages[0];
  }
  {
    LogCatcher log;
    g_object_set(e, "cuda-device-id", -2, nullptr);
    gint id = 0;
    g_object_get(e, "cuda-device-id", &id, nullptr);
    EXPECT_EQ(id, -1);
    ASSERT_EQ(log.messages.size(), 1u);
    EXPECT_NE(log.messages[0].find("cuda-device-id"), std::string::npos) << log.messages[0];
  }
  {
    LogCatcher log;
    g_object_set(e, "bins", 65536u, nullptr);  // the maximum itself is fine
    guint now = 0;
    g_object_get(e, "bins", &now, nullptr);
    EXPECT_EQ(now, 65536u);
    EXPECT_TRUE(log.messages.empty());
  }
  gst_object_unref(e);
}

// --- pipelines -------------------------------------------------------------------


GstPadProbeReturn CountMetas(GstPad*, GstPadProbeInfo* info, gpointer data) {
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  gpointer state = nullptr;
  guint n = 0;
  while (gst_buffer_iterate_meta_filtered(buffer, &state, GST_CUDA_HISTOGRAM_META_API_TYPE)) ++n;
  static_cast<std::vector<guint>*>(data)->push_back(n);
  return GST_PAD_PROBE_OK;
}

TEST(Pipeline, TwoInstancesEachAttachAndPost) {
  GstElement* p = Launch(
      "videotestsrc num-buffers=5 pattern=snow ! video/x-raw,format=I420,width=33,height=17 ! "
      "cudahistogram name=a roi-width=10 ! cudahistogram name=b components=Y bins=16 ! "
      "fakesink name=sink");
  ASSERT_NE(p, nullptr);
  GstElement* sink = gst_bin_get_by_name(GST_BIN(p), "sink");
  GstPad* pad = gst_element_get_static_pad(sink, "sink");
  std::vector<guint> metas;
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, CountMetas, &metas, nullptr);
  std::vector<GstMessage*> messages;
  EXPECT_EQ(RunToEnd(p, &messages), "");
  EXPECT_EQ(metas, std::vector<guint>(5, 2u));
  int from_a = 0, from_b = 0;
  for (GstMessage* m : messages) {
    const std::string src = GST_OBJECT_NAME(GST_MESSAGE_SRC(m));
    guint bins = 0;
    gst_structure_get_uint(gst_message_get_structure(m), "bins", &bins);
    if (src == "a") {
      ++from_a;
      EXPECT_EQ(bins, 256u);
    } else if (src == "b") {
      ++from_b;
      EXPECT_EQ(bins, 16u);
    }
    gst_message_unref(m);
  }
  EXPECT_EQ(from_a, 5);
  EXPECT_EQ(from_b, 5);
  gst_object_unref(pad);
  gst_object_unref(sink);
  gst_object_unref(p);
}

// 200 by default; CUDAHISTOGRAM_STATE_CYCLES lowers it under valgrind.
int StateCycles() {
  const char* env = g_getenv("CUDAHISTOGRAM_STATE_CYCLES");
  return env ? std::atoi(env) : 200;
}

TEST(Pipeline, StateCyclesNullPlayingNull) {
  GstElement* p = Launch(
      "videotestsrc is-live=false ! video/x-raw,format=NV12,width=33,height=17 ! "
      "cudahistogram interval=100000000 ! fakesink");
  ASSERT_NE(p, nullptr);
  const int cycles = StateCycles();
  for (int i = 0; i < cycles; ++i) {
    ASSERT_NE(gst_element_set_state(p, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE) << "cycle " << i;
    ASSERT_EQ(gst_element_get_state(p, nullptr, nullptr, 10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS)
        << "cycle " << i;
    ASSERT_EQ(gst_element_set_state(p, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS) << "cycle " << i;
  }
  GstBus* bus = gst_element_get_bus(p);
  EXPECT_EQ(PopErrorText(bus), "");
  gst_object_unref(bus);
  gst_object_unref(p);
}

// --- GPU: cudaupload into the element --------------------------------------------------


class CudaFormats : public ::testing::TestWithParam<GstVideoFormat> {};


// Where two component-major count arrays first differ, per component, and how
// the buffer's planes are laid out (for a failure message).
std::string DescribeMismatch(const std::vector<uint32_t>& got, const Expected& want, guint bins,
                             GstBuffer* buffer) {
  std::string out;
  for (size_t c = 0; c < want.names.size(); ++c) {
    uint64_t got_sum = 0, want_sum = 0;
    size_t first = bins;
    for (size_t b = 0; b < bins && (c * bins + b) < got.size(); ++b) {
      got_sum += got[c * bins + b];
      want_sum += want.counts[c * bins + b];
      if (first == bins && got[c * bins + b] != want.counts[c * bins + b]) first = b;
    }
    out += want.names[c] + ": sums " + std::to_string(got_sum) + " vs " + std::to_string(want_sum);
    if (first < bins) {
      out += ", bin " + std::to_string(first) + " " + std::to_string(got[c * bins + first]) + " vs " +
             std::to_string(want.counts[c * bins + first]);
    }
    out += "; ";
  }
  if (const GstVideoMeta* vm = gst_buffer_get_video_meta(buffer)) {
    for (guint i = 0; i < vm->n_planes; ++i) {
      out += "plane " + std::to_string(i) + " offset " + std::to_string(vm->offset[i]) + " stride " +
             std::to_string(vm->stride[i]) + "; ";
    }
  } else {
    out += "no GstVideoMeta";
  }
  return out;
}


TEST_P(CudaFormats, MetaEqualsReferenceOfTheSameFrame) {
  SKIP_WITHOUT_CUDA();
  const GstVideoFormat format = GetParam();
  const std::string f = gst_video_format_to_string(format);
  for (const char* algorithm : {"auto", "privatized", "two-phase"}) {
    SCOPED_TRACE(f + " algorithm " + algorithm);
    GstElement* p = Launch("videotestsrc num-buffers=3 pattern=snow ! video/x-raw,format=" + f +
                           ",width=333,height=67 ! cudaupload ! video/x-raw(memory:CUDAMemory) ! "
                           "cudahistogram algorithm=" +
                           algorithm + " ! appsink name=sink emit-signals=true sync=false");
    ASSERT_NE(p, nullptr);
    std::vector<GstSample*> samples;
    std::vector<GstMessage*> messages;
    EXPECT_EQ(RunToSink(p, &samples, &messages), "");
    for (GstMessage* m : messages) gst_message_unref(m);
    EXPECT_EQ(samples.size(), 3u);
    for (GstSample* sample : samples) {
      GstVideoInfo info;
      GstBuffer* host = nullptr;
      ASSERT_NO_FATAL_FAILURE(CopyCudaFrameToHost(sample, &info, &host));
      GstBuffer* buffer = gst_sample_get_buffer(sample);
      const GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(buffer);
      ASSERT_NE(meta, nullptr);
      const Expected e = ExpectedCounts(info, host, 256, AllComponentsFor(info, 256), FrameRoi());
      gst_buffer_unref(host);
      EXPECT_EQ(MetaNames(meta), e.names);
      const std::vector<uint32_t> got = MetaCounts(meta);
      EXPECT_TRUE(got == e.counts) << DescribeMismatch(got, e, 256, buffer);
      gst_sample_unref(sample);
    }
    gst_object_unref(p);
  }
}

INSTANTIATE_TEST_SUITE_P(Gpu, CudaFormats,
                         ::testing::Values(GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
                                           GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_P010_10LE,
                                           GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_BGR,
                                           GST_VIDEO_FORMAT_Y444_16LE),
                         FormatName);

TEST(Gpu, InvalidCudaDeviceIdIsAnElementError) {
  SKIP_WITHOUT_CUDA();
  GstElement* p = Launch(
      "videotestsrc num-buffers=3 ! video/x-raw,format=NV12,width=64,height=32 ! cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! "
      "cudahistogram cuda-device-id=99 ! fakesink");
  ASSERT_NE(p, nullptr);
  std::vector<GstMessage*> messages;
  const std::string error = RunToEnd(p, &messages);
  EXPECT_NE(error.find("No usable CUDA device for cuda-device-id 99"), std::string::npos) << error;
  EXPECT_TRUE(messages.empty());
  for (GstMessage* m : messages) gst_message_unref(m);
  gst_object_unref(p);
}

// The warnings a CUDA pipeline of `format` frames `width` wide posts, run to its end.
std::vector<std::string> CudaPipelineWarnings(const char* format, int width) {
  GstElement* p = Launch(std::string("videotestsrc num-buffers=3 ! video/x-raw,format=") + format +
                         ",width=" + std::to_string(width) +
                         ",height=8 ! cudaupload ! video/x-raw(memory:CUDAMemory) ! cudahistogram ! fakesink");
  std::vector<std::string> warnings;
  if (p == nullptr) return warnings;
  GstBus* bus = gst_element_get_bus(p);
  gst_element_set_state(p, GST_STATE_PLAYING);
  for (;;) {
    GstMessage* m = gst_bus_timed_pop_filtered(
        bus, 20 * GST_SECOND, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING));
    if (m == nullptr) break;
    const bool end = GST_MESSAGE_TYPE(m) != GST_MESSAGE_WARNING;
    if (!end) {
      GError* e = nullptr;
      gst_message_parse_warning(m, &e, nullptr);
      warnings.push_back(e->message);
      g_error_free(e);
    }
    gst_message_unref(m);
    if (end) break;
  }
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(p);
  return warnings;
}

// GStreamer's CUDA copies lose the last V sample of every row of odd-width
// packed 4:2:2 (docs/versions.md, "Known upstream limits"): the element says so, once.
TEST(Gpu, OddWidthPacked422InCudaMemoryIsWarnedOnce) {
  SKIP_WITHOUT_CUDA();
  for (const char* format : {"YUY2", "UYVY"}) {
    const std::vector<std::string> odd = CudaPipelineWarnings(format, 333);
    ASSERT_EQ(odd.size(), 1u) << format;
    EXPECT_NE(odd[0].find(std::string(format) + " frames of odd width (333) in CUDA memory"), std::string::npos)
        << odd[0];
    EXPECT_TRUE(CudaPipelineWarnings(format, 334).empty()) << format;
  }
}

TEST(Gpu, StateCyclesWithCudaMemory) {
  SKIP_WITHOUT_CUDA();
  GstElement* p = Launch(
      "videotestsrc ! video/x-raw,format=NV12,width=64,height=32 ! cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! cudahistogram ! "
      "fakesink");
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < 50; ++i) {
    ASSERT_NE(gst_element_set_state(p, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
    ASSERT_EQ(gst_element_get_state(p, nullptr, nullptr, 10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
    ASSERT_EQ(gst_element_set_state(p, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref(p);
}

}  // namespace
