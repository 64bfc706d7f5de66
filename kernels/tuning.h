// cudahist: tuning policies, one place for every number that trades speed on
// one GPU against another. Each constant says why it has its value; the
// benchmark (bench/) is what confirms or moves them.
#pragma once

#include <cstdint>

namespace cudahist::detail {

// --- Memory walk (all algorithms) --------------------------------------------
// Every vector layout reads 16-byte aligned chunks (one LDG.128 each). A thread
// issues this many independent chunk loads before it counts the first one, so
// that a block keeps enough bytes in flight to cover DRAM latency even when
// shared memory allows only one block per SM.
constexpr uint32_t kChunkBytes = 16;

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
#ifndef CUDAHIST_PRIVATIZED_MIN_BLOCKS
#define CUDAHIST_PRIVATIZED_MIN_BLOCKS 1
#endif
#ifndef CUDAHIST_EQUAL_WORDS_MAX_STRIDE
#define CUDAHIST_EQUAL_WORDS_MAX_STRIDE 2
#endif
#ifndef CUDAHIST_LANE_COPIES_BUDGET_KB
#define CUDAHIST_LANE_COPIES_BUDGET_KB 128
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
constexpr uint32_t kPrivatizedDeepMinRounds = 8;
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
// 8-bit layouts up to this pixel stride take the equal-words shortcut
// (device_helpers.cuh, CountBytes): gray and NV12 planes, not RGBA. With 32
// lane copies RGBA needs no help on one-value frames (0.95 of the roofline
// either way on the H200, 2026-11-22), and skipping the test won uniform
// 0.91 -> 0.93, peaked 0.92 -> 0.94 and photo 0.89 -> 0.93 in the same runs.
constexpr uint32_t kEqualWordsMaxStride = CUDAHIST_EQUAL_WORDS_MAX_STRIDE;
// The privatized grid: as many blocks as the device holds at once, but no
// more than one per kPrivatizedThreads chunks, so that every thread has at
// least one chunk to count: each block pays for zeroing and merging its
// copies. (Fewer, busier blocks lost on 1080p frames on the H200: 4 rounds of
// loads per block took 13.4 us a frame against 9.4 us at one.)

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
