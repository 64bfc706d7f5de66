// cudahist: the QC counts' part of the signalstats launch (QcCounts: TOUT,
// VREP, cropdetect's line sums and the field pairs' squared differences).
// The parameters and the split into bands are plain C++ too, so that the
// host tests check that the bands cover every row of every plane once
// (tests/kernels/signalstats_walk_test.cc); the device part runs in the QC
// blocks of SignalStatsKernel (signalstats_counter.cu), which follow its
// signalstats blocks in the same grid.
//
// A QC block takes a band of kQcBandRows luma rows (and the chroma rows of
// the same band index, kQcBandRows >> vsub of them, an even count, so that
// the field pairs of every plane stay inside one block) over the whole
// width; each thread owns the columns tid, tid + blockDim, ... of every row
// of the band. Per row, a thread sums its columns (row sum, VREP's
// difference to row y - 4) and the block adds them in shared memory; per
// column it adds the band's samples in a shared array it alone writes. TOUT
// tests each pixel's 3 x 5 neighbourhood straight from the (cached) frame.
// The band stores its row sums in the destination (each row is one band's)
// and adds its column sums and scalar sums to the QC scratch; the last QC
// block to arrive (LastBlockToArrive on the scratch's own ticket) moves the
// scratch into the destination and leaves it zero for the next launch. No
// QC block waits for another block, so the QC part cannot deadlock, whatever
// the order or residency in which the blocks run.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cudahist/signalstats.h"
#include "signalstats/qc_rules.cuh"
#include "signalstats/signalstats_walk.cuh"

#ifdef __CUDACC__
#include "device/grid_completion.cuh"
#include "device/warp_sum.cuh"
#endif

namespace cudahist::detail {

static_assert(kQcBandRows % 4 == 0, "4:2:0 chroma pairs stay in a band");
static_assert(kQcBandRows <= 32, "one warp decides the band's VREP rows");

// A QC block's column sums of its band live in the dynamic shared memory of
// the signalstats blocks' lane copies, which the launch sizes at least this.
constexpr uint32_t kQcSharedBytes = kQcMaxWidth * sizeof(uint32_t);

struct QcParams {
  SignalStatsPlane y, u, v;
  uint32_t lx0, ly0, width, height;  // the luma region
  uint32_t cx0, cy0, chroma_width, chroma_height;
  uint32_t chroma_band_rows;  // kQcBandRows >> vsub
  uint32_t line_sums;         // QcCounts::has_line_sums
  uint32_t depth;
  uint32_t blocks;            // QC blocks of the launch (QcBlocks), 0: no QC counts
};

// The QC blocks a frame takes: one per band, as many as the taller of its
// luma and chroma band counts; at least one, which writes the header of an
// empty region too.
inline uint32_t QcBlocks(uint32_t height, uint32_t chroma_height, uint32_t chroma_band_rows) {
  const uint32_t bands = (height + kQcBandRows - 1) / kQcBandRows;
  const uint32_t chroma_bands = (chroma_height + chroma_band_rows - 1) / chroma_band_rows;
  return std::max({1u, bands, chroma_bands});
}

// The QC parameters of a validated frame (ValidateYuvPlanes).
inline QcParams QcParamsOf(const YuvPlanes& frame) {
  const Roi luma = CountedRegion(frame.y), chroma = CountedRegion(frame.u);
  QcParams p = {};
  p.y = SignalStatsPlaneOf(frame.y);
  p.u = SignalStatsPlaneOf(frame.u);
  p.v = SignalStatsPlaneOf(frame.v);
  p.lx0 = luma.x;
  p.ly0 = luma.y;
  p.width = luma.width;
  p.height = luma.height;
  p.cx0 = chroma.x;
  p.cy0 = chroma.y;
  p.chroma_width = chroma.width;
  p.chroma_height = chroma.height;
  p.chroma_band_rows = kQcBandRows >> frame.log2_vsub;
  p.line_sums = luma.width <= kQcMaxWidth && luma.height <= kQcMaxHeight ? 1 : 0;
  p.depth = frame.y.depth;
  p.blocks = QcBlocks(p.height, p.chroma_height, p.chroma_band_rows);
  return p;
}

// Band `band`'s luma rows [first, end) and chroma rows [chroma_first,
// chroma_end), clipped to the region.
struct QcBand {
  uint32_t first, end, chroma_first, chroma_end;
};

CUDAHIST_HD QcBand QcBandOf(const QcParams& p, uint32_t band) {
  const uint32_t first = band * kQcBandRows, chroma_first = band * p.chroma_band_rows;
  const uint32_t end = first + kQcBandRows, chroma_end = chroma_first + p.chroma_band_rows;
  return QcBand{first < p.height ? first : p.height, end < p.height ? end : p.height,
                chroma_first < p.chroma_height ? chroma_first : p.chroma_height,
                chroma_end < p.chroma_height ? chroma_end : p.chroma_height};
}

enum QcSum : uint32_t { kTout = 0, kSseY, kSseU, kSseV, kVrepRows, kQcSums };

// What the QC blocks accumulate between their bands and the last block's
// move into the destination; zero between launches (the last block leaves
// it so; a failed launch has it zeroed again).
struct QcScratch {
  unsigned long long sums[kQcSums];
  uint32_t ticket;
  uint32_t column_sums[kQcMaxWidth];
};

#ifdef __CUDACC__

__device__ __forceinline__ uint32_t QcLuma(const QcParams& p, int x, int y) {
  return SignalStatsValueAt(p.y, p.lx0 + uint32_t(x), p.ly0 + uint32_t(y));
}

// TOUT's per-column test at column x of row y (the far pair where FFmpeg reads it).
__device__ __forceinline__ bool ToutColumn(const QcParams& p, int x, int y, bool use_far) {
  const uint32_t at = QcLuma(p, x, y);
  if (!ToutOutlier(QcLuma(p, x, y - 1), at, QcLuma(p, x, y + 1))) return false;
  return !use_far || ToutOutlier(QcLuma(p, x, y - 2), at, QcLuma(p, x, y + 2));
}

// Squared differences of chroma rows 2k and 2k + 1 of one plane in the
// band (a last row without a partner against zeros).
__device__ __forceinline__ unsigned long long ChromaBandSse(const QcParams& p, const SignalStatsPlane& plane,
                                                           const QcBand& band) {
  unsigned long long sse = 0;
  for (uint32_t r = band.chroma_first; r < band.chroma_end; r += 2) {
    for (uint32_t x = threadIdx.x; x < p.chroma_width; x += blockDim.x) {
      const int top = int(SignalStatsValueAt(plane, p.cx0 + x, p.cy0 + r));
      const int bottom = r + 1 < p.chroma_height ? int(SignalStatsValueAt(plane, p.cx0 + x, p.cy0 + r + 1)) : 0;
      sse += (unsigned long long)((top - bottom) * (top - bottom));
    }
  }
  return sse;
}

// The last QC block: the scratch's sums and column sums, the header, and
// zeros where the frame has no rows or columns, into `out`; scratch and
// ticket left zero. The rows of the region are the bands' (stored directly).
__device__ __forceinline__ void WriteQcCounts(const QcParams& p, QcScratch* scratch, QcCounts* out) {
  for (uint32_t x = threadIdx.x; x < kQcMaxWidth; x += blockDim.x) {
    out->column_sums[x] = p.line_sums && x < p.width ? atomicExch(&scratch->column_sums[x], 0u) : 0u;
  }
  for (uint32_t y = threadIdx.x; y < kQcMaxHeight; y += blockDim.x) {
    if (!p.line_sums || y >= p.height) out->row_sums[y] = 0;
  }
  if (threadIdx.x == 0) {
    out->depth = p.depth;
    out->width = p.width;
    out->height = p.height;
    out->chroma_width = p.chroma_width;
    out->chroma_height = p.chroma_height;
    out->has_line_sums = p.line_sums;
    out->tout = atomicExch(&scratch->sums[kTout], 0ull);
    out->vrep_rows = atomicExch(&scratch->sums[kVrepRows], 0ull);
    for (uint32_t i = 0; i < 3; ++i) out->field_sse[i] = atomicExch(&scratch->sums[kSseY + i], 0ull);
    atomicExch(&scratch->ticket, 0u);
  }
}

// One QC block's band (`band` of p.blocks), `column_band` p.width words of
// the block's shared memory (when p.line_sums). Touches global memory only:
// the frame (read), the scratch (atomics, then the ticket) and the
// destination (the band's own rows; the last block everything else).
__device__ __forceinline__ void CountQcBand(const QcParams& p, uint32_t band, uint32_t* column_band,
                                            QcScratch* scratch, QcCounts* out) {
  __shared__ uint32_t row_sum[kQcBandRows], row_repeat[kQcBandRows];
  __shared__ unsigned long long block_sums[kQcSums];
  for (uint32_t r = threadIdx.x; r < kQcBandRows; r += blockDim.x) row_sum[r] = row_repeat[r] = 0;
  if (threadIdx.x < kQcSums) block_sums[threadIdx.x] = 0;
  if (p.line_sums) {
    for (uint32_t x = threadIdx.x; x < p.width; x += blockDim.x) column_band[x] = 0;
  }
  __syncthreads();

  const QcBand b = QcBandOf(p, band);
  const int w = int(p.width), h = int(p.height);
  unsigned long long sums[kQcSums] = {0, 0, 0, 0, 0};
  for (int y = int(b.first); y < int(b.end); ++y) {
    const uint32_t r = uint32_t(y) - b.first;
    const bool tout_row = y >= 1 && y + 1 < h, use_far = ToutUsesFarRows(y, h);
    const bool vrep_row = y >= kVrepDistance;
    uint32_t sum = 0, repeat = 0;
    for (int x = int(threadIdx.x); x < w; x += int(blockDim.x)) {
      const uint32_t value = QcLuma(p, x, y);
      sum += value;
      if (p.line_sums) column_band[x] += value;  // column x is this thread's alone
      if (vrep_row) repeat += uint32_t(AbsInt(int(QcLuma(p, x, y - kVrepDistance)) - int(value)));
      if (y % 2 == 0) {
        const int below = y + 1 < h ? int(QcLuma(p, x, y + 1)) : 0;
        sums[kSseY] += (unsigned long long)((int(value) - below) * (int(value) - below));
      }
      if (tout_row && x >= 1 && x + 1 < w) {
        sums[kTout] += ToutColumn(p, x - 1, y, use_far) && ToutColumn(p, x, y, use_far) &&
                       ToutColumn(p, x + 1, y, use_far);
      }
    }
    sum = WarpSum(sum);
    repeat = WarpSum(repeat);
    if (threadIdx.x % 32 == 0) {
      atomicAdd(&row_sum[r], sum);
      atomicAdd(&row_repeat[r], repeat);
    }
  }
  sums[kSseU] = ChromaBandSse(p, p.u, b);
  sums[kSseV] = ChromaBandSse(p, p.v, b);
  for (uint32_t i = 0; i < kQcSums; ++i) {
    const unsigned long long warp = WarpSum(sums[i]);
    if (threadIdx.x % 32 == 0 && warp != 0) atomicAdd(&block_sums[i], warp);
  }
  __syncthreads();  // row_sum, row_repeat and block_sums complete

  if (threadIdx.x < 32) {  // the band's VREP rows, one lane a row
    const uint32_t y = b.first + threadIdx.x;
    const bool repeated = y < b.end && y >= uint32_t(kVrepDistance) && row_repeat[threadIdx.x] < p.width;
    const uint32_t repeats = WarpSum(repeated ? 1u : 0u);
    if (threadIdx.x == 0 && repeats != 0) atomicAdd(&block_sums[kVrepRows], (unsigned long long)repeats);
  }
  __syncthreads();  // block_sums[kVrepRows] complete
  if (threadIdx.x < kQcSums && block_sums[threadIdx.x] != 0) {
    atomicAdd(&scratch->sums[threadIdx.x], block_sums[threadIdx.x]);
  }
  if (p.line_sums) {
    for (uint32_t r = threadIdx.x; b.first + r < b.end; r += blockDim.x) out->row_sums[b.first + r] = row_sum[r];
    for (uint32_t x = threadIdx.x; x < p.width; x += blockDim.x) {
      if (column_band[x] != 0) atomicAdd(&scratch->column_sums[x], column_band[x]);
    }
  }
  // Every block's atomics before its ticket (LastBlockToArrive's fences and
  // barriers); the last of the p.blocks QC blocks then reads them all. No
  // block waits here: a block that is not last leaves at once.
  if (LastBlockToArrive(&scratch->ticket, p.blocks)) WriteQcCounts(p, scratch, out);
}

#endif  // __CUDACC__

}  // namespace cudahist::detail
