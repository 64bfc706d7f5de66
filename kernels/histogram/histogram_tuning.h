// cudahist: tuning of the histogram kernels, one place for every number that
// trades speed on one GPU against another, each with its reason; the
// measurements behind them are in docs/tuning.md.
#pragma once

#include <cstdint>

namespace cudahist::detail {

// --- privatized: lane-indexed copies (and the one-copy baseline) -------------
// Every privatized constant can be overridden at build time
// (-DCUDAHIST_PRIVATIZED_THREADS=512 ...) for bench/tune_privatized.sh's variants.
#ifndef CUDAHIST_PRIVATIZED_THREADS
#define CUDAHIST_PRIVATIZED_THREADS 1024
#endif
#ifndef CUDAHIST_PRIVATIZED_LOADS
#define CUDAHIST_PRIVATIZED_LOADS 2
#endif
#ifndef CUDAHIST_PRIVATIZED_DEEP_LOADS
#define CUDAHIST_PRIVATIZED_DEEP_LOADS 4
#endif
#ifndef CUDAHIST_PRIVATIZED_DEEP_MIN_ROUNDS
#define CUDAHIST_PRIVATIZED_DEEP_MIN_ROUNDS 8
#endif
#ifndef CUDAHIST_FRAME_CHUNKS
#define CUDAHIST_FRAME_CHUNKS 1
#endif
#ifndef CUDAHIST_PRIVATIZED_MIN_BLOCKS
#define CUDAHIST_PRIVATIZED_MIN_BLOCKS 1
#endif
#ifndef CUDAHIST_LANE_COPIES_BUDGET_KB
#define CUDAHIST_LANE_COPIES_BUDGET_KB 128
#endif
#ifndef CUDAHIST_PROGRAMMATIC_LAUNCH
#define CUDAHIST_PROGRAMMATIC_LAUNCH 1
#endif
#ifndef CUDAHIST_BATCH_CHUNKS
#define CUDAHIST_BATCH_CHUNKS 32
#endif
#ifndef CUDAHIST_BATCH_ROW_WALK
#define CUDAHIST_BATCH_ROW_WALK 1
#endif
// 1024 threads: RGBA wanted 1024 with 32 copies, and a block of 1024 keeps enough loads
// in flight when its shared copies allow only one block per SM.
constexpr uint32_t kPrivatizedThreads = CUDAHIST_PRIVATIZED_THREADS;
// Chunk loads a thread issues before it counts the first: frames (up to 4K) run the unit
// walk with 2 (4 cost registers and lost on 1080p) ...
constexpr uint32_t kPrivatizedLoadsPerThread = CUDAHIST_PRIVATIZED_LOADS;
// ... large planes the deep kernel, the row walk with 4 (0.95 of the read roofline on 1 GiB).
constexpr uint32_t kPrivatizedDeepLoadsPerThread = CUDAHIST_PRIVATIZED_DEEP_LOADS;
// A frame runs the deep kernel when it gives every resident thread at least this many
// rounds of deep loads (a 1 GiB plane: over 100; a 4K RGBA frame: 4).
constexpr uint32_t kPrivatizedDeepMinRounds = CUDAHIST_PRIVATIZED_DEEP_MIN_ROUNDS;
// __launch_bounds__' second argument: one block of 1024 per SM as far as registers go
// (shared copies allow no more), which leaves each thread 64 registers.
constexpr uint32_t kPrivatizedMinBlocksPerSm = CUDAHIST_PRIVATIZED_MIN_BLOCKS;
// 32 copies put every lane of a warp in its own bank whatever the data; fewer when the
// counters are many: the largest power of two whose copies fit kLaneCopiesBudgetBytes.
constexpr uint32_t kMaxLaneCopies = 32;
// 128 KB: RGBA (4 x 256) and 1024 bins keep 32 copies, 4096 bins get 8.
constexpr uint32_t kLaneCopiesBudgetBytes = CUDAHIST_LANE_COPIES_BUDGET_KB * 1024;
// A frame's grid: at most one block per kPrivatizedThreads x this many chunks, so that
// every thread has a chunk; fewer, busier blocks lost on 1080p frames.
constexpr uint32_t kFrameChunksPerThread = CUDAHIST_FRAME_CHUNKS;

// A batch's blocks per frame: one per kPrivatizedThreads x this many chunks; 32 favours
// NV12, the element's format (6 blocks a 1080p frame, other frames' blocks running beside).
constexpr uint32_t kBatchChunksPerThread = CUDAHIST_BATCH_CHUNKS;
// The batch kernel's walk: 1, the deep kernel's row walk (faster on every batch measured);
// 0, the frame kernel's unit walk.
constexpr bool kBatchRowWalk = CUDAHIST_BATCH_ROW_WALK != 0;

// Programmatic dependent launch (Hopper): the next kernel's launch gap and shared-memory
// zeroing overlap this one's tail; it waits for it before reading anything.
constexpr bool kProgrammaticLaunch = CUDAHIST_PROGRAMMATIC_LAUNCH != 0;

// --- privatized-packed: per-thread packed 8-bit counters --------------------
// 64 threads: every thread owns one 32-bit column per four counters, so shared memory is
// threads x counters bytes (64 x 1024 = 64 KB).
constexpr uint32_t kPackedThreads = 64;
constexpr uint32_t kPackedLoadsPerThread = 2;
// Merging before a thread can have counted 256 times into one 8-bit counter makes
// overflow impossible whatever the data.
constexpr uint32_t kPackedMaxIncrementsBetweenMerges = 255;
static_assert(kPackedThreads * 255u < 65536u, "16-bit merge lanes would overflow");

// --- two-phase: partials in global memory, then a grid-wide reduction --------
// 512 threads: one tile of up to kTwoPhaseTileBytes per block leaves room for two blocks
// per SM on Hopper (228 KB of shared memory per SM).
constexpr uint32_t kTwoPhaseThreads = 512;
constexpr uint32_t kTwoPhaseLoadsPerThread = 2;
// A block counts one tile of the counters: 96 KB = 24576 counters, so 65536 bins take 3
// tiles (the frame read once per tile) and 4 x 256 take one.
constexpr uint32_t kTwoPhaseTileBytes = 96 * 1024;
// Slices x counters x 4 bytes of partials stay below this: 65536 bins x 4 components
// (1 MB per slice) still get 32 slices.
constexpr uint64_t kTwoPhasePartialBudgetBytes = 32ull << 20;

// --- auto (dispatch.cu) -------------------------------------------------------
// Lane-indexed privatized copies while every counter gets at least this many copies
// within the budget (4096 bins reached 0.81 of the roofline with 4); beyond, two-phase.
constexpr uint32_t kAutoMinLaneCopies = 4;

}  // namespace cudahist::detail
