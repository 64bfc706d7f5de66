// Helpers of the element tests: the plugin lookup, frames of random bytes,
// the expected counts computed independently of the element, bus messages.
//
// The expected counts do not reuse the element's format mapping: each row is
// decoded by GStreamer's own unpack function (to AYUV/ARGB or their 64-bit
// forms, high bits kept: GST_VIDEO_PACK_FLAG_TRUNCATE_RANGE), subsampled
// components are taken once per sample from the unpacked rows, and
// cudahist::ReferenceHistogram counts those samples.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cudahist/cpu.h"

namespace element_test {

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

// The next element message called "cudahistogram" on `bus`, or nullptr.
GstMessage* PopHistogramMessage(GstBus* bus);
// The text and debug string of the next error on `bus`, or "" when none.
std::string PopErrorText(GstBus* bus);

// Field `field` of a message structure: one array of counts per component.
std::vector<std::vector<uint64_t>> MessageHistograms(const GstStructure* s);
std::vector<std::string> MessageStrings(const GstStructure* s, const char* field);
std::vector<double> MessageDoubles(const GstStructure* s, const char* field);

}  // namespace element_test
