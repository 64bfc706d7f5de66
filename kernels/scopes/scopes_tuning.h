// cudahist: tuning of the scope kernels (column_histogram.cu,
// joint_histogram.cu), each number with its reason; the measurements behind
// them are in docs/tuning.md. Overridable at build time (CUDAHIST_* below) for
// bench/tune_scopes.sh's variants.
#pragma once

#include <cstdint>

#ifndef CUDAHIST_COLUMN_THREADS_NARROW
#define CUDAHIST_COLUMN_THREADS_NARROW 512
#endif
#ifndef CUDAHIST_COLUMN_ROWS_IN_FLIGHT_NARROW
#define CUDAHIST_COLUMN_ROWS_IN_FLIGHT_NARROW 12
#endif
#ifndef CUDAHIST_COLUMN_MIN_BLOCKS_NARROW
#define CUDAHIST_COLUMN_MIN_BLOCKS_NARROW 2
#endif
#ifndef CUDAHIST_COLUMN_MIN_ROW_LANES
#define CUDAHIST_COLUMN_MIN_ROW_LANES 8
#endif
#ifndef CUDAHIST_COLUMN_ROWS_IN_FLIGHT_WIDE
#define CUDAHIST_COLUMN_ROWS_IN_FLIGHT_WIDE 8
#endif
#ifndef CUDAHIST_COLUMN_PREFETCH
#define CUDAHIST_COLUMN_PREFETCH 1
#endif
#ifndef CUDAHIST_COLUMN_FLUSH_WARPS_NARROW
#define CUDAHIST_COLUMN_FLUSH_WARPS_NARROW 8
#endif
#ifndef CUDAHIST_COLUMN_FLUSH_PER_COLUMN
#define CUDAHIST_COLUMN_FLUSH_PER_COLUMN 1
#endif
#ifndef CUDAHIST_COLUMN_PARTIALS16
#define CUDAHIST_COLUMN_PARTIALS16 1
#endif
#ifndef CUDAHIST_COLUMN_PREFETCH_NARROW
#define CUDAHIST_COLUMN_PREFETCH_NARROW 1
#endif
#ifndef CUDAHIST_COLUMN_LEAN_COUNT
#define CUDAHIST_COLUMN_LEAN_COUNT 1
#endif
#ifndef CUDAHIST_COLUMN_SHUFFLE_FLUSH
#define CUDAHIST_COLUMN_SHUFFLE_FLUSH 1
#endif
#ifndef CUDAHIST_COLUMN_COUNTERS16
#define CUDAHIST_COLUMN_COUNTERS16 1
#endif
#ifndef CUDAHIST_COLUMN_WORD_LOADS
#define CUDAHIST_COLUMN_WORD_LOADS 0
#endif
#ifndef CUDAHIST_COLUMN_WORD_ROWS_IN_FLIGHT
#define CUDAHIST_COLUMN_WORD_ROWS_IN_FLIGHT 20
#endif
#ifndef CUDAHIST_COLUMN_NATIVE_PARTIALS
#define CUDAHIST_COLUMN_NATIVE_PARTIALS 1
#endif
#ifndef CUDAHIST_COLUMN_LEAN_ITEM
#define CUDAHIST_COLUMN_LEAN_ITEM 1
#endif
#ifndef CUDAHIST_SCOPES_PROGRAMMATIC_LAUNCH
#define CUDAHIST_SCOPES_PROGRAMMATIC_LAUNCH 1
#endif
#ifndef CUDAHIST_JOINT_SAMPLES_PER_THREAD
#define CUDAHIST_JOINT_SAMPLES_PER_THREAD 8
#endif
#ifndef CUDAHIST_JOINT_B_PARTS
#define CUDAHIST_JOINT_B_PARTS 1
#endif
#ifndef CUDAHIST_JOINT_WARP_AGGREGATE
#define CUDAHIST_JOINT_WARP_AGGREGATE 0
#endif
#ifndef CUDAHIST_JOINT_FLUSH_VECTOR
#define CUDAHIST_JOINT_FLUSH_VECTOR 0
#endif
#ifndef CUDAHIST_JOINT_SLICED
#define CUDAHIST_JOINT_SLICED 1
#endif
#ifndef CUDAHIST_JOINT_PARTS
#define CUDAHIST_JOINT_PARTS 8
#endif
#ifndef CUDAHIST_JOINT_BLOCKS_PER_SM
#define CUDAHIST_JOINT_BLOCKS_PER_SM 2
#endif
#ifndef CUDAHIST_JOINT_SLICE_THREADS
#define CUDAHIST_JOINT_SLICE_THREADS 512
#endif
#ifndef CUDAHIST_JOINT_GLOBAL_ATOMICS
#define CUDAHIST_JOINT_GLOBAL_ATOMICS 0
#endif
#ifndef CUDAHIST_JOINT_DIRECT
#define CUDAHIST_JOINT_DIRECT 1
#endif

namespace cudahist::detail {

// --- per-column histograms (column_histogram.cu) -------------------------------
// A block owns a band of up to 32 x V columns and a slice of rows; its counters sit at
// word (k * bins + bin) * 32 + lane, so every lane counts in its own bank whatever the data.
// 1024 threads at V = 4 (its 128 KB of counters allow one block per SM) ...
constexpr uint32_t kColumnThreadsWide = 1024;
// ... 512 at V = 1, so that two blocks share an SM and a frame's bands spread over all SMs.
constexpr uint32_t kColumnThreadsNarrow = CUDAHIST_COLUMN_THREADS_NARROW;
// __launch_bounds__ at V = 1: 2 blocks of 512 cap the kernel at 64 registers, with no spills.
constexpr uint32_t kColumnMinBlocksNarrow = CUDAHIST_COLUMN_MIN_BLOCKS_NARROW;
// At V = 1 a warp's lanes split into groups of 32, 16 or 8 that each take a row: 8 columns
// are a quarter of a 32-byte sector, whose rest the neighbouring bands read at the same time.
constexpr uint32_t kColumnMinRowLanes = CUDAHIST_COLUMN_MIN_ROW_LANES;
// Bins counted at once (V = 4: 128 KB of counters); more bins are counted in tiles of 256,
// the band read once per tile (from L2 by the second).
constexpr uint32_t kColumnTileBins = 256;
// V = 4 for tall planes (bands x slices fill the GPU, partials stay small); V = 1 for video
// frames, whose few rows cannot be sliced without partials as large as the frame.
constexpr uint32_t kColumnWideMinRows = 4096;
// A slice has at least this many rows: fewer, and the partials would cost more traffic than
// the rows they split.
constexpr uint32_t kColumnMinRowsPerSlice = 2048;
// Row loads a lane issues before counting the first (V = 1 batches of 12 with the next
// batch prefetched; V = 4: 8 rows of 4 bytes), near what Little's law asks at HBM latency.
constexpr uint32_t kColumnRowsInFlightNarrow = CUDAHIST_COLUMN_ROWS_IN_FLIGHT_NARROW;
constexpr uint32_t kColumnRowsInFlightWide = CUDAHIST_COLUMN_ROWS_IN_FLIGHT_WIDE;
// The next batch loaded while this one is counted (V = 4), so that DRAM never idles.
constexpr bool kColumnPrefetchWide = CUDAHIST_COLUMN_PREFETCH != 0;
// The same at V = 1 for byte samples: a 4K band's lane then waits for DRAM once, not thrice.
constexpr bool kColumnPrefetchNarrow = CUDAHIST_COLUMN_PREFETCH_NARROW != 0;
// Warps that write the counters out through a transposition stage (band columns x 33
// words, so that a warp reading 32 bins of one column hits 32 banks): 4 stages fit at V = 4 ...
constexpr uint32_t kColumnFlushWarpsWide = 4;
// ... and at V = 1 every 32-bin chunk of a band gets its own warp, on a frame's critical path.
constexpr uint32_t kColumnFlushWarpsNarrow = CUDAHIST_COLUMN_FLUSH_WARPS_NARROW;
// When every column is its own group the flush's column sums are independent: unrolled
// four columns at a time instead of one load wait per sum.
constexpr bool kColumnFlushPerColumn = CUDAHIST_COLUMN_FLUSH_PER_COLUMN != 0;
// Programmatic dependent launch (histogram_tuning.h) for launches without a grid sync: the
// launch gap and the zeroing of the counters overlap the previous kernel's tail.
constexpr bool kScopesProgrammaticLaunch = CUDAHIST_SCOPES_PROGRAMMATIC_LAUNCH != 0;
// Partials in global memory stay below this; the slice count shrinks to fit (the tall
// [524288, 512] plane's 33 slices x 512 x 256 bins are 17 MB).
constexpr uint64_t kColumnPartialBudgetBytes = 32ull << 20;
// Partials of 16 bits where a slice's rows x the group's columns stay below 65536: half
// the partials' traffic after the grid sync.
constexpr bool kColumnPartials16 = CUDAHIST_COLUMN_PARTIALS16 != 0;
// The lean byte walk: whole batches of rows without a test per row or column, row addresses
// by increments: the counting of tall planes was issue-bound at some 42 instructions a word.
constexpr bool kColumnLeanCount = CUDAHIST_COLUMN_LEAN_COUNT != 0;
// The shuffle flush (V = 1, direct, one group per column): every warp sums its lanes'
// counters through shuffles and stores 16-byte words, with no stage and no idle warps.
constexpr bool kColumnShuffleFlush = CUDAHIST_COLUMN_SHUFFLE_FLUSH != 0;
// 16-bit counters two to a word (V = 1 bytes, direct): below kColumnWideMinRows no count
// can pass 65535, and zeroing and flushing halve.
constexpr bool kColumnCounters16 = CUDAHIST_COLUMN_COUNTERS16 != 0;
// Word loads (CountBandWords: four columns a lane at V = 1, a kernel of its own; with
// CUDAHIST_COLUMN_WORD_ROWS_IN_FLIGHT words in flight, 20 for 4K's 17 in one batch): off,
// they measured slower than the prefetched byte walk at 1080p and 4K.
constexpr bool kColumnWordLoads = CUDAHIST_COLUMN_WORD_LOADS != 0;
// Direct plans of one slice, one bin tile and one group per column place their item without
// divisions (the prologue's 8 of them run after the wait on most blocks); counters zeroed
// 16 bytes a store.
constexpr bool kColumnLeanItem = CUDAHIST_COLUMN_LEAN_ITEM != 0;
// Native partials (V = 4, one group per column): the counters stored as they lie, 16 bytes
// a thread by every warp, instead of a flush by 4 warps while DRAM idles at the grid's end.
constexpr bool kColumnNativePartials = CUDAHIST_COLUMN_NATIVE_PARTIALS != 0;
static_assert(!kColumnWordLoads || kColumnLeanCount, "word loads are a walk of the lean count");
static_assert(!kColumnCounters16 || (kColumnShuffleFlush && kColumnLeanCount),
              "16-bit column counters are counted by the lean byte walk and flushed by the shuffle flush");

// --- joint histograms (joint_histogram.cu) --------------------------------------
// The unsliced kernel (CUDAHIST_JOINT_SLICED = 0): 256 x 256 16-bit counters (128 KB) per
// block, an item of at most kJointSamplesPerItem samples so that none overflows.
constexpr uint32_t kJointThreads = 1024;
// 8 samples a thread: 1080p NV12's chroma in one wave of 64 items (4 needed a second round).
constexpr uint32_t kJointSamplesPerThread = CUDAHIST_JOINT_SAMPLES_PER_THREAD;
constexpr uint32_t kJointSamplesPerItem = kJointThreads * kJointSamplesPerThread;
// The b range cut in 1, 2 or 4 parts, a block per part of an item (less to zero and scan).
constexpr uint32_t kJointBParts = CUDAHIST_JOINT_B_PARTS;
// The counters scanned 16 bytes at a time, zero vectors skipped.
constexpr bool kJointFlushVector = CUDAHIST_JOINT_FLUSH_VECTOR != 0;
// Equal (a, b) pairs of a warp added once (__match_any_sync), for peaked chroma.
constexpr bool kJointWarpAggregate = CUDAHIST_JOINT_WARP_AGGREGATE != 0;
// __launch_bounds__: as many blocks of 1024 as an SM's threads hold (2048 on sm_80, sm_90,
// sm_100; 1024 or 1536 elsewhere, where a minimum of 2 is out of range and ptxas ignores it).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000
constexpr uint32_t kJointThreadsPerSm = 2048;
#else
constexpr uint32_t kJointThreadsPerSm = 1024;  // whole blocks of 1024 that 1024 or 1536 threads hold
#endif
constexpr uint32_t kJointMinBlocksPerSm = kJointThreadsPerSm / kJointThreads > 0 ? kJointThreadsPerSm / kJointThreads : 1;
static_assert(kJointBParts == 1 || kJointBParts == 2 || kJointBParts == 4, "b parts: 1, 2 or 4");
// The sliced kernel: a block per (part of the b range, slice of rows) with 32-bit counters
// of its part, so each block's chain (zero, count, scan, reduce) is short and every SM busy.
constexpr bool kJointSliced = CUDAHIST_JOINT_SLICED != 0;
// 8 parts: 32 KB of counters a block; more parts mean denser reductions but more reading
// from L2 (parts x the frame).
constexpr uint32_t kJointParts = CUDAHIST_JOINT_PARTS;
// Blocks per SM of the sliced grid: 2, so that one counts while the other waits on its
// loads or reductions.
constexpr uint32_t kJointBlocksPerSm = CUDAHIST_JOINT_BLOCKS_PER_SM;
constexpr uint32_t kJointSliceThreads = CUDAHIST_JOINT_SLICE_THREADS;
// Loads a thread issues before counting: a 1080p slice is about 4 a thread, one round of
// DRAM latency.
constexpr uint32_t kJointSliceLoads = 4;
// The last block of a part moves it with this many loads a thread in flight before its
// stores: two L2 round trips, not 16.
constexpr uint32_t kJointMoveBatch = 8;
// One L2 reduction per sample straight into the accumulator, no shared counters: peaked
// chroma piles them onto a few addresses; kept to measure the L2's rate.
constexpr bool kJointGlobalAtomics = CUDAHIST_JOINT_GLOBAL_ATOMICS != 0;
// Direct adds (counts in device memory): each block zeroes its share of the counts, arrives,
// counts, waits for every arrival and adds into the counts; no accumulator, ticket or move.
// The wait needs every block resident: the launch is cooperative beside PDL, and pinned or
// managed counts take the accumulator.
constexpr bool kJointDirect = CUDAHIST_JOINT_DIRECT != 0;
static_assert(kJointParts >= 1 && kJointParts <= 256, "joint parts: 1 to 256 (kMaxJointBins)");
static_assert(kJointBlocksPerSm >= 1, "joint blocks per SM: at least 1");
static_assert(kJointSamplesPerItem <= 65535, "a 16-bit shared counter must not overflow within an item");

}  // namespace cudahist::detail
