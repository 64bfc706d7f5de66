// cudahist: the one definition of a scope pixel, compiled for the CPU
// (cpu/render/scope_drawing_cpu.cc) and the GPU (scope_drawing.cu) alike. Integer
// arithmetic only, so both paths give the same bytes (scope_render.h states
// the mapping).
#pragma once

#include <cstdint>

#include "cudahist/histogram_spec.h"  // CUDAHIST_HOST_DEVICE
#include "cudahist/scope_render.h"

namespace cudahist::detail {

CUDAHIST_HOST_DEVICE inline uint32_t FloorLog2(uint64_t x) {  // x >= 1
#ifdef __CUDA_ARCH__
  return 63u - uint32_t(__clzll((long long)x));
#else
  return 63u - uint32_t(__builtin_clzll(x));
#endif
}

// floor(log2(x) * 65536) for x >= 1: the integer part from the leading bit,
// 16 fraction bits by squaring the mantissa (kept in [1, 2) as Q31).
CUDAHIST_HOST_DEVICE inline uint32_t Log2Q16(uint64_t x) {
  const uint32_t n = FloorLog2(x);
  uint64_t m = n >= 31 ? x >> (n - 31) : x << (31 - n);  // [2^31, 2^32)
  uint32_t fraction = 0;
  for (int bit = 15; bit >= 0; --bit) {
    m = (m * m) >> 31;  // [2^31, 2^33)
    if (m >= (uint64_t(1) << 32)) {
      m >>= 1;
      fraction |= 1u << bit;
    }
  }
  return (n << 16) | fraction;
}

CUDAHIST_HOST_DEVICE inline uint32_t ClampIntensity(uint64_t v) { return v < 1 ? 1u : v > 255 ? 255u : uint32_t(v); }

// 0 to 255: how bright `count` of `samples` draws (scope_render.h).
CUDAHIST_HOST_DEVICE inline uint32_t Intensity(uint32_t count, uint64_t samples, uint32_t gain, ScopeScale scale) {
  if (count == 0 || samples == 0) return 0;
  const uint64_t e = uint64_t(count) * gain;
  if (scale == ScopeScale::kLinear) return ClampIntensity(e * 255 / samples);
  return ClampIntensity(uint64_t(255) * Log2Q16(1 + e) / Log2Q16(1 + samples));
}

// Rows (0 to height) of a histogram bar for `count` against the tallest bin.
CUDAHIST_HOST_DEVICE inline uint32_t BarRows(uint32_t count, uint32_t max, uint32_t height, ScopeScale scale) {
  if (count == 0 || max == 0) return 0;
  if (scale == ScopeScale::kLinear) return uint32_t(uint64_t(height) * count / max);
  return uint32_t(uint64_t(height) * Log2Q16(1 + uint64_t(count)) / Log2Q16(1 + uint64_t(max)));
}

// The cell (group or bin) a pixel coordinate shows, and back: the first
// coordinate showing `cell`.
CUDAHIST_HOST_DEVICE inline uint32_t CellOf(uint32_t coordinate, uint32_t cells, uint32_t extent) {
  return uint32_t(uint64_t(coordinate) * cells / extent);
}
CUDAHIST_HOST_DEVICE inline uint32_t FirstCoordinateOf(uint32_t cell, uint32_t cells, uint32_t extent) {
  return uint32_t((uint64_t(cell) * extent + cells - 1) / cells);
}

// Samples in column group `group`: columns x with x * groups / width == group.
CUDAHIST_HOST_DEVICE inline uint64_t GroupSamples(uint32_t group, uint32_t groups, uint32_t width, uint32_t height) {
  const uint32_t columns = FirstCoordinateOf(group + 1, groups, width) - FirstCoordinateOf(group, groups, width);
  return uint64_t(columns) * height;
}

// The bin of an 8-bit legal level at `depth` bits (16 -> 64 at 10 bits).
CUDAHIST_HOST_DEVICE inline uint32_t LevelBin(uint32_t level8, uint32_t depth, uint32_t bins) {
  const uint64_t code = depth >= 8 ? uint64_t(level8) << (depth - 8) : uint64_t(level8) >> (8 - depth);
  return uint32_t((code * bins) >> depth);
}

struct Rgb32 {
  uint32_t r = 0, g = 0, b = 0;
};

CUDAHIST_HOST_DEVICE inline void AddTint(Rgb32* sum, ScopeRgb tint, uint32_t intensity) {
  sum->r += (uint32_t(tint.r) * intensity + 127) / 255;
  sum->g += (uint32_t(tint.g) * intensity + 127) / 255;
  sum->b += (uint32_t(tint.b) * intensity + 127) / 255;
}

// RGBA bytes in memory order, as a little-endian word.
CUDAHIST_HOST_DEVICE inline uint32_t PackRgba(uint32_t r, uint32_t g, uint32_t b) {
  r = r > 255 ? 255 : r;
  g = g > 255 ? 255 : g;
  b = b > 255 ? 255 : b;
  return r | (g << 8) | (b << 16) | (0xffu << 24);
}

CUDAHIST_HOST_DEVICE inline uint32_t Finish(const Rgb32& sum, bool lit, bool on_graticule, ScopeRgb graticule) {
  if (!lit && on_graticule) return PackRgba(graticule.r, graticule.g, graticule.b);
  return PackRgba(sum.r, sum.g, sum.b);
}

// Is row r (from the bottom) / column x the line of one of the scope's levels for this trace?
CUDAHIST_HOST_DEVICE inline bool OnLevel(const ColumnScope& s, const ColumnTrace& t, uint32_t coordinate,
                                  uint32_t extent) {
  for (int i = 0; i < s.num_levels; ++i) {
    if (coordinate == FirstCoordinateOf(LevelBin(s.levels[i], t.depth, t.bins), t.bins, extent)) return true;
  }
  return false;
}

// Pixel (x, y) of a waveform or parade.
CUDAHIST_HOST_DEVICE inline uint32_t WaveformPixel(const ColumnScope& s, uint32_t width, uint32_t height, uint32_t x,
                                            uint32_t y) {
  const uint32_t r = height - 1 - y;
  const bool parade = s.style == ColumnScopeStyle::kParade;
  const int n = s.num_traces;
  const int first = parade ? int(uint64_t(x) * n / width) : 0;
  const int last = parade ? first + 1 : n;
  uint32_t panel_x = x, panel_width = width;
  if (parade) {
    const uint32_t x0 = FirstCoordinateOf(uint32_t(first), uint32_t(n), width);
    panel_x = x - x0;
    panel_width = FirstCoordinateOf(uint32_t(first + 1), uint32_t(n), width) - x0;
  }
  Rgb32 sum;
  bool lit = false, on_graticule = false;
  for (int i = first; i < last; ++i) {
    const ColumnTrace& t = s.traces[i];
    const uint32_t group = CellOf(panel_x, t.groups, panel_width);
    const uint32_t bin = CellOf(r, t.bins, height);
    const uint32_t v = Intensity(t.counts[size_t(group) * t.bins + bin],
                                 GroupSamples(group, t.groups, t.counted_width, t.counted_height), s.gain, s.scale);
    lit = lit || v > 0;
    AddTint(&sum, t.tint, v);
    on_graticule = on_graticule || OnLevel(s, t, r, height);
  }
  return Finish(sum, lit, on_graticule, s.graticule);
}

// Pixel (x, y) of a histogram; maxima[i] is trace i's tallest bin.
CUDAHIST_HOST_DEVICE inline uint32_t HistogramPixel(const ColumnScope& s, const uint32_t* maxima, uint32_t width,
                                             uint32_t height, uint32_t x, uint32_t y) {
  const uint32_t r = height - 1 - y;
  Rgb32 sum;
  bool lit = false, on_graticule = false;
  for (int i = 0; i < s.num_traces; ++i) {
    const ColumnTrace& t = s.traces[i];
    const uint32_t bin = CellOf(x, t.bins, width);
    const bool in_bar = r < BarRows(t.counts[bin], maxima[i], height, s.scale);
    lit = lit || in_bar;
    AddTint(&sum, t.tint, in_bar ? 255u : 0u);
    on_graticule = on_graticule || OnLevel(s, t, x, width);
  }
  return Finish(sum, lit, on_graticule, s.graticule);
}

CUDAHIST_HOST_DEVICE inline bool OnTargetOutline(const VectorScope& s, uint32_t x, uint32_t y) {
  const int64_t h = s.target_half_size;
  for (int i = 0; i < s.num_targets; ++i) {
    const int64_t dx = int64_t(x) - s.targets[i].x, dy = int64_t(y) - s.targets[i].y;
    const int64_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    if ((ax == h && ay <= h) || (ay == h && ax <= h)) return true;
  }
  return false;
}

CUDAHIST_HOST_DEVICE inline uint32_t VectorscopePixel(const VectorScope& s, uint32_t width, uint32_t height, uint32_t x,
                                               uint32_t y) {
  const uint32_t a = CellOf(x, s.bins_a, width);
  const uint32_t b = CellOf(height - 1 - y, s.bins_b, height);
  const uint32_t v = Intensity(s.counts[size_t(b) * s.bins_a + a], s.samples, s.gain, s.scale);
  Rgb32 sum;
  AddTint(&sum, s.tint, v);
  return Finish(sum, v > 0, OnTargetOutline(s, x, y), s.graticule);
}

}  // namespace cudahist::detail
