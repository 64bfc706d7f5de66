// cudahist: the tuning policy of the plan walk every histogram kernel shares
// (device/plan_walk.cuh), each number with its reason; docs/tuning.md keeps
// the measurements behind them.
#pragma once

#include <cstdint>

#include "launch/policy.h"

namespace cudahist::detail {

struct WalkPolicy {
  // Chunk loads a thread issues before it counts the first, in the unit walk of frames
  // (up to 4K: 4 cost registers and lost on 1080p), of the packed, two-phase and
  // segmented kernels (a round of a segmented tile is then threads x 2 chunks; 4 lost
  // there too, 23.16 against 22.69 us at 100 boxes).
  uint32_t loads_per_thread = 2;
  // Loads a thread issues where a walk is long enough to keep them all busy: 4, one round
  // of DRAM latency. The privatized kernel's deep walk of large planes (the row walk: 0.95
  // of the read roofline on 1 GiB) and the joint histogram's slices (a 1080p slice is
  // about 4 a thread).
  uint32_t deep_loads_per_thread = 4;
  // 8-bit layouts up to this pixel stride (gray, NV12) take the equal-words shortcut of
  // CountBytes; RGBA with 32 lane copies runs faster without the test.
  uint32_t equal_words_max_stride = 2;
};

#ifndef CUDAHIST_TUNE_WALK
#define CUDAHIST_TUNE_WALK
#endif
constexpr WalkPolicy kWalkPolicy = CUDAHIST_TUNED(WalkPolicy, CUDAHIST_TUNE_WALK);

}  // namespace cudahist::detail
