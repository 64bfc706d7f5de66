// signalstats per region, every region of a frame in ONE launch: the
// segmented histogram's scheme (segmented_histogram.cu) with signalstats'
// own walk (signalstats/signalstats_walk.cuh: units of chroma samples with
// their luma, sat and hue from the tables, the broadcast-range test). A tile
// is a run of chroma rows of one region; the block counts it into lane copies
// of signalstats' compact counters, merges them and the tile's BRNG pixels
// into the region's totals, and the region's last tile writes its words.
#include <string>

#include "device/grid_completion.cuh"
#include "device/lane_copies.cuh"
#include "device/warp_sum.cuh"
#include "regions/region_launch.h"
#include "regions/region_tile_walk.cuh"
#include "signalstats/signalstats_walk.cuh"

namespace cudahist::detail {
namespace {

constexpr SegmentedPolicy kPolicy = kSegmentedPolicy;  // its tile walk's (regions_tuning.h)

__device__ __forceinline__ RegionStatsTile TileAt(const InlineRegionStatsTiles& carried,
                                                  const RegionStatsTile* device_tiles, uint32_t t) {
  return device_tiles != nullptr ? device_tiles[t] : carried.tile[t];
}

template <uint32_t kLogCopies>
__global__ void __launch_bounds__(kPolicy.threads)
    RegionSignalStatsKernel(const SignalStatsParams frame, const InlineRegionStatsTiles carried,
                            const RegionStatsTile* device_tiles, uint32_t num_tiles, uint32_t* totals,
                            uint32_t* tickets, uint32_t* words) {
  extern __shared__ uint32_t copies[];
  __shared__ uint32_t block_brng;
  const uint32_t counters = SignalStatsCounters(frame.depth);
  const uint32_t stride = counters + 1;  // RegionSignalStatsWords: the counters, then BRNG
  if (threadIdx.x == 0) block_brng = 0;
  ZeroSharedThenWaitForPriorGrids(copies, counters << kLogCopies);
  using Counter = LaneCopiesCounter<kLogCopies, false>;
  UnitCounter<Counter> c(Counter{uint32_t(__cvta_generic_to_shared(copies)), threadIdx.x & ((1u << kLogCopies) - 1), 0},
                         frame.depth);
  for (uint32_t t = blockIdx.x; t < num_tiles; t += gridDim.x) {
    const RegionStatsTile tile = TileAt(carried, device_tiles, t);
    uint32_t* region_totals = totals + size_t(tile.region) * stride;
    if (tile.units > 0) {
      const SignalStatsParams p = TileParams(frame, tile);
      for (uint32_t unit = threadIdx.x; unit < p.units; unit += blockDim.x) {
        CountUnit(p, unit, c);
      }
      const uint32_t warp_brng = uint32_t(WarpSum(c.sums[kBrng]));
      if (threadIdx.x % 32 == 0 && warp_brng != 0) atomicAdd(&block_brng, warp_brng);
      for (unsigned long long& sum : c.sums) sum = 0;
      __syncthreads();
      MergeCopies<kLogCopies, false>(copies, 0, counters, 0, region_totals);
      if (threadIdx.x == 0 && block_brng != 0) atomicAdd(region_totals + counters, block_brng);
    }
    const AccumulatorScratch acc{region_totals, tickets + tile.region};
    if (LastBlockToArrive(acc.ticket, tile.region_tiles)) {  // its barriers end every merge's reads
      CollectTotals(acc, stride, words + size_t(tile.region) * stride);
    }
    if (tile.units > 0) {
      ZeroShared(copies, counters << kLogCopies);
      if (threadIdx.x == 0) block_brng = 0;
    }
    __syncthreads();  // the zeros in place before the next tile's walk
  }
}

const void* KernelFor(uint32_t log_copies) {
  switch (log_copies) {
    case 0: return reinterpret_cast<const void*>(&RegionSignalStatsKernel<0>);
    case 1: return reinterpret_cast<const void*>(&RegionSignalStatsKernel<1>);
    case 2: return reinterpret_cast<const void*>(&RegionSignalStatsKernel<2>);
    default: return reinterpret_cast<const void*>(&RegionSignalStatsKernel<3>);
  }
}
static_assert(kPolicy.max_copies <= 8, "KernelFor instantiates up to 8 copies");

}  // namespace

Status ConfigureRegionSignalStats(const DeviceLimits& limits, uint32_t depth, KernelConfig* config) {
  *config = KernelConfig();
  const uint64_t one_copy = uint64_t(SignalStatsCounters(depth)) * sizeof(uint32_t);
  uint32_t static_shared = 0;
  CUDAHIST_RETURN_IF_ERROR(StaticSharedBytes(KernelFor(0), &static_shared));
  const uint32_t log_copies = RegionLogCopies(limits, one_copy, static_shared);
  CUDAHIST_RETURN_IF_ERROR(ConfigureKernel(limits, KernelFor(log_copies), kPolicy.threads, 1,
                                           uint32_t(one_copy << log_copies), "region-signalstats", config));
  config->log_copies = log_copies;
  return Status::Ok();
}

Status LaunchRegionSignalStats(const KernelConfig& config, const SignalStatsParams& frame,
                               const InlineRegionStatsTiles& carried, const RegionStatsTile* device_tiles,
                               uint32_t num_tiles, const RegionTotals& totals, uint32_t* words,
                               cudaStream_t stream) {
  uint32_t* totals_arg = totals.totals();
  uint32_t* tickets_arg = totals.tickets();
  void* args[] = {const_cast<SignalStatsParams*>(&frame), const_cast<InlineRegionStatsTiles*>(&carried),
                  &device_tiles, &num_tiles, &totals_arg, &tickets_arg, &words};
  return LaunchOverTiles(config, args, num_tiles, stream);
}

}  // namespace cudahist::detail
