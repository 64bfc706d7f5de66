// cudahist: the per-pixel rules of the QC counts (cudahist/signalstats.h,
// QcCounts), written once for the reference, the CPU backend and the QC
// blocks of the signalstats launch (qc_band.cuh): compiled as plain C++ too.
#pragma once

#include <cstdint>

#include "launch/launch_plan.h"  // CUDAHIST_HD

namespace cudahist::detail {

CUDAHIST_HD int AbsInt(int v) { return v < 0 ? -v : v; }

// signalstats' filter_tout_outlier(uint8_t x, uint8_t y, uint8_t z): its
// parameters keep the low 8 bits of deeper samples, as FFmpeg's own call does.
CUDAHIST_HD bool ToutOutlier(uint32_t above, uint32_t at, uint32_t below) {
  const int a = int(above & 255u), b = int(at & 255u), c = int(below & 255u);
  return (AbsInt(a - b) + AbsInt(c - b)) / 2 - AbsInt(c - a) > 4;
}

// The same rule in 8-bit arithmetic only, for the CPU backend's vector
// loops (16 pixels a vector with SSE2, 32 with AVX2): floor((ab + cb) / 2)
// as (ab & cb) + ((ab ^ cb) >> 1), and "half - ca > 4" as a subtraction that
// cannot go below zero. A test checks it equals ToutOutlier on all 2^24
// triples (tests/kernels/signalstats_walk_test.cc).
inline uint8_t AbsDiffBytes(uint8_t a, uint8_t b) { return uint8_t((a > b ? a : b) - (a < b ? a : b)); }
inline uint8_t ToutOutlierBytes(uint32_t above, uint32_t at, uint32_t below) {
  const uint8_t a = uint8_t(above), b = uint8_t(at), c = uint8_t(below);
  const uint8_t ab = AbsDiffBytes(a, b), cb = AbsDiffBytes(c, b), ca = AbsDiffBytes(c, a);
  const uint8_t half = uint8_t((ab & cb) + ((ab ^ cb) >> 1));
  return uint8_t(uint8_t((half > ca ? half : ca) - ca) > 4);
}

// Rows from which TOUT also asks for the pair two rows away.
CUDAHIST_HD bool ToutUsesFarRows(int y, int height) { return y - 2 >= 0 && y + 2 < height; }

// VREP compares row y with row y - kVrepDistance (signalstats' VREP_START).
constexpr int kVrepDistance = 4;

}  // namespace cudahist::detail
