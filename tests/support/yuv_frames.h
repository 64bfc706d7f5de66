// tests/support/yuv_frames.h: YUV frames for the signalstats tests, in the
// layouts of GStreamer's formats, built from the shared synthetic planes
// (test_planes.h): garbage in pitch padding and in the bytes of a packed word
// that are not the sample, unaligned starts, odd sizes, ROI.
#pragma once

#include <cudahist/signalstats.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "test_planes.h"

namespace cudahist_test {

enum class YuvFormat { kNv12, kNv21, kI420, kYv12, kP010, kI420_10, kY444, kY42b, kI422_10, kYuy2, kUyvy };
const char* YuvFormatName(YuvFormat format);
uint32_t YuvFormatDepth(YuvFormat format);  // bits a sample
std::vector<YuvFormat> AllYuvFormats();

struct YuvFrameSpec {
  YuvFormat format = YuvFormat::kNv12;
  uint32_t width = 1, height = 1;
  Distribution distribution = Distribution::kUniform;
  uint32_t one_value = 0;      // kOneValue: every sample (luma and chroma)
  size_t pitch_padding = 0;    // every plane
  size_t pitch_alignment = 0;  // every plane's pitch (with its padding) rounded up to a multiple (0: none)
  size_t base_offset = 0;      // every plane (rounded up to the sample size)
  bool has_roi = false;        // luma rectangle; chroma's follow (ChromaRoi)
  cudahist::Roi roi{};
};
std::string Describe(const YuvFrameSpec& spec);

// Host planes and the YuvPlanes into them (views point into `planes`'
// storage; moving keeps them valid, copying does not).
struct YuvFrame {
  std::vector<HostPlane> planes;
  cudahist::YuvPlanes view;
  YuvFrame() = default;
  YuvFrame(YuvFrame&&) = default;
  YuvFrame& operator=(YuvFrame&&) = default;
  YuvFrame(const YuvFrame&) = delete;
  YuvFrame& operator=(const YuvFrame&) = delete;
};

YuvFrame MakeYuvFrame(const YuvFrameSpec& spec, std::mt19937_64& rng);

// A previous frame for DIF: the layout of `spec` (same format, size, region),
// uniform samples, and another pitch, so that only the samples in place can match.
YuvFrame MakePreviousYuvFrame(const YuvFrameSpec& spec, std::mt19937_64& rng);

// The chroma samples a luma rectangle touches (what the element's views hold).
cudahist::Roi ChromaRoi(const cudahist::Roi& luma, uint32_t log2_hsub, uint32_t log2_vsub);

// "" when the two counts are equal in every field and bin; otherwise the
// first difference ("dif_y: 12 != 13", "hue[90]: 4 != 5").
std::string CountsDifference(const cudahist::SignalStatsCounts& got, const cudahist::SignalStatsCounts& want);

// Overwrites the luma of `frame`'s counted region (host memory, any layout)
// with rows for every QC count: a dark band at the top and the left
// (cropdetect), every fourth row a copy of the one four above (VREP), every
// fourth a spike row over its neighbours (TOUT), noise elsewhere.
void AddQcStructure(const YuvFrame& frame, std::mt19937_64& rng);

// The same for QC counts ("tout: 3 != 4", "row_sums[7]: 10 != 12"); the line
// sums compared whole, the zeros beyond the region included.
std::string QcCountsDifference(const cudahist::QcCounts& got, const cudahist::QcCounts& want);

// Formats x sizes (1x1 to 333x77, odd and even) x padding x ROI (inside,
// odd corner, empty) x distributions: the matrix both backends are checked on.
std::vector<YuvFrameSpec> SignalStatsMatrix();

// Every spec of SignalStatsMatrix() with its frame and a previous frame (for DIF).
struct MatrixFrames {
  YuvFrameSpec spec;
  YuvFrame frame, previous;
};
std::vector<MatrixFrames> SignalStatsMatrixFrames(std::mt19937_64& rng);

}  // namespace cudahist_test
