// cudahist: what the scope kernels (column_histogram.cu, joint_histogram.cu)
// offer scopes_histogrammers.cu. A plan is built on the host per frame (plain
// data, passed by value to the one launch); Configure* runs once per
// histogrammer (kernel attributes and occupancy: nothing depends on the frame).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cudahist/scopes.h"
#include "cudahist/status.h"
#include "launch/kernel_launch.h"
#include "launch/launch_plan.h"

namespace cudahist::detail {

// Where a plane's counted samples are: the word of region sample (x, y) is at
// first + y * pitch + x * stride; its value (word >> shift) & mask.
struct SampleGrid {
  const uint8_t* first;
  uint64_t pitch;
  uint32_t stride;
  uint32_t sample_size;
  uint32_t shift;
  uint32_t mask;
  uint32_t depth;
};

SampleGrid SampleGridOf(const PlaneView& plane);

// --- per-column -------------------------------------------------------------------
struct ColumnPlan {
  SampleGrid grid;
  uint32_t width, height;  // the counted region
  uint32_t groups, bins;
  uint32_t lane_columns;   // V: 1 or 4 (which kernel)
  uint32_t row_lanes;      // lanes of a warp that share a row: 32, or 16 / 8 at V = 1
  uint32_t band_columns;   // row_lanes x V
  uint32_t bands;
  uint32_t groups_per_band;  // non-zero: band b holds groups [b n, b n + n) (V = 1); 0: band b
                             // holds columns [b band_columns, (b + 1) band_columns)
  uint32_t tile_bins, tiles;
  uint32_t slices;
  uint32_t slots;          // most groups one band touches (partials per band)
  bool direct;             // one slice, no group across bands: counts written in phase 1
  bool partials16;         // partials stored as 16 bits (no partial can exceed 65535)
  // 8-bit samples that are their own bin (depth 8, no shift, 256 bins); at
  // V = 4 also stride 1 and 4-byte aligned rows (one 32-bit load per lane).
  bool bytes;
  // The shortcuts of the third round (docs/tuning.md), each where the plan allows it:
  bool simple_items;   // direct, one slice, one tile, one group per column: items placed without divisions
  bool shuffle_flush;  // V = 1, direct, one group per column: flushed by shuffles, no stage
  bool counters16;     // with shuffle_flush and bytes: 16-bit shared counters, two bins a word
  bool native_partials;  // V = 4, one group per column, partials: counters stored as they lie in shared memory
};

struct ColumnKernels {
  KernelConfig narrow;        // V = 1, any layout
  KernelConfig narrow_bytes;  // V = 1, ColumnPlan::bytes
  KernelConfig wide;          // V = 4, any layout
  KernelConfig wide_bytes;    // V = 4, ColumnPlan::bytes
};

Status ConfigureColumnKernels(const DeviceLimits& limits, ColumnKernels* kernels);
// Plans a validated request; partial_words: the scratch the histogrammer holds.
Status BuildColumnPlan(const ColumnKernels& kernels, const ColumnHistogramSpec& spec, const PlaneView& plane,
                       uint64_t partial_words, ColumnPlan* plan);
// Partial words the plan writes (0 when direct).
uint64_t ColumnPartialWords(const ColumnPlan& plan);
Status LaunchColumn(const ColumnKernels& kernels, const ColumnPlan& plan, uint32_t* partials, uint32_t* counts,
                    cudaStream_t stream);

// --- joint ------------------------------------------------------------------------
struct JointPlan {
  SampleGrid a, b;
  uint32_t width, height;
  uint32_t bins_a, bins_b;
  bool paired;                       // a and b are the two bytes of one 16-bit word (NV12's UV)
  // The b range cut into `parts` of part_rows bins (the last may have fewer),
  // each counted by its own blocks (JointPlanParts).
  uint32_t parts, part_rows;
  bool packed_pairs;                 // paired at pixel stride 2: rows of contiguous pairs, 16-byte loads
  bool byte_bins;                    // paired, 8 bits, 256 x 256 bins: the 16-bit pair is its counts index
  uint32_t chunk_span;               // 16-byte chunks a row of pairs touches at most
  FastDivisor chunk_row_of;          // unit -> row (divisor chunk_span)
  FastDivisor width_of;              // unit -> row (divisor width)
};

Status ConfigureJointKernel(const DeviceLimits& limits, KernelConfig* config);
JointPlan BuildJointPlan(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b);
// Sets plan->parts and part_rows: at most `parts` parts of the b range
// (BuildJointPlan: the policy's parts).
void JointPlanParts(uint32_t parts, JointPlan* plan);
// The sliced kernel's slices of rows (grid: parts x slices blocks).
uint32_t JointSlices(const KernelConfig& config, const JointPlan& plan);
// The joint scratch: the 256 x 256 totals, a ticket per part, the direct
// launches' DirectLaunchScratch (device/grid_completion.cuh, 8-byte aligned). Zero
// before the first launch (and after a failed one); a launch leaves the
// totals and tickets zero.
constexpr uint32_t kJointTicketsAt = kMaxJointBins * kMaxJointBins;
constexpr uint32_t kJointDirectAt = kJointTicketsAt + kMaxJointBins;
static_assert(kJointDirectAt % 2 == 0, "the direct launches' ticket is a 64-bit word");
constexpr uint32_t kJointScratchWords = kJointDirectAt + uint32_t(sizeof(DirectLaunchScratch) / sizeof(uint32_t));
// Whether a launch may add straight to `counts` (counts in device memory).
bool JointCountsDirect(const uint32_t* counts);
// direct: JointCountsDirect(counts).
Status LaunchJoint(const KernelConfig& config, const JointPlan& plan, uint32_t* scratch, uint32_t* counts,
                   bool direct, cudaStream_t stream);

}  // namespace cudahist::detail
