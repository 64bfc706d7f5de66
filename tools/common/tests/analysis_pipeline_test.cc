// The analysis pipeline's parts as BuildAnalysisPipeline sets them up (built,
// not started: no input is read), the thread its analysis runs on, and on a
// GPU its pipelines run.
#include <sched.h>

#include <glib/gstdio.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "analysis_pipeline.h"
#include "lifetime.h"

namespace {

class AnalysisPipelineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { gst_init(nullptr, nullptr); }
  void TearDown() override {
    if (parts_.pipeline) gst_object_unref(parts_.pipeline);
  }

  void Build(const cudahist_tools::AnalysisTarget& target) {
    std::string problem;
    parts_ = cudahist_tools::BuildAnalysisPipeline("file:///nonexistent/clip.mp4", target, "analysis-test", &problem);
    ASSERT_NE(parts_.pipeline, nullptr) << problem;
  }

  // max-size-buffers of the queue between the decoder and the analysis.
  guint DecodedFramesAhead() const {
    GstPad* sink = gst_element_get_static_pad(parts_.analysis, "sink");
    GstPad* upstream = gst_pad_get_peer(sink);
    gst_object_unref(sink);
    if (!upstream) return 0;
    GstElement* element = gst_pad_get_parent_element(upstream);
    gst_object_unref(upstream);
    // The CPU path has a capsfilter between the queue and the analysis.
    while (element && !g_str_equal(G_OBJECT_TYPE_NAME(element), "GstQueue")) {
      GstPad* element_sink = gst_element_get_static_pad(element, "sink");
      GstPad* peer = element_sink ? gst_pad_get_peer(element_sink) : nullptr;
      if (element_sink) gst_object_unref(element_sink);
      gst_object_unref(element);
      element = peer ? gst_pad_get_parent_element(peer) : nullptr;
      if (peer) gst_object_unref(peer);
    }
    if (!element) return 0;
    guint frames = 0;
    g_object_get(element, "max-size-buffers", &frames, nullptr);
    gst_object_unref(element);
    return frames;
  }

  cudahist_tools::AnalysisPipeline parts_;
};

TEST_F(AnalysisPipelineTest, ALoneStreamHoldsOneDecodedFrame) {
  cudahist_tools::AnalysisTarget target;
  target.streams_at_once = 1;
  Build(target);
  EXPECT_EQ(DecodedFramesAhead(), 1u);
}

TEST_F(AnalysisPipelineTest, StreamsDecodedTogetherHoldFourDecodedFrames) {
  cudahist_tools::AnalysisTarget target;
  target.streams_at_once = 8;
  Build(target);
  EXPECT_EQ(DecodedFramesAhead(), 4u);
}

TEST_F(AnalysisPipelineTest, AnUnknownNumberOfStreamsHoldsFourDecodedFrames) {
  Build(cudahist_tools::AnalysisTarget{});
  EXPECT_EQ(DecodedFramesAhead(), 4u);
}

// The scheduling policy of the thread that brings each frame to the analysis.
GstPadProbeReturn RecordPolicy(GstPad*, GstPadProbeInfo*, gpointer policy) {
  *static_cast<int*>(policy) = sched_getscheduler(0);
  return GST_PAD_PROBE_OK;
}

// Whether a frame is laid out as its GstVideoMeta says and not as its caps'
// default: still where a gst-libav decoder decoded it (rows padded to the
// codec's alignment), not copied out into the default layout.
struct LayoutsSeen {
  int frames = 0;
  bool last_in_decoders_layout = false;
};

GstPadProbeReturn RecordLayout(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  auto* seen = static_cast<LayoutsSeen*>(data);
  GstCaps* caps = gst_pad_get_current_caps(pad);
  GstVideoInfo vinfo;
  const bool known = caps && gst_video_info_from_caps(&vinfo, caps);
  if (caps) gst_caps_unref(caps);
  const GstVideoMeta* meta = gst_buffer_get_video_meta(GST_PAD_PROBE_INFO_BUFFER(info));
  seen->last_in_decoders_layout = known && meta && meta->offset[1] != GST_VIDEO_INFO_PLANE_OFFSET(&vinfo, 1);
  ++seen->frames;
  return GST_PAD_PROBE_OK;
}

// The pipeline and every element in it end with the pipeline's last
// reference. A message a bus handler drops holds its elements until freed:
// one never freed kept them, and with them a decoder and a CUDA context,
// after each restart of a monitored stream.
void ExpectElementsEndWithThePipeline(GstElement* pipeline, const char* what) {
  std::vector<std::pair<std::unique_ptr<GWeakRef>, std::string>> watched;
  auto watch = [&](GstElement* element) {
    auto weak = std::make_unique<GWeakRef>();
    g_weak_ref_init(weak.get(), element);
    gchar* name = gst_object_get_path_string(GST_OBJECT(element));
    watched.emplace_back(std::move(weak), name);
    g_free(name);
  };
  watch(pipeline);
  GstIterator* elements = gst_bin_iterate_recurse(GST_BIN(pipeline));
  GValue item = G_VALUE_INIT;
  while (gst_iterator_next(elements, &item) == GST_ITERATOR_OK) {
    watch(GST_ELEMENT(g_value_get_object(&item)));
    g_value_reset(&item);
  }
  g_value_unset(&item);
  gst_iterator_free(elements);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  for (auto& [weak, name] : watched) {
    if (GObject* alive = cudahist_test::AliveAfter(weak.get())) {
      ADD_FAILURE() << what << ": " << name << " outlived the pipeline's last reference by 5 s, "
                    << (alive->ref_count - 1) << " reference(s) held";
      g_object_unref(alive);
    }
    g_weak_ref_clear(weak.get());
  }
}

// Pipelines run to their end on a short raw clip.
class RunningAnalysisPipelineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { gst_init(nullptr, nullptr); }

  void SetUp() override {
    gchar* dir = g_dir_make_tmp("analysis-pipeline-XXXXXX", nullptr);
    ASSERT_NE(dir, nullptr);
    dir_ = dir;
    g_free(dir);
    // Raw video in Matroska: decoded without a decoder, so the element uploads system memory.
    clip_ = WriteClip("raw.mkv", nullptr, 5);
    ASSERT_FALSE(clip_.empty());
  }

  void TearDown() override {
    for (GstElement* pipeline : pipelines_) {
      gst_element_set_state(pipeline, GST_STATE_NULL);
      gst_object_unref(pipeline);
    }
    for (const std::string& path : written_) g_unlink(path.c_str());
    if (!dir_.empty()) g_rmdir(dir_.c_str());
  }

  // Plays `pipeline` to its end of stream; counts the contexts its elements made themselves.
  static bool RunToEnd(GstElement* pipeline, int* contexts_made) {
    if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) return false;
    GstBus* bus = gst_element_get_bus(pipeline);
    bool ended = false;
    while (GstMessage* message = gst_bus_timed_pop(bus, 30 * GST_SECOND)) {
      const GstMessageType type = GST_MESSAGE_TYPE(message);
      if (type == GST_MESSAGE_HAVE_CONTEXT && contexts_made) ++*contexts_made;
      ended = type == GST_MESSAGE_EOS;
      const bool last = type == GST_MESSAGE_EOS || type == GST_MESSAGE_ERROR;
      if (type == GST_MESSAGE_ERROR) ADD_FAILURE() << cudahist_tools::ErrorText(message);
      gst_message_unref(message);
      if (last) break;
    }
    gst_object_unref(bus);
    return ended;
  }

  // The CUDA context the pipeline's analysis element holds (it answers context queries with it).
  static GstCudaContext* ContextOfAnalysis(GstElement* pipeline) {
    GstElement* analysis = gst_bin_get_by_name(GST_BIN(pipeline), "analysis");
    GstQuery* query = gst_query_new_context(GST_CUDA_CONTEXT_TYPE);
    GstCudaContext* cuda = nullptr;
    if (gst_element_query(analysis, query)) {
      GstContext* context = nullptr;
      gst_query_parse_context(query, &context);
      if (context)
        gst_structure_get(gst_context_get_structure(context), GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &cuda,
                          nullptr);
    }
    gst_query_unref(query);
    gst_object_unref(analysis);
    return cuda;
  }

  // Builds the CPU path's analysis pipeline of `clip` for `target`, with
  // `probe` on the analysis's sink pad, and plays it to its end; false
  // (with the failure added) where it could not.
  bool RunAnalysis(const std::string& clip, const cudahist_tools::AnalysisTarget& target, GstPadProbeCallback probe,
                   gpointer data) {
    std::string problem;
    const std::string uri = cudahist_tools::InputUri(clip, &problem);
    EXPECT_FALSE(uri.empty()) << problem;
    cudahist_tools::AnalysisPipeline parts = cudahist_tools::BuildAnalysisPipeline(uri, target, "run", &problem);
    EXPECT_NE(parts.pipeline, nullptr) << problem;
    if (!parts.pipeline) return false;
    pipelines_.push_back(parts.pipeline);
    GstPad* sink = gst_element_get_static_pad(parts.analysis, "sink");
    gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_BUFFER, probe, data, nullptr);
    gst_object_unref(sink);
    const bool ended = RunToEnd(parts.pipeline, nullptr);
    gst_element_set_state(parts.pipeline, GST_STATE_NULL);  // its threads leave their tasks
    return ended;
  }

  // The policy the analysis ran under, on the CPU path, for a live source or not.
  int AnalysisThreadPolicy(bool live) {
    cudahist_tools::AnalysisTarget target;
    target.live = live;
    int policy = -1;
    EXPECT_TRUE(RunAnalysis(clip_, target, RecordPolicy, &policy));
    return policy;
  }

  // Writes `frames` frames of 64x48 I420, through `encoder` where one is
  // named, into Matroska as `name` in the test's folder; "" (with the failure
  // added) where it could not.
  std::string WriteClip(const char* name, const char* encoder, int frames) {
    const std::string path = dir_ + "/" + name;
    const std::string launch = "videotestsrc num-buffers=" + std::to_string(frames) +
                               " ! video/x-raw,format=I420,width=64,height=48 ! " +
                               (encoder ? std::string(encoder) + " ! " : std::string()) +
                               "matroskamux ! filesink location=\"" + path + "\"";
    GstElement* writer = gst_parse_launch(launch.c_str(), nullptr);
    EXPECT_NE(writer, nullptr) << launch;
    if (!writer) return "";
    written_.push_back(path);
    const bool written = RunToEnd(writer, nullptr);
    EXPECT_TRUE(written) << launch;
    gst_element_set_state(writer, GST_STATE_NULL);
    gst_object_unref(writer);
    return written ? path : "";
  }

  std::string dir_, clip_;
  std::vector<std::string> written_;  // by WriteClip, removed in TearDown
  std::vector<GstElement*> pipelines_;
};

TEST_F(RunningAnalysisPipelineTest, APipelineRunToItsEndEndsWithItsLastReference) {
  std::string problem;
  const std::string uri = cudahist_tools::InputUri(clip_, &problem);
  ASSERT_FALSE(uri.empty()) << problem;
  cudahist_tools::AnalysisPipeline parts =
      cudahist_tools::BuildAnalysisPipeline(uri, cudahist_tools::AnalysisTarget{}, "run", &problem);
  ASSERT_NE(parts.pipeline, nullptr) << problem;
  EXPECT_TRUE(RunToEnd(parts.pipeline, nullptr));
  ExpectElementsEndWithThePipeline(parts.pipeline, "the CPU path");
}

// A file's analysis takes only the cores the decoders leave; a live source's does not wait for them.
TEST_F(RunningAnalysisPipelineTest, TheAnalysisOfAFileRunsOnIdleCoresOnlyAndOfALiveSourceAsUsual) {
  EXPECT_EQ(AnalysisThreadPolicy(false), SCHED_IDLE);
  EXPECT_EQ(AnalysisThreadPolicy(true), SCHED_OTHER);
}

// Behind a sink that takes any layout, a CPU decoder's own frames reach the
// analysis; behind one that does not, gst-libav copies each frame out of its
// pool on its one output thread, which slowed a lone ProRes decoder by a fifth.
TEST_F(RunningAnalysisPipelineTest, AGstLibavDecoderHandsTheFramesItDecodedIntoToTheAnalysis) {
  for (const char* factory : {"avenc_ffv1", "avdec_ffv1"}) {
    GstElementFactory* found = gst_element_factory_find(factory);
    if (!found) GTEST_SKIP() << factory << " is missing (gst-libav)";
    gst_object_unref(found);
  }
  const std::string clip = WriteClip("ffv1.mkv", "avenc_ffv1", 10);
  ASSERT_FALSE(clip.empty());
  LayoutsSeen seen;
  ASSERT_TRUE(RunAnalysis(clip, cudahist_tools::AnalysisTarget{}, RecordLayout, &seen));
  EXPECT_EQ(seen.frames, 10);
  EXPECT_TRUE(seen.last_in_decoders_layout);
}

// Pipelines run to their end on the GPU path, sharing the device's context.
class AnalysisPipelineOnGpuTest : public RunningAnalysisPipelineTest {
 protected:
  void SetUp() override {
    if (!cudahist_tools::ProbeBackend().gpu) GTEST_SKIP() << "no CUDA device";
    RunningAnalysisPipelineTest::SetUp();
  }
};

TEST_F(AnalysisPipelineOnGpuTest, ThePipelinesOfADeviceShareOneContextThatNoElementMakesItself) {
  cudahist_tools::AnalysisTarget target;
  target.gpu = true;
  std::string problem;
  const std::string uri = cudahist_tools::InputUri(clip_, &problem);
  ASSERT_FALSE(uri.empty()) << problem;
  int contexts_made = 0;
  std::vector<GstCudaContext*> contexts;
  for (const char* name : {"first", "second"}) {
    cudahist_tools::AnalysisPipeline parts = cudahist_tools::BuildAnalysisPipeline(uri, target, name, &problem);
    ASSERT_NE(parts.pipeline, nullptr) << problem;
    pipelines_.push_back(parts.pipeline);
    ASSERT_TRUE(RunToEnd(parts.pipeline, &contexts_made)) << name;
    contexts.push_back(ContextOfAnalysis(parts.pipeline));
  }
  EXPECT_EQ(contexts_made, 0);
  ASSERT_NE(contexts[0], nullptr);
  EXPECT_EQ(contexts[0], contexts[1]);
  for (GstCudaContext* context : contexts)
    if (context) gst_object_unref(context);
  // The elements asked for the shared context by a message the bus handler dropped.
  cudahist_tools::AnalysisPipeline parts = cudahist_tools::BuildAnalysisPipeline(uri, target, "third", &problem);
  ASSERT_NE(parts.pipeline, nullptr) << problem;
  EXPECT_TRUE(RunToEnd(parts.pipeline, nullptr));
  ExpectElementsEndWithThePipeline(parts.pipeline, "the GPU path");
}

}  // namespace
