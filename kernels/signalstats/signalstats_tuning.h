// cudahist: tuning of the signalstats kernel (signalstats_counter.cu), each
// number with its reason; the measurements behind them are in docs/tuning.md.
// Overridable at build time (-DCUDAHIST_SIGNALSTATS_THREADS=...) for
// bench/tune_signalstats.sh's variants.
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
#ifndef CUDAHIST_SIGNALSTATS_QC_BAND_ROWS
#define CUDAHIST_SIGNALSTATS_QC_BAND_ROWS 16
#endif
#ifndef CUDAHIST_SIGNALSTATS_TABLE_IN_L1
#define CUDAHIST_SIGNALSTATS_TABLE_IN_L1 0
#endif

namespace cudahist::detail {

// 1024 threads, one block per SM by registers (64 each: no spills at runs of 4): the grid
// is one wave, so each block's zeroing and merging of its copies is paid once per SM.
constexpr uint32_t kSignalStatsThreads = CUDAHIST_SIGNALSTATS_THREADS;
constexpr uint32_t kSignalStatsMinBlocksPerSm = CUDAHIST_SIGNALSTATS_MIN_BLOCKS;

// Chroma samples per unit (each with its luma block): 4 gives a 1080p NV12 frame one unit
// per thread, so a thread waits once for its loads and once for its table lookups.
constexpr uint32_t kSignalStatsRun = CUDAHIST_SIGNALSTATS_RUN;

// Lane copies of the shared counters: the largest power of two up to 32 whose copies fit
// the budget (8-bit: 16 copies, 88.6 KB; 10-bit: 4), bounding a flat frame's conflicts.
constexpr uint32_t kSignalStatsMaxCopies = 32;
constexpr uint32_t kSignalStatsCopiesBudgetBytes = CUDAHIST_SIGNALSTATS_COPIES_BUDGET_KB * 1024;

// Wide loads (LoadUnitWide, signalstats_walk.cuh): an aligned 8-bit unit inside the region
// reads each row's run in one load (6 loads instead of 48) and unpacks it with PRMT.
constexpr bool kSignalStatsWideLoads = CUDAHIST_SIGNALSTATS_WIDE_LOADS != 0;

// Units each thread takes at least; 1 gives every SM a block for 1080p (fewer blocks would
// mean fewer merges but a longer walk per thread).
constexpr uint32_t kSignalStatsUnitsPerThread = CUDAHIST_SIGNALSTATS_UNITS_PER_THREAD;

// Units a thread loads before counting them (CountUnitPair at 2): no gain measured, and at
// runs of 4 a 1080p frame has fewer units than threads, so no pairs form.
constexpr uint32_t kSignalStatsUnitsInFlight = CUDAHIST_SIGNALSTATS_UNITS_IN_FLIGHT;
static_assert(kSignalStatsUnitsInFlight == 1 || kSignalStatsUnitsInFlight == 2, "1 or 2 units in flight");

// The last block issues all its atomicExch of the totals before any store (WriteCounts):
// one L2 round trip at the end of every frame instead of five in a row.
constexpr bool kSignalStatsOverlappedFinish = CUDAHIST_SIGNALSTATS_OVERLAPPED_FINISH != 0;

// Cache hints for the sat/hue table (L1::evict_last) and the frame (L1::no_allocate);
// off: alone they measured no gain over plain __ldg.
constexpr bool kSignalStatsTableInL1 = CUDAHIST_SIGNALSTATS_TABLE_IN_L1 != 0;

// 8-bit frames look sat and hue up in a 16-bit table (PackSatHue: 128 KB instead of 256),
// so that more of it stays in L1 beside the shared copies; 9 and 10 bits keep 32-bit tables.
constexpr bool kSignalStatsPackedTable = CUDAHIST_SIGNALSTATS_PACKED_TABLE != 0;

// Byte lanes (signalstats_byte_lanes.cuh): a wide unit's DIF sums and BRNG tests four
// samples a word (__vsadu4, __vcmpltu4): the counting is as much instructions as latency.
constexpr bool kSignalStatsByteLanes = CUDAHIST_SIGNALSTATS_BYTE_LANES != 0;

// Paired totals: two neighbouring counters in one 64-bit atomic (no carry below 2^32
// samples), halving the merge's L2 atomics that the fence before the ticket waits for.
constexpr bool kSignalStatsPairedTotals = CUDAHIST_SIGNALSTATS_PAIRED_TOTALS != 0;

// Direct launches (device/grid_completion.cuh), counts in device memory: the first block
// zeroes the counts and every block adds straight into them after that arrival, with no
// ticket and no last block; pinned or managed counts take the accumulator's path.
constexpr bool kSignalStatsDirect = CUDAHIST_SIGNALSTATS_DIRECT != 0;

// Luma rows a QC block takes (qc_band.cuh): 16 gives a 1080p frame 68 QC blocks, so 68
// atomics a column sum; a multiple of 4, so that 4:2:0 chroma field pairs stay in a band.
constexpr uint32_t kQcBandRows = CUDAHIST_SIGNALSTATS_QC_BAND_ROWS;

}  // namespace cudahist::detail
