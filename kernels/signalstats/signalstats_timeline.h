// cudahist: a diagnostic build of the signalstats kernel that records, per
// block, when it passes each phase of its chain (CUDAHIST_SIGNALSTATS_TIMELINE
// = 1, bench/tuning/tune_signalstats.sh's `timeline` variant; never in the library
// as shipped). The kernel is a chain of latencies, not a bandwidth or
// throughput limit (signalstats_tuning.h): Nsight Compute's averages do not
// say which link of the chain is long, these marks do.
#pragma once

#include <cstdint>
#include <vector>

#include "cudahist/status.h"

#ifndef CUDAHIST_SIGNALSTATS_TIMELINE
#define CUDAHIST_SIGNALSTATS_TIMELINE 0
#endif

namespace cudahist::detail {

constexpr bool kSignalStatsTimeline = CUDAHIST_SIGNALSTATS_TIMELINE != 0;

// Thread 0 of each block writes these; clocks are the SM's clock64 (cycles,
// comparable within a block), globals are %globaltimer (ns, comparable
// across blocks).
enum TimelineMark : uint32_t {
  kMarkStartGlobal,   // entering the kernel
  kMarkStart,         // entering the kernel
  kMarkZeroed,        // shared copies zeroed and the prior grid waited for
  kMarkCounted,       // every unit of the block counted, warp sums folded
  kMarkMerged,        // copies merged into the global totals
  kMarkArrived,       // fence and ticket taken (LastBlockToArrive returned)
  kMarkWritten,       // the last block only: SignalStatsCounts written
  kMarkEndGlobal,     // leaving the kernel
  kTimelineMarks
};
constexpr uint32_t kTimelineMaxBlocks = 1024;

// The marks of the latest launch, [block][mark], and its block count; only in
// a build with kSignalStatsTimeline (elsewhere: Unsupported).
Status SignalStatsTimeline(std::vector<unsigned long long>* marks, uint32_t* blocks);

}  // namespace cudahist::detail
