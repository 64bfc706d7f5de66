// cudahist: tuning policies, one place for every number that trades speed on
// one GPU against another. Each constant says why it has its value; the
// benchmark (bench/) is what confirms or moves them.
#pragma once

#include <cstdint>

namespace cudahist::detail {

// --- privatized: lane-indexed copies (and the one-copy baseline) -------------
// Every privatized constant can be overridden at build time
// (-DCUDAHIST_PRIVATIZED_THREADS=512 ...), so that bench/tune_privatized.sh
// can build variants and time them side by side in one run on the GPU host;
// the defaults below are what that sweep chose (bench/RESULTS.md).
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
// 1024 threads: RGBA in the H200 probe wanted 1024 threads with 32 copies; a
// block of 1024 keeps 1024 x kPrivatizedLoadsPerThread x 16 bytes in flight
// when its shared copies (up to kLaneCopiesBudgetBytes) allow one block per SM.
constexpr uint32_t kPrivatizedThreads = CUDAHIST_PRIVATIZED_THREADS;
// Chunk loads a thread issues before it counts the first one. Each holds 4
// registers plus its row/edge bookkeeping, and __launch_bounds__ caps the
// registers at 65536 / (threads x kPrivatizedMinBlocksPerSm). Two kernels
// (H200, 2026-11-22, bench/RESULTS.md): frames (up to 4K) run the unit walk
// with 2 loads (1080p NV12 9.1 us a frame against 11.8 us with 4, and 10.4 us
// with the row walk, which leaves most warps without a row there); large
// planes run the deep kernel, the row walk with 4 loads (8-bit 1 GiB: 0.73 of
// the read roofline with the unit walk, 0.95 with the row walk).
constexpr uint32_t kPrivatizedLoadsPerThread = CUDAHIST_PRIVATIZED_LOADS;
constexpr uint32_t kPrivatizedDeepLoadsPerThread = CUDAHIST_PRIVATIZED_DEEP_LOADS;
// A frame runs the deep kernel when it gives every resident thread at least
// this many rounds of deep loads (a 1 GiB plane: over 100; a 4K RGBA frame: 4).
constexpr uint32_t kPrivatizedDeepMinRounds = CUDAHIST_PRIVATIZED_DEEP_MIN_ROUNDS;
// The second __launch_bounds__ argument: blocks of kPrivatizedThreads that
// must fit an SM at once as far as registers go (shared memory may allow fewer).
constexpr uint32_t kPrivatizedMinBlocksPerSm = CUDAHIST_PRIVATIZED_MIN_BLOCKS;
// Copies per counter: 32 puts every lane of a warp in its own bank whatever
// the data (one-value frames included). Fewer copies when the counters are
// many: copies = the largest power of two <= kMaxLaneCopies such that
// counters * copies * 4 bytes <= kLaneCopiesBudgetBytes. 128 KB gives RGBA
// (4 x 256) its 32 copies (the probe's best, 0.88); 1024 bins get 32 (the
// probe measured 16 at 0.97: the benchmark decides between the two by moving
// this budget); 4096 bins get 8 (the probe measured 4 at 0.81).
constexpr uint32_t kMaxLaneCopies = 32;
constexpr uint32_t kLaneCopiesBudgetBytes = CUDAHIST_LANE_COPIES_BUDGET_KB * 1024;
// The privatized grid: as many blocks as the device holds at once, but no
// more than one per kPrivatizedThreads x kFrameChunksPerThread chunks, so
// that every thread has a chunk to count: each block pays for zeroing and
// merging its copies. (Fewer, busier blocks lost on 1080p frames on the H200:
// 4 rounds of loads per block took 13.4 us a frame against 9.4 us at one;
// with programmatic launch, 1080p NV12 took 7.25 us at 1 and 2 chunks a
// thread and 8.43-8.49 at 4, bench/results/2026-11-22-variants/h200-t8.)
constexpr uint32_t kFrameChunksPerThread = CUDAHIST_FRAME_CHUNKS;

// Blocks per frame in a batch: one per kPrivatizedThreads x this many chunks,
// at most the device's resident blocks (a single frame gets one per
// kPrivatizedThreads chunks). Each block pays for zeroing and merging its
// copies while the batch keeps other frames' blocks running, so fewer,
// busier blocks win. H200, 2026-11-22, us per frame with the row walk at
// 16 / 32 / 64 chunks: 1080p NV12 1.94 / 1.70 / 2.53, 4K NV12 5.43 / 4.70 /
// 5.64, 4K RGBA 13.6 / 12.3 / 11.4, 4K 16-bit in 4096 bins 7.6 / 6.3 / 6.0
// (with the unit walk, 1080p NV12 went 2.45 / 2.11-2.29 / 3.37 at 8 / 32 / 64
// chunks). 32 favours NV12, the element's format: 6 blocks a 1080p frame.
constexpr uint32_t kBatchChunksPerThread = CUDAHIST_BATCH_CHUNKS;
// The batch kernel's walk: 1, the deep kernel's row walk and loads; 0, the
// frame kernel's unit walk. The row walk took 1080p NV12 batches from 2.20 to
// 1.70 us a frame, 4K NV12 from 5.8 to 4.7, 4K RGBA from 14.6 to 12.4
// (H200, same run).
constexpr bool kBatchRowWalk = CUDAHIST_BATCH_ROW_WALK != 0;

// Programmatic dependent launch (Hopper): every privatized launch lets the
// next kernel on the stream be scheduled before it ends; that kernel waits
// for it before reading anything, so only the launch gap and the zeroing of
// shared memory overlap. H200, 2026-11-22, one call per frame back to back:
// 1080p NV12 9.20 -> 7.26 us, 4K NV12 11.41 -> 9.68, 4K RGBA 19.16 -> 17.45.
constexpr bool kProgrammaticLaunch = CUDAHIST_PROGRAMMATIC_LAUNCH != 0;

// --- privatized-packed: seed 003's per-thread 8-bit counters -----------------
// 64 threads as in the seed: every thread owns one 32-bit column per four
// counters, so shared memory is threads x counters bytes (64 x 1024 = 64 KB).
// The merge sums a row's 8-bit counters into 16-bit lanes: threads x 255 must
// stay below 2^16.
constexpr uint32_t kPackedThreads = 64;
constexpr uint32_t kPackedLoadsPerThread = 2;
// An 8-bit counter overflows after 255 increments of the same thread; merging
// before a thread can have done more than this many increments since the last
// merge makes overflow impossible whatever the data.
constexpr uint32_t kPackedMaxIncrementsBetweenMerges = 255;
static_assert(kPackedThreads * 255u < 65536u, "16-bit merge lanes would overflow");

// --- two-phase: partials in global memory, then a grid-wide reduction --------
// 512 threads: one tile of up to kTwoPhaseTileBytes per block leaves room for
// two blocks per SM on Hopper (228 KB of shared memory per SM).
constexpr uint32_t kTwoPhaseThreads = 512;
constexpr uint32_t kTwoPhaseLoadsPerThread = 2;
// A block counts one tile of the (component, bin) counters from one slice of
// the frame: 96 KB = 24576 counters, so 65536 bins take 3 tiles (the frame is
// read once per tile) and 4 x 256 take one.
constexpr uint32_t kTwoPhaseTileBytes = 96 * 1024;
// Slices x counters x 4 bytes of partials stay below this: 65536 bins x 4
// components (1 MB per slice) still get 32 slices.
constexpr uint64_t kTwoPhasePartialBudgetBytes = 32ull << 20;

// --- auto (dispatch.cu) -------------------------------------------------------
// Lane-indexed privatized copies while every counter gets at least this many
// copies within kLaneCopiesBudgetBytes (counters <= 8192: 4096 bins measured
// 0.81 of the roofline with 4 copies); beyond that, two-phase.
constexpr uint32_t kAutoMinLaneCopies = 4;

}  // namespace cudahist::detail
