// per-column histograms (waveform, parade; the two-phase per-column layout's [length, channels]
// rows) in ONE launch: its two phases, without its bank conflicts and
// without its second kernel.
//
// Phase 1, work item (band, bin tile, slice): a block owns a band of 32 x V
// columns and a slice of rows. Lane l of every warp takes columns l V .. l V +
// V - 1 of the rows its warp walks; its counters are one histogram per column
// at word (k * tile + bin) * 32 + l, so the 32 lanes of a warp always land in
// 32 different banks (shared reductions, no conflicts whatever the data).
// The block then writes its counters out, group-major, through a padded
// transposition stage: straight to the counts when the plan is direct (one
// slice, no group across two bands: video frames with groups = width), else
// to partials[slice][band][group in band][bin] with plain stores.
// Phase 2 (only when not direct), after grid.sync: every thread sums one
// count over the slices and the bands its group touches, in a fixed order.
//
// V = 1 for frames (enough bands to fill the GPU without slices), V = 4 for
// tall planes (4-byte loads, 128-byte row segments per warp); scopes_tuning.h.
// At V = 1 the lanes of a warp may also share out 2 or 4 rows (bands of 16 or
// 8 columns: more bands for narrow frames), each lane still with counters of
// its own, summed at the flush; a band holds whole groups (as many as fit),
// so frames are direct unless a group is wider than the band. At V = 4 bands
// are 128 columns from column 0.
#include <cooperative_groups.h>

#include <algorithm>

#include "scopes/column_flush.cuh"
#include "scopes/column_shape.cuh"
#include "scopes/column_walks.cuh"
#include "device/plan_walk.cuh"
#include "device/grid_completion.cuh"
#include "scopes/scopes_launch.h"
#include "scopes/scopes_tuning.h"

namespace cudahist::detail {
namespace {

// One kernel per walk (both walks of V = 4 in one kernel spilled registers:
// ptxas, 1024 threads, 64 registers each).
template <uint32_t kV, bool kBytes>
__global__ void __launch_bounds__(ColumnShape<kV>::kThreads, ColumnShape<kV>::kMinBlocksPerSm)
    ColumnHistogramKernel(const ColumnPlan plan, uint32_t* partials, uint32_t* counts) {
  using Shape = ColumnShape<kV>;
  extern __shared__ uint32_t shared[];
  uint32_t* counters = shared;
  uint32_t* stages = shared + Shape::kCounterWords;
  uint32_t* column_slot = stages + Shape::kFlushWarps * Shape::kStageWords;
  const uint32_t counters_address = uint32_t(__cvta_generic_to_shared(counters));
  const uint32_t items = plan.bands * plan.tiles * plan.slices;
  AllowDependentGridsToLaunch();  // both no-ops unless launched programmatically (LaunchColumn)
  for (uint32_t item = blockIdx.x; item < items; item += gridDim.x) {
    const ColumnItem it = ItemOf(plan, item);
    const uint32_t counter_words = (kV * 32 * it.tile_len) >> (plan.counters16 ? 1 : 0);
    ZeroSharedVector(counters, counter_words);
    // The table of groups: only the flush of groups wider than a column reads it.
    const bool column_groups = plan.groups == plan.width;
    if (!column_groups && threadIdx.x < it.columns) {
      column_slot[threadIdx.x] = GroupOfColumn(plan, it.x0 + threadIdx.x) - it.first_group;
    }
    __syncthreads();
    WaitForPriorGrids();  // before the first read of the frame and write of the counts
    CountBand<kV, kBytes>(plan, it, counters_address);
    __syncthreads();
    FlushBand<kV, kBytes>(plan, it, counters, stages, column_slot, partials, counts);
    __syncthreads();  // the next item zeroes the counters again
  }
  if (plan.direct) return;  // uniform over the grid: every block skips the sync
  WaitForPriorGrids();        // a block with no item has not waited yet
  cooperative_groups::this_grid().sync();  // includes the fence that publishes the partials
  ReducePartials<kV>(plan, partials, counts);
}

// Configures ColumnHistogramKernel<kV, kBytes> as `config`.
template <uint32_t kV, bool kBytes>
Status ConfigureColumnKernel(const DeviceLimits& limits, const char* name, KernelConfig* config) {
  *config = KernelConfig();
  return ConfigureKernel(limits, reinterpret_cast<const void*>(&ColumnHistogramKernel<kV, kBytes>),
                         ColumnShape<kV>::kThreads, 1, ColumnShape<kV>::kSharedBytes, name, config);
}

// The largest number of groups that one band touches, and whether a group
// lies across a band boundary.
void BandGroups(uint32_t width, uint32_t groups, uint32_t band_columns, uint32_t* slots, bool* spans) {
  *slots = 1;
  *spans = false;
  for (uint32_t x0 = 0; x0 < width; x0 += band_columns) {
    const uint32_t x1 = std::min<uint64_t>(uint64_t(x0) + band_columns, width) - 1;
    *slots = std::max(*slots, ColumnGroupOf(x1, groups, width) - ColumnGroupOf(x0, groups, width) + 1);
    if (x0 > 0 && ColumnGroupOf(x0 - 1, groups, width) == ColumnGroupOf(x0, groups, width)) *spans = true;
  }
}

// Lanes that share a row at V = 1: 32 (bands of 32 columns) unless that
// leaves fewer bands than half the blocks the GPU holds at once; then 16 or 8
// (narrower bands, each warp load covering 2 or 4 rows), so that a 1080p or
// 4K frame is spread over every SM without cutting its rows into slices.
uint32_t RowLanes(const ColumnPlan& p, const KernelConfig& kernel) {
  if (p.lane_columns != 1) return 32;
  uint32_t lanes = 32;
  while (lanes > kColumnPolicy.min_row_lanes && (uint64_t(p.width) + lanes - 1) / lanes * 2 < kernel.resident_blocks) {
    lanes /= 2;
  }
  return lanes;
}

const KernelConfig& KernelOf(const ColumnKernels& kernels, const ColumnPlan& plan) {
  if (plan.lane_columns == 1) return plan.bytes ? kernels.narrow_bytes : kernels.narrow;
  return plan.bytes ? kernels.wide_bytes : kernels.wide;
}

}  // namespace

Status ConfigureColumnKernels(const DeviceLimits& limits, ColumnKernels* kernels) {
  CUDAHIST_RETURN_IF_ERROR((ConfigureColumnKernel<1, false>(limits, "column (32-column bands)", &kernels->narrow)));
  CUDAHIST_RETURN_IF_ERROR(
      (ConfigureColumnKernel<1, true>(limits, "column (32-column bands, bytes)", &kernels->narrow_bytes)));
  CUDAHIST_RETURN_IF_ERROR((ConfigureColumnKernel<4, false>(limits, "column (128-column bands)", &kernels->wide)));
  CUDAHIST_RETURN_IF_ERROR((ConfigureColumnKernel<4, true>(
      limits, "column (128-column bands, 32-bit loads of bytes)", &kernels->wide_bytes)));
  return Status::Ok();
}

uint64_t ColumnPartialWords(const ColumnPlan& plan) {
  return plan.direct ? 0 : uint64_t(plan.slices) * plan.bands * plan.slots * plan.bins;
}

Status BuildColumnPlan(const ColumnKernels& kernels, const ColumnHistogramSpec& spec, const PlaneView& plane,
                       uint64_t partial_words, ColumnPlan* plan) {
  ColumnPlan p{};
  const Roi region = CountedRegion(plane);
  p.grid = SampleGridOf(plane);
  p.width = region.width;
  p.height = region.height;
  p.groups = spec.groups;
  p.bins = spec.bins;
  p.lane_columns = p.height >= kColumnPolicy.wide_min_rows() ? 4 : 1;
  const bool byte_is_bin = p.grid.sample_size == 1 && p.grid.shift == 0 && p.grid.depth == 8 && p.bins == 256;
  const bool word_aligned = p.grid.stride == 1 && reinterpret_cast<uintptr_t>(p.grid.first) % 4 == 0 &&
                            p.grid.pitch % 4 == 0;
  p.bytes = byte_is_bin && (p.lane_columns == 1 || word_aligned);
  const KernelConfig& kernel = KernelOf(kernels, p);
  if (!kernel.supported) return Status::Unsupported(kernel.why);
  p.row_lanes = RowLanes(p, kernel);
  p.band_columns = p.row_lanes * p.lane_columns;
  p.tile_bins = std::min(p.bins, kColumnPolicy.tile_bins);
  p.tiles = (p.bins + p.tile_bins - 1) / p.tile_bins;
  if (p.width == 0) {  // nothing to count: phase 2 alone writes the zeros
    p.bands = p.slices = p.slots = 0;
    p.direct = false;
    *plan = p;
    return Status::Ok();
  }
  bool spans = false;
  const uint32_t widest_group = (p.width + p.groups - 1) / p.groups;
  if (p.lane_columns == 1 && widest_group <= p.band_columns) {
    // Bands of whole groups (as many as fit the band): no group straddles
    // two bands, so one slice writes the counts directly (a 1024-column
    // waveform of a 1920-wide frame). Not at V = 4, whose 32-bit loads need
    // bands that start on a multiple of 4 columns.
    p.groups_per_band = p.band_columns / widest_group;
    p.bands = (p.groups + p.groups_per_band - 1) / p.groups_per_band;
    p.slots = p.groups_per_band;
  } else {
    // Groups wider than the band: bands of 32 x V columns from column 0 (the
    // fewest bands, so the fewest partials: one set per band and slice).
    p.row_lanes = 32;
    p.band_columns = p.row_lanes * p.lane_columns;
    p.bands = (p.width + p.band_columns - 1) / p.band_columns;
    BandGroups(p.width, p.groups, p.band_columns, &p.slots, &spans);
    // Native partials hold a band's every lane position (band_columns), its
    // last band's too.
    if (p.lane_columns == 4 && p.groups == p.width) p.slots = p.band_columns;
  }
  const uint32_t per_slice = p.bands * p.tiles;
  const uint32_t by_residency = (kernel.resident_blocks + per_slice - 1) / per_slice;
  const uint32_t by_rows = std::max<uint32_t>(1, p.height / kColumnPolicy.min_rows_per_slice);
  p.slices = std::max<uint32_t>(1, std::min(by_residency, by_rows));
  p.direct = p.slices == 1 && !spans;
  if (!p.direct) {
    const uint64_t per_slice_words = uint64_t(p.bands) * p.slots * p.bins;
    const uint64_t fit = partial_words / per_slice_words;
    if (fit == 0) {
      return Status::Unsupported("spec: " + std::to_string(p.groups) + " groups x " + std::to_string(p.bins) +
                                 " bins over " + std::to_string(p.width) + " columns need " +
                                 std::to_string(per_slice_words * 4) + " bytes of partials, more than the " +
                                 std::to_string(partial_words * 4) + " the ColumnHistogrammer holds");
    }
    p.slices = uint32_t(std::min<uint64_t>(p.slices, fit));
    p.direct = p.slices == 1 && !spans;
    // A partial counts at most a slice's rows x the group's columns in one band.
    const uint64_t slice_rows = (uint64_t(p.height) + p.slices - 1) / p.slices;
    p.partials16 = slice_rows * std::min(widest_group, p.band_columns) <= UINT16_MAX;
  }
  const bool column_groups = p.direct && p.groups == p.width && p.groups_per_band != 0;
  p.simple_items = column_groups && p.slices == 1 && p.tiles == 1;
  p.shuffle_flush = column_groups && p.lane_columns == 1 && p.row_lanes >= 8;
  // A column's count of one bin is at most the height: 16 bits hold it.
  p.counters16 = p.shuffle_flush && p.bytes && p.height <= UINT16_MAX;
  p.native_partials = p.lane_columns == 4 && p.groups == p.width && !p.direct;
  *plan = p;
  return Status::Ok();
}

Status LaunchColumn(const ColumnKernels& kernels, const ColumnPlan& plan, uint32_t* partials, uint32_t* counts,
                    cudaStream_t stream) {
  const KernelConfig& kernel = KernelOf(kernels, plan);
  const uint32_t items = plan.bands * plan.tiles * plan.slices;
  const uint32_t grid = std::max<uint32_t>(1, std::min(kernel.resident_blocks, items));
  ColumnPlan plan_arg = plan;
  void* args[] = {&plan_arg, &partials, &counts};
  if (plan.direct) {
    return CudaStatus(
        LaunchKernelSerialized(kernel.kernel, dim3(grid), kernel.threads, kernel.shared_bytes, args, stream),
        "column histogram kernel launch");
  }
  return CudaStatus(cudaLaunchCooperativeKernel(kernel.kernel, dim3(grid), dim3(kernel.threads), args,
                                                kernel.shared_bytes, stream),
                    "column histogram kernel launch (cooperative)");
}

}  // namespace cudahist::detail
