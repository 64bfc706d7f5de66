// cudahist: what the region kernels' files offer the region counters (host
// side): where a launch finds its regions or tiles, the per-region totals the
// blocks add into, and each kernel's configuration and launch.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cudahist/status.h"
#include "launch/device_scratch.h"
#include "launch/kernel_launch.h"
#include "regions/region_tiles.h"
#include "regions/regions_tuning.h"

namespace cudahist::detail {

struct SignalStatsParams;  // signalstats/signalstats_walk.cuh

// The items (the histograms' region entries, signalstats' tiles) a launch
// carries in its parameters, up to kCapacity.
template <typename Tile, uint32_t kCapacity>
struct InlineTiles {
  Tile tile[kCapacity];
};

using InlineRegionEntries = InlineTiles<RegionEntry, kSegmentedPolicy.inline_regions>;
using InlineRegionStatsTiles = InlineTiles<RegionStatsTile, kRegionSignalStatsPolicy.inline_tiles>;

// Where a launch reads its items: its parameters while they fit there, a
// device copy (one cudaMemcpyAsync on the launch's stream, from pinned
// staging) beyond. The staging is rewritten only once the previous copy from
// it is done (an event), so a caller may enqueue frame after frame.
template <typename Tile, uint32_t kCapacity>
class TileTable {
 public:
  TileTable() = default;
  ~TileTable();
  TileTable(const TileTable&) = delete;
  TileTable& operator=(const TileTable&) = delete;

  // Fills `carried` (when the tiles fit) or copies them to the device
  // (*device_tiles, else null).
  Status Stage(const std::vector<Tile>& tiles, cudaStream_t stream, InlineTiles<Tile, kCapacity>* carried,
               const Tile** device_tiles);

 private:
  Status Grow(size_t tiles);

  Tile* staging_ = nullptr;  // pinned
  Tile* device_ = nullptr;
  size_t capacity_ = 0;
  cudaEvent_t copied_ = nullptr;  // recorded after the last copy from the staging
};

// Per-region totals (`stride` 32-bit words a region, zero between launches)
// and a ticket per region, after a direct launch's scratch; grows with the
// most regions a frame had.
class RegionTotals {
 public:
  Status Reserve(uint32_t regions, uint32_t stride);
  DirectLaunchScratch* direct_launch() const { return scratch_.as<DirectLaunchScratch>(); }
  uint32_t* totals() const { return scratch_.as<uint32_t>() + kDirectLaunchWords; }
  uint32_t* tickets() const { return totals() + size_t(regions_) * stride_; }
  DeviceScratch& scratch() { return scratch_; }

 private:
  // The totals after it stay 16-byte aligned (signalstats' 64-bit atomics).
  static constexpr uint32_t kDirectLaunchWords = sizeof(DirectLaunchScratch) / sizeof(uint32_t);
  static_assert(sizeof(DirectLaunchScratch) % 16 == 0, "the totals 16-byte aligned");

  DeviceScratch scratch_;
  uint32_t regions_ = 0;
  uint32_t stride_ = 0;
};

// The one launch of a region kernel over `num_tiles` tiles: no more blocks
// than tiles, nor than the device holds at once. `args` are the kernel's.
// Launched programmatically (Hopper), as the frame kernels are: the launch gap
// and the zeroing of the copies overlap the previous kernel's tail; the
// kernel waits for it before it reads anything global.
Status LaunchOverTiles(const KernelConfig& config, void** args, uint32_t num_tiles, cudaStream_t stream);

// --- segmented_histogram.cu ---------------------------------------------------

// The kernel for `counters` counters of a region at `bins` bins: lane copies in
// shared memory (the largest power of two up to the policy's that fits its
// budget and the device), or, when not one copy fits, atomics straight into
// the region totals. `config.log_copies` says which; `config.supported` false
// with the reason otherwise.
Status ConfigureSegmented(const DeviceLimits& limits, uint32_t counters, bool pow2_bins, KernelConfig* config);

// The shape of a segmented launch: the layout's, less its entries.
struct RegionLaunchShape {
  uint32_t num_entries;
  uint32_t num_tiles;
  uint32_t tile_units;
};

// One launch counting the tiles of `shape.num_entries` regions: their entries
// from `carried`, or from `device_entries` when not null. Counts in device
// memory are added into directly; others through the totals, which hold
// StoredCounters(counters) words a region.
Status LaunchSegmented(const KernelConfig& config, const RegionTemplate& tmpl, const InlineRegionEntries& carried,
                       const RegionEntry* device_entries, const RegionLaunchShape& shape, const RegionTotals& totals,
                       uint32_t* counts, cudaStream_t stream);

// --- region_signalstats.cu ------------------------------------------------------

Status ConfigureRegionSignalStats(const DeviceLimits& limits, uint32_t depth, KernelConfig* config);

// `frame` is the frame's walk parameters (no region, no previous frame, the
// device table of its depth). Totals hold RegionSignalStatsWords(depth) words a region.
Status LaunchRegionSignalStats(const KernelConfig& config, const SignalStatsParams& frame,
                               const InlineRegionStatsTiles& carried, const RegionStatsTile* device_tiles,
                               uint32_t num_tiles, const RegionTotals& totals, uint32_t* words,
                               cudaStream_t stream);

}  // namespace cudahist::detail
