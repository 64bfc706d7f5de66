// Frames laid out by their GstVideoMeta: planes packed tighter than the
// caps' default layout, as FFmpeg packs them (rawvideoparse with
// plane-strides/plane-offsets/frame-size, or an appsrc fed from FFmpeg), are
// counted as the same pixels in the default layout; a buffer too small for
// the layout its meta describes, or a meta that contradicts the caps, is a
// clear error.
#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "element_test_util.h"
#include "gstcudahistogrammeta.h"

using namespace element_test;

namespace element_test {
void PrintTo(const TightLayout& layout, std::ostream* out) {
  *out << gst_video_format_to_string(layout.format) << " " << layout.width << "x" << layout.height << ", "
       << layout.Size() << " bytes";
}
}  // namespace element_test

namespace {

const std::vector<TightLayout>& kLayouts = OddTightLayouts();
// The layouts of YUV formats, which signalstats reads.
const TightLayout kYuvLayouts[] = {kLayouts[0], kLayouts[1], kLayouts[2]};

std::string LayoutName(const ::testing::TestParamInfo<TightLayout>& p) {
  return gst_video_format_to_string(p.param.format);
}

std::vector<uint32_t> CountsOf(GstBuffer* buffer) {
  const GstCudaHistogramMeta* m = gst_buffer_get_cuda_histogram_meta(buffer);
  if (m == nullptr) return {};
  return std::vector<uint32_t>(m->counts, m->counts + size_t(m->bins) * m->n_components);
}

std::vector<uint32_t> ReferenceCounts(const GstVideoInfo& info, GstBuffer* frame) {
  return ExpectedCounts(info, frame, 256, AllComponentsFor(info, 256), FrameRoi()).counts;
}

// The message each frame of `frames` gets from a cudahistogram with
// `properties` (frames pushed in turn, 1/25 s apart).
std::vector<GstStructure*> Messages(const std::string& properties, const GstVideoInfo& info,
                                    const std::vector<GstBuffer*>& frames) {
  Harness hx(properties);
  hx.SetCaps(info);
  std::vector<GstStructure*> messages;
  for (size_t i = 0; i < frames.size(); ++i) {
    const GstFlowReturn pushed = hx.Push(frames[i], i * kFrame, kFrame);
    EXPECT_EQ(pushed, GST_FLOW_OK) << PopErrorText(hx.bus());
    if (pushed != GST_FLOW_OK) break;
    gst_buffer_unref(gst_harness_pull(hx.h()));
    GstMessage* m = PopHistogramMessage(hx.bus());
    if (m == nullptr) continue;
    messages.push_back(gst_structure_copy(gst_message_get_structure(m)));
    gst_message_unref(m);
  }
  return messages;
}

class TightLayouts : public ::testing::TestWithParam<TightLayout> {};
class TightYuvLayouts : public ::testing::TestWithParam<TightLayout> {};
class TightCudaLayouts : public ::testing::TestWithParam<TightLayout> {};
class TightUploadLayouts : public ::testing::TestWithParam<TightLayout> {};

// Packed 4:2:2 rows are whole 4-byte pairs of pixels in both layouts: there
// only the meta's presence differs.
TEST_P(TightLayouts, AreTighterThanTheCapsDefault) {
  const TightLayout& layout = GetParam();
  const GstVideoInfo info = layout.Info();
  if (layout.format == GST_VIDEO_FORMAT_YUY2) {
    EXPECT_EQ(layout.Size(), GST_VIDEO_INFO_SIZE(&info));
  } else {
    EXPECT_LT(layout.Size(), GST_VIDEO_INFO_SIZE(&info));
  }
  if (layout.format == GST_VIDEO_FORMAT_I420) {
    EXPECT_EQ(layout.Size(), 38667u);
    EXPECT_EQ(GST_VIDEO_INFO_SIZE(&info), 39312u);
  }
}

// A random frame of `layout` (seeded by `seed`) pushed packed tight through
// a cudahistogram with `properties`: the counts of the same pixels in the
// default layout.
void ExpectTightFrameCountedAsPlain(const TightLayout& layout, const std::string& properties, uint64_t seed) {
  const GstVideoInfo info = layout.Info();
  GstBuffer* plain = nullptr;
  GstBuffer* tight = RandomTightFrame(layout, seed, &plain);
  ASSERT_NE(tight, nullptr);
  Harness hx(properties);
  hx.SetCaps(info);
  ASSERT_EQ(hx.Push(tight, 0, kFrame), GST_FLOW_OK) << PopErrorText(hx.bus());
  GstBuffer* out = gst_harness_pull(hx.h());
  EXPECT_EQ(CountsOf(out), ReferenceCounts(info, plain));
  gst_buffer_unref(out);
  gst_buffer_unref(tight);
  gst_buffer_unref(plain);
}

TEST_P(TightLayouts, CountsEqualTheReferenceOfTheSameFrameInTheDefaultLayout) {
  ExpectTightFrameCountedAsPlain(GetParam(), "", 333);
}

// The previous frame of signalstats' DIF is mapped again through its meta:
// every message of a tight run equals the plain run's.
TEST_P(TightYuvLayouts, SignalStatsEqualAPlainLayoutRunOfTheSamePixels) {
  const TightLayout& layout = GetParam();
  const GstVideoInfo info = layout.Info();
  std::mt19937_64 rng(77);
  std::vector<GstBuffer*> plain, tight;
  for (int i = 0; i < 3; ++i) {
    plain.push_back(RandomFrame(info, rng));
    tight.push_back(TightCopy(layout, plain.back()));
  }
  const std::vector<GstStructure*> expected = Messages("signalstats=true", info, plain);
  const std::vector<GstStructure*> got = Messages("signalstats=true", info, tight);
  ASSERT_EQ(expected.size(), 3u);
  ASSERT_EQ(got.size(), 3u);
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(gst_structure_has_field(got[i], "y-dif"));
    EXPECT_TRUE(gst_structure_is_equal(got[i], expected[i]))
        << "frame " << i << "\n tight: " << gst_structure_to_string(got[i])
        << "\n plain: " << gst_structure_to_string(expected[i]);
  }
  for (GstStructure* s : expected) gst_structure_free(s);
  for (GstStructure* s : got) gst_structure_free(s);
  for (GstBuffer* b : plain) gst_buffer_unref(b);
  for (GstBuffer* b : tight) gst_buffer_unref(b);
}

INSTANTIATE_TEST_SUITE_P(SystemMemory, TightYuvLayouts, ::testing::ValuesIn(kYuvLayouts), LayoutName);

// The error a tight I420 frame gets after `damage` changed it.
template <typename Damage>
std::string ErrorOfDamagedFrame(Damage damage) {
  const TightLayout& layout = kLayouts[0];
  const GstVideoInfo info = layout.Info();
  GstBuffer* plain = nullptr;
  GstBuffer* tight = RandomTightFrame(layout, 1, &plain);
  damage(tight);
  Harness hx;
  hx.SetCaps(info);
  EXPECT_EQ(hx.Push(tight, 0, kFrame), GST_FLOW_ERROR);
  const std::string text = PopErrorText(hx.bus());
  EXPECT_EQ(PopHistogramMessage(hx.bus()), nullptr);
  gst_buffer_unref(tight);
  gst_buffer_unref(plain);
  return text;
}

TEST(TightLayoutErrors, ABufferShorterThanItsMetaLayoutIsAnError) {
  const std::string text = ErrorOfDamagedFrame([](GstBuffer* b) { gst_buffer_resize(b, 0, 38667 - 1); });
  EXPECT_NE(text.find("Buffer too small for the layout of its video meta"), std::string::npos) << text;
  EXPECT_NE(text.find("buffer holds 38666 bytes; plane 2"), std::string::npos) << text;
}

TEST(TightLayoutErrors, AMetaRowShorterThanAFrameRowIsAnError) {
  const std::string text =
      ErrorOfDamagedFrame([](GstBuffer* b) { gst_buffer_get_video_meta(b)->stride[0] = 332; });
  EXPECT_NE(text.find("Buffer's video meta has rows shorter than the frame's"), std::string::npos) << text;
}

TEST(TightLayoutErrors, AMetaOfAnotherSizeThanTheCapsIsAnError) {
  const std::string text = ErrorOfDamagedFrame([](GstBuffer* b) { gst_buffer_get_video_meta(b)->width = 332; });
  EXPECT_NE(text.find("Buffer's video meta does not describe a frame of its caps"), std::string::npos) << text;
}

// --- FFmpeg's frames through rawvideoparse --------------------------------------

const char* FfmpegPixelFormat(GstVideoFormat format) {
  switch (format) {
    case GST_VIDEO_FORMAT_I420: return "yuv420p";
    case GST_VIDEO_FORMAT_NV12: return "nv12";
    case GST_VIDEO_FORMAT_YUY2: return "yuyv422";
    default: return "rgb24";
  }
}

// `frames` frames of FFmpeg's testsrc in `layout`'s format and size, as
// FFmpeg writes raw video (packed tight) to `path`. Empty when ffmpeg failed.
std::vector<uint8_t> FfmpegFrames(const TightLayout& layout, int frames, const std::string& path) {
  const std::string command = "ffmpeg -v error -y -f lavfi -i testsrc=size=" + std::to_string(layout.width) + "x" +
                              std::to_string(layout.height) + ":rate=25 -frames:v " + std::to_string(frames) +
                              " -pix_fmt " + FfmpegPixelFormat(layout.format) + " -f rawvideo " + path;
  if (std::system(command.c_str()) != 0) return {};
  std::ifstream file(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

// A temporary folder, removed with what `name` names in it.
class TemporaryFile {
 public:
  explicit TemporaryFile(const char* name) : dir_(g_dir_make_tmp("tight-XXXXXX", nullptr)) {
    if (dir_ != nullptr) path_ = std::string(dir_) + "/" + name;
  }
  ~TemporaryFile() {
    if (dir_ == nullptr) return;
    g_remove(path_.c_str());
    g_rmdir(dir_);
    g_free(dir_);
  }
  const std::string& path() const { return path_; }

 private:
  gchar* dir_;
  std::string path_;
};

TEST_P(TightLayouts, FfmpegFramesThroughRawVideoParseEqualTheReference) {
  const TightLayout& layout = GetParam();
  const GstVideoInfo info = layout.Info();
  const TemporaryFile file("frames.raw");
  const std::string& path = file.path();
  const std::vector<uint8_t> bytes = FfmpegFrames(layout, 3, path);
  ASSERT_EQ(bytes.size(), 3 * layout.Size()) << "ffmpeg did not write 3 frames packed as the layout says";
  GstElement* p = Launch("filesrc location=" + path + " ! " + layout.RawVideoParse() + " ! cudahistogram ! fakesink");
  ASSERT_NE(p, nullptr);
  std::vector<GstMessage*> messages;
  EXPECT_EQ(RunToEnd(p, &messages), "");
  ASSERT_EQ(messages.size(), 3u);
  for (size_t i = 0; i < messages.size(); ++i) {
    GstBuffer* frame = TightFrame(layout, bytes.data() + i * layout.Size());
    const std::vector<uint32_t> reference = ReferenceCounts(info, frame);
    std::vector<uint32_t> got;
    for (const std::vector<uint64_t>& h : MessageHistograms(gst_message_get_structure(messages[i]))) {
      got.insert(got.end(), h.begin(), h.end());
    }
    EXPECT_EQ(got, reference) << "frame " << i;
    gst_buffer_unref(frame);
    gst_message_unref(messages[i]);
  }
  gst_object_unref(p);
}

// --- an application's appsrc ------------------------------------------------------

// The counts a cudahistogram attaches to `frame` (taken) pushed by an appsrc
// of `caps`; with `context` the pipeline shares that CUDA context.
std::vector<uint32_t> CountsThroughAppsrc(const std::string& caps, GstBuffer* frame, GstCudaContext* context) {
  GstElement* p = Launch("appsrc name=src caps=\"" + caps + "\" ! cudahistogram ! appsink name=sink emit-signals=true");
  if (p == nullptr) return {};
  if (context != nullptr) {
    GstContext* shared = gst_context_new_cuda_context(context);
    gst_element_set_context(p, shared);
    gst_context_unref(shared);
  }
  GstElement* src = gst_bin_get_by_name(GST_BIN(p), "src");
  // Started (PAUSED) before the push; the sink renders it once playing.
  gst_element_set_state(p, GST_STATE_PAUSED);
  GstFlowReturn pushed = GST_FLOW_OK;
  GST_BUFFER_PTS(frame) = 0;
  g_signal_emit_by_name(src, "push-buffer", frame, &pushed);
  gst_buffer_unref(frame);
  g_signal_emit_by_name(src, "end-of-stream", &pushed);
  std::vector<GstSample*> samples;
  std::vector<GstMessage*> messages;
  EXPECT_EQ(RunToSink(p, &samples, &messages), "");
  std::vector<uint32_t> counts;
  EXPECT_EQ(samples.size(), 1u);
  if (!samples.empty()) {
    GstBuffer* out = gst_sample_get_buffer(samples[0]);
    EXPECT_EQ(gst_is_cuda_memory(gst_buffer_peek_memory(out, 0)), context != nullptr)
        << "the frame did not stay in the memory it was pushed in";
    counts = CountsOf(out);
  }
  for (GstSample* s : samples) gst_sample_unref(s);
  for (GstMessage* m : messages) gst_message_unref(m);
  gst_object_unref(src);
  gst_object_unref(p);
  return counts;
}

// FFmpeg's frame as an application hands it to an appsrc: its bytes as they
// are, with a GstVideoMeta.
TEST_P(TightLayouts, FfmpegFramesFromAnAppsrcEqualTheReference) {
  const TightLayout& layout = GetParam();
  const GstVideoInfo info = layout.Info();
  const std::vector<uint8_t> bytes = FfmpegFrames(layout, 1, TemporaryFile("frame.raw").path());
  ASSERT_EQ(bytes.size(), layout.Size());
  GstBuffer* frame = TightFrame(layout, bytes.data());
  const std::vector<uint32_t> reference = ReferenceCounts(info, frame);
  EXPECT_EQ(CountsThroughAppsrc(CapsString(info), frame, nullptr), reference);
}

// --- CUDA memory (GPU host) --------------------------------------------------------

// A tight frame in GstCudaMemory whose size is the layout's (what an
// application wrapping FFmpeg's device frames hands on).
TEST_P(TightCudaLayouts, CountsEqualTheReferenceOfTheSameFrame) {
  SKIP_WITHOUT_CUDA();
  const TightLayout& layout = GetParam();
  const GstVideoInfo info = layout.Info();
  GstBuffer* plain = nullptr;
  GstBuffer* tight = RandomTightFrame(layout, 7, &plain);
  // gst-cuda's entry points are loaded on first use by its elements, not by a context of our own.
  ASSERT_TRUE(gst_cuda_load_library());
  GstCudaContext* context = gst_cuda_context_new(0);
  ASSERT_NE(context, nullptr);
  std::string why;
  GstBuffer* cuda = TightCudaCopy(context, layout, tight, &why);
  ASSERT_NE(cuda, nullptr) << why;
  ASSERT_EQ(gst_buffer_get_size(cuda), layout.Size());
  EXPECT_EQ(CountsThroughAppsrc(CudaCapsString(info), cuda, context), ReferenceCounts(info, plain));
  gst_object_unref(context);
  gst_buffer_unref(tight);
  gst_buffer_unref(plain);
}

// upload=true copies a tight system-memory frame into the element's own CUDA
// layout, reading it through its meta: the same counts.
TEST_P(TightUploadLayouts, CountsEqualTheReferenceOfTheSameFrame) {
  SKIP_WITHOUT_CUDA();
  ExpectTightFrameCountedAsPlain(GetParam(), "upload=true", 11);
}

INSTANTIATE_TEST_SUITE_P(SystemMemory, TightLayouts, ::testing::ValuesIn(kLayouts), LayoutName);
INSTANTIATE_TEST_SUITE_P(Gpu, TightCudaLayouts, ::testing::ValuesIn(kLayouts), LayoutName);
INSTANTIATE_TEST_SUITE_P(Gpu, TightUploadLayouts, ::testing::ValuesIn(kLayouts), LayoutName);

}  // namespace
