// cudahist: the tuning policy every kernel module shares (the register count
// that launch bounds aim at, the memory a counter's partials may take and the
// loads of them in flight), each
// number with its reason; docs/tuning.md keeps the measurements behind them,
// launch/policy.h says how a variant build overrides them.
#pragma once

#include <cstdint>

#include "launch/policy.h"

namespace cudahist::detail {

// 32-bit registers of an SM: 64K on every architecture the kernels build for.
constexpr uint32_t kRegistersPerSm = 65536;

struct LaunchPolicy {
  // Registers a thread that the launch bounds of the privatized, signalstats and
  // per-column kernels leave, through their minimum of blocks per SM: 64 lets an SM
  // hold 1024 threads, and those kernels fit it without spills (ptxas, nvcc 13,
  // sm_90); 32 (2 blocks of 1024) spilled 60 to 90 bytes in the per-column kernel.
  uint32_t registers_per_thread = 64;
  // Device memory a counter's partials may take (two-phase histogram and per-column
  // slices), the slice count shrinking to fit: 65536 bins x 4 components (1 MB a
  // slice) still get 32 slices, and the tall [524288, 512] plane's 33 slices x 512
  // columns x 256 bins (17 MB) fit.
  uint64_t partial_budget_bytes = 32ull << 20;
  // Loads of partials from L2 a thread keeps in flight before it adds or
  // stores them (the per-column phase 2's sums over slices, the joint kernel's
  // last block moving a part to the counts): 8, so that a thread's 16 loads
  // cost two L2 round trips, not 16, in registers the kernels have to spare.
  uint32_t partial_loads_in_flight = 8;
  // Shared memory the lane copies of a block that has the SM to itself (the
  // privatized and signalstats kernels, 1024 threads) may take: the largest power
  // of two up to 32 copies that fits. 128 KB: RGBA (4 x 256) and 1024 bins keep
  // 32 copies, 4096 bins get 8; signalstats' counters 16 at 8 bits (88.6 KB), 8 at
  // 9 and 4 at 10, bounding a flat frame's conflicts.
  uint32_t lane_copies_budget_bytes = 128 * 1024;

  // Threads an SM holds at that register count: 1024, the most a block has,
  // the block of the kernels that run one block an SM.
  constexpr uint32_t threads_per_sm() const { return kRegistersPerSm / registers_per_thread; }
  // __launch_bounds__' minimum of blocks per SM for blocks of `threads`: as many as
  // the SM holds at that register count.
  constexpr uint32_t min_blocks_per_sm(uint32_t threads) const { return threads_per_sm() / threads; }
};

#ifndef CUDAHIST_TUNE_LAUNCH
#define CUDAHIST_TUNE_LAUNCH
#endif
constexpr LaunchPolicy kLaunchPolicy = CUDAHIST_TUNED(LaunchPolicy, CUDAHIST_TUNE_LAUNCH);

}  // namespace cudahist::detail
