// The segmented histogram: every region of a frame counted in ONE launch.
//
// The launch's blocks take the frame's tiles in turn (block b: tiles b,
// b + grid, ...; region_tiles.cc cuts at most one tile a block where it can,
// and puts the largest region first where blocks take several). A tile is a
// run of rows of one plane group of one region, which one thread of the block
// finds from the regions' entries (region_tile_walk.cuh's TileOfLayout) and plans for all; the block
// walks it (tile_walk.cuh: the frame kernels' chunk counts, along the tile's
// rows of whole chunks, then its edge chunks) into lane-indexed copies in
// shared memory, and merges the copies of the tile's components into the
// region's counts with global atomics, leaving the copies zero for its next
// tile.
// Counts in device memory take a direct launch (device/grid_completion.cuh):
// the blocks with the launch's first positions zero the counts, a region's
// worth each, and a block adds its first tile once their zeros are in place,
// so that a tile ends with its merge. Counts elsewhere (pinned host memory, which takes no
// atomics) are accumulated in the region's totals: the last tile of a region
// to arrive (a ticket per region, LastBlockToArrive) moves the totals to its
// counts and leaves totals and ticket zero for the next launch.
// Counters too many for one copy in shared memory (65536 bins) are added
// straight to the region's totals, with the totals' finish.
#include <algorithm>
#include <string>

#include "device/bank_swizzle.cuh"
#include "device/grid_completion.cuh"
#include "device/lane_copies.cuh"
#include "device/plan_walk.cuh"
#include "regions/region_launch.h"
#include "regions/region_tile_walk.cuh"
#include "regions/tile_walk.cuh"

namespace cudahist::detail {
namespace {

constexpr SegmentedPolicy kPolicy = kSegmentedPolicy;
constexpr uint32_t kLoads = kWalkPolicy.loads_per_thread;

// Counts straight into one region's totals (L2 atomics; no return value used,
// so they compile to reductions).
struct GlobalCounter {
  using Slot = uint32_t*;
  uint32_t* totals;

  __device__ __forceinline__ Slot SlotFor(uint32_t base) const { return totals + base; }
  __device__ __forceinline__ void Add(Slot slot, uint32_t bin) { atomicAdd(slot + bin, 1u); }
  __device__ __forceinline__ void AddMany(Slot slot, uint32_t bin, uint32_t n) { atomicAdd(slot + bin, n); }
  template <uint32_t kIncrements>
  __device__ __forceinline__ void BeforeRound() {}
};

__device__ __forceinline__ RegionTile TileAt(const RegionTemplate& tmpl, const InlineRegionEntries& carried,
                                             const RegionEntry* device_entries, const RegionLaunchShape& shape,
                                             uint32_t t) {
  const auto entry_at = [&](uint32_t i) { return device_entries != nullptr ? device_entries[i] : carried.tile[i]; };
  return TileOfLayout(tmpl, entry_at, shape.num_entries, shape.num_tiles, shape.tile_units, t);
}

// A tile and the plan of its walk, as one thread of the block makes them for
// all: the search for its region and the cut from the box are a few hundred
// instructions, which every thread of every block repeating them made a
// quarter of the kernel's (1.9 of 7.0 M at 100 boxes, with a 64-bit
// divisor the plan no longer needs; ncu, H200).
struct TileWork {
  RegionTile tile;
  GroupPlan plan;
};

// The block's TileWork in shared memory (raw bytes: a __shared__ variable
// cannot have GroupPlan's default member initialisers).
__device__ __forceinline__ TileWork* SharedTileWork() {
  __shared__ alignas(16) unsigned char bytes[sizeof(TileWork)];
  return reinterpret_cast<TileWork*>(bytes);
}

// Thread 0 makes tile t's work in the block's shared TileWork.
__device__ __forceinline__ void MakeTileWork(const RegionTemplate& tmpl, const InlineRegionEntries& carried,
                                             const RegionEntry* device_entries, const RegionLaunchShape& shape,
                                             uint32_t t) {
  if (threadIdx.x != 0) return;
  TileWork work;
  work.tile = TileAt(tmpl, carried, device_entries, shape, t);
  if (work.tile.rows > 0) work.plan = TilePlan(tmpl.group[work.tile.group], work.tile);
  *SharedTileWork() = work;
}

// The components [first, last] of a mask: a group's components are one
// plane's, mostly consecutive, and zeroing the copies of one between them too
// costs less than a loop.
__device__ __forceinline__ uint32_t ComponentSpan(uint32_t components) {
  if (components == 0) return 0;
  const uint32_t first = __ffs(components) - 1, last = 31 - __clz(components);
  return ((2u << last) - 1) & ~((1u << first) - 1);
}

// The copies of a span of components (ComponentSpan): each component's are
// `component_words` words.
struct CopiesSpan {
  uint32_t* words;
  uint32_t count;
};
__device__ __forceinline__ CopiesSpan CopiesOf(uint32_t* copies, uint32_t component_words, uint32_t span) {
  if (span == 0) return CopiesSpan{copies, 0};
  const uint32_t first = __ffs(span) - 1;
  return CopiesSpan{copies + first * component_words, __popc(span) * component_words};
}

// The block's start: the previous kernel waited for, its first tile made,
// and the copies of that tile's components zeroed (the components whose copies
// are zero returned; a later tile of another group zeroes its own,
// ZeroCopiesOfNewComponents): a luma tile zeroes a third of an NV12 region's
// copies. Where the entries travel in the launch's parameters, the tile is
// made and its copies zeroed before the wait (they read nothing global), so
// that both overlap the previous kernel's tail; entries in device memory are
// copied there before the launch, so they are read after it, and every
// component's copies are zeroed before it.
__device__ __forceinline__ uint32_t StartBlock(uint32_t* copies, uint32_t component_words,
                                               const RegionTemplate& tmpl, const InlineRegionEntries& carried,
                                               const RegionEntry* device_entries, const RegionLaunchShape& shape) {
  const bool from_parameters = device_entries == nullptr;
  uint32_t zeroed = (1u << tmpl.num_components) - 1;
  if (from_parameters) {
    MakeTileWork(tmpl, carried, device_entries, shape, blockIdx.x);
    __syncthreads();
    const RegionTile& first = SharedTileWork()->tile;
    zeroed = ComponentSpan(first.rows > 0 ? tmpl.group[first.group].components : 0);
  }
  const CopiesSpan span = CopiesOf(copies, component_words, zeroed);
  ZeroSharedThenWaitForPriorGrids(span.words, span.count);
  if (!from_parameters) MakeTileWork(tmpl, carried, device_entries, shape, blockIdx.x);
  __syncthreads();
  return zeroed;
}

// Before a tile is walked: the copies of its components that no tile of the
// block has used yet zeroed (those of earlier tiles their merges left zero).
__device__ __forceinline__ void ZeroCopiesOfNewComponents(uint32_t* copies, uint32_t component_words,
                                                          uint32_t components, uint32_t* zeroed) {
  const uint32_t fresh = ComponentSpan(components & ~*zeroed);
  if (fresh == 0) return;
  const CopiesSpan span = CopiesOf(copies, component_words, fresh);
  ZeroShared(span.words, span.count);
  *zeroed |= fresh;
  __syncthreads();
}

// Tile `t` of the block: its first is made by StartBlock; a later one between
// barriers (the previous tile's readers done, the new one written). Each
// thread's copy in registers.
__device__ __forceinline__ TileWork TakeTile(const RegionTemplate& tmpl, const InlineRegionEntries& carried,
                                             const RegionEntry* device_entries, const RegionLaunchShape& shape,
                                             uint32_t t) {
  if (t != blockIdx.x) {
    __syncthreads();
    MakeTileWork(tmpl, carried, device_entries, shape, t);
    __syncthreads();
  }
  return *SharedTileWork();
}

// The block's threads' shares of a tile.
template <bool kPow2Bins, class Counter>
__device__ __forceinline__ void WalkBlockShare(const GroupPlan& tile_plan, uint32_t bins, Counter& counter) {
  WalkTile<kPolicy.loads_in_flight, kLoads, kPow2Bins>(tile_plan, bins, threadIdx.x, blockDim.x, counter);
}

// Once the block has added the tile to its region's totals: the last of the
// region's tiles moves them to the region's counts (barriers inside).
__device__ __forceinline__ void FinishTile(const RegionTile& tile, uint32_t counters, uint32_t* totals,
                                           uint32_t* tickets, uint32_t* counts) {
  const AccumulatorScratch acc{totals + size_t(tile.region) * StoredCounters(counters), tickets + tile.region};
  if (LastBlockToArrive(acc.ticket, tile.region_tiles)) {
    CollectTotals(acc, counters, counts + size_t(tile.region) * counters);
  }
}

// The region scratch a launch takes (region_launch.h's RegionTotals), and
// whether it adds straight into the counts.
struct SegmentedScratch {
  uint32_t* totals;
  uint32_t* tickets;
  DirectLaunchScratch* direct_launch;
  bool direct;
};

// A direct launch's blocks that zero the counts, a region's worth each.
__device__ __forceinline__ uint32_t Zeroers(uint32_t regions) { return min(gridDim.x, regions); }

// After the wait for the previous kernel. A direct launch's blocks with the
// first positions (Zeroers) zero the counts in shares before they wait for
// anything; every block waits for all the shares before its first merge (AwaitMerge).
// Why that cannot hang while the grid fits the device:
// device/grid_completion.cuh.
__device__ __forceinline__ void StartMerges(const SegmentedScratch& scratch, uint32_t regions, uint32_t counters,
                                            uint32_t* counts) {
  if (!scratch.direct) return;
  const DirectLaunch launch = StartDirectLaunch(scratch.direct_launch, gridDim.x);
  const uint32_t zeroers = Zeroers(regions);
  if (launch.position < zeroers) {
    ZeroShareThenArrive(counts, regions * counters, launch.position, zeroers, launch.arrivals);
  }
}

// Between a tile's walk and its merge: every thread's counts in the copies,
// and, after a direct launch's first tile (walked or empty), the counts'
// zeros in place. What it needs comes from the launch's parameters and the
// ticket in shared memory, not from registers: the walk takes all 64 that a
// thread may have, and a value kept across it is spilled to local memory and
// loaded back on every block's way to its merge.
__device__ __forceinline__ void AwaitMerge(const SegmentedScratch& scratch, uint32_t regions, bool first_tile) {
  if (scratch.direct && first_tile) {
    WaitForArrivals(LaunchArrivals(scratch.direct_launch), Zeroers(regions));  // ends with a barrier
    return;
  }
  __syncthreads();
}

// Where a block merges a tile of `region`: straight into the counts (a direct
// launch), or into the regions' totals.
__device__ __forceinline__ uint32_t* MergeWords(const SegmentedScratch& scratch, uint32_t region, uint32_t counters,
                                                uint32_t* counts) {
  return scratch.direct ? counts + size_t(region) * counters
                        : scratch.totals + size_t(region) * StoredCounters(counters);
}

template <uint32_t kLogCopies, bool kPow2Bins>
__global__ void __launch_bounds__(kPolicy.threads, kPolicy.min_blocks_per_sm())
    SegmentedSharedKernel(const RegionTemplate tmpl, const InlineRegionEntries carried,
                          const RegionEntry* device_entries, const RegionLaunchShape shape,
                          const SegmentedScratch scratch, uint32_t* counts) {
  extern __shared__ uint32_t copies[];
  const uint32_t bins = tmpl.bins;
  uint32_t zeroed = StartBlock(copies, bins << kLogCopies, tmpl, carried, device_entries, shape);
  StartMerges(scratch, shape.num_entries, tmpl.counters, counts);
  const uint32_t low_mask = BankSwizzle<kLogCopies, kPow2Bins>::LowMask(bins);
  LaneCopiesCounter<kLogCopies, kPow2Bins> counter{uint32_t(__cvta_generic_to_shared(copies)),
                                                   threadIdx.x & ((1u << kLogCopies) - 1), low_mask};
  for (uint32_t t = blockIdx.x; t < shape.num_tiles; t += gridDim.x) {
    const TileWork work = TakeTile(tmpl, carried, device_entries, shape, t);
    const RegionTile& tile = work.tile;
    const uint32_t components = tmpl.group[tile.group].components;
    if (tile.rows > 0) {
      ZeroCopiesOfNewComponents(copies, bins << kLogCopies, components, &zeroed);
      WalkBlockShare<kPow2Bins>(work.plan, bins, counter);
    }
    AwaitMerge(scratch, shape.num_entries, t == blockIdx.x);
    if (tile.rows > 0) {
      uint32_t* region_words = MergeWords(scratch, tile.region, tmpl.counters, counts);
      for (uint32_t c = 0; c < tmpl.num_components; ++c) {
        if ((components & (1u << c)) == 0) continue;
        MergeCopies<kLogCopies, kPow2Bins, true>(copies + ((c * bins) << kLogCopies), bins, bins, low_mask,
                                                 region_words + c * bins);
      }
    }
    // Its barriers, or the next TakeTile's, put the copies' zeros before the next walk.
    if (!scratch.direct) FinishTile(tile, tmpl.counters, scratch.totals, scratch.tickets, counts);
  }
}

// Always through the totals: its atomics land during the walk, and the walk
// adds the samples of components it does not count to the trash counter past
// a region's counters.
template <bool kPow2Bins>
__global__ void __launch_bounds__(kPolicy.threads, kPolicy.min_blocks_per_sm())
    SegmentedGlobalKernel(const RegionTemplate tmpl, const InlineRegionEntries carried,
                          const RegionEntry* device_entries, const RegionLaunchShape shape,
                          const SegmentedScratch scratch, uint32_t* counts) {
  extern __shared__ uint32_t copies[];
  StartBlock(copies, 0, tmpl, carried, device_entries, shape);
  for (uint32_t t = blockIdx.x; t < shape.num_tiles; t += gridDim.x) {
    const TileWork work = TakeTile(tmpl, carried, device_entries, shape, t);
    const RegionTile& tile = work.tile;
    if (tile.rows > 0) {
      GlobalCounter counter{scratch.totals + size_t(tile.region) * StoredCounters(tmpl.counters)};
      WalkBlockShare<kPow2Bins>(work.plan, tmpl.bins, counter);
    }
    FinishTile(tile, tmpl.counters, scratch.totals, scratch.tickets, counts);
  }
}

template <uint32_t kLogCopies>
const void* SharedKernelOf(bool pow2_bins) {
  return pow2_bins ? reinterpret_cast<const void*>(&SegmentedSharedKernel<kLogCopies, true>)
                   : reinterpret_cast<const void*>(&SegmentedSharedKernel<kLogCopies, false>);
}

const void* SharedKernelFor(uint32_t log_copies, bool pow2_bins) {
  switch (log_copies) {
    case 0: return SharedKernelOf<0>(pow2_bins);
    case 1: return SharedKernelOf<1>(pow2_bins);
    case 2: return SharedKernelOf<2>(pow2_bins);
    default: return SharedKernelOf<3>(pow2_bins);
  }
}
static_assert(kPolicy.max_copies <= 8, "SharedKernelFor instantiates up to 8 copies");

}  // namespace

Status ConfigureSegmented(const DeviceLimits& limits, uint32_t counters, bool pow2_bins, KernelConfig* config) {
  *config = KernelConfig();
  const uint64_t one_copy = uint64_t(StoredCounters(counters)) * sizeof(uint32_t);
  if (one_copy > uint64_t(limits.max_shared_per_block)) {
    const void* kernel = pow2_bins ? reinterpret_cast<const void*>(&SegmentedGlobalKernel<true>)
                                   : reinterpret_cast<const void*>(&SegmentedGlobalKernel<false>);
    return ConfigureKernel(limits, kernel, kPolicy.threads, kLoads, 0, "segmented-global", config);
  }
  uint32_t static_shared = 0;
  CUDAHIST_RETURN_IF_ERROR(StaticSharedBytes(SharedKernelFor(0, pow2_bins), &static_shared));
  const uint32_t log_copies = RegionLogCopies(limits, one_copy, static_shared);
  CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(limits, SharedKernelFor(log_copies, pow2_bins), kPolicy.threads, kLoads,
                                           uint32_t(one_copy << log_copies), "segmented", config));
  config->log_copies = log_copies;
  return Status::Ok();
}

Status LaunchSegmented(const KernelConfig& config, const RegionTemplate& tmpl, const InlineRegionEntries& carried,
                       const RegionEntry* device_entries, const RegionLaunchShape& shape, const RegionTotals& totals,
                       uint32_t* counts, cudaStream_t stream) {
  // The zeroing's shares are counted in 32-bit words (a frame of that many
  // counts, 16 GB of them, takes the totals' path).
  const bool direct = InDeviceMemory(counts) && uint64_t(shape.num_entries) * tmpl.counters <= UINT32_MAX;
  SegmentedScratch scratch{totals.totals(), totals.tickets(), totals.direct_launch(), direct};
  void* args[] = {const_cast<RegionTemplate*>(&tmpl), const_cast<InlineRegionEntries*>(&carried), &device_entries,
                  const_cast<RegionLaunchShape*>(&shape), &scratch, &counts};
  return LaunchOverTiles(config, args, shape.num_tiles, stream);
}

}  // namespace cudahist::detail
