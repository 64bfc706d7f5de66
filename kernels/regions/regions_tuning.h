// cudahist: the tuning policies of the region kernels (segmented_histogram.cu,
// region_signalstats.cu), each number with its reason; how a variant build
// overrides them is in launch/policy.h. bench/analytics/ measures the
// segmented kernel against the whole-frame histogram, NPP and CUB per box,
// bench/tuning/tune_segmented.sh its variants (docs/tuning.md, "Regions");
// a change goes here with its figures.
#pragma once

#include <cstdint>

#include "launch/launch_tuning.h"
#include "launch/policy.h"
#include "launch/walk_tuning.h"

namespace cudahist::detail {

struct SegmentedPolicy {
  // Threads of a block. A tile is counted by one block, and a small tile (a
  // 10 x 10 box has 7 chunks of luma) leaves most of a large block idle while
  // it still zeroes and merges its copies. 256 runs four blocks of 769-counter
  // copies (NV12) on an SM, so four tiles' tolls (merge, fence, ticket) and
  // rounds of loads overlap where 512 ran two: 1080p NV12, us a frame back to
  // back, 100 boxes 20.31 against 22.69, 1000 boxes 127.8 against 147.7; 16
  // boxes 9.76 against 8.70, where the tiles are small and few (H200,
  // region_variants, docs/tuning.md). 1024 could not keep two blocks beside
  // their shared memory.
  uint32_t threads = 256;
  // __launch_bounds__' second argument: the four blocks an SM that
  // launch_tuning.h's register count leaves room for, which the reason above
  // counts on (without it the compiler may take more registers: 78 for the
  // 8-copy kernel, room for three).
  constexpr uint32_t min_blocks_per_sm() const { return kLaunchPolicy.min_blocks_per_sm(threads); }
  // Lane copies of the shared counters, at most: fewer than the frame
  // kernel's 32, because every tile zeroes and merges the copies of its group
  // again, which 32 copies make as costly as counting a full tile. With 8 the
  // merge is an eighth of that; lanes l, l + 8, l + 16, l + 24 share a copy,
  // so a flat area serialises four ways at worst. One copy is 0.18 us faster
  // at 100 mixed boxes as a graph, and 2.8 times slower on flat frames
  // (analytics_bench --frames flat: 25.7 against 9.1 us; H200, docs/tuning.md).
  uint32_t max_copies = 8;
  // Fewer copies where that many would not leave min_blocks_per_sm blocks room
  // in the SM's shared memory (region_tiles.h's RegionLogCopies: 10-bit NV12
  // gets 4 on Hopper's 228 KB, 2 on the A100's 164 KB).
  // Units (16-byte chunks, or samples of unaligned layouts) of a tile, at
  // least: a round's worth for every thread, so that a tile pays its toll for
  // a block's full work. The tiles are otherwise as large as one tile a
  // resident block asks (region_tiles.h's LayOutRegions).
  constexpr uint32_t min_tile_units() const { return threads * kWalkPolicy.loads_per_thread; }
  // ... and at most, where the regions' plane groups outnumber the resident
  // blocks so that blocks take several tiles: eight rounds, so that one large
  // box still spreads over many blocks.
  uint32_t max_tile_units = 4096;
  // Chunk loads a thread keeps in flight as it walks a tile's whole chunks
  // (tile_walk.cuh), each count issuing the load this many chunks ahead. More
  // would wait for the loads less often, but 3 (no spill) took 9.68 us at
  // 100 boxes as a graph against 9.49 with 2, and 4 spills 44 bytes at the
  // launch bounds' 64 registers (ptxas; H200, 2026-11-30, docs/tuning.md).
  uint32_t loads_in_flight = 2;
  // Regions a launch carries in its parameters (16 bytes each, 2 KB); frames
  // of more copy their table to the device first, one cudaMemcpyAsync. The
  // issue's 100 detections a frame fit. Not more: the driver copies the whole
  // parameter block at every launch, whatever the frame uses of it.
  uint32_t inline_regions = 128;
};

#ifndef CUDAHIST_TUNE_SEGMENTED
#define CUDAHIST_TUNE_SEGMENTED
#endif
constexpr SegmentedPolicy kSegmentedPolicy = CUDAHIST_TUNED(SegmentedPolicy, CUDAHIST_TUNE_SEGMENTED);

// region_signalstats.cu cuts and walks its tiles as the segmented kernel does,
// with kSegmentedPolicy's threads, copies (max_copies, RegionLogCopies)
// and min_tile_units, and about one tile a resident block (TileUnits: the
// segmented kernel's blocks lost with two, 1.14 times the time at 100 boxes;
// these tiles are cut on the host and not timed), for their reasons there: a unit is
// one chroma sample run with its luma (4 chroma samples and their 8 or 16
// luma pixels, about a chunk's worth of bytes, so a tile of one chroma row of
// a 10-pixel box is 2 units), and signalstats' 8-bit counters (1385) at 16
// copies would take 88 KB, every tile merging them all again.
struct RegionSignalStatsPolicy {
  // Units of a tile at most: four times the least, so that one large box still
  // spreads over many blocks.
  constexpr uint32_t max_tile_units() const { return 4 * kSegmentedPolicy.min_tile_units(); }
  // Tiles a launch carries in its parameters (32 bytes each, 8 KB).
  uint32_t inline_tiles = 256;
};

#ifndef CUDAHIST_TUNE_REGION_SIGNALSTATS
#define CUDAHIST_TUNE_REGION_SIGNALSTATS
#endif
constexpr RegionSignalStatsPolicy kRegionSignalStatsPolicy =
    CUDAHIST_TUNED(RegionSignalStatsPolicy, CUDAHIST_TUNE_REGION_SIGNALSTATS);

}  // namespace cudahist::detail
