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

// Rows from which TOUT also asks for the pair two rows away.
CUDAHIST_HD bool ToutUsesFarRows(int y, int height) { return y - 2 >= 0 && y + 2 < height; }

// VREP compares row y with row y - kVrepDistance (signalstats' VREP_START).
constexpr int kVrepDistance = 4;

}  // namespace cudahist::detail
