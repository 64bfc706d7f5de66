// The element's signalstats=true through GstHarness (system memory, the CPU
// path: runs anywhere) and through cudaupload (CUDA memory, the GPU path:
// skips without a CUDA device). The expected figures are
// cudahist::ReferenceSignalStats of the samples GStreamer's own unpack
// function gives (element_test_util.h), never the element's plane views.
#include <cuda_runtime_api.h>
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "cudahist/signalstats.h"
#include "element_test_util.h"
#include "gstcudahistogrammeta.h"
#include "seeded_rng.h"
#include "test_planes.h"

using namespace element_test;

namespace {

using Figures = cudahist::SignalStatsFigures;

// The message's signalstats fields under the names the issue gives, with
// their types: gst_structure_get_int/_double fail on any other type.
void ExpectMessageFigures(const GstStructure* s, const Figures& f) {
  const struct {
    const char* name;
    int value;
  } ints[] = {
      {"y-min", f.y_min},     {"y-low", f.y_low},       {"y-high", f.y_high},   {"y-max", f.y_max},
      {"u-min", f.u_min},     {"u-low", f.u_low},       {"u-high", f.u_high},   {"u-max", f.u_max},
      {"v-min", f.v_min},     {"v-low", f.v_low},       {"v-high", f.v_high},   {"v-max", f.v_max},
      {"sat-min", f.sat_min}, {"sat-low", f.sat_low},   {"sat-high", f.sat_high},
      {"sat-max", f.sat_max}, {"hue-med", f.hue_med},
  };
  for (const auto& i : ints) {
    gint got = 0;
    ASSERT_TRUE(gst_structure_get_int(s, i.name, &got)) << i.name << " missing or not G_TYPE_INT";
    EXPECT_EQ(got, i.value) << i.name;
  }
  const struct {
    const char* name;
    double value;
  } doubles[] = {
      {"y-avg", f.y_avg},     {"u-avg", f.u_avg}, {"v-avg", f.v_avg}, {"sat-avg", f.sat_avg},
      {"hue-avg", f.hue_avg}, {"y-dif", f.y_dif}, {"u-dif", f.u_dif}, {"v-dif", f.v_dif},
      {"brng", f.brng},
  };
  for (const auto& d : doubles) {
    gdouble got = 0;
    ASSERT_TRUE(gst_structure_get_double(s, d.name, &got)) << d.name << " missing or not G_TYPE_DOUBLE";
    EXPECT_EQ(got, d.value) << d.name;
  }
}

const char* const kFieldNames[] = {
    "y-min",   "y-low",   "y-avg",   "y-high",   "y-max",   "u-min",   "u-low",   "u-avg",
    "u-high",  "u-max",   "v-min",   "v-low",    "v-avg",   "v-high",  "v-max",   "sat-min",
    "sat-low", "sat-avg", "sat-high", "sat-max", "hue-med", "hue-avg", "y-dif",   "u-dif",
    "v-dif",   "brng"};

bool HasAnySignalStatsField(const GstStructure* s) {
  for (const char* name : kFieldNames) {
    if (gst_structure_has_field(s, name)) return true;
  }
  return false;
}

void ExpectMetaFigures(const GstCudaSignalStats* m, const Figures& f) {
  ASSERT_NE(m, nullptr) << "the meta has no signalstats figures";
  EXPECT_EQ(m->y_min, f.y_min);
  EXPECT_EQ(m->y_low, f.y_low);
  EXPECT_EQ(m->y_avg, f.y_avg);
  EXPECT_EQ(m->y_high, f.y_high);
  EXPECT_EQ(m->y_max, f.y_max);
  EXPECT_EQ(m->u_min, f.u_min);
  EXPECT_EQ(m->u_low, f.u_low);
  EXPECT_EQ(m->u_avg, f.u_avg);
  EXPECT_EQ(m->u_high, f.u_high);
  EXPECT_EQ(m->u_max, f.u_max);
  EXPECT_EQ(m->v_min, f.v_min);
  EXPECT_EQ(m->v_low, f.v_low);
  EXPECT_EQ(m->v_avg, f.v_avg);
  EXPECT_EQ(m->v_high, f.v_high);
  EXPECT_EQ(m->v_max, f.v_max);
  EXPECT_EQ(m->sat_min, f.sat_min);
  EXPECT_EQ(m->sat_low, f.sat_low);
  EXPECT_EQ(m->sat_avg, f.sat_avg);
  EXPECT_EQ(m->sat_high, f.sat_high);
  EXPECT_EQ(m->sat_max, f.sat_max);
  EXPECT_EQ(m->hue_med, f.hue_med);
  EXPECT_EQ(m->hue_avg, f.hue_avg);
  EXPECT_EQ(m->y_dif, f.y_dif);
  EXPECT_EQ(m->u_dif, f.u_dif);
  EXPECT_EQ(m->v_dif, f.v_dif);
  EXPECT_EQ(m->brng, f.brng);
}

// What one frame pushed into a harness gave: the meta's counts and figures
// (copied out of the pulled buffer) and the message, when there was one.
struct FrameResult {
  bool has_meta = false;
  std::vector<uint32_t> counts;
  bool meta_has_figures = false;
  GstCudaSignalStats meta_figures{};
  GstMessage* message = nullptr;
  std::vector<std::string> warnings;

  FrameResult() = default;
  FrameResult(const FrameResult&) = delete;
  FrameResult& operator=(const FrameResult&) = delete;
  ~FrameResult() {
    if (message) gst_message_unref(message);
  }
};

void PushAndPull(Harness* hx, GstBuffer* frame, GstClockTime pts, FrameResult* r) {
  ASSERT_EQ(hx->Push(frame, pts, kFrame), GST_FLOW_OK) << PopErrorText(hx->bus());
  GstBuffer* out = gst_harness_pull(hx->h());
  ASSERT_NE(out, nullptr);
  if (const GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(out)) {
    r->has_meta = true;
    r->counts = MetaCounts(meta);
    if (const GstCudaSignalStats* f = gst_cuda_histogram_meta_get_signalstats(meta)) {
      r->meta_has_figures = true;
      r->meta_figures = *f;
    }
  }
  gst_buffer_unref(out);
  // Every message in order: PopHistogramMessage would drop the warnings.
  while (GstMessage* m = gst_bus_pop(hx->bus())) {
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_WARNING) {
      GError* e = nullptr;
      gst_message_parse_warning(m, &e, nullptr);
      r->warnings.push_back(e->message);
      g_error_free(e);
    } else if (r->message == nullptr && gst_message_has_name(m, "cudahistogram")) {
      r->message = gst_message_ref(m);
    }
    gst_message_unref(m);
  }
}

// Pushes `frames` through `hx` one after the other and checks each frame's
// message and meta figures against the reference with the frame before it
// (none for the first), and its histograms against the histogram oracle.
void CheckFramesInARow(Harness* hx, const GstVideoInfo& info, const std::vector<GstBuffer*>& frames,
                       guint bins, const std::vector<guint>& components, const FrameRoi& roi) {
  for (size_t i = 0; i < frames.size(); ++i) {
    SCOPED_TRACE("frame " + std::to_string(i));
    const Figures want = ExpectedSignalStats(info, frames[i], i ? frames[i - 1] : nullptr, roi);
    FrameResult r;
    PushAndPull(hx, frames[i], i * kFrame, &r);
    ASSERT_NE(r.message, nullptr);
    ExpectMessageFigures(gst_message_get_structure(r.message), want);
    ASSERT_TRUE(r.has_meta);
    ASSERT_TRUE(r.meta_has_figures);
    ExpectMetaFigures(&r.meta_figures, want);
    EXPECT_EQ(r.counts, ExpectedCounts(info, frames[i], bins, components, roi).counts);
  }
}

std::vector<GstBuffer*> RandomFrames(const GstVideoInfo& info, int n, std::mt19937_64& rng) {
  std::vector<GstBuffer*> frames;
  for (int i = 0; i < n; ++i) frames.push_back(RandomFrame(info, rng));
  return frames;
}

void UnrefAll(const std::vector<GstBuffer*>& frames) {
  for (GstBuffer* b : frames) gst_buffer_unref(b);
}

// A harness with `properties` and caps `info`, a seeded generator, and `n`
// random frames of `info` to push through it; the frames go with it.
struct SeededHarness {
  SeededHarness(const std::string& properties, const GstVideoInfo& video_info, int n = 0)
      : info(video_info), hx(properties) {
    hx.SetCaps(info);
    f = RandomFrames(info, n, rng);
  }
  ~SeededHarness() { UnrefAll(f); }
  cudahist_test::SeededRng rng;
  const GstVideoInfo info;
  Harness hx;
  std::vector<GstBuffer*> f;
};

// --- every YUV format signalstats reads, odd sizes ------------------------------------

class SignalStatsFormats : public ::testing::TestWithParam<std::tuple<GstVideoFormat, SizeCase>> {};

TEST_P(SignalStatsFormats, FiguresDifAndHistogramsEqualTheReference) {
  const GstVideoFormat format = std::get<0>(GetParam());
  const SizeCase size = std::get<1>(GetParam());
  SeededHarness t("signalstats=true", VideoInfo(format, size.width, size.height), 3);
  CheckFramesInARow(&t.hx, t.info, t.f, 256, {0, 1, 2}, FrameRoi());
}

INSTANTIATE_TEST_SUITE_P(
    SystemMemory, SignalStatsFormats,
    ::testing::Combine(::testing::Values(GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV21,
                                         GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12,
                                         GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444,
                                         GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY,
                                         GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I420_10LE,
                                         GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_Y444_10LE),
                       ::testing::Values(SizeCase{33, 17}, SizeCase{1, 1}, SizeCase{5, 3})),
    FormatAndSizeName);

TEST(SignalStats, RoiWithOddEdges) {
  const FrameRoi roi{3, 1, 6, 4};
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_YUY2,
                                GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_Y444}) {
    SCOPED_TRACE(gst_video_format_to_string(format));
    SeededHarness t("signalstats=true roi-x=3 roi-y=1 roi-width=6 roi-height=4",
                    VideoInfo(format, 33, 17), 2);
    CheckFramesInARow(&t.hx, t.info, t.f, 256, {0, 1, 2}, roi);
  }
}

// The same frames through the histogram path and through signalstats'
// rebinned full-depth counts: the same histograms, bins, components and ROI
// taken from the settings.
TEST(SignalStats, HistogramsEqualThoseWithSignalStatsOff) {
  const struct {
    GstVideoFormat format;
    const char* properties;
  } cases[] = {
      {GST_VIDEO_FORMAT_NV12, "bins=16 components=U,V"},
      {GST_VIDEO_FORMAT_P010_10LE, "bins=1024"},
      {GST_VIDEO_FORMAT_P010_10LE, "bins=3 components=Y roi-x=2 roi-y=3"},
      {GST_VIDEO_FORMAT_YUY2, "bins=256 roi-x=1 roi-width=4"},
      {GST_VIDEO_FORMAT_I422_10LE, "bins=7 components=V,Y"},
  };
  cudahist_test::SeededRng rng;
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(gst_video_format_to_string(c.format)) + " " + c.properties);
    const GstVideoInfo info = VideoInfo(c.format, 33, 17);
    Harness off(c.properties);
    Harness on(std::string("signalstats=true ") + c.properties);
    off.SetCaps(info);
    on.SetCaps(info);
    for (int i = 0; i < 2; ++i) {
      GstBuffer* frame = RandomFrame(info, rng);
      FrameResult a, b;
      PushAndPull(&off, frame, i * kFrame, &a);
      PushAndPull(&on, frame, i * kFrame, &b);
      gst_buffer_unref(frame);
      ASSERT_TRUE(a.has_meta && b.has_meta);
      EXPECT_FALSE(a.meta_has_figures);
      EXPECT_TRUE(b.meta_has_figures);
      EXPECT_EQ(b.counts, a.counts);
      ASSERT_TRUE(a.message && b.message);
      EXPECT_EQ(MessageHistograms(gst_message_get_structure(b.message)),
                MessageHistograms(gst_message_get_structure(a.message)));
      EXPECT_FALSE(HasAnySignalStatsField(gst_message_get_structure(a.message)));
    }
  }
}

// --- DIF: the previous pushed frame, and its restarts -----------------------------------

// The DIF of `frame` pushed now: the reference says what DIF against
// `previous` (or none) is; the two must differ for the check to mean anything.
void ExpectDifAgainst(Harness* hx, const GstVideoInfo& info, GstBuffer* frame, GstBuffer* previous,
                      GstBuffer* other, GstClockTime pts) {
  const Figures want = ExpectedSignalStats(info, frame, previous, FrameRoi());
  const Figures not_this = ExpectedSignalStats(info, frame, other, FrameRoi());
  ASSERT_NE(want.y_dif, not_this.y_dif) << "the frames do not tell the cases apart";
  FrameResult r;
  PushAndPull(hx, frame, pts, &r);
  ASSERT_NE(r.message, nullptr);
  ExpectMessageFigures(gst_message_get_structure(r.message), want);
  ExpectMetaFigures(&r.meta_figures, want);
}

// Three random frames whose luma DIFs against each other all differ: random
// frames of this size tie now and then, and a tie would let DIF against the
// wrong frame pass.
void DrawFramesWithDistinctDifs(SeededHarness* t) {
  auto dif = [t](int a, int b) { return ExpectedSignalStats(t->info, t->f[a], t->f[b], FrameRoi()).y_dif; };
  while (dif(1, 0) == dif(1, 2) || dif(2, 1) == dif(2, 0)) {
    UnrefAll(t->f);
    t->f = RandomFrames(t->info, 3, t->rng);
  }
}

TEST(SignalStats, FirstFrameDifIsZeroThenAgainstThePreviousPushedFrame) {
  SeededHarness t("signalstats=true", VideoInfo(GST_VIDEO_FORMAT_I420, 33, 17), 3);
  DrawFramesWithDistinctDifs(&t);
  FrameResult first;
  PushAndPull(&t.hx, t.f[0], 0, &first);
  ASSERT_NE(first.message, nullptr);
  const GstStructure* s = gst_message_get_structure(first.message);
  for (const char* dif : {"y-dif", "u-dif", "v-dif"}) {
    gdouble v = -1;
    ASSERT_TRUE(gst_structure_get_double(s, dif, &v)) << dif;
    EXPECT_EQ(v, 0.0) << dif;
  }
  ASSERT_NO_FATAL_FAILURE(ExpectDifAgainst(&t.hx, t.info, t.f[1], t.f[0], t.f[2], kFrame));
  ASSERT_NO_FATAL_FAILURE(ExpectDifAgainst(&t.hx, t.info, t.f[2], t.f[1], t.f[0], 2 * kFrame));
  // The same frame again: nothing changed.
  FrameResult again;
  PushAndPull(&t.hx, t.f[2], 3 * kFrame, &again);
  ASSERT_NE(again.message, nullptr);
  EXPECT_EQ(again.meta_figures.y_dif, 0.0);
  EXPECT_EQ(again.meta_figures.u_dif, 0.0);
  EXPECT_EQ(again.meta_figures.v_dif, 0.0);
}

// A producer that still references the frames it pushes (gst-libav's
// decoders do) hands on buffers that are not writable: the meta needs a
// writable copy sharing the frame's memory. Held as the previous frame, that
// copy would make the producer's pool throw each frame away when it comes
// back (its memory shared) and allocate a new one. The element holds the
// frame as it received it instead: the pool gets its frames back, and DIF is
// still against the previous frame.
TEST(SignalStats, FramesOfAProducerThatKeepsThemGoBackToItsPool) {
  SeededHarness t("signalstats=true", VideoInfo(GST_VIDEO_FORMAT_YUY2, 33, 17), 3);
  DrawFramesWithDistinctDifs(&t);
  GstBufferPool* pool = gst_video_buffer_pool_new();
  GstStructure* config = gst_buffer_pool_get_config(pool);
  GstCaps* caps = gst_video_info_to_caps(&t.info);
  gst_buffer_pool_config_set_params(config, caps, guint(GST_VIDEO_INFO_SIZE(&t.info)), 2, 2);
  gst_caps_unref(caps);
  ASSERT_TRUE(gst_buffer_pool_set_config(pool, config));
  ASSERT_TRUE(gst_buffer_pool_set_active(pool, TRUE));
  static const GQuark seen = g_quark_from_static_string("cudahistogram-test-seen");
  int new_frames = 0;
  constexpr int kPushes = 6;
  for (int i = 0; i < kPushes; ++i) {
    SCOPED_TRACE("push " + std::to_string(i));
    GstBuffer* frame = nullptr;
    ASSERT_EQ(gst_buffer_pool_acquire_buffer(pool, &frame, nullptr), GST_FLOW_OK);
    if (!gst_mini_object_get_qdata(GST_MINI_OBJECT(frame), seen)) {
      ++new_frames;
      gst_mini_object_set_qdata(GST_MINI_OBJECT(frame), seen, GINT_TO_POINTER(1), nullptr);
    }
    GstBuffer* source = t.f[i % 3];
    GstMapInfo in, out;
    ASSERT_TRUE(gst_buffer_map(source, &in, GST_MAP_READ));
    ASSERT_TRUE(gst_buffer_map(frame, &out, GST_MAP_WRITE));
    std::memcpy(out.data, in.data, std::min(in.size, out.size));
    gst_buffer_unmap(frame, &out);
    gst_buffer_unmap(source, &in);
    GST_BUFFER_PTS(frame) = i * kFrame;
    GST_BUFFER_DURATION(frame) = kFrame;
    GstBuffer* producers = gst_buffer_ref(frame);  // still referenced while pushed
    ASSERT_EQ(gst_harness_push(t.hx.h(), frame), GST_FLOW_OK) << PopErrorText(t.hx.bus());
    GstBuffer* pulled = gst_harness_pull(t.hx.h());
    ASSERT_NE(pulled, nullptr);
    const GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(pulled);
    ASSERT_NE(meta, nullptr);
    const Figures want = ExpectedSignalStats(t.info, source, i == 0 ? nullptr : t.f[(i - 1) % 3], FrameRoi());
    ExpectMetaFigures(gst_cuda_histogram_meta_get_signalstats(meta), want);
    gst_buffer_unref(pulled);
    gst_buffer_unref(producers);  // back to the pool
    while (GstMessage* m = gst_bus_pop(t.hx.bus())) gst_message_unref(m);
  }
  EXPECT_EQ(new_frames, 2) << "the pool allocated new frames: the ones it got back had their memory shared";
  gst_buffer_pool_set_active(pool, FALSE);
  gst_object_unref(pool);
}

TEST(SignalStats, FlushRestartsDif) {
  SeededHarness t("signalstats=true", VideoInfo(GST_VIDEO_FORMAT_NV12, 33, 17), 2);
  FrameResult r;
  PushAndPull(&t.hx, t.f[0], 0, &r);
  ASSERT_TRUE(gst_harness_push_event(t.hx.h(), gst_event_new_flush_start()));
  ASSERT_TRUE(gst_harness_push_event(t.hx.h(), gst_event_new_flush_stop(TRUE)));
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  ASSERT_TRUE(gst_harness_push_event(t.hx.h(), gst_event_new_segment(&segment)));
  ExpectDifAgainst(&t.hx, t.info, t.f[1], nullptr, t.f[0], 0);
}

TEST(SignalStats, NewSegmentRestartsDif) {
  SeededHarness t("signalstats=true", VideoInfo(GST_VIDEO_FORMAT_YUY2, 33, 17), 3);
  FrameResult r;
  PushAndPull(&t.hx, t.f[0], 0, &r);
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  segment.base = 10 * GST_SECOND;
  ASSERT_TRUE(gst_harness_push_event(t.hx.h(), gst_event_new_segment(&segment)));
  ExpectDifAgainst(&t.hx, t.info, t.f[1], nullptr, t.f[0], 0);
  ExpectDifAgainst(&t.hx, t.info, t.f[2], t.f[1], nullptr, kFrame);
}

// A renegotiated size (or format) between frames: DIF restarts, the old
// frame is never read with the new layout; the frame after counts against
// the new one.
TEST(SignalStats, RenegotiationRestartsDif) {
  cudahist_test::SeededRng rng;
  Harness hx("signalstats=true");
  const GstVideoInfo big = VideoInfo(GST_VIDEO_FORMAT_NV12, 33, 17);
  const GstVideoInfo small = VideoInfo(GST_VIDEO_FORMAT_NV12, 20, 9);
  const GstVideoInfo other = VideoInfo(GST_VIDEO_FORMAT_I420, 20, 9);
  hx.SetCaps(big);
  GstBuffer* a = RandomFrame(big, rng);
  FrameResult r;
  PushAndPull(&hx, a, 0, &r);
  hx.SetCaps(small);
  const std::vector<GstBuffer*> f = RandomFrames(small, 2, rng);
  ExpectDifAgainst(&hx, small, f[0], nullptr, f[1], kFrame);
  ExpectDifAgainst(&hx, small, f[1], f[0], nullptr, 2 * kFrame);
  // Same size, another layout: restarts too.
  hx.SetCaps(other);
  const std::vector<GstBuffer*> g = RandomFrames(other, 2, rng);
  ExpectDifAgainst(&hx, other, g[0], nullptr, g[1], 3 * kFrame);
  UnrefAll(g);
  UnrefAll(f);
  gst_buffer_unref(a);
}

// Switching signalstats off and on again: the frames in between were not
// followed, so DIF restarts; a changed ROI restarts it too.
TEST(SignalStats, SwitchingOffOrMovingTheRoiRestartsDif) {
  SeededHarness t("signalstats=true", VideoInfo(GST_VIDEO_FORMAT_I420, 33, 17), 4);
  FrameResult r0, r1;
  PushAndPull(&t.hx, t.f[0], 0, &r0);
  g_object_set(t.hx.element(), "signalstats", FALSE, nullptr);
  PushAndPull(&t.hx, t.f[1], kFrame, &r1);
  EXPECT_FALSE(r1.meta_has_figures);
  ASSERT_NE(r1.message, nullptr);
  EXPECT_FALSE(HasAnySignalStatsField(gst_message_get_structure(r1.message)));
  g_object_set(t.hx.element(), "signalstats", TRUE, nullptr);
  ExpectDifAgainst(&t.hx, t.info, t.f[2], nullptr, t.f[1], 2 * kFrame);
  g_object_set(t.hx.element(), "roi-x", 2u, nullptr);
  FrameResult r3;
  PushAndPull(&t.hx, t.f[3], 3 * kFrame, &r3);
  ASSERT_NE(r3.message, nullptr);
  EXPECT_EQ(r3.meta_figures.y_dif, 0.0);
  EXPECT_EQ(r3.meta_figures.u_dif, 0.0);
}

// --- interval: summed counts, the last frame's figures ------------------------------------

TEST(SignalStats, IntervalCarriesTheLastFramesFiguresAndSummedCounts) {
  SeededHarness t("signalstats=true interval=" + std::to_string(3 * kFrame),
                  VideoInfo(GST_VIDEO_FORMAT_P010_10LE, 33, 17), 4);
  std::vector<uint64_t> sum(256 * 3, 0);
  for (int i = 0; i < 3; ++i) {
    const Expected e = ExpectedCounts(t.info, t.f[i], 256, {0, 1, 2}, FrameRoi());
    for (size_t k = 0; k < sum.size(); ++k) sum[k] += e.counts[k];
    FrameResult r;
    PushAndPull(&t.hx, t.f[i], i * kFrame, &r);
    EXPECT_EQ(r.message != nullptr, i == 2) << "frame " << i;
    if (r.message == nullptr) continue;
    const GstStructure* s = gst_message_get_structure(r.message);
    guint frames = 0;
    gst_structure_get_uint(s, "frames", &frames);
    EXPECT_EQ(frames, 3u);
    const auto hist = MessageHistograms(s);
    ASSERT_EQ(hist.size(), 3u);
    for (size_t c = 0; c < 3; ++c) {
      EXPECT_EQ(hist[c], std::vector<uint64_t>(sum.begin() + c * 256, sum.begin() + (c + 1) * 256));
    }
    ExpectMessageFigures(s, ExpectedSignalStats(t.info, t.f[2], t.f[1], FrameRoi()));
  }
  // The rest at EOS: one frame, its own figures (DIF against frame 2).
  FrameResult r;
  PushAndPull(&t.hx, t.f[3], 3 * kFrame, &r);
  EXPECT_EQ(r.message, nullptr);
  ASSERT_TRUE(gst_harness_push_event(t.hx.h(), gst_event_new_eos()));
  GstMessage* m = PopHistogramMessage(t.hx.bus());
  ASSERT_NE(m, nullptr);
  ExpectMessageFigures(gst_message_get_structure(m), ExpectedSignalStats(t.info, t.f[3], t.f[2], FrameRoi()));
  gst_message_unref(m);
}

// --- formats signalstats does not read --------------------------------------------------


// RGB, GRAY and YUV deeper than 10 bits: one warning per negotiation naming
// the format, no signalstats fields, no figures in the meta, the histograms
// as without signalstats.
TEST(SignalStats, FormatsItDoesNotReadWarnOnceAndKeepTheHistograms) {
  const struct {
    GstVideoFormat format;
    const char* says;
  } cases[] = {
      {GST_VIDEO_FORMAT_RGBA, "RGBA is not a YUV format of Y, U and V (it is RGB)"},
      {GST_VIDEO_FORMAT_GRAY8, "GRAY8 is not a YUV format of Y, U and V (it is grey, without chroma)"},
      {GST_VIDEO_FORMAT_P016_LE, "P016_LE has 16-bit samples; signalstats reads 8 to 10 bits"},
      {GST_VIDEO_FORMAT_I422_12LE, "I422_12LE has 12-bit samples"},
  };
  cudahist_test::SeededRng rng;
  for (const auto& c : cases) {
    SCOPED_TRACE(gst_video_format_to_string(c.format));
    const GstVideoInfo info = VideoInfo(c.format, 33, 17);
    Harness hx("signalstats=true");
    hx.SetCaps(info);
    std::vector<std::string> warnings;
    for (int i = 0; i < 3; ++i) {
      GstBuffer* frame = RandomFrame(info, rng);
      FrameResult r;
      PushAndPull(&hx, frame, i * kFrame, &r);
      warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
      ASSERT_TRUE(r.has_meta);
      EXPECT_FALSE(r.meta_has_figures);
      EXPECT_EQ(r.counts, ExpectedCounts(info, frame, 256, AllComponentsFor(info, 256), FrameRoi()).counts);
      ASSERT_NE(r.message, nullptr);
      EXPECT_FALSE(HasAnySignalStatsField(gst_message_get_structure(r.message)));
      gst_buffer_unref(frame);
    }
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(std::string("signalstats=true, but ") + c.says), std::string::npos)
        << warnings[0];
    EXPECT_EQ(PopErrorText(hx.bus()), "");
  }
}

TEST(SignalStats, WarnedAgainAfterRenegotiationOnlyForFormatsItDoesNotRead) {
  cudahist_test::SeededRng rng;
  Harness hx("signalstats=true");
  const GstVideoInfo formats[] = {VideoInfo(GST_VIDEO_FORMAT_BGRx, 8, 8), VideoInfo(GST_VIDEO_FORMAT_NV12, 8, 8),
                                  VideoInfo(GST_VIDEO_FORMAT_BGRx, 8, 8)};
  std::vector<size_t> warnings_after;
  size_t warnings = 0;
  for (const GstVideoInfo& info : formats) {
    hx.SetCaps(info);
    for (int i = 0; i < 2; ++i) {
      GstBuffer* frame = RandomFrame(info, rng);
      FrameResult r;
      PushAndPull(&hx, frame, i * kFrame, &r);
      gst_buffer_unref(frame);
      warnings += r.warnings.size();
    }
    warnings_after.push_back(warnings);
  }
  EXPECT_EQ(warnings_after, (std::vector<size_t>{1, 1, 2}));
}

// Set on a format it does not read while playing: the warning comes with the
// first frame that asks for it.
TEST(SignalStats, SwitchedOnWhilePlayingOnRgbWarnsOnce) {
  cudahist_test::SeededRng rng;
  Harness hx;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_RGB, 9, 5);
  hx.SetCaps(info);
  GstBuffer* frame = RandomFrame(info, rng);
  FrameResult r0, r1, r2;
  PushAndPull(&hx, frame, 0, &r0);
  EXPECT_TRUE(r0.warnings.empty());
  g_object_set(hx.element(), "signalstats", TRUE, nullptr);
  PushAndPull(&hx, frame, kFrame, &r1);
  PushAndPull(&hx, frame, 2 * kFrame, &r2);
  EXPECT_EQ(r1.warnings.size(), 1u);
  EXPECT_TRUE(r2.warnings.empty());
  EXPECT_FALSE(r2.meta_has_figures);
  gst_buffer_unref(frame);
}

TEST(SignalStats, PropertyIsABooleanOffByDefaultAndMutableWhilePlaying) {
  GstElement* e = gst_element_factory_make("cudahistogram", nullptr);
  ASSERT_NE(e, nullptr);
  GParamSpec* p = g_object_class_find_property(G_OBJECT_GET_CLASS(e), "signalstats");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(G_PARAM_SPEC_VALUE_TYPE(p), G_TYPE_BOOLEAN);
  EXPECT_FALSE(G_PARAM_SPEC_BOOLEAN(p)->default_value);
  EXPECT_TRUE(p->flags & GST_PARAM_MUTABLE_PLAYING);
  gboolean on = TRUE;
  g_object_get(e, "signalstats", &on, nullptr);
  EXPECT_FALSE(on);
  gst_object_unref(e);
}

// Downstream's answer to an ALLOCATION query: one pool of 2 to 5 buffers.
GstPadProbeReturn AnswerWithAPool(GstPad*, GstPadProbeInfo* info, gpointer) {
  GstQuery* query = GST_PAD_PROBE_INFO_QUERY(info);
  if (GST_QUERY_TYPE(query) != GST_QUERY_ALLOCATION) return GST_PAD_PROBE_OK;
  gst_query_add_allocation_pool(query, nullptr, 4096, 2, 5);
  return GST_PAD_PROBE_HANDLED;
}

// The pools that upstream is proposed through the element, downstream
// answering 2 to 5 buffers.
std::vector<guint> ProposedPoolBounds(bool signalstats) {
  Harness hx(signalstats ? "signalstats=true" : "");
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 32, 16);
  hx.SetCaps(info);
  GstPad* src = gst_element_get_static_pad(hx.element(), "src");
  gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, AnswerWithAPool, nullptr, nullptr);
  GstPad* sink = gst_element_get_static_pad(hx.element(), "sink");
  GstCaps* caps = gst_video_info_to_caps(&info);
  GstQuery* query = gst_query_new_allocation(caps, TRUE);
  std::vector<guint> bounds;
  if (gst_pad_query(sink, query) && gst_query_get_n_allocation_pools(query) == 1) {
    guint size = 0, min = 0, max = 0;
    gst_query_parse_nth_allocation_pool(query, 0, nullptr, &size, &min, &max);
    bounds = {min, max};
  }
  gst_query_unref(query);
  gst_caps_unref(caps);
  gst_object_unref(sink);
  gst_object_unref(src);
  return bounds;
}

// The previous frame held for DIF is one more buffer in flight.
TEST(SignalStats, ProposesOneMoreBufferForThePreviousFrame) {
  EXPECT_EQ(ProposedPoolBounds(false), (std::vector<guint>{2, 5}));
  EXPECT_EQ(ProposedPoolBounds(true), (std::vector<guint>{3, 6}));
}

// --- The QC figures: TOUT, VREP (with signalstats), cropdetect, field-psnr ---------------

const char* const kCropFields[] = {"crop-x1", "crop-x2", "crop-y1", "crop-y2",
                                   "crop-w",  "crop-h",  "crop-x",  "crop-y"};
const char* const kPsnrFields[] = {"psnr-mse-y", "psnr-mse-u", "psnr-mse-v", "psnr-mse-avg",
                                   "psnr-y",     "psnr-u",     "psnr-v",     "psnr-avg"};

bool HasAny(const GstStructure* s, const char* const* names, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (gst_structure_has_field(s, names[i])) return true;
  }
  return false;
}

// The message's QC fields and the meta's GstCudaQcFigures against `want`,
// each group present exactly where `crop`, `psnr` and `tout_vrep` say.
void ExpectQcFields(GstBuffer* out, const GstStructure* s, const cudahist::QcFigures& want, bool tout_vrep,
                    bool crop, bool psnr) {
  const GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(out);
  ASSERT_NE(meta, nullptr);
  const GstCudaQcFigures* q = gst_cuda_histogram_meta_get_qc_figures(meta);
  ASSERT_NE(q, nullptr) << "the meta has no QC figures";
  EXPECT_EQ(bool(q->has_tout_vrep), tout_vrep);
  EXPECT_EQ(bool(q->has_crop), crop);
  EXPECT_EQ(bool(q->has_field_psnr), psnr);
  EXPECT_EQ(gst_structure_has_field(s, "tout") && gst_structure_has_field(s, "vrep"), tout_vrep);
  EXPECT_EQ(HasAny(s, kCropFields, std::size(kCropFields)), crop);
  EXPECT_EQ(HasAny(s, kPsnrFields, std::size(kPsnrFields)), psnr);
  if (tout_vrep) {
    gdouble tout = -1, vrep = -1;
    ASSERT_TRUE(gst_structure_get_double(s, "tout", &tout) && gst_structure_get_double(s, "vrep", &vrep));
    EXPECT_EQ(tout, want.tout);
    EXPECT_EQ(vrep, want.vrep);
    EXPECT_EQ(q->tout, want.tout);
    EXPECT_EQ(q->vrep, want.vrep);
  }
  if (crop) {
    const int values[] = {want.crop_x1, want.crop_x2, want.crop_y1, want.crop_y2,
                          want.crop_w,  want.crop_h,  want.crop_x,  want.crop_y};
    const gint metas[] = {q->crop_x1, q->crop_x2, q->crop_y1, q->crop_y2, q->crop_w, q->crop_h, q->crop_x, q->crop_y};
    for (size_t i = 0; i < std::size(kCropFields); ++i) {
      gint got = -999;
      ASSERT_TRUE(gst_structure_get_int(s, kCropFields[i], &got)) << kCropFields[i] << " missing or not G_TYPE_INT";
      EXPECT_EQ(got, values[i]) << kCropFields[i];
      EXPECT_EQ(metas[i], values[i]) << kCropFields[i];
    }
  }
  if (psnr) {
    const double values[] = {want.psnr_mse_y, want.psnr_mse_u, want.psnr_mse_v, want.psnr_mse_avg,
                             want.psnr_y, want.psnr_u, want.psnr_v, want.psnr_avg};
    const gdouble metas[] = {q->psnr_mse_y, q->psnr_mse_u, q->psnr_mse_v, q->psnr_mse_avg,
                             q->psnr_y,     q->psnr_u,     q->psnr_v,     q->psnr_avg};
    for (size_t i = 0; i < std::size(kPsnrFields); ++i) {
      gdouble got = -1;
      ASSERT_TRUE(gst_structure_get_double(s, kPsnrFields[i], &got)) << kPsnrFields[i] << " missing or not G_TYPE_DOUBLE";
      EXPECT_EQ(got, values[i]) << kPsnrFields[i];
      EXPECT_EQ(metas[i], values[i]) << kPsnrFields[i];
    }
  }
}

// Pushes `frame` and checks its QC fields.
void PushAndExpectQc(Harness* hx, const GstVideoInfo& info, GstBuffer* frame, GstClockTime pts, bool tout_vrep,
                     bool crop, bool psnr) {
  ASSERT_EQ(hx->Push(frame, pts, kFrame), GST_FLOW_OK) << PopErrorText(hx->bus());
  GstBuffer* out = gst_harness_pull(hx->h());
  ASSERT_NE(out, nullptr);
  GstMessage* m = PopHistogramMessage(hx->bus());
  ASSERT_NE(m, nullptr);
  ExpectQcFields(out, gst_message_get_structure(m), ExpectedQcFigures(info, frame, FrameRoi()), tout_vrep, crop,
                 psnr);
  gst_message_unref(m);
  gst_buffer_unref(out);
}

// Frames with dark borders (cropdetect finds them), repeated rows (VREP) and
// noise (TOUT, the fields differ).
GstBuffer* BorderedFrame(const GstVideoInfo& info, std::mt19937_64& rng, guint border) {
  GstBuffer* frame = RandomFrame(info, rng);
  GstVideoFrame v;
  gst_video_frame_map(&v, &info, frame, GST_MAP_WRITE);
  // Whole rows of the first `border` rows of every plane to 0 (dark, and equal to each other).
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&v); ++p) {
    for (guint y = 0; y < border && y < guint(GST_VIDEO_FRAME_COMP_HEIGHT(&v, p)); ++y) {
      memset(static_cast<uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&v, p)) + y * GST_VIDEO_FRAME_PLANE_STRIDE(&v, p), 0,
             GST_VIDEO_FRAME_PLANE_STRIDE(&v, p));
    }
  }
  gst_video_frame_unmap(&v);
  return frame;
}

// Four bordered frames of each format through an element with every QC
// figure on (and `extra` properties): each frame's QC fields against the
// reference, cropdetect's from the third frame on.
void ExpectQcOfBorderedFrames(const std::string& extra, std::initializer_list<GstVideoFormat> formats) {
  for (GstVideoFormat format : formats) {
    SCOPED_TRACE(gst_video_format_to_string(format));
    SeededHarness t("signalstats=true cropdetect=true field-psnr=true " + extra, VideoInfo(format, 33, 18));
    for (guint i = 0; i < 4; ++i) {
      SCOPED_TRACE("frame " + std::to_string(i));
      GstBuffer* frame = BorderedFrame(t.info, t.rng, 3 + i);
      PushAndExpectQc(&t.hx, t.info, frame, i * kFrame, true, i >= 2, true);
      gst_buffer_unref(frame);
    }
  }
}

TEST(QcFigures, EqualTheReferenceWithCropdetectsSkipOfTwoFrames) {
  ExpectQcOfBorderedFrames("", {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_YUY2,
                                GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_Y444});
}

TEST(QcFigures, OddHeightsHaveNoFieldPsnr) {
  SeededHarness t("cropdetect=true field-psnr=true", VideoInfo(GST_VIDEO_FORMAT_I420, 33, 17));
  for (guint i = 0; i < 3; ++i) {
    GstBuffer* frame = BorderedFrame(t.info, t.rng, 4);
    PushAndExpectQc(&t.hx, t.info, frame, i * kFrame, false, i >= 2, false);
    gst_buffer_unref(frame);
  }
}

// Each property adds its own group: cropdetect or field-psnr alone add no
// signalstats figures; none of them, no QC figures.
TEST(QcFigures, EachPropertyAddsItsOwnFields) {
  cudahist_test::SeededRng rng;
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_NV12, 32, 16);
  const struct {
    const char* properties;
    bool tout_vrep, crop, psnr;
  } cases[] = {
      {"signalstats=true", true, false, false},
      {"cropdetect=true", false, true, false},
      {"field-psnr=true", false, false, true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.properties);
    Harness hx(c.properties);
    hx.SetCaps(info);
    for (guint i = 0; i < 3; ++i) {
      GstBuffer* frame = BorderedFrame(info, rng, 2);
      PushAndExpectQc(&hx, info, frame, i * kFrame, c.tout_vrep, c.crop && i >= 2, c.psnr);
      gst_buffer_unref(frame);
    }
  }
  Harness none("");
  none.SetCaps(info);
  GstBuffer* frame = RandomFrame(info, rng);
  ASSERT_EQ(none.Push(frame, 0, kFrame), GST_FLOW_OK);
  GstBuffer* out = gst_harness_pull(none.h());
  EXPECT_EQ(gst_cuda_histogram_meta_get_qc_figures(gst_buffer_get_cuda_histogram_meta(out)), nullptr);
  GstMessage* m = PopHistogramMessage(none.bus());
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(gst_structure_has_field(gst_message_get_structure(m), "tout"));
  gst_message_unref(m);
  gst_buffer_unref(out);
  gst_buffer_unref(frame);
}

// Rows 2k and 2k + 1 equal in every plane: mse 0, PSNR +inf, as FFmpeg's "inf".
TEST(QcFigures, EqualFieldsGiveAnInfinitePsnr) {
  const GstVideoInfo info = VideoInfo(GST_VIDEO_FORMAT_Y42B, 20, 8);
  GstBuffer* frame = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame v;
  gst_video_frame_map(&v, &info, frame, GST_MAP_WRITE);
  for (guint p = 0; p < 3; ++p) {
    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&v, p); ++y) {
      memset(static_cast<uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&v, p)) + y * GST_VIDEO_FRAME_PLANE_STRIDE(&v, p),
             40 + 10 * (y / 2), GST_VIDEO_FRAME_PLANE_STRIDE(&v, p));
    }
  }
  gst_video_frame_unmap(&v);
  Harness hx("field-psnr=true");
  hx.SetCaps(info);
  PushAndExpectQc(&hx, info, frame, 0, false, false, true);
  const cudahist::QcFigures f = ExpectedQcFigures(info, frame, FrameRoi());
  EXPECT_EQ(f.psnr_avg, std::numeric_limits<double>::infinity());
  EXPECT_EQ(f.psnr_mse_avg, 0.0);
  gst_buffer_unref(frame);
}

TEST(QcFigures, PropertiesAreBooleansOffByDefault) {
  GstElement* e = gst_element_factory_make("cudahistogram", nullptr);
  ASSERT_NE(e, nullptr);
  for (const char* name : {"cropdetect", "field-psnr"}) {
    SCOPED_TRACE(name);
    GParamSpec* p = g_object_class_find_property(G_OBJECT_GET_CLASS(e), name);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(G_PARAM_SPEC_VALUE_TYPE(p), G_TYPE_BOOLEAN);
    EXPECT_FALSE(G_PARAM_SPEC_BOOLEAN(p)->default_value);
    EXPECT_TRUE(p->flags & GST_PARAM_MUTABLE_PLAYING);
  }
  gst_object_unref(e);
}

TEST(QcFigures, FormatsTheyDoNotReadWarnOnceNamingTheProperty) {
  SeededHarness t("cropdetect=true field-psnr=true", VideoInfo(GST_VIDEO_FORMAT_RGBA, 33, 18));
  std::vector<std::string> warnings;
  for (int i = 0; i < 2; ++i) {
    GstBuffer* frame = RandomFrame(t.info, t.rng);
    FrameResult r;
    PushAndPull(&t.hx, frame, i * kFrame, &r);
    warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
    ASSERT_NE(r.message, nullptr);
    EXPECT_FALSE(HasAny(gst_message_get_structure(r.message), kCropFields, std::size(kCropFields)));
    EXPECT_TRUE(r.has_meta);
    gst_buffer_unref(frame);
  }
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("cropdetect=true and field-psnr=true, but RGBA is not a YUV format"), std::string::npos)
      << warnings[0];
}

// --- GPU: cudaupload into the element --------------------------------------------------

class CudaSignalStats : public ::testing::TestWithParam<GstVideoFormat> {};

// CUDA frames counted on the GPU (SignalStatsCounter) against the reference
// of the same frames copied back from their device planes, DIF included.
TEST_P(CudaSignalStats, FiguresEqualTheReferenceOfTheSameFrames) {
  SKIP_WITHOUT_CUDA();
  const std::string f = gst_video_format_to_string(GetParam());
  GstElement* p = Launch("videotestsrc num-buffers=4 pattern=snow ! video/x-raw,format=" + f +
                         ",width=333,height=67 ! cudaupload ! video/x-raw(memory:CUDAMemory) ! "
                         "cudahistogram signalstats=true ! appsink name=sink emit-signals=true sync=false");
  ASSERT_NE(p, nullptr);
  std::vector<GstSample*> samples;
  std::vector<GstMessage*> messages;
  EXPECT_EQ(RunToSink(p, &samples, &messages), "");
  ASSERT_EQ(samples.size(), 4u);
  ASSERT_EQ(messages.size(), 4u);
  GstBuffer* previous_host = nullptr;
  for (size_t i = 0; i < samples.size(); ++i) {
    SCOPED_TRACE(f + " frame " + std::to_string(i));
    GstVideoInfo info;
    GstBuffer* host = nullptr;
    ASSERT_NO_FATAL_FAILURE(CopyCudaFrameToHost(samples[i], &info, &host));
    GstBuffer* buffer = gst_sample_get_buffer(samples[i]);
    const Figures want = ExpectedSignalStats(info, host, previous_host, FrameRoi());
    const GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(buffer);
    ASSERT_NE(meta, nullptr);
    ExpectMetaFigures(gst_cuda_histogram_meta_get_signalstats(meta), want);
    EXPECT_EQ(MetaCounts(meta), ExpectedCounts(info, host, 256, {0, 1, 2}, FrameRoi()).counts);
    ExpectMessageFigures(gst_message_get_structure(messages[i]), want);
    if (i > 0) {
      EXPECT_GT(want.y_dif, 0.0) << "snow frames should differ";
    }
    if (previous_host) gst_buffer_unref(previous_host);
    previous_host = host;
  }
  if (previous_host) gst_buffer_unref(previous_host);
  for (GstSample* s : samples) gst_sample_unref(s);
  for (GstMessage* m : messages) gst_message_unref(m);
  gst_object_unref(p);
}

INSTANTIATE_TEST_SUITE_P(Gpu, CudaSignalStats,
                         ::testing::Values(GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
                                           GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_Y444,
                                           GST_VIDEO_FORMAT_YUY2),
                         FormatName);

// --- GPU: system-memory frames the element uploads itself (upload=true) ---------------

// Counted on the GPU after the element's own copy: the CPU reference's
// histograms and figures of the same frames, DIF against the previous
// uploaded frame. YUY2 of odd width keeps its last V sample (cudaupload's
// copy drops it).
class UploadSignalStats : public ::testing::TestWithParam<GstVideoFormat> {};

TEST_P(UploadSignalStats, FiguresEqualTheReferenceOfTheSameFrames) {
  SKIP_WITHOUT_CUDA();
  SeededHarness t("upload=true signalstats=true", VideoInfo(GetParam(), 333, 67), 3);
  CheckFramesInARow(&t.hx, t.info, t.f, 256, {0, 1, 2}, FrameRoi());
}

INSTANTIATE_TEST_SUITE_P(Gpu, UploadSignalStats,
                         ::testing::Values(GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YUY2,
                                           GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I422_10LE,
                                           GST_VIDEO_FORMAT_Y444),
                         FormatName);

TEST(GpuUpload, QcFiguresEqualTheReference) {
  SKIP_WITHOUT_CUDA();
  ExpectQcOfBorderedFrames("upload=true", {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_YUY2});
}

// gst-cuda's pool allocates through an allocator that must be registered
// first. In this process the tests' own CUDA frames register it; a fresh
// gst-launch-1.0 with a CPU source and the element alone (as cudahist-qc on a
// CPU-decoded file) shows that the element registers it itself.
TEST(GpuUpload, WorksInAProcessWithoutOtherCudaElements) {
  SKIP_WITHOUT_CUDA();
  const gchar* argv[] = {"gst-launch-1.0", "-q", "videotestsrc", "num-buffers=3", "!",
                         "video/x-raw,format=I420,width=64,height=48", "!", "cudahistogram", "upload=true",
                         "signalstats=true", "!", "fakesink", nullptr};
  gchar* out = nullptr;
  gchar* err = nullptr;
  gint status = 0;
  GError* error = nullptr;
  ASSERT_TRUE(g_spawn_sync(nullptr, const_cast<gchar**>(argv), nullptr, G_SPAWN_SEARCH_PATH, nullptr, nullptr,
                           &out, &err, &status, &error))
      << error->message;
  EXPECT_TRUE(g_spawn_check_wait_status(status, nullptr)) << out << err;
  g_free(out);
  g_free(err);
}

// What CUDA knows of the memory of `frame`: page-locked (cudaMemoryTypeHost)
// or not (cudaMemoryTypeUnregistered).
cudaMemoryType HostMemoryTypeOf(GstBuffer* frame) {
  GstMapInfo map;
  EXPECT_TRUE(gst_buffer_map(frame, &map, GST_MAP_READ));
  cudaPointerAttributes attributes{};
  EXPECT_EQ(cudaPointerGetAttributes(&attributes, map.data), cudaSuccess);
  gst_buffer_unmap(frame, &map);
  return attributes.type;
}

// upload=true page-locks the system memory of the frames it copies, for as
// long as upstream keeps it (a decoder's pool hands the same memories round
// again): each later copy is one DMA. A frame it never saw stays as it was.
TEST(GpuUpload, TheFramesItCopiesArePageLocked) {
  SKIP_WITHOUT_CUDA();
  SeededHarness t("upload=true", VideoInfo(GST_VIDEO_FORMAT_I420, 64, 48), 2);
  ASSERT_EQ(t.hx.Push(t.f[0], 0, kFrame), GST_FLOW_OK);
  gst_buffer_unref(gst_harness_pull(t.hx.h()));
  EXPECT_EQ(HostMemoryTypeOf(t.f[0]), cudaMemoryTypeHost);
  EXPECT_EQ(HostMemoryTypeOf(t.f[1]), cudaMemoryTypeUnregistered);
}

// Two random frames of `format` through `upload=true bins=64`: the reference
// histograms; returns the warnings the element posted.
std::vector<std::string> ExpectUploadHistograms(GstVideoFormat format) {
  SCOPED_TRACE(gst_video_format_to_string(format));
  SeededHarness t("upload=true bins=64", VideoInfo(format, 35, 9), 2);
  std::vector<std::string> warnings;
  for (size_t i = 0; i < t.f.size(); ++i) {
    FrameResult r;
    PushAndPull(&t.hx, t.f[i], i * kFrame, &r);
    EXPECT_TRUE(r.has_meta);
    EXPECT_EQ(r.counts, ExpectedCounts(t.info, t.f[i], 64, AllComponentsFor(t.info, 64), FrameRoi()).counts);
    warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  }
  return warnings;
}

// Formats signalstats does not read: the histograms alone, on the GPU.
TEST(GpuUpload, HistogramsOfOtherFormatsEqualTheReference) {
  SKIP_WITHOUT_CUDA();
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_GBR}) {
    EXPECT_TRUE(ExpectUploadHistograms(format).empty());
  }
}

// CUDA memory holds no grey and no 10-bit 4:4:4 frames: upload=true counts
// them on the CPU backend and says so once. No GPU is needed for that, here
// or in CI.
TEST(Upload, FormatsCudaMemoryHoldsNotAreCountedOnTheCpuWithAWarning) {
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_Y444_10LE}) {
    const std::vector<std::string> warnings = ExpectUploadHistograms(format);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(std::string("GStreamer's CUDA memory holds no ") + gst_video_format_to_string(format) +
                               " frames: they are counted on the CPU backend"),
              std::string::npos)
        << warnings[0];
  }
}

// RGB in CUDA memory: the warning, the histograms on the GPU as before.
TEST(GpuSignalStats, RgbaInCudaMemoryWarnsAndCountsHistograms) {
  SKIP_WITHOUT_CUDA();
  GstElement* p = Launch(
      "videotestsrc num-buffers=3 ! video/x-raw,format=RGBA,width=64,height=32 ! cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! cudahistogram signalstats=true ! fakesink");
  ASSERT_NE(p, nullptr);
  std::vector<GstMessage*> messages;
  std::vector<std::string> warnings;
  EXPECT_EQ(RunToEnd(p, &messages, &warnings), "");
  EXPECT_EQ(messages.size(), 3u);
  for (GstMessage* m : messages) {
    EXPECT_FALSE(HasAnySignalStatsField(gst_message_get_structure(m)));
    EXPECT_EQ(MessageHistograms(gst_message_get_structure(m)).size(), 4u);
    gst_message_unref(m);
  }
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("RGBA is not a YUV format"), std::string::npos) << warnings[0];
  gst_object_unref(p);
}

}  // namespace
