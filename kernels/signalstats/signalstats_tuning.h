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
#define CUDAHIST_SIGNALSTATS_RUN 4
#endif
#ifndef CUDAHIST_SIGNALSTATS_COPIES_BUDGET_KB
#define CUDAHIST_SIGNALSTATS_COPIES_BUDGET_KB 96
#endif
#ifndef CUDAHIST_SIGNALSTATS_WIDE_LOADS
#define CUDAHIST_SIGNALSTATS_WIDE_LOADS 1
#endif
#ifndef CUDAHIST_SIGNALSTATS_UNITS_PER_THREAD
#define CUDAHIST_SIGNALSTATS_UNITS_PER_THREAD 1
#endif
#ifndef CUDAHIST_SIGNALSTATS_UNITS_IN_FLIGHT
#define CUDAHIST_SIGNALSTATS_UNITS_IN_FLIGHT 1
#endif
#ifndef CUDAHIST_SIGNALSTATS_OVERLAPPED_FINISH
#define CUDAHIST_SIGNALSTATS_OVERLAPPED_FINISH 1
#endif
#ifndef CUDAHIST_SIGNALSTATS_PACKED_TABLE
#define CUDAHIST_SIGNALSTATS_PACKED_TABLE 1
#endif
#ifndef CUDAHIST_SIGNALSTATS_BYTE_LANES
#define CUDAHIST_SIGNALSTATS_BYTE_LANES 1
#endif
#ifndef CUDAHIST_SIGNALSTATS_PAIRED_TOTALS
#define CUDAHIST_SIGNALSTATS_PAIRED_TOTALS 1
#endif
#ifndef CUDAHIST_SIGNALSTATS_DIRECT
#define CUDAHIST_SIGNALSTATS_DIRECT 1
#endif
#ifndef CUDAHIST_SIGNALSTATS_TABLE_IN_L1
#define CUDAHIST_SIGNALSTATS_TABLE_IN_L1 0
#endif

namespace cudahist::detail {

// Measured (H100 80GB HBM3, 2026-11-23 03:04 UTC, bench/tune_signalstats.sh,
// median us/frame of 1080p NV12 with a previous frame over 2 rounds, spread
// <= 0.07 us; the Y/U/V histograms of the same frame: 7.84):
//   runs of 2, byte loads, one exchange at a time (the first defaults): 19.68
//   + overlapped finish 19.10; wide loads 15.74; wide + finish 15.16;
//   wide + finish + runs of 4 14.51 (13.50 without a previous frame): these
//   are the defaults now (1.85x the histogram; target 1.5x);
//   wide + finish + 2 units in flight 15.56, with 8 copies 15.55, with 4
//   units a thread 17.58, with 2 blocks of 512 18.06: not taken.
// Second round (H100, 03:25 UTC, the same bench, runs of 4 without spills as
// the base, histogram 7.80-7.83): base 14.45; the 16-bit 8-bit table
// (packed) 13.31 (12.65 without a previous frame): the default now, 1.71x
// the histogram, still short of the 1.5x target; packed + table in L1 + 8
// copies 13.66; table in L1 alone 14.46; 4 copies 14.70; 8 copies 14.79;
// 768 threads 15.08; runs of 2 15.13; 2 blocks of 512 16.64. Nsight Compute
// on the base kernel: 17.0 us under the profiler, 11% of DRAM bandwidth, 25%
// of the SMs' throughput, one wave at 50% occupancy: a chain of latencies
// (zeroing, loads, the dependent table load, merge, the last block), not a
// throughput limit (bench/results/2026-11-23-h100-0325/).
// bench/tune_signalstats.sh builds signalstats_bench once per variant of these
// macros and times them side by side on the GPU host.
// Third round (H100, 2026-11-23 04:45 and 04:59 UTC), measured and then
// removed from the code: every sat/hue lookup of a unit issued before its
// first histogram increment, 13.10 us a 1080p frame against 12.60 with each
// lookup beside its increments (ptxas already schedules them early where it
// can; four entries held cost registers under the 64-register cap); and the
// units spread over all 132 SMs instead of 127 blocks of one unit a thread,
// 13.29 / 13.42 against 13.26 / 13.10: no gain.

// Threads per block, and blocks that must fit an SM as far as registers go
// (__launch_bounds__). 1024 x 1 caps the kernel at 64 registers; nvcc 13
// (sm_90) then uses 62 to 64 with no spills for runs of 4 (the wide path
// alone takes 60; the sample-by-sample walk, which spilled 160 bytes when it
// held a whole unit of 4, takes its units 2 samples at a time: kBySampleGroup
// in signalstats_walk.h). One block of 1024
// per SM, as the privatized kernel that measured best on 1080p frames: the
// grid is one wave of at most one block per SM, so each block's zeroing and
// merging of its shared copies is paid 132 times on an H100, not per unit.
constexpr uint32_t kSignalStatsThreads = CUDAHIST_SIGNALSTATS_THREADS;
constexpr uint32_t kSignalStatsMinBlocksPerSm = CUDAHIST_SIGNALSTATS_MIN_BLOCKS;

// Chroma samples per unit, consecutive in a chroma row, each with its luma
// block (2x2 for 4:2:0): a thread issues all of a unit's loads (frame and
// previous frame, 24 of them for 4:2:0 NV12) before it counts, and
// consecutive threads take consecutive units, so a warp's loads of one
// position cover 32 x 4 x 2 contiguous luma bytes (coalesced in L1). 1080p
// NV12 gives 129600 units: one per thread of 127 blocks of 1024, so that a
// thread waits once for its loads and once for its table lookups (runs of 2:
// two units a thread, twice each; measured 0.65 us slower, above).
constexpr uint32_t kSignalStatsRun = CUDAHIST_SIGNALSTATS_RUN;

// Lane copies of the shared counters (Y, U, V and sat: 2^depth each, hue:
// 360): the largest power of two up to 32 whose copies fit this budget.
// 8-bit: 16 copies (1384 counters, 88.6 KB); 10-bit: 4456 counters, 4 copies
// (71 KB). Lanes l and l + C share a copy, so a flat frame costs at most
// 32 / C-way bank conflicts instead of a 32-way serialisation on one counter,
// and the merge (reading every copy) stays at about 43 words a thread.
constexpr uint32_t kSignalStatsMaxCopies = 32;
constexpr uint32_t kSignalStatsCopiesBudgetBytes = CUDAHIST_SIGNALSTATS_COPIES_BUDGET_KB * 1024;

// Wide loads (signalstats_walk.h, LoadUnitWide): for 8-bit frames with
// subsampled columns (NV12, I420, NV16...) whose rows are aligned, a unit
// wholly inside the region reads each luma row's 2 x kSignalStatsRun bytes
// and its chroma run in ONE load each (6 loads of 8 bytes a 4:2:0 NV12 unit
// of 4, frame and previous, instead of 48 byte loads, each with its 64-bit address
// arithmetic), and unpacks the bytes with PRMT; edge units and other layouts
// take the sample-by-sample walk. 0: off (every unit sample by sample).
constexpr bool kSignalStatsWideLoads = CUDAHIST_SIGNALSTATS_WIDE_LOADS != 0;

// Units each thread takes at least, which caps the grid below one block per
// SM for frames too small to give every thread this many: fewer blocks mean
// fewer zeroings and merges of the shared copies (1384 counters x 16 copies
// each for 8 bits) and fewer global atomics on the same 1384 totals, at the
// price of a longer walk per thread. 1: every SM gets a block from 132 x 1024
// units (1080p NV12 has 259200).
constexpr uint32_t kSignalStatsUnitsPerThread = CUDAHIST_SIGNALSTATS_UNITS_PER_THREAD;

// Units a thread loads before it counts them: 2 takes units u and u + grid
// stride together (CountUnitPair) and, when both are wide, issues all their
// loads (12 for 4:2:0 NV12 with a previous frame) before the first count, so
// that a thread of a 1080p frame (about 2 units each at runs of 2) waits for
// memory once, not twice; the unpacked walk keeps one unit at a time (it
// would spill). Measured no gain at runs of 2 (15.56 against 15.16 us), and
// at runs of 4 a 1080p frame has fewer units than threads: no pairs form.
// 1: one unit at a time.
constexpr uint32_t kSignalStatsUnitsInFlight = CUDAHIST_SIGNALSTATS_UNITS_IN_FLIGHT;
static_assert(kSignalStatsUnitsInFlight == 1 || kSignalStatsUnitsInFlight == 2, "1 or 2 units in flight");

// The last block's finish (WriteCounts): 1 issues all of a thread's
// atomicExch of the totals before it stores any (a compile-time trip count of
// kCountsBins / threads, 5 at 1024 threads), so that the single block pays one
// L2 round trip instead of five in a row at the end of every frame. 0: one
// exchange and store at a time.
constexpr bool kSignalStatsOverlappedFinish = CUDAHIST_SIGNALSTATS_OVERLAPPED_FINISH != 0;

// Cache hints (signalstats_walk.h): 1 loads the sat/hue table with
// L1::evict_last and the frame's wide runs with L1::no_allocate, so that the
// frame, read once, streams past L1 instead of evicting the table lines that
// every chroma pair's lookup (dependent on its chroma load) goes back to.
// 0: plain __ldg for both.
constexpr bool kSignalStatsTableInL1 = CUDAHIST_SIGNALSTATS_TABLE_IN_L1 != 0;

// 8-bit frames look sat and hue up in a 16-bit table (PackSatHue in
// signalstats_walk.h: 128 KB instead of 256 KB, so that more of it stays in
// L1 beside the 88 KB of shared copies) and split the entry with a
// multiply-shift; 9 and 10 bits keep the 32-bit tables. 0: 32-bit everywhere.
constexpr bool kSignalStatsPackedTable = CUDAHIST_SIGNALSTATS_PACKED_TABLE != 0;

// Byte lanes (signalstats_byte_lanes.h): a wide unit's DIF sums and BRNG
// tests four samples a word (__vsadu4, __vcmpltu4/__vcmpgtu4, PRMT) instead
// of one sample at a time. Why: the timeline build (signalstats_timeline.h,
// H100 2026-11-23 04:35 UTC) put 8.1 of a launch's 12.5 us in the counting
// of the units (merge 1.2, fence and ticket 1.5, zeroing 0.7), and Nsight
// Compute counts some 1050 instructions a thread for one unit of 4 chroma
// and 16 luma samples, issued at 0.39 a cycle per scheduler: the counting is
// as much instructions as memory latency. Measured (H100, 04:59 UTC): 12.60
// us a 1080p frame against 13.04 a sample at a time (lookups late in both;
// 13.10 and 13.31 with the lookups first): the default.
// 0: every sample on its own.
constexpr bool kSignalStatsByteLanes = CUDAHIST_SIGNALSTATS_BYTE_LANES != 0;


// Paired totals: a block adds two neighbouring counters of its merged copies
// to the global totals in one 64-bit atomic (the low and the high half; no
// carry between them below 2^32 samples), and the last block takes them back
// two at a time: half the L2 atomics of the merge (692 a block at 8 bits
// instead of 1384), which the fence before the ticket waits for, and half the
// exchanges of the last block. The timeline build (04:45 UTC) put 1.3 us in
// the merge, 1.5 in the fence and ticket and 1.6 in the last block's write.
// Measured (H100, 2026-11-23 05:58 and 06:05 UTC, 2 rounds each): 12.15 and
// 12.06 us a 1080p frame against 12.57 and 12.50 with single totals: the
// default. 0: one 32-bit atomic a counter.
constexpr bool kSignalStatsPairedTotals = CUDAHIST_SIGNALSTATS_PAIRED_TOTALS != 0;

// Direct launches (grid_arrivals.cuh), counts in device memory: the first
// block to start zeroes the SignalStatsCounts (18 KB) and arrives; every
// block, after its count, waits for that arrival and adds its merged copies
// straight into the counts' bins, two to a 64-bit atomic (the pairs of the
// compact numbering are pairs of the counts' layout too: OutputIndexOf), and
// its sums into the counts' sums. No ticket, no last block: the timeline of
// the accumulator's path (06:05 UTC) put 1.2 us in the fence and ticket and
// 1.7 in the last block's exchanges and stores after the merge, a chain that
// a direct launch does not have. Pinned or managed counts take the
// accumulator's path. First written with every block zeroing a share and
// waiting for every block's arrival, launched cooperatively as the joint
// kernel is (H100, 2026-11-23 06:48 UTC, 2 rounds): one launch alone ended
// 1.5 us sooner (11.5 against 13.1 us), but back to back 12.69 us a frame
// against the accumulator's 12.66: a cooperative launch gets no programmatic
// overlap with the kernel before it (its blocks all started 0.26 us apart,
// after the previous grid, where the accumulator's launch had them waiting
// early), and each block paid a fenced store of its share (0.9 us). As it is
// now (H100, 06:54 UTC, 2 rounds, 1080p NV12 with a previous frame): 10.69 us
// a frame against the accumulator's 12.52 and the histograms' 7.50 (1.43x;
// 9.84 without a previous frame); pinned counts (the accumulator) 12.69. Its
// timeline: the blocks end at a median 10.0 us, the last at 11.3, where the
// accumulator's last block ended at 13.1.
// 0: always the accumulator's path.
constexpr bool kSignalStatsDirect = CUDAHIST_SIGNALSTATS_DIRECT != 0;


}  // namespace cudahist::detail
