// Helpers of the element tests (cudahistogram and cudavideoscope): the
// plugin lookup, frames of random bytes, the expected counts computed
// independently of the element, bus messages, harnesses and pipelines.
//
// The expected counts do not reuse the element's format mapping: each row is
// decoded by GStreamer's own unpack function (to AYUV/ARGB or their 64-bit
// forms, high bits kept: GST_VIDEO_PACK_FLAG_TRUNCATE_RANGE), subsampled
// components are taken once per sample from the unpacked rows, and
// cudahist::ReferenceHistogram counts those samples.
#pragma once

#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "cudahist/cpu.h"
#include "cudahist/signalstats.h"
#include "gstcudahistogrammeta.h"

namespace element_test {

// Fails the whole run at its start when GStreamer cannot find `factory`
// (GST_PLUGIN_PATH must name the folder holding libgstcudahistogram.so).
class PluginEnvironment : public ::testing::Environment {
 public:
  explicit PluginEnvironment(const char* factory) : factory_(factory) {}
  void SetUp() override;

 private:
  const char* factory_;
};

// A region of the full-resolution frame; width 0 = the whole frame.
struct FrameRoi {
  guint x = 0, y = 0, width = 0, height = 0;
};

struct Expected {
  std::vector<std::string> names;  // in GstVideoFormatInfo order
  std::vector<guint> depths;
  std::vector<uint32_t> counts;    // names.size() * bins, component-major
};

// The components an element with components="all" counts at `bins`: every
// component of the format with at least `bins` code values.
std::vector<guint> AllComponentsFor(const GstVideoInfo& info, guint bins);

// Counts of components `components` (indices in GstVideoFormatInfo order) of
// the frame in `buffer`, over `roi` (already clipped to the frame).
Expected ExpectedCounts(const GstVideoInfo& info, GstBuffer* buffer, guint bins,
                        const std::vector<guint>& components, const FrameRoi& roi);

// A buffer of info.size random bytes (padding and unused bits included).
GstBuffer* RandomFrame(const GstVideoInfo& info, std::mt19937_64& rng);

GstVideoInfo VideoInfo(GstVideoFormat format, guint width, guint height);
std::string CapsString(const GstVideoInfo& info);
// The same caps in CUDA memory (video/x-raw(memory:CUDAMemory)).
std::string CudaCapsString(const GstVideoInfo& info);

// A frame size of the format-by-size test matrices, and the matrices' test
// names: FORMAT_WxH.
struct SizeCase {
  guint width, height;
};
std::string FormatAndSizeName(const ::testing::TestParamInfo<std::tuple<GstVideoFormat, SizeCase>>& p);
// The format matrices' test names: FORMAT.
std::string FormatName(const ::testing::TestParamInfo<GstVideoFormat>& p);

// The meta's counts, component-major.
std::vector<uint32_t> MetaCounts(const GstCudaHistogramMeta* m);

// The next element message called "cudahistogram" on `bus`, or nullptr.
GstMessage* PopHistogramMessage(GstBus* bus);
// The text and debug string of the error message `error`.
std::string ErrorText(GstMessage* error);
// The text and debug string of the next error on `bus`, or "" when none.
std::string PopErrorText(GstBus* bus);

// Field `field` of a message structure: one array of counts per component.
std::vector<std::vector<uint64_t>> MessageHistograms(const GstStructure* s);
// A region's or object's `counts` (one GBytes of guint64, component-major)
// as one vector per component of `bins` counts.
std::vector<std::vector<uint64_t>> MessageRegionCounts(const GstStructure* region, guint bins);
std::vector<std::string> MessageStrings(const GstStructure* s, const char* field);
// Field `field` of a message structure that holds structures (the regions'
// and objects'): pointers into the message, valid while it lives.
std::vector<const GstStructure*> MessageStructures(const GstStructure* s, const char* field);
std::vector<double> MessageDoubles(const GstStructure* s, const char* field);

// signalstats' figures of the frame in `buffer` (a YUV format of 8 to 10
// bits) over `roi`, against `previous` (a frame of the same caps) or none:
// cudahist::ReferenceSignalStats of the samples GStreamer's unpack function
// gives, taken as ExpectedCounts takes them.
cudahist::SignalStatsFigures ExpectedSignalStats(const GstVideoInfo& info, GstBuffer* buffer,
                                                 GstBuffer* previous, const FrameRoi& roi);

// The QC figures (TOUT, VREP, cropdetect, field PSNR) of the frame in
// `buffer` over `roi`: cudahist::ReferenceQcCounts of the same samples.
cudahist::QcFigures ExpectedQcFigures(const GstVideoInfo& info, GstBuffer* buffer, const FrameRoi& roi);

// A harness around one cudahistogram with a bus to catch its messages.
class Harness {
 public:
  // `factory`: another element of the plugin in its place (cudavideoscope).
  explicit Harness(const std::string& properties = "", const char* factory = "cudahistogram") {
    h_ = gst_harness_new_parse((std::string(factory) + " " + properties).c_str());
    element_ = gst_harness_find_element(h_, factory);
    bus_ = gst_bus_new();
    gst_element_set_bus(h_->element, bus_);
  }
  ~Harness() {
    gst_element_set_bus(h_->element, nullptr);
    gst_object_unref(element_);
    gst_harness_teardown(h_);
    gst_object_unref(bus_);
  }
  GstHarness* h() { return h_; }
  GstBus* bus() { return bus_; }
  GstElement* element() { return element_; }

  void SetCaps(const GstVideoInfo& info) {
    gst_harness_set_src_caps_str(h_, CapsString(info).c_str());
  }
  // Pushes `frame` (a reference is kept by the caller) with the given timing.
  GstFlowReturn Push(GstBuffer* frame, GstClockTime pts, GstClockTime duration) {
    GstBuffer* b = gst_buffer_ref(frame);
    b = gst_buffer_make_writable(b);
    GST_BUFFER_PTS(b) = pts;
    GST_BUFFER_DURATION(b) = duration;
    return gst_harness_push(h_, b);
  }

 private:
  GstHarness* h_;
  GstElement* element_;  // the element inside the harness's bin
  GstBus* bus_;
};

constexpr GstClockTime kFrame = GST_SECOND / 25;

// Negotiation or the first frame with `properties` on `info` fails (an
// expectation) with an element error: its text and debug string.
std::string RefusedWith(const std::string& properties, const GstVideoInfo& info);

// A pipeline from gst-launch syntax (a failed parse fails the test).
GstElement* Launch(const std::string& description);
// Runs to EOS (or error); returns the error text, "" on EOS. The
// "cudahistogram" messages are appended to `histograms`, and the texts of
// warnings to `warnings` when given.
std::string RunToEnd(GstElement* pipeline, std::vector<GstMessage*>* histograms,
                     std::vector<std::string>* warnings = nullptr);

// False, with `why`, without a CUDA device or cudaupload and cudadownload.
bool CudaPipelinesAvailable(std::string* why);
#define SKIP_WITHOUT_CUDA()                                                   \
  do {                                                                        \
    std::string why_;                                                         \
    if (!::element_test::CudaPipelinesAvailable(&why_)) GTEST_SKIP() << why_; \
  } while (0)

// RunToEnd for a pipeline ending in "appsink name=sink emit-signals=true":
// the samples the sink received are appended to `samples` too.
std::string RunToSink(GstElement* pipeline, std::vector<GstSample*>* samples,
                      std::vector<GstMessage*>* histograms);

// The frame in `buffer` (CUDA memory) copied plane by plane from its device
// pointers into a system-memory buffer laid out as `info` says. Not a plain
// GST_MAP_READ: on the H200 host gst-cuda 1.22's host copy of an I420 frame
// did not match its device planes (the V plane read back as zeros), so the
// oracle takes the bytes the kernels read.
GstBuffer* DownloadPlanes(const GstVideoInfo& info, GstBuffer* buffer);

// The frame of `sample`, which must be in CUDA memory (the GPU path was
// taken), copied to `*host` by DownloadPlanes, and its caps as `*info`.
// Fails the test (fatally: wrap in ASSERT_NO_FATAL_FAILURE) otherwise.
void CopyCudaFrameToHost(GstSample* sample, GstVideoInfo* info, GstBuffer** host);

// A frame's planes packed as FFmpeg packs them (av_image_fill_arrays with
// alignment 1): each plane's rows back to back, `strides[p]` bytes each,
// `rows[p]` rows, the planes one after the other. Written out per case, not
// computed by the element's rules.
struct TightLayout {
  GstVideoFormat format;
  guint width;
  guint height;
  std::vector<gint> strides;
  std::vector<guint> rows;

  gsize Offset(guint plane) const;
  gsize Size() const { return Offset(guint(strides.size())); }
  GstVideoInfo Info() const { return VideoInfo(format, width, height); }
  // rawvideoparse's properties for this layout (format, size, plane-strides,
  // plane-offsets, frame-size).
  std::string RawVideoParse() const;
};

// Odd sizes of a planar (I420), a semi-planar (NV12) and two packed formats
// (YUY2, RGB). The I420 frame takes 38,667 bytes where the caps' default
// layout takes 39,312.
const std::vector<TightLayout>& OddTightLayouts();

// The frame in `plain` (laid out as the caps' default `layout.Info()`)
// copied into a new buffer laid out as `layout`, with a GstVideoMeta that
// says so.
GstBuffer* TightCopy(const TightLayout& layout, GstBuffer* plain);

// A frame of random bytes in the caps' default layout (*plain, a new
// buffer) and the same frame laid out as `layout` (returned).
GstBuffer* RandomTightFrame(const TightLayout& layout, uint64_t seed, GstBuffer** plain);

// `bytes` (`layout.Size()` of them: one FFmpeg frame) in a new buffer with a
// GstVideoMeta of `layout`.
GstBuffer* TightFrame(const TightLayout& layout, const uint8_t* bytes);

// The bytes of `tight` (a buffer laid out as `layout`) in GstCudaMemory of
// `context` whose size is the layout's, with the same GstVideoMeta: what an
// application that wraps FFmpeg's device frames hands on. nullptr with `why`.
GstBuffer* TightCudaCopy(GstCudaContext* context, const TightLayout& layout, GstBuffer* tight, std::string* why);

}  // namespace element_test
