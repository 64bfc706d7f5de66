// cudahist: the tuning policy of the histogram kernels, every number that
// trades speed on one GPU against another with its reason beside it; the
// measurements behind them are in docs/tuning.md, how a variant build
// overrides them in launch/policy.h.
#pragma once

#include <cstdint>

#include "launch/launch_tuning.h"
#include "launch/policy.h"

namespace cudahist::detail {

struct HistogramPolicy {
  // privatized: lane-indexed copies (and the one-copy baseline)
  struct Privatized {
    // Every thread an SM holds at launch_tuning.h's register count (1024): RGBA wanted
    // 1024 with 32 copies, and a block of 1024 keeps enough loads in flight when its
    // shared copies allow only one block per SM.
    constexpr uint32_t threads() const { return kLaunchPolicy.threads_per_sm(); }
    // __launch_bounds__' second argument: as many blocks per SM as launch_tuning.h's
    // register count leaves room for, one of 1024 (shared copies allow no more either).
    constexpr uint32_t min_blocks_per_sm() const { return kLaunchPolicy.min_blocks_per_sm(threads()); }
    // Frames walk units with walk_tuning.h's loads a thread; large planes run the deep
    // kernel, the row walk with walk_tuning.h's deep loads a thread. A frame runs the deep
    // kernel when it gives every resident thread at least this many rounds of deep loads
    // (a 1 GiB plane: over 100; a 4K RGBA frame: 4).
    uint32_t deep_min_rounds = 8;
    // Copies: launch_tuning.h's lane copies budget.
    // (A frame's grid has a block per `threads` chunks at most, so that every thread has a
    // chunk: fewer, busier blocks lost on 1080p frames.) A batch's blocks per frame: one
    // per `threads` x this many chunks; 32 favours NV12, the
    // element's format (6 blocks a 1080p frame, other frames' blocks running beside).
    uint32_t batch_chunks_per_thread = 32;
  } privatized;

  // privatized-packed: per-thread packed 8-bit counters
  struct Packed {
    // Every thread owns one 32-bit column per four counters, so shared memory is threads x
    // counters bytes (64 x 1024 = 64 KB).
    uint32_t threads = 64;
    // It walks with walk_tuning.h's loads a thread, as frames do.
  } packed;

  // two-phase: partials in global memory, then a grid-wide reduction
  struct TwoPhase {
    // One tile of up to tile_bytes per block leaves room for two blocks per SM on Hopper
    // (228 KB of shared memory per SM).
    uint32_t threads = 512;
    // It walks with walk_tuning.h's loads a thread, as frames do.
    // A block counts one tile of the counters: 96 KB = 24576 counters, so 65536 bins take
    // 3 tiles (the frame read once per tile) and 4 x 256 take one.
    uint32_t tile_bytes = 96 * 1024;
    // Slices x counters x 4 bytes of partials stay below launch_tuning.h's partial budget.
  } two_phase;

  // auto (dispatch.cu): lane-indexed privatized copies while every counter gets at least
  // this many copies within the budget (4096 bins reached 0.81 of the roofline with 4);
  // beyond, two-phase.
  uint32_t auto_min_lane_copies = 4;
};

#ifndef CUDAHIST_TUNE_HISTOGRAM
#define CUDAHIST_TUNE_HISTOGRAM
#endif
constexpr HistogramPolicy kHistogramPolicy = CUDAHIST_TUNED(HistogramPolicy, CUDAHIST_TUNE_HISTOGRAM);

}  // namespace cudahist::detail
