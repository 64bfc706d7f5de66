// End to end on a real decoder: an H.264 clip (4:2:0, 1080p, made with
// x264enc) decoded by nvh264dec straight into CUDA memory. One branch counts
// the CUDA frames on the GPU; the other downloads the same frames with
// cudadownload and counts them through the system-memory path (CPU backend).
// Every frame's meta must agree between the two, and with the CPU reference
// computed here from the downloaded bytes.
//
// Needs a CUDA device and GStreamer's nvcodec plugin: skipped without them.
#include <gst/app/gstappsink.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cuda_test.h"
#include "cudahist/cpu.h"
#include "cudahist/histogrammer.h"
#include "gstcudahistogrammeta.h"

namespace {

using Counts = std::vector<uint32_t>;

struct FrameRecord {
  Counts meta_counts;       // from GstCudaHistogramMeta
  Counts reference_counts;  // ReferenceHistogram of the frame bytes (system-memory branch only)
  bool in_cuda_memory = false;
};

Counts MetaCounts(GstBuffer* buffer) {
  GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(buffer);
  if (!meta) return {};
  return Counts(meta->counts, meta->counts + size_t(meta->bins) * meta->n_components);
}

// The reference histogram of a mapped system-memory I420/NV12 frame, built
// from GstVideoInfo here rather than by the element's own mapping code.
Counts ReferenceCounts(GstBuffer* buffer, const GstVideoInfo& info, uint32_t bins) {
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, const_cast<GstVideoInfo*>(&info), buffer, GST_MAP_READ)) return {};
  const GstVideoFormatInfo* finfo = info.finfo;
  std::vector<cudahist::PlaneView> planes;
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS(finfo); ++c) {
    cudahist::PlaneView v;
    const guint plane = GST_VIDEO_FORMAT_INFO_PLANE(finfo, c);
    v.data = static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, plane));
    v.width = GST_VIDEO_FRAME_COMP_WIDTH(&frame, c);
    v.height = GST_VIDEO_FRAME_COMP_HEIGHT(&frame, c);
    v.pitch = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, plane);
    v.pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, c);
    v.offset = GST_VIDEO_FORMAT_INFO_POFFSET(finfo, c);
    v.sample_size = 1;
    v.depth = GST_VIDEO_FORMAT_INFO_DEPTH(finfo, c);
    planes.push_back(v);
  }
  cudahist::HistogramSpec spec;
  spec.bins = bins;
  Counts counts(size_t(bins) * planes.size());
  const cudahist::Status st =
      cudahist::ReferenceHistogram(spec, planes.data(), int(planes.size()), counts.data());
  gst_video_frame_unmap(&frame);
  return st.ok() ? counts : Counts{};
}

// Pulls every sample of `sink_name`, keyed by PTS, until EOS or until nothing
// arrives for 30 s (a pipeline error must fail the test, not hang it).
std::map<GstClockTime, FrameRecord> Drain(GstElement* pipeline, const char* sink_name,
                                           bool with_reference, uint32_t bins) {
  std::map<GstClockTime, FrameRecord> frames;
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), sink_name);
  while (GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 30 * GST_SECOND)) {
    GstBuffer* buffer = gst_sample_get_buffer(sample);
    FrameRecord& record = frames[GST_BUFFER_PTS(buffer)];
    record.in_cuda_memory = gst_is_cuda_memory(gst_buffer_peek_memory(buffer, 0));
    record.meta_counts = MetaCounts(buffer);
    if (with_reference) {
      GstVideoInfo info;
      gst_video_info_from_caps(&info, gst_sample_get_caps(sample));
      record.reference_counts = ReferenceCounts(buffer, info, bins);
    }
    gst_sample_unref(sample);
  }
  gst_object_unref(sink);
  return frames;
}

std::string MakeClip() {
  const char* given = std::getenv("CUDAHIST_TEST_CLIP");
  if (given && *given) return given;
  std::string path = std::string(g_get_tmp_dir()) + "/cudahist-decode-test.mp4";
  GError* error = nullptr;
  std::string desc =
      "videotestsrc num-buffers=45 pattern=smpte ! "
      "video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! "
      "x264enc speed-preset=ultrafast key-int-max=15 ! h264parse ! mp4mux ! filesink location=" + path;
  GstElement* p = gst_parse_launch(desc.c_str(), &error);
  if (!p) return {};
  gst_element_set_state(p, GST_STATE_PLAYING);
  GstBus* bus = gst_element_get_bus(p);
  GstMessage* m = gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND,
      GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  const bool ok = m && GST_MESSAGE_TYPE(m) == GST_MESSAGE_EOS;
  if (m) gst_message_unref(m);
  gst_object_unref(bus);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(p);
  return ok ? path : std::string();
}

class DecodeMatch : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_CUDA_DEVICE();
    for (const char* needed : {"nvh264dec", "cudadownload", "x264enc", "qtdemux"}) {
      GstElementFactory* f = gst_element_factory_find(needed);
      if (!f) GTEST_SKIP() << needed << " is not available (GStreamer nvcodec/ugly plugins)";
      gst_object_unref(f);
    }
    GstElementFactory* ours = gst_element_factory_find("cudahistogram");
    ASSERT_NE(ours, nullptr) << "cudahistogram not found: set GST_PLUGIN_PATH to the build's gst-plugin dir";
    gst_object_unref(ours);
  }
};

TEST_F(DecodeMatch, Nvh264decFramesMatchDownloadedFramesAndReference) {
  const std::string clip = MakeClip();
  ASSERT_FALSE(clip.empty()) << "could not make the H.264 test clip with x264enc";
  const uint32_t bins = 256;
  const std::string desc =
      "filesrc location=" + clip + " ! qtdemux ! h264parse ! nvh264dec ! "
      "video/x-raw(memory:CUDAMemory) ! tee name=t "
      "t. ! queue ! cudahistogram name=gpu ! appsink name=gpu_out sync=false "
      "t. ! queue ! cudadownload ! video/x-raw ! cudahistogram name=sys ! appsink name=sys_out sync=false";
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(desc.c_str(), &error);
  ASSERT_NE(pipeline, nullptr) << (error ? error->message : "parse failed");
  ASSERT_NE(gst_element_set_state(pipeline, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);

  // Drain both sinks concurrently: tee needs both branches to flow.
  std::map<GstClockTime, FrameRecord> gpu;
  std::thread gpu_drain([&] { gpu = Drain(pipeline, "gpu_out", false, bins); });
  const std::map<GstClockTime, FrameRecord> sys = Drain(pipeline, "sys_out", true, bins);
  gpu_drain.join();

  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* err = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  if (err) {
    GError* e = nullptr;
    gst_message_parse_error(err, &e, nullptr);
    ADD_FAILURE() << "pipeline error: " << e->message;
    g_error_free(e);
    gst_message_unref(err);
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);

  ASSERT_GE(gpu.size(), 30u) << "too few decoded frames reached the GPU branch";
  ASSERT_EQ(gpu.size(), sys.size());
  for (const auto& [pts, g] : gpu) {
    SCOPED_TRACE(testing::Message() << "frame pts " << pts);
    const auto it = sys.find(pts);
    ASSERT_NE(it, sys.end());
    ASSERT_TRUE(g.in_cuda_memory) << "the GPU branch's frame is not in CUDA memory";
    ASSERT_FALSE(it->second.in_cuda_memory) << "the system-memory branch's frame is in CUDA memory";
    ASSERT_FALSE(g.meta_counts.empty()) << "no meta on the GPU branch";
    ASSERT_FALSE(it->second.reference_counts.empty()) << "reference failed";
    EXPECT_EQ(g.meta_counts, it->second.meta_counts) << "GPU and system-memory paths differ";
    EXPECT_EQ(g.meta_counts, it->second.reference_counts) << "GPU path differs from the CPU reference";
  }
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
