// cudahist: the plan one launch works from, built on the host from the plane
// views (launch_plan.cc) and passed to the kernel by value. Plain data only,
// so that the walk in device/plan_walk.cuh also runs on the host (tests).
//
// Components that share one plane (RGBA's four, NV12's U and V) become ONE
// group, read once: a group is a set of bytes per row (a "span") that 16-byte
// chunks cover, and each byte goes to the component at its position in the
// pixel (its "slot"). Layouts other than the vector ones below are counted one
// sample at a time (kGeneral): stride-3 RGB, 4-byte packed words, odd offsets.
#pragma once

#include <cstdint>

#include "cudahist/histogram_spec.h"
#include "cudahist/plane_view.h"
#include "cudahist/status.h"

#if defined(__CUDACC__)
#define CUDAHIST_HD __host__ __device__ __forceinline__
#else
#define CUDAHIST_HD inline
#endif
#if defined(__CUDA_ARCH__)  // the device pass only: host compilers do not know the pragma
#define CUDAHIST_UNROLL _Pragma("unroll")
#else
#define CUDAHIST_UNROLL
#endif

namespace cudahist::detail {

// Bytes of one vector load (LDG.128): every vector layout reads 16-byte aligned chunks.
constexpr uint32_t kChunkBytes = 16;

// Frames one batch launch counts: their plans travel as the kernel's parameter (about
// 570 bytes a frame; CUDA 12.1+ allows 32 KB) and the scratch holds one set of totals each.
constexpr uint32_t kMaxBatchFrames = 16;

// Smallest l with 2^l >= v (log2 of a power of two).
CUDAHIST_HD uint32_t CeilLog2(uint64_t v) {
  uint32_t l = 0;
  while ((uint64_t(1) << l) < v) ++l;
  return l;
}

// 32-bit quotient by a divisor fixed for the whole launch, as a multiply-high
// and a shift (the chunk -> row split runs once per chunk). Exact for
// n, d < 2^31 (the method of CUTLASS's FastDivmod).
struct FastDivisor {
  uint32_t divisor = 1;
  uint32_t multiplier = 0;
  uint32_t shift = 0;

  // Host and device alike: a region kernel makes the divisor of each tile it takes.
  CUDAHIST_HD static FastDivisor For(uint32_t d) {
    FastDivisor f;
    f.divisor = d;
    if (d > 1) {
      const uint32_t p = 31 + CeilLog2(d);
      f.multiplier = uint32_t(((1ull << p) + d - 1) / d);
      f.shift = p - 32;
    }
    return f;
  }

  CUDAHIST_HD uint32_t Divide(uint32_t n) const {
    if (divisor == 1) return n;
#if defined(__CUDA_ARCH__)
    return __umulhi(n, multiplier) >> shift;
#else
    return uint32_t((uint64_t(n) * multiplier) >> 32) >> shift;
#endif
  }
};


enum GroupLayout : uint32_t {
  kBytesStride1 = 0,  // 8-bit samples, pixel stride 1 (Y, I420, GRAY8)
  kBytesStride2 = 1,  // 8-bit samples, pixel stride 2 (NV12 UV, YUY2 Y)
  kBytesStride4 = 2,  // 8-bit samples, pixel stride 4 (RGBA, BGRx, YUY2 U / V)
  kWords16 = 3,       // 16-bit samples, pixel stride 2 (P010, P016, GRAY16, I420_10LE)
  kGeneral = 4,       // anything else: one sample per unit
};

// How one slot (byte position in the pixel for the vector layouts; the single
// component of kGeneral) becomes a counter index: counter = base + bin.
//   power-of-two bins: bin = (bits >> shift) & mask, with shift the sample's
//                      shift + depth - log2(bins) and mask bins - 1;
//   otherwise:         bin = (((bits >> shift) & mask) * bins) >> depth
//                      (the product stays below 2^32: value < 2^depth, bins < 2^depth).
// A slot no counted component occupies (RGBx's x, the other half of NV12's
// UV when only U is counted) goes to the trash counter, index `counters`,
// which every algorithm keeps but never reports: no branch per byte.
struct SlotParams {
  uint32_t base = 0;  // component * bins, or the trash counter
  uint32_t shift = 0;
  uint32_t mask = 0;
  uint32_t depth = 0;
};

// How a vector group's units follow its chunks. Row-major (frames): unit =
// row * units_per_row + chunk, so a warp's lanes read a row's consecutive
// chunks and only the warps at a row's ends meet its partial chunks.
// Column-major (region tiles): unit = chunk * rows + row, so a warp's lanes
// read one column of chunks down the rows; a box's rows are a few chunks
// long, and row-major would give nearly every warp a lane at a row's edge,
// and with it the partial-chunk path. `row_of_unit` divides by units_per_row
// in the first, by rows in the second.
enum class UnitOrder { kRowMajor, kColumnMajor };

struct GroupPlan {
  const uint8_t* pixel0 = nullptr;  // first counted pixel of the first counted row
  uint64_t pitch = 0;
  uint32_t layout = kGeneral;
  uint32_t pixel_stride = 1;
  uint32_t sample_size = 1;
  uint32_t offset = 0;          // kGeneral: byte offset of the sample in the pixel
  uint32_t span_begin = 0;      // vector layouts: bytes of a row the group reads,
  uint32_t span_end = 0;        //   [pixel0 + span_begin, pixel0 + span_end) of each row
  uint32_t rows = 0;
  uint32_t units_per_row = 0;   // 16-byte chunks (vector) or samples (kGeneral)
  uint32_t units = 0;           // rows * units_per_row, < 2^31
  FastDivisor row_of_unit;      // unit -> row (UnitOrder: or -> chunk column)
  uint32_t counted_slots = 0;   // bit s: slot s belongs to a counted component
  // 8-bit layouts whose every slot counts 256 bins of a whole byte (the common
  // 8-bit video case): a byte's bin is the byte itself, so the hot loop takes
  // it with one byte permute (PRMT) instead of a shift and a mask.
  bool byte_is_bin = false;
  SlotParams slot[4];
};

// Fills a vector-layout group's span and chunks per row (the units of its
// walk) for a counted width of `width` pixels, from its counted slots; a
// kGeneral group walks one sample per unit. Not the divisor of units into rows
// (SetGroupWidth): the host's cut of regions into tiles needs only the units.
// A vector-layout group's span of a row of `width` pixels: bytes [*begin,
// *end) from the row's first pixel, from its first counted slot to the end of
// its last.
CUDAHIST_HD void GroupSpan(const GroupPlan& g, uint32_t width, uint32_t* begin, uint32_t* end) {
  uint32_t first = g.pixel_stride, last = 0;
  for (uint32_t s = 0; s < 4; ++s) {
    if ((g.counted_slots & (1u << s)) == 0) continue;
    first = first < s ? first : s;
    last = last > s + g.sample_size ? last : s + g.sample_size;
  }
  *begin = first;
  *end = (width - 1) * g.pixel_stride + last;
}

// Aligned 16-byte chunks touching a span of bytes [begin, end) that starts
// anywhere: at most floor((end - begin + 14) / 16) + 1.
CUDAHIST_HD uint32_t ChunksOfSpan(uint32_t begin, uint32_t end) {
  return (end - begin + 2 * kChunkBytes - 2) / kChunkBytes;
}

CUDAHIST_HD void SetGroupSpan(GroupPlan& g, uint32_t width) {
  if (g.layout == kGeneral) {
    g.span_begin = g.span_end = 0;
    g.units_per_row = width;
  } else {
    GroupSpan(g, width, &g.span_begin, &g.span_end);
    g.units_per_row = ChunksOfSpan(g.span_begin, g.span_end);
  }
}

// SetGroupSpan, then the group's divisor of units into rows. BuildPlan does
// this for a frame's groups (a region tile's plan makes its own divisor:
// region_tile_walk.cuh's TilePlan).
CUDAHIST_HD void SetGroupWidth(GroupPlan& g, uint32_t width) {
  SetGroupSpan(g, width);
  g.row_of_unit = FastDivisor::For(g.units_per_row);
}

struct Plan {
  GroupPlan group[kMaxComponents];
  uint32_t num_groups = 0;
  uint32_t bins = 0;
  uint32_t counters = 0;     // num_components * bins; also the index of the trash counter
  uint32_t total_units = 0;  // summed over groups
  bool pow2_bins = false;
};

// Global scratch of the algorithms that accumulate with atomics: `counters`
// totals and one ticket word, all zero between launches.
struct AccumulatorScratch {
  uint32_t* totals = nullptr;
  uint32_t* ticket = nullptr;
};

// The launch tickets of a direct launch (device/grid_completion.cuh's
// TakeLaunchTicket) are shared out over this many 64-bit words, block b
// taking its ticket from word b % kLaunchTicketShards, each word on a 128-byte
// line of its own. The blocks of a launch are released together by the end of
// the kernel before, and with one word their tickets queue at one L2 address
// (528 blocks at 100 regions): 32 words took the segmented kernel at 100
// boxes from 10.98 to 10.75 us a frame as a CUDA graph, 8 words to 10.86;
// 128 words 10.78 against 32 words' 10.81 in another run (H200, 2026-11-30;
// docs/tuning.md, "Regions").
constexpr uint32_t kLaunchTicketShards = 32;
constexpr uint32_t kLaunchTicketStride = 16;  // 64-bit words from one shard's word to the next

// The scratch of direct launches, zero before the first: the ticket words
// and the arrival counters of two consecutive launches.
struct DirectLaunchScratch {
  uint32_t arrivals[2];
  uint32_t unused[2];  // the tickets 16 bytes in, and the size a multiple of 16 bytes
  unsigned long long tickets[kLaunchTicketShards * kLaunchTicketStride];
};

// Counters an algorithm stores: the reported ones and the trash counter.
CUDAHIST_HD uint32_t StoredCounters(uint32_t counters) { return counters + 1; }

// The frames of one batch launch (Histogrammer::ComputeBatch), passed by value.
struct PlanBatch {
  Plan frame[kMaxBatchFrames];
};

// Frame `frame`'s accumulator in scratch that holds one per batch frame
// (totals then ticket, StoredCounters words each); frame 0's is the one a
// single-frame launch uses.
CUDAHIST_HD AccumulatorScratch BatchAccumulator(uint32_t* scratch, uint32_t counters, uint32_t frame) {
  uint32_t* totals = scratch + uint64_t(frame) * StoredCounters(counters);
  return AccumulatorScratch{totals, totals + counters};
}

inline bool IsPowerOfTwo(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }


// Builds the plan for planes that passed ValidateRequest. kUnsupported when a
// frame has 2^31 or more units (chunks or samples) to walk.
Status BuildPlan(const HistogramSpec& spec, const PlaneView* planes, int num_planes, Plan* plan);

}  // namespace cudahist::detail
