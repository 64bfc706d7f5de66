// cudahist: the tuning policy of the plan walk every histogram kernel shares
// (device/plan_walk.cuh), with its reason; docs/tuning.md keeps the
// measurements behind it.
#pragma once

#include <cstdint>

#include "launch/policy.h"

namespace cudahist::detail {

struct WalkPolicy {
  // 8-bit layouts up to this pixel stride (gray, NV12) take the equal-words shortcut of
  // CountBytes; RGBA with 32 lane copies runs faster without the test.
  uint32_t equal_words_max_stride = 2;
};

#ifndef CUDAHIST_TUNE_WALK
#define CUDAHIST_TUNE_WALK
#endif
constexpr WalkPolicy kWalkPolicy = CUDAHIST_TUNED(WalkPolicy, CUDAHIST_TUNE_WALK);

}  // namespace cudahist::detail
