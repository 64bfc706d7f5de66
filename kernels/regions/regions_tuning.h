// cudahist: the tuning policies of the region kernels (segmented_histogram.cu,
// region_signalstats.cu), each number with its reason; how a variant build
// overrides them is in launch/policy.h. bench/tuning/tune_segmented.sh sweeps
// the segmented policy (docs/tuning.md, "Regions"); bench/analytics/ measures
// it against the whole-frame histogram, NPP and CUB per box, and a change goes
// here with its figures.
#pragma once

#include <cstdint>

#include "launch/policy.h"

namespace cudahist::detail {

struct SegmentedPolicy {
  // Threads of a block: 512 keeps two blocks of 769-counter copies (NV12) on
  // an SM, as 1024 could not beside their shared memory; a piece smaller than
  // a round (a 10 x 10 box has 7 chunks of luma) leaves the rest idle.
  uint32_t threads = 512;
  // Chunk loads a thread issues before it counts (the frame kernel's 2): one
  // round of the block is then threads x loads chunks.
  uint32_t loads_per_thread = 2;
  // Lane copies of the shared counters, at most: fewer than the frame
  // kernel's 32, because a block merges and zeroes the copies of its groups
  // again for every region of its share, which 32 copies make as costly as
  // counting a round of 16,384 chunks. With 8 the
  // merge is an eighth of that; lanes l, l + 8, l + 16, l + 24 share a copy,
  // so a flat area serialises four ways at worst.
  uint32_t max_copies = 8;
  // Shared memory the copies may take; fewer copies beyond it (10-bit bins).
  uint32_t copies_budget_bytes = 64 * 1024;
  // Units (16-byte chunks, or samples of unaligned layouts) of a block's
  // share, at least: a round, so that a frame of few small regions takes
  // fewer blocks rather than blocks that pay their merges for part of a round.
  constexpr uint32_t min_share_units() const { return threads * loads_per_thread; }
  // Regions a launch carries in its parameters (16 bytes each, 2 KB); frames
  // of more copy their table to the device first, one cudaMemcpyAsync. The
  // issue's 100 detections a frame fit. Not more: the driver copies the whole
  // parameter block at every launch, whatever the frame uses of it.
  uint32_t inline_regions = 128;
  // Programmatic dependent launch (Hopper): the launch gap and the zeroing of
  // the copies overlap the previous kernel's tail, as for the frame kernels;
  // the kernel waits for it before it reads anything global.
  bool programmatic_launch = true;
};

#ifndef CUDAHIST_TUNE_SEGMENTED
#define CUDAHIST_TUNE_SEGMENTED
#endif
constexpr SegmentedPolicy kSegmentedPolicy = CUDAHIST_TUNED(SegmentedPolicy, CUDAHIST_TUNE_SEGMENTED);

// region_signalstats.cu walks its tiles as the segmented kernel walks its
// pieces, with kSegmentedPolicy's threads, copies (max_copies,
// copies_budget_bytes) and programmatic_launch, for their reasons there; its
// tiles are cut on the host. A unit is one chroma sample run with its luma (4
// chroma samples and their 8 or 16 luma pixels, about a chunk's worth of
// bytes, so a tile of one chroma row of a 10-pixel box is 2 units), and
// signalstats' 8-bit counters (1385) at 16 copies would take 88 KB, every
// tile merging them all again.
struct RegionSignalStatsPolicy {
  // Tiles per resident block: two, so that blocks that drew small tiles take
  // more while a large one is still counting (not timed for these tiles).
  uint32_t tiles_per_resident_block = 2;
  // Units of a tile, at least: a round's worth for every thread, so that a
  // tile pays its merge for a block's full work; at most four times that, so
  // that one large box still spreads over many blocks.
  uint32_t min_tile_units = 512;
  constexpr uint32_t max_tile_units() const { return 4 * min_tile_units; }
  // Tiles a launch carries in its parameters (32 bytes each, 8 KB).
  uint32_t inline_tiles = 256;
};

#ifndef CUDAHIST_TUNE_REGION_SIGNALSTATS
#define CUDAHIST_TUNE_REGION_SIGNALSTATS
#endif
constexpr RegionSignalStatsPolicy kRegionSignalStatsPolicy =
    CUDAHIST_TUNED(RegionSignalStatsPolicy, CUDAHIST_TUNE_REGION_SIGNALSTATS);

}  // namespace cudahist::detail
