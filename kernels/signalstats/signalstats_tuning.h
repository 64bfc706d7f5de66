// cudahist: the tuning policy of the signalstats kernel (signalstats_counter.cu),
// each number with its reason; the measurements behind them are in
// docs/tuning.md, how a variant build overrides them in launch/policy.h.
#pragma once

#include <cstdint>

#include "launch/launch_tuning.h"
#include "launch/policy.h"

namespace cudahist::detail {

struct SignalStatsPolicy {
  // Every thread an SM holds at launch_tuning.h's register count (1024 at 64 each: no
  // spills at runs of 4), one block per SM: the grid is one wave, so each block's zeroing
  // and merging of its copies is paid once per SM.
  constexpr uint32_t threads() const { return kLaunchPolicy.threads_per_sm(); }
  constexpr uint32_t min_blocks_per_sm() const { return kLaunchPolicy.min_blocks_per_sm(threads()); }
  // Chroma samples per unit (each with its luma block): 4 gives a 1080p NV12 frame one unit
  // per thread, so a thread waits once for its loads and once for its table lookups. (A
  // frame's grid has a block per `threads` units at most: every SM a block for 1080p; fewer
  // blocks would mean fewer merges but a longer walk per thread.)
  uint32_t run = 4;
  // Lane copies of the shared counters: launch_tuning.h's lane copies budget.
  // Luma rows a QC block takes (qc_band.cuh): 16 gives a 1080p frame 68 QC blocks, so 68
  // atomics a column sum; a multiple of 4, so that 4:2:0 chroma field pairs stay in a band.
  uint32_t qc_band_rows = 16;
};

#ifndef CUDAHIST_TUNE_SIGNALSTATS
#define CUDAHIST_TUNE_SIGNALSTATS
#endif
constexpr SignalStatsPolicy kSignalStatsPolicy = CUDAHIST_TUNED(SignalStatsPolicy, CUDAHIST_TUNE_SIGNALSTATS);

// The walk's and the QC blocks' shape, read where they size arrays and loops.
constexpr uint32_t kSignalStatsRun = kSignalStatsPolicy.run;
constexpr uint32_t kQcBandRows = kSignalStatsPolicy.qc_band_rows;

}  // namespace cudahist::detail
