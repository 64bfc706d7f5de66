// cudahist: tuning of the scope kernels (column_histogram.cu,
// joint_histogram.cu), each number with its reason. Written before any
// measurement of these kernels on the GPU host: bench/scopebench.cu is what
// confirms or moves them (bench/RESULTS.md).
#pragma once

#include <cstdint>

// Build-time overrides (CUDAHIST_* below), so that bench/tune_scopes.sh can
// build scopebench variants and time them side by side in one run on the GPU
// host (meson option scope-tuning: they reach only the scope kernels).
// Round three (H100, 2026-11-23 05:05 UTC, 2 rounds, uniform samples, us:
// (a) seed 004's [524288, 512], (b) 1080p and (c) 4K luma per column; the
// round-two defaults 130.9 / 6.89 / 11.89) made these the defaults: the lean
// byte walk, the shuffle flush, 16-bit counters at V = 1, items without
// divisions, the next rows prefetched at V = 1 in batches of 12 (together
// "vleanpf": 127.0 / 5.22 / 9.65) and native partials at V = 4 (alone
// 107.9 on (a); with lean, shuffle, 16-bit counters and word loads, "vall":
// 105.1 / 5.62 / 10.47). Word loads (words 127.9 / 7.67 / 11.59, vwords
// 127.6 / 5.60 / 10.48) and 256-thread blocks (vw256 127.1 / 8.67 / 17.43)
// were not taken.
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
// A block owns a band of up to 32 x V columns (lane l of every warp takes
// columns l V .. l V + V - 1) and a slice of rows. Its counters are one histogram per
// (column, lane position) at word (k * bins + bin) * 32 + lane: every lane of
// a warp increments in its own bank whatever the data, so random and flat
// frames alike count without bank conflicts (seed 004's 257-bin padding is
// conflict-free only when neighbouring columns hold equal values).
// Threads: 1024 at V = 4 (one block per SM: its counters take 128 KB); 512
// at V = 1, so that two blocks share an SM (registers: 64 a thread at 1024)
// and a frame's bands spread over every SM.
constexpr uint32_t kColumnThreadsWide = 1024;
constexpr uint32_t kColumnThreadsNarrow = CUDAHIST_COLUMN_THREADS_NARROW;
// Blocks an SM must hold at V = 1 (__launch_bounds__): 2 at 512 threads
// caps the kernel at 64 registers a thread (ptxas, nvcc 13: 68 and 72 with a
// bound of 1, one block an SM), the count it had when measured. 1024 threads
// (CUDAHIST_COLUMN_THREADS_NARROW) with a bound of 1 also take 64 registers
// and make one block an SM: 132 resident blocks, and the plan then takes bands of
// 16 columns for 1080p, 32 for 4K (half as many blocks; the first round's
// th1024: (b) 8.97 us, (c) 14.60 against 8.96 and 13.92 with 512). A bound
// of 2 at 1024 threads asks for 32 registers (ptxas spills 60 to 90 bytes) so that 264 blocks of 1024 stay resident,
// with fewer rows in flight (CUDAHIST_COLUMN_ROWS_IN_FLIGHT_NARROW = 16:
// 128 rows a round x 16 still covers 1080p's 1080 rows in one round).
constexpr uint32_t kColumnMinBlocksNarrow = CUDAHIST_COLUMN_MIN_BLOCKS_NARROW;
// At V = 1, a warp's lanes split into groups of 32, 16 or 8 that each take a
// row (bands of as many columns): the fewest lanes a row gets. 8 columns are
// 8 bytes of a row, a quarter of a 32-byte sector; the neighbouring bands
// read the rest of it at about the same time (neighbouring blocks).
constexpr uint32_t kColumnMinRowLanes = CUDAHIST_COLUMN_MIN_ROW_LANES;
// Bins counted at once: 256 (V = 4: 4 x 32 x 256 x 4 bytes = 128 KB of
// counters, one block per SM; V = 1: 32 KB, two blocks of 1024 threads). More
// bins (10-bit video in 1024) are counted in tiles of 256, the band read once
// per tile (a frame's band is in L2 by the second tile).
constexpr uint32_t kColumnTileBins = 256;
// V = 4 (one 32-bit load of four 8-bit samples per lane, a 128-byte row
// segment per warp) for tall planes: seed 004's [length, 512] rows, where 4
// bands x slices fill the GPU and the partials stay a few percent of the
// input. V = 1 (one sample per lane, bands of 8 to 32 columns) for video
// frames, whose few rows cannot be cut into slices without partials as large
// as the frame (1080p luma: 1920 x 256 counters are 2 MB, as much as the
// frame): 240 bands of 8 columns for 1080p, 240 of 16 for 4K (on 132 SMs),
// each counting every row of its band and writing its final counts directly
// (no partials, no second phase).
constexpr uint32_t kColumnWideMinRows = 4096;
// A slice has at least this many rows: fewer, and the partials (one set of
// band counters per slice) would cost more traffic than the rows they split.
constexpr uint32_t kColumnMinRowsPerSlice = 2048;
// Row loads a lane issues before counting the first (bytes in flight per
// block: 512 threads x 32 x 1 byte at V = 1, 1024 x 8 x 4 bytes at V = 4).
// Seed 004's 256 MiB ran at 0.59 of the read+write roofline (1.74 TB/s): 32 KB
// a SM at most, and none while a warp counts its batch, is near what Little's
// law asks at HBM latency (about 12 bytes a clock a SM x 1000-1500 clocks),
// so 16 rows (CUDAHIST_COLUMN_ROWS_IN_FLIGHT_WIDE) or the next batch loaded
// before the current one is counted (CUDAHIST_COLUMN_PREFETCH, V = 4 only:
// at V = 1 a video band is one batch) were the variants: prefetch (default)
// took (a) from 150.7 to 136.7 us, 16 rows to 142.7, both to 139.6.
constexpr uint32_t kColumnRowsInFlightNarrow = CUDAHIST_COLUMN_ROWS_IN_FLIGHT_NARROW;
constexpr uint32_t kColumnRowsInFlightWide = CUDAHIST_COLUMN_ROWS_IN_FLIGHT_WIDE;
constexpr bool kColumnPrefetchWide = CUDAHIST_COLUMN_PREFETCH != 0;
// CUDAHIST_COLUMN_PREFETCH_NARROW = 1 (round three): the same at V = 1 for
// byte samples, with CUDAHIST_COLUMN_ROWS_IN_FLIGHT_NARROW = 16 so that both
// batches take the 32 registers one batch of 32 takes now. A 4K band's lane
// walks 68 rows: three batches of 32, each waiting for DRAM with no load in
// flight while it is counted; with the prefetch, one wait and then the
// counting of each batch over the next one's loads. 1080p (17 rows a lane):
// the 17th row's load is issued before the first 16 are counted.
constexpr bool kColumnPrefetchNarrow = CUDAHIST_COLUMN_PREFETCH_NARROW != 0;
// Warps that write the counters out, each through a transposition stage of
// band columns x 33 words (the counters are bin-major per lane; the counts are
// group-major: without the stage, a warp reading 32 bins of one column would
// hit one bank 32 times). 4 stages of 128 x 33 words = 66 KB beside the
// counters at V = 4 (the most that fits beside them). At V = 1 a 1080p band's
// 8 columns x 256 bins are 8 chunks of 32 bins: 4 warps take two chunks each
// while the other warps of the block wait, on the critical path of a frame
// that is a few microseconds long; CUDAHIST_COLUMN_FLUSH_WARPS_NARROW = 8
// gives every chunk its own warp (33 KB of stages instead of 17): default,
// (b) 10.93 -> 8.96 us, (c) 16.25 -> 13.92 on its own.
constexpr uint32_t kColumnFlushWarpsWide = 4;
constexpr uint32_t kColumnFlushWarpsNarrow = CUDAHIST_COLUMN_FLUSH_WARPS_NARROW;
// A flushing warp sums each column of its chunk from the stage (1 to 4 words
// a lane). Walked one column at a time with the group test between columns,
// every sum waits for its shared loads: 128 columns x some 40 clocks a chunk
// at V = 4, two chunks a warp, several microseconds while DRAM idles (the
// partials are written at the end of a one-wave grid). When every column is
// its own group (seed 004's channels, full-width waveforms) the sums are
// independent: CUDAHIST_COLUMN_FLUSH_PER_COLUMN (default; 0 is the code as
// first measured) unrolls them four columns at a time.
constexpr bool kColumnFlushPerColumn = CUDAHIST_COLUMN_FLUSH_PER_COLUMN != 0;
// Programmatic dependent launch (kernels/tuning.h explains it) for the column
// launches that need no grid sync (video frames: the plan is direct): the
// launch gap and the zeroing of the counters overlap the previous kernel's
// tail. Cooperative launches (partials, the joint kernel) stay plain; the
// sliced joint kernel (CUDAHIST_JOINT_SLICED) is not cooperative and takes it.
// Default: (b) 10.93 -> 8.75 us, (c) 16.25 -> 14.04 on its own; with 8
// flush warps 6.91 and 11.89.
constexpr bool kScopesProgrammaticLaunch = CUDAHIST_SCOPES_PROGRAMMATIC_LAUNCH != 0;
// Partials in global memory (slices x bands x groups per band x bins words)
// stay below this; the slice count shrinks to fit. Seed 004's 256 MiB at 33
// slices x 512 x 256 bins is 17 MB.
constexpr uint64_t kColumnPartialBudgetBytes = 32ull << 20;
// Seed 004's 33 slices x 512 columns x 256 bins of partials are 17 MB written
// and read again after the grid sync, beside the 256 MiB frame: a few
// microseconds at L2 and DRAM rates. A partial counts at most a slice's rows
// (15888 there) x the group's columns in the band, so when that is below
// 65536 they fit 16 bits: CUDAHIST_COLUMN_PARTIALS16 (default) halves that
// traffic: (a) 150.7 -> 145.0 us on its own.
constexpr bool kColumnPartials16 = CUDAHIST_COLUMN_PARTIALS16 != 0;
// Round three (issue 11 item 2, written before it ran; predictions in
// bench/tune_scopes.sh). ncu of the defaults (H100, 03:28 UTC): (a) issues
// 2.8 instructions a clock per SM (of 4) at 62% of DRAM: 88.9M warp
// instructions for 67M 4-byte words, some 42 a word, where a word's count is
// four byte extracts, address sums and shared reductions (12 to 16). The
// rest is per-row and per-column bounds tests and a 64-bit multiply per row
// address. (b) and (c) run 924 and 1700 instructions a warp, at 44% occupancy,
// 6.7% and 17% of DRAM: chains of prologue, zeroing, loads, counts and a
// flush by half the warps through a stage.
// CUDAHIST_COLUMN_LEAN_COUNT = 1: the byte walk (ColumnPlan::bytes, V = 1
// and 4) counts whole batches of rows without a test per row or per column
// (only the last lane of a band whose width is not a multiple of 4, and the
// last batch, take the tested walk), with row addresses by 64-bit increments
// instead of a multiply each: (a) should leave the issue limit for DRAM's.
constexpr bool kColumnLeanCount = CUDAHIST_COLUMN_LEAN_COUNT != 0;
// CUDAHIST_COLUMN_SHUFFLE_FLUSH = 1: at V = 1, when the plan is direct and
// every column is its own group (full-width waveforms, video luma), every
// warp of the block flushes (not 8 of 16), without the stage: a warp reads
// a group of 16 bins (8 where a column has 1 or 2 lanes) of all 32 lanes'
// counters (conflict-free rows), sums the lanes that counted one column (0 to
// 2 butterfly steps of shuffles, a reduce-scatter: each lane ends with 4 or 8
// consecutive bins of its column) and stores them as 16-byte words where the
// counts are 16-byte aligned. Bands of 8 or more columns (row_lanes >= 8).
// (b): 16 warps x 16 bins instead of 8 warps x (32 loads, 32 stage stores,
// 8 x 4 stage loads, 8 scalar stores).
constexpr bool kColumnShuffleFlush = CUDAHIST_COLUMN_SHUFFLE_FLUSH != 0;
// CUDAHIST_COLUMN_COUNTERS16 = 1 (with the lean count and the shuffle flush; V = 1 bytes,
// direct, one group per column): counters of 16 bits, two bins to a word
// (word (bin / 2) * 32 + lane, still one bank per lane). At V = 1 a plane has
// fewer than kColumnWideMinRows rows, so no counter, and no sum of one
// column's lanes, can pass 65535: the shuffle sums add the packed words
// without a carry between halves. Half the zeroing (16 KB a block instead of
// 32) and half the flush's shared loads.
constexpr bool kColumnCounters16 = CUDAHIST_COLUMN_COUNTERS16 != 0;
// CUDAHIST_COLUMN_WORD_LOADS = 1 (with the lean count): at V = 1, byte
// samples at stride 1 in 4-byte aligned rows are loaded a 32-bit word (four
// columns) a lane instead of a byte, each of the four counted in the counters
// of the lane that the byte walk gives that column (CountBandWords), so the
// counters and the flush stay as they are (a kernel of its own: beside the
// byte walk in one kernel, ptxas spilled 160 to 280 bytes). A quarter of the load
// instructions and address sums, four samples a register: 4K's bands of 16
// columns take one batch of 17 words a lane instead of three of 32 bytes (each
// a wait for DRAM while nothing else is loaded), and an SM has its whole
// share of the frame in flight at once. CUDAHIST_COLUMN_WORD_ROWS_IN_FLIGHT
// (20): words a lane loads before counting the first, 4K's 17 in one batch
// (32, as the byte walk has, made ptxas spill with the other round-three flags).
constexpr bool kColumnWordLoads = CUDAHIST_COLUMN_WORD_LOADS != 0;
// CUDAHIST_COLUMN_LEAN_ITEM = 1: a direct plan of one slice, one bin tile and
// one group per column needs no division to place its item (band b is
// columns [b n, b n + n), rows [0, height)) and no column-to-group table; and
// (every plan) the counters are zeroed 16 bytes a store. The prologue (some 8 divisions of
// 20-40 instructions each) runs before the wait only on blocks already
// resident when the previous kernel ends; the others pay it after.
constexpr bool kColumnLeanItem = CUDAHIST_COLUMN_LEAN_ITEM != 0;
// CUDAHIST_COLUMN_NATIVE_PARTIALS = 1: at V = 4 with one group per column
// and partials (seed 004's [length, 512]), the block's counters go to the
// partials as they lie in shared memory (word ((band 4 + k) bins + bin) 32 +
// lane of a slice: lane l's k-th column is band column 4 l + k), 16 bytes a
// thread a store by every warp, instead of the flush by 4 warps through the
// stages (2 chunks each of 4 x 32 stage loads and stores and 128 column sums:
// several microseconds of a one-wave grid in which DRAM idles). The second
// phase then reads a partial's slices coalesced (32 lanes' counters of one
// bin) and writes its count at (4 l + k) bins + bin: the same partial bytes
// read, the 0.5 MB of counts written as scattered words into L2.
constexpr bool kColumnNativePartials = CUDAHIST_COLUMN_NATIVE_PARTIALS != 0;
static_assert(!kColumnWordLoads || kColumnLeanCount, "word loads are a walk of the lean count");
static_assert(!kColumnCounters16 || (kColumnShuffleFlush && kColumnLeanCount),
              "16-bit column counters are counted by the lean byte walk and flushed by the shuffle flush");

// --- joint histograms (joint_histogram.cu) --------------------------------------
// 256 x 256 32-bit counters (256 KB) do not fit shared memory; 16-bit counters
// packed two to a word (128 KB) do. A block counts an item of at most
// kJointSamplesPerItem samples, so no 16-bit counter can overflow, then adds
// its non-zero counters to a 256 x 256 accumulator in global memory (L2
// atomics); after grid.sync every thread copies its share to the counts and
// re-zeroes the accumulator for the next launch. On real video (chroma near
// grey, smooth) a block's samples fall into few counters, so the global
// atomics are far fewer than the samples; on uniform noise they are about as
// many as the samples (each item: 8192 samples into 65536 counters).
// 8192 = 1024 threads x 8 samples in flight: 1080p NV12's 960 x 540 chroma
// gives 64 items, one wave of blocks; each block zeroes and scans 128 KB of
// shared memory per item, which is the price of privatizing. That wave uses
// 64 of an H100's 132 SMs: CUDAHIST_JOINT_SAMPLES_PER_THREAD = 4 gives 127
// items (each block zeroes and scans as much, for half the samples, and
// merges about half as many non-zero counters). Measured (H100, 03:04 UTC):
// 8 per thread 15.07 us (0.31 of the roofline), 4 per thread 19.90: 135
// items on 132 resident blocks, a second round for three of them. ncu at 8:
// 15.6 us, 2.5% of DRAM, 68 blocks of 1024 threads each busy about the
// whole kernel (25K clocks) for 8192 samples: zeroing and scanning 128 KB,
// some 7.7K L2 reductions a block on uniform samples (peaked: 13.3 us).
// CUDAHIST_JOINT_B_PARTS = 2 cuts the b range in two halves, each block
// counting one half of an item (64 KB of counters: two blocks per SM, 136
// blocks for 68 items, every item read twice from L2): the chain of each
// block (zeroing, scan, reductions) halves and 132 SMs share it instead of
// 68. CUDAHIST_JOINT_FLUSH_VECTOR = 1 scans the counters 16 bytes (eight
// 16-bit counters) at a time, skipping zero vectors: a quarter of the scan's
// loop iterations. CUDAHIST_JOINT_WARP_AGGREGATE = 1 adds equal (a, b)
// pairs of a warp once (__match_any_sync): peaked samples (real chroma near
// grey) put many lanes on one shared counter, whose increments serialise.
constexpr uint32_t kJointThreads = 1024;
constexpr uint32_t kJointSamplesPerThread = CUDAHIST_JOINT_SAMPLES_PER_THREAD;
constexpr uint32_t kJointSamplesPerItem = kJointThreads * kJointSamplesPerThread;
constexpr uint32_t kJointBParts = CUDAHIST_JOINT_B_PARTS;
constexpr bool kJointFlushVector = CUDAHIST_JOINT_FLUSH_VECTOR != 0;
constexpr bool kJointWarpAggregate = CUDAHIST_JOINT_WARP_AGGREGATE != 0;
// The register bound (__launch_bounds__): as many blocks as an SM's threads
// hold, so that with half the counters (64 KB) two blocks share an SM. 32
// registers a thread at 1024, which ptxas (nvcc 13) gave the kernel as first
// measured with no minimum; a minimum of 1 gives it 40. An SM holds 2048
// threads on sm_80, sm_90 and sm_100, 1536 on sm_86/89/120 and 1024 on
// sm_75, where a minimum of 2 blocks of 1024 is out of range (ptxas warns and
// ignores it); architectures not named here get the minimum of 1.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000
constexpr uint32_t kJointThreadsPerSm = 2048;
#else
constexpr uint32_t kJointThreadsPerSm = 1024;  // whole blocks of 1024 that 1024 or 1536 threads hold
#endif
constexpr uint32_t kJointMinBlocksPerSm = kJointThreadsPerSm / kJointThreads > 0 ? kJointThreadsPerSm / kJointThreads : 1;
static_assert(kJointBParts == 1 || kJointBParts == 2 || kJointBParts == 4, "b parts: 1, 2 or 4");
// The sliced kernel (CUDAHIST_JOINT_SLICED = 1; 0 keeps the kernel above).
// Round 2 showed the kernel above bound by a chain of fixed costs per block
// (zero 128 KB, count 8192 samples, scan 128 KB, some 7.7K L2 reductions on
// uniform samples: ncu 621K red sectors a frame, the L2 at 32% of its
// throughput, then grid.sync and a copy of 256 KB by the whole grid), on 68
// of 132 SMs. The sliced kernel cuts the work both ways instead: the b range
// into kJointParts parts (32-bit shared counters of 256 / parts rows: 32 KB
// at 8 parts, nothing to pack or to bound) and the rows into slices, one
// block per (part, slice), about kJointBlocksPerSm blocks an SM. A block reads
// its slice (16-byte loads for NV12's UV), counts the samples of its part,
// adds its non-zero counters to the accumulator (L2 reductions, coalesced:
// consecutive counters from consecutive lanes), and the last block of a part
// to arrive (a ticket per part, no grid sync, no cooperative launch) moves
// that part of the accumulator to the counts and zeroes it. So a frame is read
// `parts` times (once from DRAM, then from L2: 1 MB for 1080p NV12), and
// each block's chain is short: 32 KB to zero and scan, a slice of 16 rows,
// 8192 counters of which about 3.4K non-zero at 8 parts x 33 slices on
// uniform samples (some 230K red sectors a frame instead of 621K: a block's
// counters see 2K samples of its part where the kernel above saw 8192 over
// 64K counters). The launch is programmatic (kScopesProgrammaticLaunch): the
// zeroing of the shared counters overlaps the previous kernel.
// More parts: fewer, denser reductions, more reading from L2 (parts x the
// frame) and more samples skipped per block; fewer: the reverse.
constexpr bool kJointSliced = CUDAHIST_JOINT_SLICED != 0;
constexpr uint32_t kJointParts = CUDAHIST_JOINT_PARTS;
// Grid: parts x slices, slices = SMs x kJointBlocksPerSm / parts (at most the
// resident blocks, at least one row a slice). 2: 264 blocks of 512 threads
// on an H100 (two an SM: one counts while the other waits on its loads or
// reductions); 1: 136, half the reductions, twice the rows a block.
constexpr uint32_t kJointBlocksPerSm = CUDAHIST_JOINT_BLOCKS_PER_SM;
constexpr uint32_t kJointSliceThreads = CUDAHIST_JOINT_SLICE_THREADS;
// Loads a thread issues before counting (16-byte chunks for NV12: a 1080p
// slice of 16 rows x 121 chunks is about 4 a thread at 512 threads, one
// round of DRAM latency).
constexpr uint32_t kJointSliceLoads = 4;
// The last block of a part moves it (8192 words at 8 parts) with this many
// loads a thread in flight before its stores: two L2 round trips, not 16.
constexpr uint32_t kJointMoveBatch = 8;
// CUDAHIST_JOINT_GLOBAL_ATOMICS = 1: the sliced kernel without shared
// counters, one L2 reduction per sample of the block's part straight into
// the accumulator (518K for 1080p NV12, spread over the L2 slices by the 64K
// addresses; the parts still split the final move between blocks). No
// zeroing, no scan; but peaked chroma (real video near grey) piles the
// reductions of a frame onto a few addresses, which serialise in their L2
// slice: measured for what the uniform case shows of the L2's rate.
constexpr bool kJointGlobalAtomics = CUDAHIST_JOINT_GLOBAL_ATOMICS != 0;
// CUDAHIST_JOINT_DIRECT = 1 (sliced kernel, counts in device memory): no
// accumulator, no tickets, no move. Each block zeroes its share of its part's
// counts first and arrives at a grid-wide counter; it counts its slice; then
// waits for every block's arrival (by then long past: the wait costs nothing
// but the read) and adds its counters straight to the counts. The chain after
// the count (fence, ticket, the last block's two L2 round trips to move and
// zero 32 KB) goes; a block's end is its reductions. The wait needs every
// block resident at once: the grid is at most what the device holds
// (kJointBlocksPerSm, capped by the occupancy), and PDL's wait for the previous
// grid comes before it. Each launch counts its arrivals in a counter of its
// own, zero when it starts (StartDirectLaunch, grid_arrivals.cuh), so that a
// launch replayed from a CUDA graph waits for its own zeros. Pinned or
// managed counts (cudaPointerGetAttributes per Compute) take the accumulator.
// The launch is cooperative beside PDL (LaunchJoint): where fewer SMs are
// lent than the occupancy counts (MPS limits, green contexts) the driver
// refuses it rather than let the wait hang, and the accumulator's launch
// follows. Measured (H100, 2026-11-23, bench/tune_scopes.sh, uniform /
// peaked us a 1080p NV12 U-V frame): the round-two kernel 16.6 / 14.0, the
// sliced kernel through the accumulator 16.6 / 14.6, direct 13.7 / 11.9
// (12.9 / 11.8 before it was cooperative): the default, sliced and direct.
// Round four (H100, 07:08 UTC, 2 rounds; direct 13.25 / 11.49 in the same
// call): two phases instead of the direct adds, each block storing all its
// counters as partials and the whole grid summing them over the slices after
// a grid-wide arrival, with no atomics and no zeroing: 32-bit partials
// 14.16 / 13.58, 16-bit 15.10 / 14.91, 16-bit in 8 x 16 blocks of 1024
// 14.40 / 14.13. Not taken (its code is gone): the direct adds' reductions
// cost less than storing and reading back the partials. The count's
// reductions (SharedCount, joint_histogram.cu) are predicated at a shared
// address computed once, where each pair had cost a branch, a BSSY/BSYNC pair
// and four instructions converting a generic pointer: H100, 07:52 UTC, 3
// rounds, 12.83 / 11.01 us against 13.71 / 11.74 (4.89M warp instructions a
// launch against 5.31M).
constexpr bool kJointDirect = CUDAHIST_JOINT_DIRECT != 0;
static_assert(kJointParts >= 1 && kJointParts <= 256, "joint parts: 1 to 256 (kMaxJointBins)");
static_assert(kJointBlocksPerSm >= 1, "joint blocks per SM: at least 1");
static_assert(kJointSamplesPerItem <= 65535, "a 16-bit shared counter must not overflow within an item");

}  // namespace cudahist::detail
