// cudahist: the tuning policy of the scope kernels (column_histogram.cu,
// joint_histogram.cu), each number with its reason; the measurements behind
// them are in docs/tuning.md, how a variant build overrides them in
// launch/policy.h.
#pragma once

#include <cstdint>

#include "launch/launch_tuning.h"
#include "launch/policy.h"

namespace cudahist::detail {

struct ScopesPolicy {
  // per-column histograms (column_histogram.cu): a block owns a band of up to 32 x V
  // columns and a slice of rows; its counters sit at word (k * bins + bin) * 32 + lane,
  // so every lane counts in its own bank whatever the data.
  struct Column {
    // 512 threads at V = 1, so that two blocks share an SM and a frame's bands spread over
    // all SMs ...
    uint32_t threads_narrow = 512;
    // ... and at V = 4 one block per SM (its 128 KB of counters allow no second) of every
    // thread the shared register count leaves room for (launch_tuning.h: 1024). The launch
    // bounds ask for as many blocks as that count allows at either V (2 blocks of 512: 64
    // registers, no spills).
    constexpr uint32_t threads_wide() const { return kLaunchPolicy.threads_per_sm(); }
    // At V = 1 a warp's lanes split into groups of 32, 16 or 8 that each take a row: 8 columns
    // are a quarter of a 32-byte sector, whose rest the neighbouring bands read at the same time.
    uint32_t min_row_lanes = 8;
    // Bins counted at once (V = 4: 128 KB of counters); more bins are counted in tiles of
    // this many, the band read once per tile (from L2 by the second).
    uint32_t tile_bins = 256;
    // A slice has at least this many rows: fewer, and the partials would cost more traffic
    // than the rows they split.
    uint32_t min_rows_per_slice = 2048;
    // V = 4 for planes tall enough to cut into two slices at least (bands x slices fill the
    // GPU, partials stay small); V = 1 for video frames, whose few rows cannot be sliced
    // without partials as large as the frame.
    constexpr uint32_t wide_min_rows() const { return 2 * min_rows_per_slice; }
    // Row loads a lane issues before counting the first, the next batch loaded while one is
    // counted (V = 1: batches of 12; V = 4: 8 rows of 4 bytes), near what Little's law asks
    // at HBM latency: a 4K band's lane then waits for DRAM once, not thrice.
    uint32_t rows_in_flight_narrow = 12;
    uint32_t rows_in_flight_wide = 8;
    // Warps that write the counters out through a transposition stage (band columns x 33
    // words, so that a warp reading 32 bins of one column hits 32 banks): 4 stages fit at
    // V = 4 ...
    uint32_t flush_warps_wide = 4;
    // ... and at V = 1 every 32-bin chunk of a band's tile gets its own warp, on a frame's
    // critical path.
    constexpr uint32_t flush_warps_narrow() const { return tile_bins / 32; }
    // Phase 2 sums a partial over the slices with launch_tuning.h's partial loads in flight
    // (the tall plane sums 33 slices; the partials stay below its partial budget, the slice
    // count shrinking to fit).
  } column;

  // joint histograms (joint_histogram.cu): a block per (part of the b range, slice of rows)
  // with 32-bit counters of its part, so each block's chain (zero, count, scan, reduce) is
  // short and every SM busy.
  struct Joint {
    // 8 parts: 32 KB of counters a block; more parts mean denser reductions but more reading
    // from L2 (parts x the frame).
    uint32_t parts = 8;
    // Blocks per SM of the grid: 2, so that one counts while the other waits on its loads or
    // reductions; each of the threads the SM holds at launch_tuning.h's register count
    // shared among them.
    uint32_t blocks_per_sm = 2;
    constexpr uint32_t threads() const { return kLaunchPolicy.threads_per_sm() / blocks_per_sm; }
    // Its blocks count with walk_tuning.h's deep loads a thread (a 1080p slice is about 4 a
    // thread); the last block of a part moves it with launch_tuning.h's partial loads in flight.
  } joint;
};

#ifndef CUDAHIST_TUNE_SCOPES
#define CUDAHIST_TUNE_SCOPES
#endif
constexpr ScopesPolicy kScopesPolicy = CUDAHIST_TUNED(ScopesPolicy, CUDAHIST_TUNE_SCOPES);

static_assert(kScopesPolicy.joint.parts >= 1 && kScopesPolicy.joint.parts <= 256,
              "joint parts: 1 to 256 (kMaxJointBins)");
static_assert(kScopesPolicy.joint.blocks_per_sm >= 1, "joint blocks per SM: at least 1");

}  // namespace cudahist::detail
