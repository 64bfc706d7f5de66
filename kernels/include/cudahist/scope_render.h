// cudahist: video scopes drawn from the counts of scopes.h, as RGBA images.
//
//   histogram    each traced component's histogram (1 group) as bars, bin
//                across, bar height up, scaled to the tallest bin
//   waveform     per-column histograms overlaid: column group across, level up
//   parade       the same, one panel per traced component, side by side
//   vectorscope  a joint histogram: component a across, component b up
//   picture      the frame itself, scaled to the image (a waveform monitor's
//                picture display; the monitor's thumbnails)
//
// The mapping from counts to pixels is integer arithmetic only, written once
// in kernels/render/scope_pixels.cuh and compiled for both paths, so the GPU and the CPU draw
// byte-identical images (the README states it; tests/kernels checks it):
//
//   row r from the bottom (r = height - 1 - y) shows bin  r * bins / height
//   column x of a panel of width P shows group  x * groups / P  (waveform,
//   parade) or bin  x * bins / P  (histogram, vectorscope's a)
//   intensity of a count c out of n samples, e = c * gain:
//     linear       c == 0 ? 0 : clamp(e * 255 / n, 1, 255)
//     logarithmic  c == 0 ? 0 : clamp(255 * Log2Q16(1 + e) / Log2Q16(1 + n), 1, 255)
//   (Log2Q16: floor(log2(x) * 65536) by integer squaring); n is the samples
//   of the column group (waveform, parade), of the frame (vectorscope).
//   Histogram bars: a bar is lit up to rows = height * c / max (linear) or
//   height * Log2Q16(1 + c) / Log2Q16(1 + max) (logarithmic), max the
//   trace's tallest bin.
//   A pixel's colour: per channel min(255, sum over traces of
//   (tint * intensity + 127) / 255), alpha 255; where no trace lights it and a
//   graticule passes, the graticule's colour; else black.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cudahist/histogrammer.h"
#include "cudahist/status.h"

namespace cudahist {

enum class ScopeScale : uint32_t { kLinear = 0, kLogarithmic = 1 };
enum class ColumnScopeStyle : uint32_t { kHistogram = 0, kWaveform = 1, kParade = 2 };

struct ScopeRgb {
  uint8_t r = 0, g = 0, b = 0;
};

// An RGBA8 image: `pitch` bytes from one row to the next (device memory for
// the GPU path, host memory for the CPU path).
struct ScopeImage {
  void* data = nullptr;
  uint32_t width = 0;
  uint32_t height = 0;
  size_t pitch = 0;
};

// Largest width or height of a scope image.
constexpr uint32_t kMaxScopeDimension = 16384;
constexpr int kMaxScopeTraces = 4;
// Most legal-range levels and vectorscope targets a graticule carries.
constexpr int kMaxScopeLevels = 4;
constexpr int kMaxScopeTargets = 8;

// One component's per-column counts (scopes.h's ColumnHistogrammer layout:
// counts[group * bins + bin]) and what it counted.
struct ColumnTrace {
  const uint32_t* counts = nullptr;
  uint32_t groups = 1;
  uint32_t bins = 256;
  uint32_t counted_width = 0;   // columns the groups cut (group sizes from ColumnGroupOf)
  uint32_t counted_height = 0;  // samples per column
  uint32_t depth = 8;           // bits per sample (places the legal levels)
  ScopeRgb tint;
};

struct ColumnScope {
  ColumnScopeStyle style = ColumnScopeStyle::kWaveform;
  int num_traces = 0;
  ColumnTrace traces[kMaxScopeTraces];
  ScopeScale scale = ScopeScale::kLogarithmic;
  uint32_t gain = 1;  // counts are multiplied by it before the scale (not for histogram bars)
  // Legal-range levels as 8-bit codes (16, 235), placed at depth d at code
  // level << (d - 8): a horizontal line on the row of the level's bin
  // (waveform, parade), a vertical line on the column of its bin (histogram).
  int num_levels = 0;
  uint32_t levels[kMaxScopeLevels] = {};
  ScopeRgb graticule;
};

struct ScopeTarget {
  uint32_t x = 0, y = 0;  // pixel of the image at the target's centre
};

struct VectorScope {
  const uint32_t* counts = nullptr;  // counts[bin_b * bins_a + bin_a] (scopes.h)
  uint32_t bins_a = 256;
  uint32_t bins_b = 256;
  uint64_t samples = 0;  // n of the intensity: samples counted
  ScopeScale scale = ScopeScale::kLogarithmic;
  uint32_t gain = 1;
  ScopeRgb tint;
  // Graticule: a square outline of half-size `target_half_size` pixels
  // around each target (e.g. the 75% colour bars' chroma).
  int num_targets = 0;
  ScopeTarget targets[kMaxScopeTargets];
  uint32_t target_half_size = 6;
  ScopeRgb graticule;
};

// The picture display: each image pixel is the frame's colour over the box of
// samples it covers, in integer arithmetic (render/picture_pixels.cuh), so
// the GPU and the CPU give the same bytes:
//   the box of pixel (x, y) on a component plane of W x H samples is columns
//   x * W / width to max(that + 1, (x + 1) * W / width) (rows likewise), read
//   at a step of ceil(box / kMaxPictureBoxSide) so that no pixel reads more
//   than kMaxPictureBoxSide^2 samples; the component's value is the rounded
//   mean of the samples read, at its own depth, scaled to 16 bits
//   (c16 = mean << (16 - depth));
//   YUV becomes RGB through the Q8 matrix below, clamped to 0..255:
//     L = y_gain (Y16 - 256 y_offset) + 32768
//     R = (L + v_to_r (V16 - 32768)) >> 16
//     G = (L - u_to_g (U16 - 32768) - v_to_g (V16 - 32768)) >> 16
//     B = (L + u_to_b (U16 - 32768)) >> 16
//   RGB is drawn as (c16 + 128) >> 8, a single (gray) component as
//   R = G = B = L >> 16.
constexpr uint32_t kMaxPictureBoxSide = 16;

enum class PictureColour : uint32_t { kGray = 0, kYuv = 1, kRgb = 2 };

struct PictureMatrix {
  int32_t y_gain = 256;  // Q8: 256 leaves full-range luma as it is
  int32_t y_offset = 0;  // 16 for limited range
  int32_t v_to_r = 0;
  int32_t u_to_g = 0;
  int32_t v_to_g = 0;
  int32_t u_to_b = 0;
};

struct PictureScope {
  PictureColour colour = PictureColour::kYuv;
  // Y, U, V or R, G, B (only [0] for gray), each in its own subsampling.
  PlaneView components[3];
  PictureMatrix matrix;
};

// The Q8 matrix of a colour matrix's Kr and Kb (BT.601: 0.299, 0.114; BT.709:
// 0.2126, 0.0722; BT.2020: 0.2627, 0.0593) for limited or full range.
PictureMatrix PictureMatrixOf(double kr, double kb, bool full_range);

// Checks sizes, counts of traces, levels and targets; messages name the field.
Status ValidateScopeImage(const ScopeImage& image);
Status ValidateColumnScope(const ColumnScope& scope, const ScopeImage& image);
Status ValidateVectorScope(const VectorScope& scope, const ScopeImage& image);
Status ValidatePictureScope(const PictureScope& scope, const ScopeImage& image);

// CPU: counts and image in host memory.
Status DrawColumnScopeCpu(const ColumnScope& scope, const ScopeImage& image);
Status DrawVectorScopeCpu(const VectorScope& scope, const ScopeImage& image);
Status DrawPictureCpu(const PictureScope& scope, const ScopeImage& image);

// GPU: counts and image in device memory of the current context; ONE launch
// enqueued on `stream`, nothing allocated, nothing synchronised.
Status DrawColumnScope(const ColumnScope& scope, const ScopeImage& image, cudaStream_t stream);
Status DrawVectorScope(const VectorScope& scope, const ScopeImage& image, cudaStream_t stream);
// The frame's planes in device memory of the current context.
Status DrawPicture(const PictureScope& scope, const ScopeImage& image, cudaStream_t stream);

}  // namespace cudahist
