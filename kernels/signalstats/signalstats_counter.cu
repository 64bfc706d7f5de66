// signalstats on the GPU: SignalStatsCounter.
//
// ONE launch per frame writes the whole SignalStatsCounts. Each thread takes
// units of kSignalStatsRun consecutive chroma samples of one chroma row, with
// their luma blocks (2x2 for 4:2:0, 2x1 for 4:2:2, 1x1 for 4:4:4, clipped to
// the luma region), and the previous frame's samples at the same places, so
// that the Y/U/V histograms, sat/hue (one table lookup per pair), BRNG and
// the three DIF sums come from one pass. Histograms go to lane copies in
// shared memory (lane_copies.cuh), merged into compact global totals; the
// sums are reduced per warp (shuffles), per block (shared) and then per grid
// (64-bit global atomics). Counts in device memory take a direct launch
// (device/grid_completion.cuh): the block with the launch's first position
// (one that has started) zeroes the counts, and every block adds its merged copies and sums straight into
// them once those zeros are in place. Pinned or managed counts go to compact
// totals in the scratch, and the last block to arrive (the privatized
// algorithm's ticket) writes the counts in SignalStatsCounts' layout and
// leaves the scratch zero for the next launch. The sat/hue tables of 8, 9
// and 10 bits live in device memory, uploaded once in Create. A frame with
// QC counts gets more blocks in the same grid, after the signalstats ones:
// one a band of rows (qc_band.cuh), finishing through their own ticket.
#include <algorithm>
#include <cstddef>
#include <string>

#include "cudahist/signalstats.h"
#include "device/plan_walk.cuh"
#include "device/grid_completion.cuh"
#include "device/lane_copies.cuh"
#include "device/warp_sum.cuh"
#include "histogram/histogram_launch.h"
#include "signalstats/device_sat_hue_tables.h"
#include "signalstats/qc_band.cuh"
#include "signalstats/signalstats_timeline.h"
#include "signalstats/signalstats_walk.cuh"

namespace cudahist {
namespace detail {
namespace {

static_assert(offsetof(SignalStatsCounts, hue) - offsetof(SignalStatsCounts, y) ==
                  4 * kSignalStatsMaxBins * sizeof(uint32_t),
              "the kernel writes y, u, v, sat and hue as one array");
constexpr uint32_t kDepths = kSignalStatsMaxDepth - kSignalStatsMinDepth + 1;

// Zero between launches (the last block leaves it so). Paired totals: total
// k holds counters 2k (low half) and 2k + 1 (high half) of the compact
// numbering, one 64-bit atomic for two counters, halving the merge's L2
// atomics that the fence before the ticket waits for; a half never carries
// into the other, since no counter of a frame below 2^32 samples reaches 2^32.
static_assert(kCountsBins % 2 == 0 && kHueBins % 2 == 0, "counters pair up within each component");
constexpr uint32_t kTotals = kCountsBins / 2;
struct Scratch {
  unsigned long long sums[kSignalStatsSums];
  uint32_t ticket;
  DirectLaunchScratch direct;          // device/grid_completion.cuh
  unsigned long long totals[kTotals];  // the walk's compact numbering (signalstats_walk.cuh), paired
  QcScratch qc;                        // the QC blocks' (qc_band.cuh)
};

// The block's copies of counters 2k and 2k + 1, summed, as one 64-bit word
// (2k low, 2k + 1 high). At step s, lanes 0-15 read one counter of the pair
// and lanes 16-31 the other, each lane a different copy: the 32 lanes fall on
// 32 banks at 16 copies.
template <uint32_t kLogCopies>
__device__ __forceinline__ unsigned long long PairOfCopies(const uint32_t* copies, uint32_t k) {
  constexpr uint32_t kCopies = 1u << kLogCopies;
  const uint32_t lane = threadIdx.x % 32, half = lane >> 4;
  uint32_t sum[2] = {0, 0};
CUDAHIST_UNROLL
  for (uint32_t step = 0; step < 2 * kCopies; ++step) {
    const uint32_t which = (step + half) & 1, copy = ((step >> 1) + lane) & (kCopies - 1);
    const uint32_t v = copies[((2 * k + which) << kLogCopies) + copy];
    sum[0] += which == 0 ? v : 0;
    sum[1] += which == 1 ? v : 0;
  }
  return (static_cast<unsigned long long>(sum[1]) << 32) | sum[0];
}

// Every pair of the block's copies added to paired total k.
template <uint32_t kLogCopies>
__device__ __forceinline__ void MergeCopiesInPairs(const uint32_t* copies, uint32_t counters,
                                                   unsigned long long* totals) {
  for (uint32_t k = threadIdx.x; k < counters / 2; k += blockDim.x) {
    const unsigned long long pair = PairOfCopies<kLogCopies>(copies, k);
    if (pair != 0) atomicAdd(totals + k, pair);
  }
}

// Bins i and i + 1 (i even) of SignalStatsCounts' y..hue array from the
// paired totals, as one 8-byte word (zero beyond 2^depth); the total left zero.
__device__ __forceinline__ unsigned long long TakePair(uint32_t i, uint32_t depth, Scratch* scratch) {
  const uint32_t compact = CompactIndexOf(i, depth);  // even: components start at even counters
  return compact != ~0u ? atomicExch(scratch->totals + compact / 2, 0ull) : 0ull;
}

// Direct launches add the sums where SignalStatsSum's order lies in the counts.
static_assert(offsetof(SignalStatsCounts, dif_u) == offsetof(SignalStatsCounts, dif_y) + 8 * kDifU &&
                  offsetof(SignalStatsCounts, dif_v) == offsetof(SignalStatsCounts, dif_y) + 8 * kDifV &&
                  offsetof(SignalStatsCounts, brng) == offsetof(SignalStatsCounts, dif_y) + 8 * kBrng,
              "dif_y, dif_u, dif_v and brng in SignalStatsSum's order");
static_assert(offsetof(SignalStatsCounts, y) % 8 == 0 && sizeof(SignalStatsCounts) % 4 == 0,
              "bin pairs are 8-byte words; the counts are zeroed as 4-byte words");
constexpr uint32_t kCountsWords = sizeof(SignalStatsCounts) / 4;

// Pairs of compact counters a thread merges at most (10 bits: 4456 counters).
constexpr uint32_t kPairsPerThread = (((4u << kSignalStatsMaxDepth) + kHueBins) / 2 + kSignalStatsPolicy.threads() - 1) /
                                     kSignalStatsPolicy.threads();

// A direct launch's end: the block's copies summed while the first block's
// zeros may still be on the way, then, once they are in place, added
// straight into the counts' bins with the block's sums; block 0 writes the
// header.
template <uint32_t kLogCopies>
__device__ __forceinline__ void AddBlockToCounts(const SignalStatsParams& p, const uint32_t* copies,
                                                 uint32_t counters, const unsigned long long* block_sums,
                                                 const uint32_t* arrivals, uint32_t arrival_target,
                                                 SignalStatsCounts* counts) {
  unsigned long long pair[kPairsPerThread];
CUDAHIST_UNROLL
  for (uint32_t j = 0; j < kPairsPerThread; ++j) {
    const uint32_t k = threadIdx.x + j * kSignalStatsPolicy.threads();
    pair[j] = k < counters / 2 ? PairOfCopies<kLogCopies>(copies, k) : 0ull;
  }
  WaitForArrivals(arrivals, arrival_target);
CUDAHIST_UNROLL
  for (uint32_t j = 0; j < kPairsPerThread; ++j) {
    const uint32_t k = threadIdx.x + j * kSignalStatsPolicy.threads();
    if (pair[j] != 0) {
      atomicAdd(reinterpret_cast<unsigned long long*>(counts->y + OutputIndexOf(2 * k, p.depth)), pair[j]);
    }
  }
  if (threadIdx.x < kSignalStatsSums && block_sums[threadIdx.x] != 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(&counts->dif_y) + threadIdx.x, block_sums[threadIdx.x]);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    counts->depth = p.depth;
    counts->has_previous = p.has_previous;
    counts->luma_samples = p.luma_samples;
    counts->chroma_samples = p.chroma_samples;
  }
}

// The last block: the compact totals into SignalStatsCounts' layout, the sums
// and the header; scratch left zero.
__device__ __forceinline__ void WriteCounts(const SignalStatsParams& p, Scratch* scratch, SignalStatsCounts* counts) {
  uint32_t* bins = counts->y;  // y, u, v, sat, hue: one array (static_assert above)
  // Every exchange of the thread in flight before its first store (one L2
  // round trip, not one per pair); the pairs stored 8 bytes at once (y is at
  // an 8-byte offset of the struct).
  static_assert(offsetof(SignalStatsCounts, y) % 8 == 0, "bin pairs are 8-byte words");
  constexpr uint32_t kPairs = kCountsBins / 2;
  constexpr uint32_t kPerThread = (kPairs + kSignalStatsPolicy.threads() - 1) / kSignalStatsPolicy.threads();
  unsigned long long taken[kPerThread];
CUDAHIST_UNROLL
  for (uint32_t k = 0; k < kPerThread; ++k) {
    const uint32_t pair = threadIdx.x + k * kSignalStatsPolicy.threads();
    taken[k] = pair < kPairs ? TakePair(2 * pair, p.depth, scratch) : 0ull;
  }
CUDAHIST_UNROLL
  for (uint32_t k = 0; k < kPerThread; ++k) {
    const uint32_t pair = threadIdx.x + k * kSignalStatsPolicy.threads();
    if (pair < kPairs) reinterpret_cast<uint2*>(bins)[pair] = make_uint2(uint32_t(taken[k]), uint32_t(taken[k] >> 32));
  }
  if (threadIdx.x == 0) {
    counts->depth = p.depth;
    counts->has_previous = p.has_previous;
    counts->luma_samples = p.luma_samples;
    counts->chroma_samples = p.chroma_samples;
    counts->dif_y = atomicExch(&scratch->sums[kDifY], 0ull);
    counts->dif_u = atomicExch(&scratch->sums[kDifU], 0ull);
    counts->dif_v = atomicExch(&scratch->sums[kDifV], 0ull);
    counts->brng = atomicExch(&scratch->sums[kBrng], 0ull);
    atomicExch(&scratch->ticket, 0u);
  }
}

__device__ unsigned long long g_timeline[kSignalStatsTimeline ? kTimelineMaxBlocks * kTimelineMarks : 1];
uint32_t g_timeline_blocks = 0;  // host side: the latest launch's grid

// Thread 0 records `mark` (signalstats_timeline.h); nothing in a normal build.
// The __syncthreads makes the mark the block's, not thread 0's, and is the
// diagnostic build's own cost.
__device__ __forceinline__ void Mark(TimelineMark mark) {
  if constexpr (kSignalStatsTimeline) {
    __syncthreads();
    if (threadIdx.x == 0 && blockIdx.x < kTimelineMaxBlocks) {
      unsigned long long t;
      if (mark == kMarkStartGlobal || mark == kMarkEndGlobal) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
      } else {
        t = clock64();
      }
      g_timeline[blockIdx.x * kTimelineMarks + mark] = t;
    }
  }
}

// Blocks [0, blocks) count signalstats; blocks [blocks, blocks + q.blocks)
// are the QC blocks (qc_band.cuh), one band each, when QC counts are asked
// for. The two kinds share no memory but the frame, which both only read:
// signalstats' blocks end through their own ticket or arrivals, counted over
// `blocks`, and the QC blocks through the QC scratch's ticket, counted over
// q.blocks. Cross-block waits, and why none can deadlock: the only waiting
// is a direct launch's signalstats blocks waiting (WaitForArrivals) for the
// zeros of the signalstats block that took the launch's first ticket; that
// block is running (it took a ticket), and it zeroes and arrives before it
// waits for anything. The QC blocks wait for no block, and no block waits
// for a QC block; LastBlockToArrive only counts arrivals. So any order and
// any number of resident blocks finish, with a second wave of QC blocks too.
template <uint32_t kLogCopies>
__global__ void __launch_bounds__(kSignalStatsPolicy.threads(), kSignalStatsPolicy.min_blocks_per_sm())
    SignalStatsKernel(const SignalStatsParams p, const QcParams q, uint32_t blocks, Scratch* scratch,
                      SignalStatsCounts* counts, QcCounts* qc_counts, bool direct) {
  extern __shared__ uint32_t copies[];
  if (blockIdx.x >= blocks) {  // block-uniform: a QC block, its band's column sums in `copies`
    ZeroSharedThenWaitForPriorGrids(copies, 0);
    CountQcBand(q, blockIdx.x - blocks, copies, &scratch->qc, qc_counts);
    return;
  }
  Mark(kMarkStartGlobal);
  Mark(kMarkStart);
  if (kSignalStatsTimeline && threadIdx.x == 0 && blockIdx.x < kTimelineMaxBlocks) {
    g_timeline[blockIdx.x * kTimelineMarks + kMarkWritten] = 0;  // set again by the last block only
  }
  __shared__ unsigned long long block_sums[kSignalStatsSums];
  if (threadIdx.x < kSignalStatsSums) block_sums[threadIdx.x] = 0;
  const uint32_t counters = SignalStatsCounters(p.depth);
  ZeroSharedThenWaitForPriorGrids(copies, counters << kLogCopies);
  const DirectLaunch launch = direct ? StartDirectLaunch(&scratch->direct, blocks) : DirectLaunch{};
  if (launch.first()) ZeroShareThenArrive(reinterpret_cast<uint32_t*>(counts), kCountsWords, 0, 1, launch.arrivals);
  Mark(kMarkZeroed);

  using Counter = LaneCopiesCounter<kLogCopies, false>;
  UnitCounter<Counter> c(Counter{uint32_t(__cvta_generic_to_shared(copies)), threadIdx.x & ((1u << kLogCopies) - 1), 0},
                         p.depth);
  const uint32_t step = blocks * blockDim.x;
  for (uint32_t unit = blockIdx.x * blockDim.x + threadIdx.x; unit < p.units; unit += step) CountUnit(p, unit, c);
CUDAHIST_UNROLL
  for (uint32_t i = 0; i < kSignalStatsSums; ++i) {
    const unsigned long long warp = WarpSum(c.sums[i]);
    if (threadIdx.x % 32 == 0 && warp != 0) atomicAdd(&block_sums[i], warp);
  }
  __syncthreads();
  Mark(kMarkCounted);
  if (direct) {
    AddBlockToCounts<kLogCopies>(p, copies, counters, block_sums, launch.arrivals, 1, counts);
    Mark(kMarkMerged);
    Mark(kMarkArrived);  // nothing between: no ticket
    Mark(kMarkEndGlobal);
    return;
  }
  MergeCopiesInPairs<kLogCopies>(copies, counters, scratch->totals);
  if (threadIdx.x < kSignalStatsSums && block_sums[threadIdx.x] != 0) {
    atomicAdd(&scratch->sums[threadIdx.x], block_sums[threadIdx.x]);
  }
  Mark(kMarkMerged);
  const bool last = LastBlockToArrive(&scratch->ticket, blocks);
  Mark(kMarkArrived);
  if (last) {
    WriteCounts(p, scratch, counts);
    Mark(kMarkWritten);
  }
  Mark(kMarkEndGlobal);
}

template <uint32_t kLogCopies>
const void* KernelOf() {
  return reinterpret_cast<const void*>(&SignalStatsKernel<kLogCopies>);
}

const void* KernelFor(uint32_t log_copies) {
  switch (log_copies) {
    case 0: return KernelOf<0>();
    case 1: return KernelOf<1>();
    case 2: return KernelOf<2>();
    case 3: return KernelOf<3>();
    case 4: return KernelOf<4>();
    default: return KernelOf<5>();
  }
}
static_assert(kMaxLaneCopies <= 32, "KernelFor instantiates up to 32 copies");

// The largest power of two <= kMaxLaneCopies whose copies fit the budget
// and the device (at least one).
uint32_t LogCopiesFor(uint32_t depth, const DeviceLimits& limits) {
  const uint64_t bytes = uint64_t(SignalStatsCounters(depth)) * sizeof(uint32_t);
  return LargestLogCopiesWithin(CeilLog2(kMaxLaneCopies), bytes,
                                std::min<int64_t>(kLaunchPolicy.lane_copies_budget_bytes, limits.max_shared_per_block));
}

}  // namespace
}  // namespace detail

using detail::CudaStatus;

struct SignalStatsCounter::Impl {
  detail::KernelConfig config[detail::kDepths];
  detail::DeviceSatHueTables tables;
  detail::Scratch* scratch = nullptr;
  // Set when a launch failed: the scratch may hold part of a frame.
  bool scratch_needs_zeroing = false;

  ~Impl() {
    if (scratch != nullptr) cudaFree(scratch);
  }
};

SignalStatsCounter::SignalStatsCounter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SignalStatsCounter::~SignalStatsCounter() = default;

Status SignalStatsCounter::Create(std::unique_ptr<SignalStatsCounter>* out) {
  if (out == nullptr) return Status::InvalidArgument("out: null");
  CUDAHIST_RETURN_IF_ERROR(CheckCudaDevice());
  auto impl = std::make_unique<Impl>();
  detail::DeviceLimits limits;
  CUDAHIST_RETURN_IF_ERROR(detail::QueryDeviceLimits(&limits));
  for (uint32_t i = 0; i < detail::kDepths; ++i) {
    const uint32_t depth = kSignalStatsMinDepth + i;
    const uint32_t log_copies = detail::LogCopiesFor(depth, limits);
    const uint32_t copies_bytes = (detail::SignalStatsCounters(depth) * uint32_t(sizeof(uint32_t))) << log_copies;
    const uint32_t bytes = std::max(copies_bytes, detail::kQcSharedBytes);  // a QC block's column sums fit too
    CUDAHIST_RETURN_IF_ERROR(detail::ConfigureKernel(limits, detail::KernelFor(log_copies),
                                                     detail::kSignalStatsPolicy.threads(), 1, bytes, "signalstats",
                                                     &impl->config[i]));
    if (!impl->config[i].supported) return Status::Unsupported(impl->config[i].why);
    impl->config[i].log_copies = log_copies;
  }
  CUDAHIST_RETURN_IF_ERROR(impl->tables.Upload());
  CUDAHIST_RETURN_IF_ERROR(
      CudaStatus(cudaMalloc(reinterpret_cast<void**>(&impl->scratch), sizeof(detail::Scratch)), "cudaMalloc(scratch)"));
  CUDAHIST_RETURN_IF_ERROR(
      CudaStatus(cudaMemset(impl->scratch, 0, sizeof(detail::Scratch)), "cudaMemset(scratch)"));
  out->reset(new SignalStatsCounter(std::move(impl)));
  return Status::Ok();
}

Status SignalStatsCounter::Compute(const YuvPlanes& frame, const YuvPlanes* previous, cudaStream_t stream,
                                   SignalStatsCounts* counts, QcCounts* qc_counts) {
  Impl& s = *impl_;
  CUDAHIST_RETURN_IF_ERROR(ValidateYuvPlanes(frame, previous));
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  detail::QcParams qc = {};  // qc.blocks 0: no QC blocks
  if (qc_counts != nullptr) qc = detail::QcParamsOf(frame);
  if (s.scratch_needs_zeroing) {
    CUDAHIST_RETURN_IF_ERROR(
        CudaStatus(cudaMemsetAsync(s.scratch, 0, sizeof(detail::Scratch), stream), "cudaMemsetAsync(scratch)"));
    s.scratch_needs_zeroing = false;
  }
  const uint32_t i = frame.y.depth - kSignalStatsMinDepth;
  const detail::KernelConfig& config = s.config[i];
  detail::SignalStatsParams params = detail::SignalStatsParamsOf(frame, previous, s.tables.table(frame.y.depth));
  if (frame.y.depth == 8) params.packed_table = s.tables.packed();
  const uint32_t units_per_block = config.threads;  // every thread a unit
  const uint32_t blocks = std::max<uint32_t>(
      1, std::min<uint32_t>(config.resident_blocks, (params.units + units_per_block - 1) / units_per_block));
  uint32_t signalstats_blocks = blocks;
  detail::Scratch* scratch = s.scratch;
  bool direct = detail::InDeviceMemory(counts);
  void* args[] = {&params, &qc, &signalstats_blocks, &scratch, &counts, &qc_counts, &direct};
  if constexpr (detail::kSignalStatsTimeline) detail::g_timeline_blocks = blocks;
  const cudaError_t error = detail::LaunchPrivatizedKernel(config.kernel, dim3(blocks + qc.blocks), config.threads,
                                                           config.shared_bytes, args, stream);
  if (error == cudaSuccess) return Status::Ok();
  s.scratch_needs_zeroing = true;
  return CudaStatus(error, "signalstats kernel launch");
}

namespace detail {

Status SignalStatsTimeline(std::vector<unsigned long long>* marks, uint32_t* blocks) {
  if constexpr (!kSignalStatsTimeline) {
    return Status::Unsupported("built without CUDAHIST_SIGNALSTATS_TIMELINE");
  } else {
    *blocks = std::min(g_timeline_blocks, kTimelineMaxBlocks);
    marks->assign(size_t(*blocks) * kTimelineMarks, 0);
    return CudaStatus(cudaMemcpyFromSymbol(marks->data(), g_timeline, marks->size() * sizeof(unsigned long long)),
                      "cudaMemcpyFromSymbol(timeline)");
  }
}

}  // namespace detail

}  // namespace cudahist
