// The analysis pipeline's parts as BuildAnalysisPipeline sets them up (built,
// not started: no input is read).
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <string>

#include "analysis_pipeline.h"

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

}  // namespace
