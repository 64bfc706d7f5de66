// The element's regions and objects=detections through GstHarness (system
// memory: the CPU backend, so they run anywhere; the GPU path of the same
// counts is tests/kernels/regions_gpu_test.cc's, and scripts/gpuhost/analytics.sh
// runs the element on CUDA frames). Expected counts are ExpectedCounts of
// each box (GStreamer's own unpack, element_test_util.h), never the element's
// plane views. Built against 1.22 the analytics parts are refused, and that
// is tested; built with gstreamer-analytics-1.0 (the Debian 13 root) the
// detections, their region Mtds, track ids and the tensor are tested.
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cudahist/signalstats.h"
#include "element_test_util.h"
#include "gstcudahistogrammeta.h"
#include "seeded_rng.h"
#if CUDAHISTOGRAM_HAVE_ANALYTICS
#include <gst/analytics/analytics.h>

#include "gstcudaregionmtd.h"
#endif

using namespace element_test;

namespace {

std::vector<uint64_t> Widen(const uint32_t* counts, size_t n) { return std::vector<uint64_t>(counts, counts + n); }

// A region's structure in the message matches the expected counts of its box.
void ExpectRegionCounts(const GstStructure* region, const GstVideoInfo& info, GstBuffer* frame, guint bins,
                        const FrameRoi& box) {
  guint x = 0, y = 0, w = 0, h = 0;
  ASSERT_TRUE(gst_structure_get(region, "x", G_TYPE_UINT, &x, "y", G_TYPE_UINT, &y, "width", G_TYPE_UINT, &w,
                                "height", G_TYPE_UINT, &h, nullptr));
  EXPECT_EQ(std::vector<guint>({x, y, w, h}), std::vector<guint>({box.x, box.y, box.width, box.height}));
  const Expected e = ExpectedCounts(info, frame, bins, AllComponentsFor(info, bins), box);
  const auto histograms = MessageRegionCounts(region, bins);
  ASSERT_EQ(histograms.size(), e.names.size());
  for (size_t c = 0; c < histograms.size(); ++c) {
    EXPECT_EQ(histograms[c], Widen(e.counts.data() + c * bins, bins)) << "component " << e.names[c];
  }
}

std::string NameOf(const GstStructure* s, const char* field) {
  const gchar* v = gst_structure_get_string(s, field);
  return v ? v : "(none)";
}

// Pushes `frame` at `pts`, drops the output and returns the frame's message.
GstMessage* PushForMessage(Harness* hx, GstBuffer* frame, GstClockTime pts) {
  EXPECT_EQ(hx->Push(frame, pts, kFrame), GST_FLOW_OK) << PopErrorText(hx->bus());
  if (GstBuffer* out = gst_harness_try_pull(hx->h())) gst_buffer_unref(out);
  return PopHistogramMessage(hx->bus());
}

// --- fixed regions (every build) ---------------------------------------------------

TEST(Regions, EachFixedRegionEqualsReferenceOfItsBox) {
  // 33 x 17: odd edges of every subsampled and packed layout.
  const std::string regions =
      "whole:0,0,33,17; corner:32,16,1,1; right:20,3,13,9; a:2,2,12,10; b:8,6,12,10; out:30,14,10,10";
  const std::vector<std::pair<std::string, FrameRoi>> boxes = {
      {"whole", {0, 0, 33, 17}}, {"corner", {32, 16, 1, 1}}, {"right", {20, 3, 13, 9}},
      {"a", {2, 2, 12, 10}},     {"b", {8, 6, 12, 10}},      {"out", {30, 14, 3, 3}}};  // clipped
  cudahist_test::SeededRng rng;
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YUY2,
                                GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_RGB,
                                GST_VIDEO_FORMAT_GRAY8}) {
    const GstVideoInfo info = VideoInfo(format, 33, 17);
    SCOPED_TRACE(CapsString(info));
    const guint bins = 64;
    Harness hx("bins=64 regions=\"" + regions + "\"");
    hx.SetCaps(info);
    GstBuffer* frame = RandomFrame(info, rng);
    GstMessage* m = PushForMessage(&hx, frame, 0);
    ASSERT_NE(m, nullptr);
    const auto found = MessageStructures(gst_message_get_structure(m), "regions");
    ASSERT_EQ(found.size(), boxes.size());
    for (size_t r = 0; r < boxes.size(); ++r) {
      SCOPED_TRACE(boxes[r].first);
      EXPECT_EQ(NameOf(found[r], "name"), boxes[r].first);
      ExpectRegionCounts(found[r], info, frame, bins, boxes[r].second);
    }
    EXPECT_FALSE(gst_structure_has_field(gst_message_get_structure(m), "objects")) << "objects=none";
    gst_message_unref(m);
    gst_buffer_unref(frame);
  }
}

TEST(Regions, BadSyntaxIsRefusedQuotingTheOffendingPart) {
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 48);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"logo:1,2,3", "\"logo:1,2,3\" is not NAME:X,Y,W,H (3 numbers where X,Y,W,H are 4)"},
      {"a:1,2,3,4;logo 1,2,3,4", "\"logo 1,2,3,4\" is not NAME:X,Y,W,H (no ':' between the name and the box)"},
      {"a:1,2,3,4;b:1,-2,3,4", "\"b:1,-2,3,4\" is not NAME:X,Y,W,H (Y \"-2\" is not a whole number of pixels"},
      {"a:1,2,nan,4", "\"a:1,2,nan,4\" is not NAME:X,Y,W,H (W \"nan\" is not a whole number"},
      {"a:1,2,inf,4", "(W \"inf\" is not a whole number"},
      {"a:1,2,3.5,4", "(W \"3.5\" is not a whole number"},
      {":1,2,3,4", "\":1,2,3,4\" is not NAME:X,Y,W,H (the name is empty)"},
      {"a:1,2,0,4", "\"a:1,2,0,4\" is not NAME:X,Y,W,H (its width or height is 0)"},
      {"a:1,2,3,99999999999", "(H \"99999999999\" is not a whole number"},
      {"a:1,2,3,4;a:5,6,7,8", "the name \"a\" is given twice"},
      {"a:b:1,2,3,4", "more than one ':'"},
  };
  for (const auto& [regions, want] : cases) {
    const std::string text = RefusedWith("regions=\"" + regions + "\"", info);
    EXPECT_NE(text.find("regions: "), std::string::npos) << text;
    EXPECT_NE(text.find(want), std::string::npos) << regions << " -> " << text;
  }
}

TEST(Regions, ARegionWhollyOutsideTheFrameIsRefused) {
  const std::string text = RefusedWith("regions=\"in:0,0,8,8;away:64,0,8,8\"", VideoInfo(GST_VIDEO_FORMAT_I420, 64, 48));
  EXPECT_NE(text.find("regions: \"away\" at 64,0 8x8 lies outside the 64x48 frame"), std::string::npos) << text;
}

TEST(Regions, AListChangedWhilePlayingCountsFromTheNextFrameAndPostsThePendingFirst) {
  cudahist_test::SeededRng rng;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 48);
  Harness hx("regions=\"a:0,0,10,10\"");
  hx.SetCaps(info);
  GstBuffer* frame = RandomFrame(info, rng);
  GstMessage* m = PushForMessage(&hx, frame, 0);
  ASSERT_NE(m, nullptr);
  auto regions = MessageStructures(gst_message_get_structure(m), "regions");
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(NameOf(regions[0], "name"), "a");
  gst_message_unref(m);
  g_object_set(hx.element(), "regions", "b:5,5,20,20;c:40,30,24,18", nullptr);
  m = PushForMessage(&hx, frame, kFrame);
  ASSERT_NE(m, nullptr);
  regions = MessageStructures(gst_message_get_structure(m), "regions");
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(NameOf(regions[1], "name"), "c");
  ExpectRegionCounts(regions[1], info, frame, 256, FrameRoi{40, 30, 24, 18});
  gst_message_unref(m);
  // Over an interval the counts add up, and a new list posts the old one's first.
  g_object_set(hx.element(), "interval", guint64(GST_SECOND), nullptr);
  EXPECT_EQ(PushForMessage(&hx, frame, 2 * kFrame), nullptr);
  EXPECT_EQ(PushForMessage(&hx, frame, 3 * kFrame), nullptr);
  g_object_set(hx.element(), "regions", "d:0,0,1,1", nullptr);
  m = PushForMessage(&hx, frame, 4 * kFrame);
  ASSERT_NE(m, nullptr);
  guint frames = 0;
  gst_structure_get_uint(gst_message_get_structure(m), "frames", &frames);
  EXPECT_EQ(frames, 2u);
  regions = MessageStructures(gst_message_get_structure(m), "regions");
  ASSERT_EQ(regions.size(), 2u);
  const Expected e = ExpectedCounts(info, frame, 256, {0, 1, 2}, FrameRoi{5, 5, 20, 20});
  const auto summed = MessageRegionCounts(regions[0], 256);
  ASSERT_EQ(summed.size(), 3u);
  for (size_t b = 0; b < 256; ++b) EXPECT_EQ(summed[0][b], 2u * e.counts[b]) << b;
  gst_message_unref(m);
  // Emptied: no regions field any more.
  g_object_set(hx.element(), "regions", "", "interval", guint64(0), nullptr);
  gst_element_send_event(hx.element(), gst_event_new_eos());
  while ((m = PopHistogramMessage(hx.bus()))) gst_message_unref(m);
  gst_buffer_unref(frame);
}

TEST(Regions, SignalstatsFiguresOfEachRegion) {
  cudahist_test::SeededRng rng;
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_YUY2}) {
    const GstVideoInfo info = VideoInfo(format, 34, 18);
    SCOPED_TRACE(CapsString(info));
    Harness hx("signalstats=true regions=\"a:3,1,17,9;b:33,17,1,1\"");
    hx.SetCaps(info);
    GstBuffer* frame = RandomFrame(info, rng);
    GstMessage* m = PushForMessage(&hx, frame, 0);
    ASSERT_NE(m, nullptr);
    const auto regions = MessageStructures(gst_message_get_structure(m), "regions");
    ASSERT_EQ(regions.size(), 2u);
    const FrameRoi boxes[] = {{3, 1, 17, 9}, {33, 17, 1, 1}};
    for (size_t r = 0; r < 2; ++r) {
      const cudahist::SignalStatsFigures want = ExpectedSignalStats(info, frame, nullptr, boxes[r]);
      gint v = 0;
      gdouble d = 0;
      ASSERT_TRUE(gst_structure_get_int(regions[r], "y-min", &v));
      EXPECT_EQ(v, want.y_min);
      ASSERT_TRUE(gst_structure_get_int(regions[r], "y-high", &v));
      EXPECT_EQ(v, want.y_high);
      ASSERT_TRUE(gst_structure_get_int(regions[r], "sat-max", &v));
      EXPECT_EQ(v, want.sat_max);
      ASSERT_TRUE(gst_structure_get_int(regions[r], "hue-med", &v));
      EXPECT_EQ(v, want.hue_med);
      ASSERT_TRUE(gst_structure_get_double(regions[r], "y-avg", &d));
      EXPECT_EQ(d, want.y_avg);
      ASSERT_TRUE(gst_structure_get_double(regions[r], "brng", &d));
      EXPECT_EQ(d, want.brng);
      ExpectRegionCounts(regions[r], info, frame, 256, boxes[r]);
    }
    gst_message_unref(m);
    gst_buffer_unref(frame);
  }
}

// The GPU path of the same counts: upload=true copies each frame into CUDA
// memory and the element counts its regions there (scripts/gpuhost/analytics.sh).
TEST(RegionsOnCudaFrames, EachRegionAndItsFiguresEqualReference) {
  SKIP_WITHOUT_CUDA();
  cudahist_test::SeededRng rng;
  const FrameRoi boxes[] = {{0, 0, 65, 33}, {64, 32, 1, 1}, {3, 1, 40, 20}, {20, 10, 45, 23}};
  const std::string regions = "whole:0,0,65,33;corner:64,32,1,1;a:3,1,40,20;b:20,10,80,80";
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_P010_10LE,
                                GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_YUY2}) {
    for (bool signalstats : {false, true}) {
      const GstVideoInfo info = VideoInfo(format, 65, 33);
      SCOPED_TRACE(CapsString(info) + (signalstats ? " signalstats" : ""));
      Harness hx("upload=true regions=\"" + regions + "\"" + (signalstats ? " signalstats=true" : ""));
      hx.SetCaps(info);
      GstBuffer* frame = RandomFrame(info, rng);
      GstMessage* m = PushForMessage(&hx, frame, 0);
      ASSERT_NE(m, nullptr);
      const auto found = MessageStructures(gst_message_get_structure(m), "regions");
      ASSERT_EQ(found.size(), 4u);
      for (size_t r = 0; r < found.size(); ++r) {
        ExpectRegionCounts(found[r], info, frame, 256, boxes[r]);
        gdouble y_avg = 0;
        const bool has_figures = gst_structure_get_double(found[r], "y-avg", &y_avg);
        const bool yuv = format != GST_VIDEO_FORMAT_RGBA;
        EXPECT_EQ(has_figures, signalstats && yuv);
        if (has_figures) {
          EXPECT_EQ(y_avg, ExpectedSignalStats(info, frame, nullptr, boxes[r]).y_avg);
        }
      }
      gst_message_unref(m);
      gst_buffer_unref(frame);
    }
  }
}

#if !CUDAHISTOGRAM_HAVE_ANALYTICS
TEST(Regions, ObjectsNeedTheAnalyticsLibraryOfGStreamer124) {
  const std::string text = RefusedWith("objects=detections", VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 48));
  EXPECT_NE(text.find("objects=detections needs GStreamer 1.24 or later (its analytics library, "
                      "gstreamer-analytics-1.0): this cudahistogram was built against GStreamer 1.22"),
            std::string::npos)
      << text;
}
#endif

#if !CUDAHISTOGRAM_HAVE_TENSOR_META
TEST(Regions, TheRegionTensorNeedsGStreamer126) {
  const std::string text = RefusedWith("regions=\"a:0,0,4,4\" region-tensor=true", VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 48));
  EXPECT_NE(text.find("region-tensor=true needs GStreamer 1.26 or later (GstTensorMeta)"), std::string::npos) << text;
}
#endif

#if CUDAHISTOGRAM_HAVE_ANALYTICS
// --- objects=detections (GStreamer 1.24+) --------------------------------------------

// Every message on `bus` so far: the "cudahistogram" ones into
// `histograms` (the caller's to unref), the warnings' texts into `warnings`.
void PopMessages(GstBus* bus, std::vector<GstMessage*>* histograms, std::vector<std::string>* warnings) {
  while (GstMessage* m = gst_bus_pop(bus)) {
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_WARNING) {
      GError* e = nullptr;
      gst_message_parse_warning(m, &e, nullptr);
      warnings->push_back(e->message);
      g_error_free(e);
    } else if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ELEMENT && gst_message_has_name(m, "cudahistogram")) {
      histograms->push_back(gst_message_ref(m));
    }
    gst_message_unref(m);
  }
}

// The warnings posted on `bus` so far.
std::vector<std::string> PopWarnings(GstBus* bus) {
  std::vector<std::string> texts;
  while (GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING)) {
    GError* e = nullptr;
    gst_message_parse_warning(m, &e, nullptr);
    texts.push_back(e->message);
    g_error_free(e);
    gst_message_unref(m);
  }
  return texts;
}

struct Detection {
  const char* label;
  gint x, y, w, h;
  gfloat confidence;
};

// `frame` made writable with a relation meta holding `detections`; their ids in *ids.
GstBuffer* WithDetections(GstBuffer* frame, const std::vector<Detection>& detections, std::vector<guint>* ids = nullptr) {
  GstBuffer* b = gst_buffer_copy(frame);
  GstAnalyticsRelationMeta* rmeta = gst_buffer_add_analytics_relation_meta(b);
  for (const Detection& d : detections) {
    GstAnalyticsODMtd od;
    EXPECT_TRUE(gst_analytics_relation_meta_add_od_mtd(rmeta, d.label ? g_quark_from_string(d.label) : 0, d.x, d.y,
                                                       d.w, d.h, d.confidence, &od));
    if (ids) ids->push_back(od.id);
  }
  return b;
}

// The region Mtd of detection `od_id` (related both ways), or fails.
bool RegionOf(GstAnalyticsRelationMeta* rmeta, guint od_id, GstCudaRegionMtd* region) {
  gpointer state = nullptr;
  if (!gst_analytics_relation_meta_get_direct_related(rmeta, od_id, GST_ANALYTICS_REL_TYPE_CONTAIN,
                                                      gst_cuda_region_mtd_get_mtd_type(), &state, region)) {
    return false;
  }
  return gst_analytics_relation_meta_get_relation(rmeta, region->id, od_id) == GST_ANALYTICS_REL_TYPE_IS_PART_OF;
}

std::vector<uint32_t> RegionCounts(const GstCudaRegionMtd* region) {
  std::vector<uint32_t> all;
  for (guint c = 0; c < gst_cuda_region_mtd_get_n_components(region); ++c) {
    guint n = 0;
    const guint32* counts = gst_cuda_region_mtd_get_counts(region, c, &n);
    all.insert(all.end(), counts, counts + n);
  }
  return all;
}

FrameRoi BoxOf(const GstCudaRegionMtd* region) {
  gint x, y, w, h;
  gst_cuda_region_mtd_get_box(region, &x, &y, &w, &h);
  return FrameRoi{guint(x), guint(y), guint(w), guint(h)};
}

bool SameBox(const FrameRoi& a, const FrameRoi& b) {
  return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}

TEST(Objects, EveryDetectionGetsItsBoxsCountsRelatedToIt) {
  cudahist_test::SeededRng rng;
  const std::vector<Detection> detections = {
      {"person", 3, 2, 20, 30, 0.9f},  {"car", 10, 12, 30, 20, 0.8f},  {"person", 63, 47, 1, 1, 0.7f},
      {"bus", 0, 0, 64, 48, 0.6f},     {"bike", 50, 40, 30, 30, 0.5f}, {nullptr, -5, -5, 10, 10, 0.4f},
  };
  const FrameRoi clipped[] = {{3, 2, 20, 30}, {10, 12, 30, 20}, {63, 47, 1, 1},
                              {0, 0, 64, 48}, {50, 40, 14, 8},  {0, 0, 5, 5}};
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_I420}) {
    const GstVideoInfo info = VideoInfo(format, 64, 48);
    SCOPED_TRACE(CapsString(info));
    Harness hx("objects=detections regions=\"logo:40,0,24,10\"");
    hx.SetCaps(info);
    GstBuffer* frame = RandomFrame(info, rng);
    std::vector<guint> ids;
    GstBuffer* in = WithDetections(frame, detections, &ids);
    ASSERT_EQ(gst_harness_push(hx.h(), in), GST_FLOW_OK) << PopErrorText(hx.bus());
    GstBuffer* out = gst_harness_pull(hx.h());
    GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(out);
    ASSERT_NE(rmeta, nullptr);
    const std::vector<guint> components = AllComponentsFor(info, 256);
    for (size_t i = 0; i < detections.size(); ++i) {
      SCOPED_TRACE("detection " + std::to_string(i));
      GstCudaRegionMtd region;
      ASSERT_TRUE(RegionOf(rmeta, ids[i], &region));
      EXPECT_EQ(gst_cuda_region_mtd_get_kind(&region), GST_CUDA_REGION_KIND_OBJECT);
      EXPECT_EQ(std::string(gst_cuda_region_mtd_get_name(&region) ? gst_cuda_region_mtd_get_name(&region) : ""),
                std::string(detections[i].label ? detections[i].label : ""));
      EXPECT_TRUE(SameBox(BoxOf(&region), clipped[i]));
      gfloat confidence = 0;
      EXPECT_TRUE(gst_cuda_region_mtd_get_confidence(&region, &confidence));
      EXPECT_EQ(confidence, detections[i].confidence);
      guint64 track = 0;
      EXPECT_FALSE(gst_cuda_region_mtd_get_track_id(&region, &track));
      EXPECT_EQ(RegionCounts(&region), ExpectedCounts(info, frame, 256, components, clipped[i]).counts);
    }
    // The frame's Mtd holds the GstCudaHistogramMeta's counts; the fixed region its own.
    guint frames = 0, fixed = 0;
    gpointer state = nullptr;
    GstCudaRegionMtd region;
    while (gst_analytics_relation_meta_iterate(rmeta, &state, gst_cuda_region_mtd_get_mtd_type(), &region)) {
      if (gst_cuda_region_mtd_get_kind(&region) == GST_CUDA_REGION_KIND_FRAME) {
        ++frames;
        EXPECT_EQ(RegionCounts(&region), MetaCounts(gst_buffer_get_cuda_histogram_meta(out)));
      } else if (gst_cuda_region_mtd_get_kind(&region) == GST_CUDA_REGION_KIND_FIXED) {
        ++fixed;
        EXPECT_STREQ(gst_cuda_region_mtd_get_name(&region), "logo");
        EXPECT_EQ(RegionCounts(&region), ExpectedCounts(info, frame, 256, components, FrameRoi{40, 0, 24, 10}).counts);
      }
    }
    EXPECT_EQ(frames, 1u);
    EXPECT_EQ(fixed, 1u);
    // The message lists them too.
    GstMessage* m = PopHistogramMessage(hx.bus());
    ASSERT_NE(m, nullptr);
    const auto objects = MessageStructures(gst_message_get_structure(m), "objects");
    ASSERT_EQ(objects.size(), detections.size());
    for (size_t i = 0; i < objects.size(); ++i) {
      EXPECT_EQ(NameOf(objects[i], "label"), std::string(detections[i].label ? detections[i].label : ""));
      gdouble confidence = 0;
      ASSERT_TRUE(gst_structure_get_double(objects[i], "confidence", &confidence));
      EXPECT_EQ(confidence, double(detections[i].confidence));
      EXPECT_FALSE(gst_structure_has_field(objects[i], "track-id"));
      ExpectRegionCounts(objects[i], info, frame, 256, clipped[i]);
    }
    gst_message_unref(m);
    gst_buffer_unref(out);
    gst_buffer_unref(frame);
  }
}

TEST(Objects, ATrackedDetectionCarriesItsTrackId) {
  cudahist_test::SeededRng rng;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 48);
  Harness hx("objects=detections");
  hx.SetCaps(info);
  GstBuffer* frame = RandomFrame(info, rng);
  std::vector<guint> ids;
  GstBuffer* in = WithDetections(frame, {{"person", 1, 1, 10, 10, 0.9f}, {"car", 20, 20, 10, 10, 0.9f}}, &ids);
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(in);
  GstAnalyticsTrackingMtd track;
  ASSERT_TRUE(gst_analytics_relation_meta_add_tracking_mtd(rmeta, 4242, 0, &track));
  // Related from the detection (as GStreamer's ioutracker does), and for the car from the track.
  ASSERT_TRUE(gst_analytics_relation_meta_set_relation(rmeta, GST_ANALYTICS_REL_TYPE_RELATE_TO, ids[0], track.id));
  GstAnalyticsTrackingMtd other;
  ASSERT_TRUE(gst_analytics_relation_meta_add_tracking_mtd(rmeta, 77, 0, &other));
  ASSERT_TRUE(gst_analytics_relation_meta_set_relation(rmeta, GST_ANALYTICS_REL_TYPE_RELATE_TO, other.id, ids[1]));
  ASSERT_EQ(gst_harness_push(hx.h(), in), GST_FLOW_OK);
  GstBuffer* out = gst_harness_pull(hx.h());
  rmeta = gst_buffer_get_analytics_relation_meta(out);
  const guint64 want[] = {4242, 77};
  for (size_t i = 0; i < 2; ++i) {
    GstCudaRegionMtd region;
    ASSERT_TRUE(RegionOf(rmeta, ids[i], &region));
    guint64 track_id = 0;
    EXPECT_TRUE(gst_cuda_region_mtd_get_track_id(&region, &track_id));
    EXPECT_EQ(track_id, want[i]);
  }
  GstMessage* m = PopHistogramMessage(hx.bus());
  ASSERT_NE(m, nullptr);
  const auto objects = MessageStructures(gst_message_get_structure(m), "objects");
  ASSERT_EQ(objects.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    guint64 track_id = 0;
    EXPECT_TRUE(gst_structure_get_uint64(objects[i], "track-id", &track_id));
    EXPECT_EQ(track_id, want[i]);
  }
  gst_message_unref(m);
  gst_buffer_unref(out);
  gst_buffer_unref(frame);
}

TEST(Objects, LabelsAndConfidenceFilterAndAnUnseenLabelIsWarnedAtTheEnd) {
  cudahist_test::SeededRng rng;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 48);
  Harness hx("objects=detections object-labels=\"person, bus\" object-min-confidence=0.5");
  hx.SetCaps(info);
  GstBuffer* frame = RandomFrame(info, rng);
  std::vector<guint> ids;
  GstBuffer* in = WithDetections(
      frame, {{"person", 1, 1, 10, 10, 0.9f}, {"car", 20, 20, 10, 10, 0.9f}, {"person", 5, 5, 5, 5, 0.2f}}, &ids);
  ASSERT_EQ(gst_harness_push(hx.h(), in), GST_FLOW_OK);
  GstBuffer* out = gst_harness_pull(hx.h());
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(out);
  GstCudaRegionMtd region;
  EXPECT_TRUE(RegionOf(rmeta, ids[0], &region));
  EXPECT_FALSE(RegionOf(rmeta, ids[1], &region)) << "car: not in object-labels";
  EXPECT_FALSE(RegionOf(rmeta, ids[2], &region)) << "below object-min-confidence";
  gst_buffer_unref(out);
  EXPECT_TRUE(PopWarnings(hx.bus()).empty());
  gst_harness_push_event(hx.h(), gst_event_new_eos());
  const std::vector<std::string> warnings = PopWarnings(hx.bus());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "object-labels: no detection carried bus (the labels detections carried: person, car)")
      << warnings[0];
  gst_buffer_unref(frame);
}

TEST(Objects, BadDetectionsAreSkippedWithOneWarning) {
  cudahist_test::SeededRng rng;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 48);
  Harness hx("objects=detections");
  hx.SetCaps(info);
  GstBuffer* frame = RandomFrame(info, rng);
  const gfloat nan = std::numeric_limits<gfloat>::quiet_NaN();
  std::vector<guint> ids;
  GstBuffer* in = WithDetections(frame,
                                 {{"outside", 70, 0, 10, 10, 0.9f},
                                  {"left", -20, 0, 10, 10, 0.9f},
                                  {"zero", 5, 5, 0, 10, 0.9f},
                                  {"negative", 5, 5, 10, -3, 0.9f},
                                  {"nan", 5, 5, 10, 10, nan},
                                  {"huge", G_MAXINT - 5, G_MAXINT - 5, G_MAXINT, G_MAXINT, 0.9f},
                                  {"good", 1, 1, 4, 4, 0.9f}},
                                 &ids);
#if GST_CHECK_VERSION(1, 26, 0)
  GstAnalyticsODMtd rotated;
  ASSERT_TRUE(gst_analytics_relation_meta_add_oriented_od_mtd(gst_buffer_get_analytics_relation_meta(in),
                                                              g_quark_from_string("rotated"), 5, 5, 10, 10,
                                                              std::numeric_limits<gfloat>::infinity(), 0.9f, &rotated));
  ids.push_back(rotated.id);
#endif
  ASSERT_EQ(gst_harness_push(hx.h(), in), GST_FLOW_OK) << PopErrorText(hx.bus());
  GstBuffer* out = gst_harness_pull(hx.h());
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(out);
  GstCudaRegionMtd region;
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(RegionOf(rmeta, ids[i], &region), i == 6) << "detection " << i;
  }
  std::vector<std::string> warnings = PopWarnings(hx.bus());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "objects=detections: the detection \"outside\" at 70,0 10x10 is not counted: it lies outside the 64x48 "
            "frame; later detections skipped for the same reasons are not warned about");
  gst_buffer_unref(out);
  // The next frame's bad detections are not warned about again.
  ASSERT_EQ(gst_harness_push(hx.h(), WithDetections(frame, {{"zero", 5, 5, 0, 0, 0.9f}})), GST_FLOW_OK);
  gst_buffer_unref(gst_harness_pull(hx.h()));
  EXPECT_TRUE(PopWarnings(hx.bus()).empty());
  gst_buffer_unref(frame);
}

TEST(Objects, AFrameWithoutARelationMetaHasNoObjectsAndIsWarnedOnce) {
  cudahist_test::SeededRng rng;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 64, 48);
  Harness hx("objects=detections");
  hx.SetCaps(info);
  GstBuffer* frame = RandomFrame(info, rng);
  std::vector<std::string> warnings;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(hx.Push(frame, i * kFrame, kFrame), GST_FLOW_OK);
    gst_buffer_unref(gst_harness_pull(hx.h()));
    std::vector<GstMessage*> histograms;
    PopMessages(hx.bus(), &histograms, &warnings);
    ASSERT_EQ(histograms.size(), 1u);
    EXPECT_TRUE(MessageStructures(gst_message_get_structure(histograms[0]), "objects").empty());
    gst_message_unref(histograms[0]);
  }
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("carries no GstAnalyticsRelationMeta"), std::string::npos) << warnings[0];
  gst_buffer_unref(frame);
}

// A detector that sized its relation meta for them (a default one grows 5
// Mtds at a time: 10,000 detections cost it minutes), and max-objects' default.
TEST(Objects, TenThousandBoxesOnOneFrameCountUpToMaxObjectsWithOneWarning) {
  cudahist_test::SeededRng rng;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 320, 240);
  Harness hx("objects=detections");
  hx.SetCaps(info);
  GstBuffer* frame = RandomFrame(info, rng);
  GstBuffer* in = gst_buffer_copy(frame);
  GstAnalyticsRelationMetaInitParams sized = {10000 + 1000 + 8, 128 * 1024 * 1024};
  GstAnalyticsRelationMeta* rmeta = gst_buffer_add_analytics_relation_meta_full(in, &sized);
  std::vector<Detection> detections;
  std::vector<guint> ids;
  for (int i = 0; i < 10000; ++i) {
    const gint w = 1 + gint(rng() % 40), h = 1 + gint(rng() % 40);
    detections.push_back({"box", gint(rng() % (320 - w + 1)), gint(rng() % (240 - h + 1)), w, h, 0.9f});
    GstAnalyticsODMtd od;
    ASSERT_TRUE(gst_analytics_relation_meta_add_od_mtd(rmeta, g_quark_from_string("box"), detections.back().x,
                                                       detections.back().y, w, h, 0.9f, &od));
    ids.push_back(od.id);
  }
  ASSERT_EQ(gst_harness_push(hx.h(), in), GST_FLOW_OK) << PopErrorText(hx.bus());
  GstBuffer* out = gst_harness_pull(hx.h());
  rmeta = gst_buffer_get_analytics_relation_meta(out);
  for (size_t i = 0; i < ids.size(); ++i) {
    GstCudaRegionMtd region;
    ASSERT_EQ(RegionOf(rmeta, ids[i], &region), i < 1000) << i;
    if (i >= 1000) continue;
    const std::vector<uint32_t> counts = RegionCounts(&region);
    uint64_t y = 0;
    for (size_t b = 0; b < 256; ++b) y += counts[b];
    ASSERT_EQ(y, uint64_t(detections[i].w) * detections[i].h) << i;
    if (i % 100 == 0) {  // every 100th against the reference of its box
      const FrameRoi box{guint(detections[i].x), guint(detections[i].y), guint(detections[i].w), guint(detections[i].h)};
      EXPECT_EQ(counts, ExpectedCounts(info, frame, 256, {0, 1, 2}, box).counts) << i;
    }
  }
  gst_buffer_unref(out);
  std::vector<GstMessage*> histograms;
  std::vector<std::string> warnings;
  PopMessages(hx.bus(), &histograms, &warnings);
  ASSERT_EQ(histograms.size(), 1u);
  EXPECT_EQ(MessageStructures(gst_message_get_structure(histograms[0]), "objects").size(), 1000u);
  gst_message_unref(histograms[0]);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "objects=detections: a frame carries 10000 detections to count, more than max-objects "
                         "(1000): the first 1000 are counted, the other 9000 skipped; said once per stream");
  gst_buffer_unref(frame);
}

TEST(Objects, WithSignalstatsEachObjectHasItsFiguresAndHueHistogram) {
  cudahist_test::SeededRng rng;
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420_10LE}) {
    const GstVideoInfo info = VideoInfo(format, 64, 48);
    SCOPED_TRACE(CapsString(info));
    Harness hx("objects=detections signalstats=true");
    hx.SetCaps(info);
    GstBuffer* frame = RandomFrame(info, rng);
    std::vector<guint> ids;
    const FrameRoi boxes[] = {{3, 5, 21, 13}, {60, 40, 4, 8}};
    ASSERT_EQ(gst_harness_push(hx.h(), WithDetections(frame, {{"a", 3, 5, 21, 13, 0.9f}, {"b", 60, 40, 10, 10, 0.9f}},
                                                      &ids)),
              GST_FLOW_OK);
    GstBuffer* out = gst_harness_pull(hx.h());
    GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(out);
    for (size_t i = 0; i < ids.size(); ++i) {
      GstCudaRegionMtd region;
      ASSERT_TRUE(RegionOf(rmeta, ids[i], &region));
      const GstCudaSignalStats* stats = gst_cuda_region_mtd_get_signalstats(&region);
      ASSERT_NE(stats, nullptr);
      const cudahist::SignalStatsFigures want = ExpectedSignalStats(info, frame, nullptr, boxes[i]);
      EXPECT_EQ(stats->y_min, want.y_min);
      EXPECT_EQ(stats->y_avg, want.y_avg);
      EXPECT_EQ(stats->sat_high, want.sat_high);
      EXPECT_EQ(stats->hue_med, want.hue_med);
      EXPECT_EQ(stats->hue_avg, want.hue_avg);
      EXPECT_EQ(stats->brng, want.brng);
      EXPECT_EQ(stats->y_dif, 0.0);
      guint n = 0;
      const guint32* hue = gst_cuda_region_mtd_get_hue_counts(&region, &n);
      ASSERT_EQ(n, 360u);
      // The histogram's mean is HUEAVG; its samples are the box's chroma samples.
      double sum = 0, samples = 0;
      for (guint h = 0; h < n; ++h) {
        sum += double(h) * hue[h];
        samples += hue[h];
      }
      const guint chroma = ((boxes[i].x + boxes[i].width + 1) / 2 - boxes[i].x / 2) *
                           ((boxes[i].y + boxes[i].height + 1) / 2 - boxes[i].y / 2);
      EXPECT_EQ(samples, double(chroma));
      EXPECT_EQ(sum / samples, want.hue_avg);
    }
    gst_buffer_unref(out);
    gst_buffer_unref(frame);
  }
}

// --- CUDA frames: what scripts/gpuhost/analytics.sh runs on the GPU host ---------------

// What a probe after cudahistogram saw of one object.
struct SeenObject {
  GstClockTime pts;
  guint od_id;
  FrameRoi box;
  std::vector<uint32_t> counts;
};

struct CudaObjectsRun {
  std::vector<Detection> detections;
  std::vector<SeenObject> seen;
  guint frames_without_regions = 0;
};

GstPadProbeReturn AttachDetections(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* run = static_cast<CudaObjectsRun*>(data);
  GstBuffer* b = gst_buffer_make_writable(GST_PAD_PROBE_INFO_BUFFER(info));
  GstAnalyticsRelationMeta* rmeta = gst_buffer_add_analytics_relation_meta(b);
  for (const Detection& d : run->detections) {
    GstAnalyticsODMtd od;
    gst_analytics_relation_meta_add_od_mtd(rmeta, g_quark_from_string(d.label), d.x, d.y, d.w, d.h, d.confidence, &od);
  }
  GST_PAD_PROBE_INFO_DATA(info) = b;
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn ReadRegions(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* run = static_cast<CudaObjectsRun*>(data);
  GstBuffer* b = GST_PAD_PROBE_INFO_BUFFER(info);
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(b);
  GstAnalyticsMtd od;
  gpointer state = nullptr;
  guint found = 0;
  while (rmeta && gst_analytics_relation_meta_iterate(rmeta, &state, gst_analytics_od_mtd_get_mtd_type(), &od)) {
    GstCudaRegionMtd region;
    if (!RegionOf(rmeta, od.id, &region)) continue;
    run->seen.push_back(SeenObject{GST_BUFFER_PTS(b), od.id, BoxOf(&region), RegionCounts(&region)});
    ++found;
  }
  if (found == 0) ++run->frames_without_regions;
  return GST_PAD_PROBE_OK;
}

// The Y sample at (x, y) of an NV12 frame in system memory laid out as `info`.
guint8 LumaAt(const GstVideoInfo& info, GstBuffer* frame, guint x, guint y) {
  GstMapInfo map;
  gst_buffer_map(frame, &map, GST_MAP_READ);
  const guint8 v = map.data[GST_VIDEO_INFO_PLANE_OFFSET(&info, 0) + gsize(y) * GST_VIDEO_INFO_PLANE_STRIDE(&info, 0) + x];
  gst_buffer_unmap(frame, &map);
  return v;
}

// Frames in CUDA memory (cudaupload) carrying detections: each object's
// counts equal the reference of its clipped box, and objectdetectionoverlay
// after the element (where the runtime has it) still draws every box: the
// detections went through.
TEST(ObjectsOnCudaFrames, EachObjectEqualsReferenceAndTheOverlayStillDraws) {
  SKIP_WITHOUT_CUDA();
  cudahist_test::SeededRng rng;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 320, 240);
  GstElementFactory* overlay_factory = gst_element_factory_find("objectdetectionoverlay");
  const bool overlay = overlay_factory != nullptr;
  if (overlay_factory) gst_object_unref(overlay_factory);
  GstElement* pipeline =
      Launch("appsrc name=src format=time caps=\"" + CapsString(info) + "\" ! cudaupload name=up ! "
             "cudahistogram name=h objects=detections ! cudadownload ! " +
             std::string(overlay ? "objectdetectionoverlay draw-labels=false ! " : "") +
             "appsink name=sink emit-signals=true sync=false");
  CudaObjectsRun run;
  run.detections = {{"person", 10, 20, 100, 80, 0.9f}, {"car", 60, 50, 120, 90, 0.8f}, {"dog", 300, 200, 40, 60, 0.7f},
                    {"cat", 0, 0, 320, 240, 0.6f},    {"dot", 159, 119, 1, 1, 0.5f}};
  const FrameRoi clipped[] = {{10, 20, 100, 80}, {60, 50, 120, 90}, {300, 200, 20, 40}, {0, 0, 320, 240}, {159, 119, 1, 1}};
  GstElement* up = gst_bin_get_by_name(GST_BIN(pipeline), "up");
  GstElement* h = gst_bin_get_by_name(GST_BIN(pipeline), "h");
  GstPad* up_src = gst_element_get_static_pad(up, "src");
  GstPad* h_src = gst_element_get_static_pad(h, "src");
  gst_pad_add_probe(up_src, GST_PAD_PROBE_TYPE_BUFFER, AttachDetections, &run, nullptr);
  gst_pad_add_probe(h_src, GST_PAD_PROBE_TYPE_BUFFER, ReadRegions, &run, nullptr);
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  std::vector<GstBuffer*> frames;
  for (int i = 0; i < 3; ++i) {
    frames.push_back(RandomFrame(info, rng));
    GstBuffer* b = gst_buffer_copy(frames.back());
    GST_BUFFER_PTS(b) = i * kFrame;
    GST_BUFFER_DURATION(b) = kFrame;
    GstFlowReturn ret;
    g_signal_emit_by_name(src, "push-buffer", b, &ret);
    gst_buffer_unref(b);
  }
  GstFlowReturn ret;
  g_signal_emit_by_name(src, "end-of-stream", &ret);
  std::vector<GstSample*> samples;
  std::vector<GstMessage*> messages;
  const std::string error = RunToSink(pipeline, &samples, &messages);
  ASSERT_EQ(error, "");
  EXPECT_EQ(run.frames_without_regions, 0u);
  ASSERT_EQ(run.seen.size(), 3 * run.detections.size());
  for (size_t i = 0; i < run.seen.size(); ++i) {
    const SeenObject& o = run.seen[i];
    const size_t frame = size_t(o.pts / kFrame), d = i % run.detections.size();
    SCOPED_TRACE("frame " + std::to_string(frame) + " detection " + std::to_string(d));
    EXPECT_TRUE(SameBox(o.box, clipped[d]));
    EXPECT_EQ(o.counts, ExpectedCounts(info, frames[frame], 256, {0, 1, 2}, clipped[d]).counts);
  }
  ASSERT_EQ(samples.size(), frames.size());
  if (!overlay) {
    std::printf("objectdetectionoverlay: not in this runtime, the drawing not checked\n");
  }
  for (size_t f = 0; overlay && f < samples.size(); ++f) {
    GstBuffer* drawn = gst_sample_get_buffer(samples[f]);
    for (size_t d = 0; d + 1 < run.detections.size(); ++d) {  // the 1x1 box has no outline to see
      bool changed = false;
      for (guint x = clipped[d].x; x < clipped[d].x + clipped[d].width; ++x) {
        changed = changed || LumaAt(info, drawn, x, clipped[d].y) != LumaAt(info, frames[f], x, clipped[d].y);
      }
      EXPECT_TRUE(changed) << "frame " << f << ": no outline along the top of box " << d;
    }
  }
  for (GstSample* sample : samples) gst_sample_unref(sample);
  for (GstMessage* m : messages) gst_message_unref(m);
  for (GstBuffer* b : frames) gst_buffer_unref(b);
  gst_object_unref(up_src);
  gst_object_unref(h_src);
  gst_object_unref(src);
  gst_object_unref(up);
  gst_object_unref(h);
  gst_object_unref(pipeline);
}

#if CUDAHISTOGRAM_HAVE_TENSOR_META
TEST(Objects, TheRegionTensorHoldsEveryRegionsCountsInItsMtdsRow) {
  cudahist_test::SeededRng rng;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_I420, 64, 48);
  Harness hx("objects=detections regions=\"a:0,0,8,8\" region-tensor=true bins=16");
  hx.SetCaps(info);
  GstBuffer* frame = RandomFrame(info, rng);
  ASSERT_EQ(gst_harness_push(hx.h(), WithDetections(frame, {{"x", 1, 2, 30, 20, 0.9f}, {"y", 40, 30, 24, 18, 0.8f}})),
            GST_FLOW_OK);
  GstBuffer* out = gst_harness_pull(hx.h());
  GstTensorMeta* tmeta = nullptr;
  gpointer state = nullptr;
  while (GstMeta* meta = gst_buffer_iterate_meta_filtered(out, &state, GST_TENSOR_META_API_TYPE)) {
    if (gst_tensor_meta_get_index_from_id(reinterpret_cast<GstTensorMeta*>(meta),
                                          g_quark_from_string(GST_CUDA_REGION_TENSOR_ID)) >= 0) {
      tmeta = reinterpret_cast<GstTensorMeta*>(meta);
    }
  }
  ASSERT_NE(tmeta, nullptr);
  const GstTensor* tensor =
      gst_tensor_meta_get(tmeta, gst_tensor_meta_get_index_from_id(tmeta, g_quark_from_string(GST_CUDA_REGION_TENSOR_ID)));
  EXPECT_EQ(tensor->data_type, GST_TENSOR_DATA_TYPE_UINT32);
  ASSERT_EQ(tensor->num_dims, 3u);
  EXPECT_EQ(tensor->dims[0], 3u);
  EXPECT_EQ(tensor->dims[1], 3u);
  EXPECT_EQ(tensor->dims[2], 16u);
  GstMapInfo map;
  ASSERT_TRUE(gst_buffer_map(tensor->data, &map, GST_MAP_READ));
  const guint32* rows = reinterpret_cast<const guint32*>(map.data);
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(out);
  GstCudaRegionMtd region;
  state = nullptr;
  guint seen = 0;
  while (gst_analytics_relation_meta_iterate(rmeta, &state, gst_cuda_region_mtd_get_mtd_type(), &region)) {
    const gint row = gst_cuda_region_mtd_get_tensor_row(&region);
    if (gst_cuda_region_mtd_get_kind(&region) == GST_CUDA_REGION_KIND_FRAME) {
      EXPECT_EQ(row, -1) << "the frame is not in the regions' tensor";
      continue;
    }
    ASSERT_GE(row, 0);
    const std::vector<uint32_t> counts = RegionCounts(&region);
    EXPECT_EQ(std::vector<uint32_t>(rows + row * 48, rows + row * 48 + 48), counts) << "row " << row;
    ++seen;
  }
  EXPECT_EQ(seen, 3u);
  gst_buffer_unmap(tensor->data, &map);
  gst_buffer_unref(out);
  gst_buffer_unref(frame);
}
#endif  // CUDAHISTOGRAM_HAVE_TENSOR_META
#endif  // CUDAHISTOGRAM_HAVE_ANALYTICS

}  // namespace
