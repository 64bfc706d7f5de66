// cudahistogram fed NV12 frames in CUDA memory by an application (appsrc),
// written the ways real producers write them:
//   - GStreamer 1.24+: on the producer's own CUDA stream, pushed at once
//     without synchronising (as nvh264dec, cudaupload, cudaconvert do). The
//     producer here queues a 20 ms busy kernel before the frame's final
//     bytes, so a count that does not wait for the producer's stream reads
//     the stale bytes that were there before, on every frame.
//   - any version: on no stream of its own, finished before it is pushed.
// And the ways a producer can get it wrong: a stream of another CUDA
// context, a stream destroyed under the memory, a frame still mapped for
// writing. Each must be a clear element error, never a count.
//
// GPU tests: each skips without a CUDA device.
#include <gst/app/gstappsrc.h>
#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "cuda_test.h"
#include "cudahist/histogrammer.h"
#include "element_test_util.h"
#include "gstcudahistogrammeta.h"
#include "producer.h"

namespace {

using cuda_input_test::CudaFrameProducer;
using cuda_input_test::ExpectedNv12Counts;
using cuda_input_test::Nv12Values;
using cuda_input_test::ProducerStream;

constexpr int kWidth = 1920, kHeight = 1080;
constexpr int kFrames = 8;
constexpr uint64_t kSlowWriteNs = 20'000'000;  // far longer than a count takes
constexpr Nv12Values kStale = {0, 0};

// Frame f's final bytes: a different value per frame and plane.
Nv12Values FinalValues(int f) { return {uint8_t(40 + 20 * f), uint8_t(200 - 10 * f)}; }

// What reached the sink (each frame's meta counts) and the error, if any.
struct Outcome {
  std::vector<std::vector<uint32_t>> counts;
  std::string error;
};

GstPadProbeReturn KeepCounts(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* counts = static_cast<std::vector<std::vector<uint32_t>>*>(data);
  const GstCudaHistogramMeta* m = gst_buffer_get_cuda_histogram_meta(GST_PAD_PROBE_INFO_BUFFER(info));
  counts->push_back(m ? element_test::MetaCounts(m) : std::vector<uint32_t>());
  return GST_PAD_PROBE_OK;
}

// Pushes up to `frames` buffers made by `make` through
//   appsrc ! cudahistogram post-messages=false ! fakesink
// with the producer's CUDA context shared with the element, as neighbouring
// CUDA elements share theirs. Stops early when `make` fails.
Outcome PushFrames(const CudaFrameProducer& producer, int frames,
            const std::function<GstBuffer*(int, std::string*)>& make) {
  Outcome out;
  GError* parse_error = nullptr;
  GstElement* pipeline = gst_parse_launch(
      "appsrc name=src format=time ! cudahistogram post-messages=false ! fakesink name=sink sync=false",
      &parse_error);
  if (pipeline == nullptr) {
    out.error = std::string("pipeline: ") + (parse_error ? parse_error->message : "?");
    g_clear_error(&parse_error);
    return out;
  }
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstCaps* caps = producer.NewCaps();
  gst_app_src_set_caps(GST_APP_SRC(src), caps);
  gst_caps_unref(caps);
  GstContext* context = gst_context_new_cuda_context(producer.context());
  gst_element_set_context(pipeline, context);
  gst_context_unref(context);
  GstPad* pad = gst_element_get_static_pad(sink, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, KeepCounts, &out.counts, nullptr);
  gst_object_unref(pad);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  for (int f = 0; f < frames; ++f) {
    std::string why;
    GstBuffer* buffer = make(f, &why);
    if (buffer == nullptr) {
      out.error = "producer: " + why;
      break;
    }
    GST_BUFFER_PTS(buffer) = gst_util_uint64_scale_int(GST_SECOND, f, 30);
    GST_BUFFER_DURATION(buffer) = gst_util_uint64_scale_int(GST_SECOND, 1, 30);
    if (gst_app_src_push_buffer(GST_APP_SRC(src), buffer) != GST_FLOW_OK) break;  // flushing: an error follows
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* m = gst_bus_timed_pop_filtered(bus, 30 * GST_SECOND,
                                             GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  if (m == nullptr && out.error.empty()) out.error = "timeout";
  if (m != nullptr && GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR && out.error.empty()) out.error = element_test::ErrorText(m);
  if (m != nullptr) gst_message_unref(m);
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return out;
}

void ExpectEveryFrameFinal(const Outcome& out, int frames) {
  EXPECT_EQ(out.error, "");
  ASSERT_EQ(out.counts.size(), size_t(frames));
  for (int f = 0; f < frames; ++f) {
    const std::vector<uint32_t> want = ExpectedNv12Counts(kWidth, kHeight, FinalValues(f));
    const std::vector<uint32_t>& got = out.counts[size_t(f)];
    ASSERT_EQ(got.size(), want.size()) << "frame " << f << " has no meta of 3 x 256 counts";
    const Nv12Values v = FinalValues(f);
    EXPECT_TRUE(got == want) << "frame " << f << ": Y count at its final value " << int(v.y) << " is "
                             << got[v.y] << " of " << want[v.y] << ", at the stale value " << int(kStale.y)
                             << " " << got[kStale.y] << " (counted before the producer finished)";
  }
}

std::unique_ptr<CudaFrameProducer> MakeProducer(ProducerStream stream) {
  std::string why;
  std::unique_ptr<CudaFrameProducer> p = CudaFrameProducer::Create(kWidth, kHeight, stream, &why);
  EXPECT_NE(p, nullptr) << why;
  return p;
}

// A producer without a stream of its own finishes each frame before pushing
// it (GStreamer 1.22's way, and 1.24+ producers that synchronise): the count
// sees the final bytes on the plain path.
TEST(CudaInput, ProducerThatFinishesBeforePushingIsCountedAsWritten) {
  SKIP_WITHOUT_CUDA_DEVICE();
  auto producer = MakeProducer(ProducerStream::kNone);
  ASSERT_NE(producer, nullptr);
  ExpectEveryFrameFinal(PushFrames(*producer, kFrames, [&](int f, std::string* why) {
                          return producer->SlowFrame(kStale, FinalValues(f), kSlowWriteNs, why);
                        }),
                        kFrames);
}

// A frame its producer still holds mapped for writing cannot be read: an
// element error, no count.
TEST(CudaInput, FrameStillMappedForWritingIsAnElementError) {
  SKIP_WITHOUT_CUDA_DEVICE();
  auto producer = MakeProducer(ProducerStream::kNone);
  ASSERT_NE(producer, nullptr);
  GstMemory* held = nullptr;
  GstMapInfo map;
  const Outcome out = PushFrames(*producer, 1, [&](int, std::string* why) {
    GstBuffer* b = producer->SlowFrame(kStale, FinalValues(0), 0, why);
    if (b == nullptr) return b;
    held = gst_memory_ref(gst_buffer_peek_memory(b, 0));
    if (!gst_memory_map(held, &map, GstMapFlags(GST_MAP_WRITE | GST_MAP_CUDA))) {
      *why = "the test could not map its own frame";
      gst_clear_buffer(&b);
    }
    return b;
  });
  ASSERT_NE(held, nullptr);
  gst_memory_unmap(held, &map);
  gst_memory_unref(held);
  EXPECT_NE(out.error.find("Could not map the video frame"), std::string::npos) << out.error;
  EXPECT_TRUE(out.counts.empty());
}

#if GST_CHECK_VERSION(1, 24, 0)

// The producer race that stream ordering fixes: each frame is pushed while the producer's stream is
// still 20 ms away from writing it. Every count must be of the final bytes.
TEST(StreamOrder, CountsWaitForTheProducersPendingWrite) {
  SKIP_WITHOUT_CUDA_DEVICE();
  auto producer = MakeProducer(ProducerStream::kOwn);
  ASSERT_NE(producer, nullptr);
  ExpectEveryFrameFinal(PushFrames(*producer, kFrames, [&](int f, std::string* why) {
                          GstBuffer* b = producer->SlowFrame(kStale, FinalValues(f), kSlowWriteNs, why);
                          if (b != nullptr) {
                            GstMemory* mem = gst_buffer_peek_memory(b, 0);
                            EXPECT_NE(gst_cuda_memory_get_stream(GST_CUDA_MEMORY_CAST(mem)), nullptr)
                                << "the producer's frame carries no stream: the race is not exercised";
                            EXPECT_TRUE(GST_MEMORY_FLAG_IS_SET(mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC));
                          }
                          return b;
                        }),
                        kFrames);
}

// A frame whose memory says it was written on a stream of another CUDA
// context: no event can order the count after it. An element error.
TEST(StreamOrder, ProducerStreamOfAnotherContextIsAnElementError) {
  SKIP_WITHOUT_CUDA_DEVICE();
  auto producer = MakeProducer(ProducerStream::kNone);
  ASSERT_NE(producer, nullptr);
  GstCudaContext* other = gst_cuda_context_new(0);
  ASSERT_NE(other, nullptr);
  ASSERT_NE(gst_cuda_context_get_handle(other), gst_cuda_context_get_handle(producer->context()))
      << "gst_cuda_context_new gave the same CUDA context twice";
  GstCudaStream* foreign = gst_cuda_stream_new(other);
  ASSERT_NE(foreign, nullptr);
  const Outcome out = PushFrames(*producer, 1, [&](int, std::string* why) {
    return producer->FrameClaimingStream(foreign, FinalValues(0), why);
  });
  EXPECT_NE(out.error.find("belongs to another CUDA context"), std::string::npos) << out.error;
  EXPECT_TRUE(out.counts.empty());
  gst_cuda_stream_unref(foreign);
  gst_object_unref(other);
}

// A frame whose producer stream was destroyed under it (CuStreamDestroy on
// the handle its GstCudaStream holds): CUDA refuses the event, and the
// element says so instead of counting.
TEST(StreamOrder, DestroyedProducerStreamIsAnElementError) {
  SKIP_WITHOUT_CUDA_DEVICE();
  auto producer = MakeProducer(ProducerStream::kNone);
  ASSERT_NE(producer, nullptr);
  GstCudaStream* stream = gst_cuda_stream_new(producer->context());
  ASSERT_NE(stream, nullptr);
  ASSERT_TRUE(gst_cuda_context_push(producer->context()));
  ASSERT_EQ(CuStreamDestroy(gst_cuda_stream_get_handle(stream)), CUDA_SUCCESS);
  gst_cuda_context_pop(nullptr);
  GstBuffer* held = nullptr;
  const Outcome out = PushFrames(*producer, 1, [&](int, std::string* why) {
    GstBuffer* b = producer->FrameClaimingStream(stream, FinalValues(0), why);
    if (b != nullptr) held = gst_buffer_ref(b);
    return b;
  });
  EXPECT_NE(out.error.find("producer's CUDA stream"), std::string::npos) << out.error;
  EXPECT_TRUE(out.counts.empty());
  // gst-cuda would synchronise and destroy the dead handle when the memory
  // and the stream go: the pending mark is cleared and one reference kept.
  if (held != nullptr) {
    GST_MEMORY_FLAG_UNSET(gst_buffer_peek_memory(held, 0), GST_CUDA_MEMORY_TRANSFER_NEED_SYNC);
    gst_buffer_unref(held);
  }
}

#endif  // GST_CHECK_VERSION(1, 24, 0)

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
