// cudahist: tuning of the signalstats kernel (signalstats.cu), each number
// with its why. Overridable at build time (-DCUDAHIST_SIGNALSTATS_THREADS=...)
// so that a sweep on the GPU host can compare variants, as tuning.h's are.
#pragma once

#include <cstdint>

#ifndef CUDAHIST_SIGNALSTATS_THREADS
#define CUDAHIST_SIGNALSTATS_THREADS 512
#endif
#ifndef CUDAHIST_SIGNALSTATS_RUN
#define CUDAHIST_SIGNALSTATS_RUN 4
#endif
#ifndef CUDAHIST_SIGNALSTATS_COPIES_BUDGET_KB
#define CUDAHIST_SIGNALSTATS_COPIES_BUDGET_KB 96
#endif

namespace cudahist::detail {

// Threads per block. A unit (below) is about 60 instructions of loads and
// shared adds; 512 threads keep two blocks per SM within the shared budget
// below (8-bit: 1384 counters x 16 copies = 88.6 KB a block), so that one
// block's zeroing and merging overlaps the other's counting.
constexpr uint32_t kSignalStatsThreads = CUDAHIST_SIGNALSTATS_THREADS;

// Chroma samples per unit, consecutive in a chroma row, each with its luma
// block (2x2 for 4:2:0): a thread issues all of a unit's loads (frame and
// previous frame, 48 of them for 4:2:0) before it counts, which keeps enough
// bytes in flight; consecutive threads take consecutive units, so a warp's
// loads of one position cover 32 x 4 x 2 contiguous luma bytes (coalesced).
// 1080p NV12 gives 129600 units: 254 blocks of 512, two per SM of an H100.
constexpr uint32_t kSignalStatsRun = CUDAHIST_SIGNALSTATS_RUN;

// Lane copies of the shared counters (Y, U, V and sat: 2^depth each, hue:
// 360): the largest power of two up to 32 whose copies fit this budget.
// 8-bit: 16 copies (88.6 KB); 10-bit: 4456 counters, 4 copies (71 KB). Lanes
// l and l + C share a copy, so a flat frame costs at most 32 / C-way bank
// conflicts instead of a 32-way serialisation on one counter.
constexpr uint32_t kSignalStatsMaxCopies = 32;
constexpr uint32_t kSignalStatsCopiesBudgetBytes = CUDAHIST_SIGNALSTATS_COPIES_BUDGET_KB * 1024;

}  // namespace cudahist::detail
