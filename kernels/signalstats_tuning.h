// cudahist: tuning of the signalstats kernel (signalstats.cu), each number
// with its why. Overridable at build time (-DCUDAHIST_SIGNALSTATS_THREADS=...)
// so that a sweep on the GPU host can compare variants, as tuning.h's are.
#pragma once

#include <cstdint>

#ifndef CUDAHIST_SIGNALSTATS_THREADS
#define CUDAHIST_SIGNALSTATS_THREADS 1024
#endif
#ifndef CUDAHIST_SIGNALSTATS_MIN_BLOCKS
#define CUDAHIST_SIGNALSTATS_MIN_BLOCKS 1
#endif
#ifndef CUDAHIST_SIGNALSTATS_RUN
#define CUDAHIST_SIGNALSTATS_RUN 2
#endif
#ifndef CUDAHIST_SIGNALSTATS_COPIES_BUDGET_KB
#define CUDAHIST_SIGNALSTATS_COPIES_BUDGET_KB 96
#endif

namespace cudahist::detail {

// NOT YET MEASURED: the defaults below follow the privatized kernel's
// measured choices (tuning.h) and nvcc's register report; the GPU host's
// signalstats_bench is what confirms or moves them (build variants with
// -DCUDAHIST_SIGNALSTATS_THREADS=512 ... as bench/tune_privatized.sh does).

// Threads per block, and blocks that must fit an SM as far as registers go
// (__launch_bounds__). 1024 x 1 caps the kernel at 64 registers; nvcc 13
// (sm_90) then uses 56 to 64 with no spills for runs of 2 (runs of 4 spilled
// 124-172 bytes at 64, or took 114-118 registers uncapped). One block of 1024
// per SM, as the privatized kernel that measured best on 1080p frames: the
// grid is one wave of at most one block per SM, so each block's zeroing and
// merging of its shared copies is paid 132 times on an H100, not per unit.
constexpr uint32_t kSignalStatsThreads = CUDAHIST_SIGNALSTATS_THREADS;
constexpr uint32_t kSignalStatsMinBlocksPerSm = CUDAHIST_SIGNALSTATS_MIN_BLOCKS;

// Chroma samples per unit, consecutive in a chroma row, each with its luma
// block (2x2 for 4:2:0): a thread issues all of a unit's loads (frame and
// previous frame, 24 of them for 4:2:0 NV12) before it counts, and
// consecutive threads take consecutive units, so a warp's loads of one
// position cover 32 x 2 x 2 contiguous luma bytes (coalesced in L1). 1080p
// NV12 gives 259200 units: two per thread of 132 blocks of 1024.
constexpr uint32_t kSignalStatsRun = CUDAHIST_SIGNALSTATS_RUN;

// Lane copies of the shared counters (Y, U, V and sat: 2^depth each, hue:
// 360): the largest power of two up to 32 whose copies fit this budget.
// 8-bit: 16 copies (1384 counters, 88.6 KB); 10-bit: 4456 counters, 4 copies
// (71 KB). Lanes l and l + C share a copy, so a flat frame costs at most
// 32 / C-way bank conflicts instead of a 32-way serialisation on one counter,
// and the merge (reading every copy) stays at about 43 words a thread.
constexpr uint32_t kSignalStatsMaxCopies = 32;
constexpr uint32_t kSignalStatsCopiesBudgetBytes = CUDAHIST_SIGNALSTATS_COPIES_BUDGET_KB * 1024;

}  // namespace cudahist::detail
