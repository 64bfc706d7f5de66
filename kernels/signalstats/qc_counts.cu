// The QC counts on the GPU (QcCountsKernel): TOUT, VREP, cropdetect's line
// sums and the field pairs' squared differences of a frame, the second
// kernel of a frame with QC figures, on the stream of the signalstats launch
// (SignalStatsCounter::ComputeQc).
//
// A block takes a band of kQcBandRows luma rows (and the chroma rows of the
// same band index, kQcBandRows >> vsub of them, an even count, so that the
// field pairs of every plane stay inside one block) over the whole width;
// each thread owns the columns tid, tid + blockDim, ... of every row of the
// band. Per row, a thread sums its columns (row sum, VREP's difference to
// row y - 4) and the block adds them in shared memory; per column it adds
// the band's samples in a shared array it alone writes. TOUT tests each
// pixel's 3 x 5 neighbourhood straight from the (cached) frame. The band's
// row sums are stored, its column sums and scalar sums added to the zeroed
// scratch with global atomics.
#include <algorithm>
#include <cstddef>
#include <cstring>

#include "cudahist/signalstats.h"
#include "device/warp_sum.cuh"
#include "launch/kernel_launch.h"
#include "signalstats/qc_counts.h"
#include "signalstats/qc_rules.cuh"
#include "signalstats/signalstats_walk.cuh"

namespace cudahist {
namespace detail {
namespace {

// Luma rows a block takes: a multiple of 4 (4:2:0 chroma pairs stay in the
// band); 16 gives a 1080p frame 68 blocks, and its column sums 68 global
// atomics a column.
constexpr uint32_t kQcBandRows = 16;
static_assert(kQcBandRows % 4 == 0, "4:2:0 chroma pairs stay in a band");
// Threads a block: 512 give a 1920-wide row 3.75 columns a thread.
constexpr uint32_t kQcThreads = 512;

struct QcParams {
  SignalStatsPlane y, u, v;
  uint32_t lx0, ly0, width, height;        // the luma region
  uint32_t cx0, cy0, chroma_width, chroma_height;
  uint32_t chroma_band_rows;               // kQcBandRows >> vsub
  uint32_t line_sums;                      // QcCounts::has_line_sums
  uint32_t depth;
};

__device__ __forceinline__ uint32_t Luma(const QcParams& p, int x, int y) {
  return SignalStatsValueAt(p.y, p.lx0 + uint32_t(x), p.ly0 + uint32_t(y));
}

// TOUT's per-column test at column x of row y (the far pair where FFmpeg reads it).
__device__ __forceinline__ bool ToutColumn(const QcParams& p, int x, int y, bool use_far) {
  const uint32_t at = Luma(p, x, y);
  if (!ToutOutlier(Luma(p, x, y - 1), at, Luma(p, x, y + 1))) return false;
  return !use_far || ToutOutlier(Luma(p, x, y - 2), at, Luma(p, x, y + 2));
}

// Squared differences of chroma rows 2k and 2k + 1 of one plane in the
// block's chroma band (a last row without a partner against zeros).
__device__ __forceinline__ unsigned long long ChromaBandSse(const QcParams& p, const SignalStatsPlane& plane) {
  unsigned long long sse = 0;
  const uint32_t first = blockIdx.x * p.chroma_band_rows;
  for (uint32_t r = first; r < first + p.chroma_band_rows && r < p.chroma_height; r += 2) {
    for (uint32_t x = threadIdx.x; x < p.chroma_width; x += blockDim.x) {
      const int top = int(SignalStatsValueAt(plane, p.cx0 + x, p.cy0 + r));
      const int bottom = r + 1 < p.chroma_height ? int(SignalStatsValueAt(plane, p.cx0 + x, p.cy0 + r + 1)) : 0;
      sse += (unsigned long long)((top - bottom) * (top - bottom));
    }
  }
  return sse;
}

enum QcSum : uint32_t { kTout = 0, kSseY, kSseU, kSseV, kQcSums };

__global__ void __launch_bounds__(kQcThreads) QcCountsKernel(const QcParams p, QcCounts* out) {
  extern __shared__ uint32_t column_band[];  // p.width entries with line sums, else none
  __shared__ uint32_t row_sum[kQcBandRows], row_repeat[kQcBandRows];
  __shared__ unsigned long long block_sums[kQcSums];
  for (uint32_t r = threadIdx.x; r < kQcBandRows; r += blockDim.x) row_sum[r] = row_repeat[r] = 0;
  if (threadIdx.x < kQcSums) block_sums[threadIdx.x] = 0;
  if (p.line_sums) {
    for (uint32_t x = threadIdx.x; x < p.width; x += blockDim.x) column_band[x] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {  // the header: the frame's shape, as the CPU paths write it
    out->depth = p.depth;
    out->width = p.width;
    out->height = p.height;
    out->chroma_width = p.chroma_width;
    out->chroma_height = p.chroma_height;
    out->has_line_sums = p.line_sums;
  }
  __syncthreads();

  const int w = int(p.width), h = int(p.height);
  const int y0 = int(blockIdx.x * kQcBandRows);
  unsigned long long sums[kQcSums] = {0, 0, 0, 0};
  for (int r = 0; r < int(kQcBandRows) && y0 + r < h; ++r) {
    const int y = y0 + r;
    const bool tout_row = y >= 1 && y + 1 < h, use_far = ToutUsesFarRows(y, h);
    const bool vrep_row = y >= kVrepDistance;
    uint32_t sum = 0, repeat = 0;
    for (int x = int(threadIdx.x); x < w; x += int(blockDim.x)) {
      const uint32_t value = Luma(p, x, y);
      sum += value;
      if (p.line_sums) column_band[x] += value;
      if (vrep_row) repeat += uint32_t(AbsInt(int(Luma(p, x, y - kVrepDistance)) - int(value)));
      if (y % 2 == 0) {
        const int below = y + 1 < h ? int(Luma(p, x, y + 1)) : 0;
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
  sums[kSseU] = ChromaBandSse(p, p.u);
  sums[kSseV] = ChromaBandSse(p, p.v);
  for (uint32_t i = 0; i < kQcSums; ++i) {
    const unsigned long long warp = WarpSum(sums[i]);
    if (threadIdx.x % 32 == 0 && warp != 0) atomicAdd(&block_sums[i], warp);
  }
  __syncthreads();

  if (threadIdx.x < kQcSums && block_sums[threadIdx.x] != 0) {
    unsigned long long* targets[kQcSums] = {reinterpret_cast<unsigned long long*>(&out->tout),
                                            reinterpret_cast<unsigned long long*>(&out->field_sse[0]),
                                            reinterpret_cast<unsigned long long*>(&out->field_sse[1]),
                                            reinterpret_cast<unsigned long long*>(&out->field_sse[2])};
    atomicAdd(targets[threadIdx.x], block_sums[threadIdx.x]);
  }
  uint32_t repeats = 0;
  if (threadIdx.x < 32) {
    const int y = y0 + int(threadIdx.x);
    const bool repeated = threadIdx.x < kQcBandRows && y < h && y >= kVrepDistance &&
                          row_repeat[threadIdx.x] < p.width;
    repeats = WarpSum(repeated ? 1u : 0u);
    if (threadIdx.x == 0 && repeats != 0) {
      atomicAdd(reinterpret_cast<unsigned long long*>(&out->vrep_rows), (unsigned long long)repeats);
    }
  }
  if (!p.line_sums) return;
  for (uint32_t r = threadIdx.x; r < kQcBandRows && y0 + int(r) < h; r += blockDim.x) {
    out->row_sums[y0 + int(r)] = row_sum[r];
  }
  for (uint32_t x = threadIdx.x; x < p.width; x += blockDim.x) {
    if (column_band[x] != 0) atomicAdd(&out->column_sums[x], column_band[x]);
  }
}

static_assert(kQcBandRows <= 32, "one warp decides the band's VREP rows");
static_assert(offsetof(QcCounts, tout) % 8 == 0 && offsetof(QcCounts, vrep_rows) % 8 == 0 &&
                  offsetof(QcCounts, field_sse) % 8 == 0,
              "64-bit atomics on the sums");

}  // namespace

Status LaunchQcCounts(const YuvPlanes& frame, QcCounts* scratch, cudaStream_t stream) {
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
  const uint32_t bands = (luma.height + kQcBandRows - 1) / kQcBandRows;
  const uint32_t chroma_bands = (chroma.height + p.chroma_band_rows - 1) / p.chroma_band_rows;
  // At least one block: block 0 writes the header of an empty region too.
  const uint32_t blocks = std::max(1u, std::max(bands, chroma_bands));
  const size_t shared = p.line_sums ? size_t(p.width) * sizeof(uint32_t) : 0;
  QcCountsKernel<<<blocks, kQcThreads, shared, stream>>>(p, scratch);
  return CudaStatus(cudaGetLastError(), "QC kernel launch");
}

}  // namespace detail

Status PinnedQcCounts::Create(std::unique_ptr<PinnedQcCounts>* out) {
  if (out == nullptr) return Status::InvalidArgument("out: null");
  void* data = nullptr;
  // Portable, as PinnedSignalStats: any context's copy may write it.
  CUDAHIST_RETURN_IF_ERROR(
      detail::CudaStatus(cudaHostAlloc(&data, sizeof(QcCounts), cudaHostAllocPortable), "cudaHostAlloc(QC counts)"));
  std::memset(data, 0, sizeof(QcCounts));
  out->reset(new PinnedQcCounts(static_cast<QcCounts*>(data)));
  return Status::Ok();
}

PinnedQcCounts::~PinnedQcCounts() { cudaFreeHost(counts_); }

}  // namespace cudahist
