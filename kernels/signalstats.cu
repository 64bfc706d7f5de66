// signalstats on the GPU: SignalStatsCounter and PinnedSignalStats.
//
// ONE launch per frame writes the whole SignalStatsCounts. Each thread takes
// units of kSignalStatsRun consecutive chroma samples of one chroma row, with
// their luma blocks (2x2 for 4:2:0, 2x1 for 4:2:2, 1x1 for 4:4:4, clipped to
// the luma region), and the previous frame's samples at the same places, so
// that the Y/U/V histograms, sat/hue (one table lookup per pair), BRNG and
// the three DIF sums come from one pass. Histograms go to lane copies in
// shared memory (lane_copies.cuh), merged into compact global totals; the
// sums are reduced per warp (shuffles), per block (shared) and then per grid
// (64-bit global atomics). The last block to arrive (the privatized
// algorithm's ticket) writes the counts in SignalStatsCounts' layout and
// leaves the scratch zero for the next launch. The sat/hue tables of 8, 9 and
// 10 bits live in device memory, uploaded once in Create.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include "cudahist/signalstats.h"
#include "device_helpers.cuh"
#include "lane_copies.cuh"
#include "launch.h"
#include "signalstats_tables.h"
#include "signalstats_tuning.h"

namespace cudahist {
namespace detail {
namespace {

// Counters in SignalStatsCounts' y, u, v, sat and hue arrays (contiguous).
constexpr uint32_t kCountsBins = 4 * kSignalStatsMaxBins + kHueBins;
static_assert(offsetof(SignalStatsCounts, hue) - offsetof(SignalStatsCounts, y) ==
                  4 * kSignalStatsMaxBins * sizeof(uint32_t),
              "the kernel writes y, u, v, sat and hue as one array");
constexpr uint32_t kDepths = kSignalStatsMaxDepth - kSignalStatsMinDepth + 1;

enum Sum : uint32_t { kDifY = 0, kDifU, kDifV, kBrng, kSums };

// Zero between launches (the last block leaves it so).
struct Scratch {
  unsigned long long sums[kSums];
  uint32_t ticket;
  uint32_t totals[kCountsBins];  // compact: (component << depth) + value, hue at 4 << depth
};

// Counters in shared memory (per copy) and in the compact totals.
CUDAHIST_HD uint32_t SharedCounters(uint32_t depth) { return (4u << depth) + kHueBins; }

// How a kernel reads one component: sample (x, y) is the word at
// origin + y * pitch + x * stride (absolute plane coordinates).
struct PlaneAccess {
  const uint8_t* origin = nullptr;  // data + offset
  uint64_t pitch = 0;
  uint32_t stride = 0;
  uint32_t sample_size = 1;
  uint32_t shift = 0;
  uint32_t mask = 0;
};

PlaneAccess AccessOf(const PlaneView& v) {
  PlaneAccess a;
  a.origin = static_cast<const uint8_t*>(v.data) + v.offset;
  a.pitch = v.pitch;
  a.stride = v.pixel_stride;
  a.sample_size = v.sample_size;
  a.shift = v.shift;
  a.mask = (1u << v.depth) - 1;
  return a;
}

struct Params {
  PlaneAccess y, u, v, py, pu, pv;  // p*: the previous frame's (unused without one)
  uint32_t has_previous;
  uint32_t lx0, ly0, lx1, ly1;  // luma region [lx0, lx1) x [ly0, ly1)
  uint32_t cx0, cy0, cx1;       // chroma region's first column, row and end column
  uint32_t hsub, vsub;
  uint32_t depth;
  uint32_t units;
  uint32_t units_per_row;
  FastDivisor row_of_unit;
  const uint32_t* table;
  uint32_t low, luma_high, chroma_high;  // 16, 235 and 240 x 2^(depth - 8)
  unsigned long long luma_samples, chroma_samples;
};

__device__ __forceinline__ uint32_t ValueAt(const PlaneAccess& a, uint32_t x, uint32_t y) {
  return (LoadSample(a.origin + y * a.pitch + uint64_t(x) * a.stride, a.sample_size) >> a.shift) & a.mask;
}

__device__ __forceinline__ unsigned long long WarpSum(unsigned long long v) {
CUDAHIST_UNROLL
  for (uint32_t d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

// The samples of one unit, loaded before anything is counted.
struct UnitSamples {
  uint32_t u[kSignalStatsRun], v[kSignalStatsRun], pu[kSignalStatsRun], pv[kSignalStatsRun];
  uint32_t y[kSignalStatsRun][2][2], py[kSignalStatsRun][2][2];  // [sample][dy][dx]
  bool chroma[kSignalStatsRun];
  bool luma[kSignalStatsRun][2][2];
};

__device__ __forceinline__ void LoadUnit(const Params& p, uint32_t unit, UnitSamples& s) {
  const uint32_t row = p.row_of_unit.Divide(unit);
  const uint32_t cy = p.cy0 + row;
  const uint32_t cx_first = p.cx0 + (unit - row * p.units_per_row) * kSignalStatsRun;
CUDAHIST_UNROLL
  for (uint32_t k = 0; k < kSignalStatsRun; ++k) {
    const uint32_t cx = cx_first + k;
    s.chroma[k] = cx < p.cx1;
    s.u[k] = s.chroma[k] ? ValueAt(p.u, cx, cy) : 0;
    s.v[k] = s.chroma[k] ? ValueAt(p.v, cx, cy) : 0;
    s.pu[k] = s.chroma[k] && p.has_previous ? ValueAt(p.pu, cx, cy) : 0;
    s.pv[k] = s.chroma[k] && p.has_previous ? ValueAt(p.pv, cx, cy) : 0;
CUDAHIST_UNROLL
    for (uint32_t dy = 0; dy < 2; ++dy) {
      const uint32_t ly = (cy << p.vsub) + dy;
      const bool row_in = dy <= p.vsub && ly >= p.ly0 && ly < p.ly1;
CUDAHIST_UNROLL
      for (uint32_t dx = 0; dx < 2; ++dx) {
        const uint32_t lx = (cx << p.hsub) + dx;
        const bool in = s.chroma[k] && row_in && dx <= p.hsub && lx >= p.lx0 && lx < p.lx1;
        s.luma[k][dy][dx] = in;
        s.y[k][dy][dx] = in ? ValueAt(p.y, lx, ly) : 0;
        s.py[k][dy][dx] = in && p.has_previous ? ValueAt(p.py, lx, ly) : 0;
      }
    }
  }
}

template <uint32_t kLogCopies>
struct UnitCounter {
  LaneCopiesCounter<kLogCopies, false> counter;
  uint32_t slot_y, slot_u, slot_v, slot_sat, slot_hue;
  unsigned long long sums[kSums] = {0, 0, 0, 0};

  __device__ __forceinline__ void Count(const Params& p, const UnitSamples& s) {
CUDAHIST_UNROLL
    for (uint32_t k = 0; k < kSignalStatsRun; ++k) {
      if (!s.chroma[k]) continue;
      counter.Add(slot_u, s.u[k]);
      counter.Add(slot_v, s.v[k]);
      const uint32_t entry = __ldg(p.table + ((s.u[k] << p.depth) | s.v[k]));
      counter.Add(slot_sat, entry & kSatHueSatMask);
      counter.Add(slot_hue, entry >> kSatHueHueShift);
      sums[kDifU] += uint32_t(abs(int(s.u[k]) - int(s.pu[k])));
      sums[kDifV] += uint32_t(abs(int(s.v[k]) - int(s.pv[k])));
      const bool chroma_out = s.u[k] < p.low || s.u[k] > p.chroma_high || s.v[k] < p.low || s.v[k] > p.chroma_high;
      uint32_t dif_y = 0, brng = 0;
CUDAHIST_UNROLL
      for (uint32_t dy = 0; dy < 2; ++dy) {
CUDAHIST_UNROLL
        for (uint32_t dx = 0; dx < 2; ++dx) {
          if (!s.luma[k][dy][dx]) continue;
          const uint32_t y = s.y[k][dy][dx];
          counter.Add(slot_y, y);
          dif_y += uint32_t(abs(int(y) - int(s.py[k][dy][dx])));
          brng += uint32_t(chroma_out || y < p.low || y > p.luma_high);
        }
      }
      sums[kDifY] += dif_y;
      sums[kBrng] += brng;
    }
  }
};

// The last block: the compact totals into SignalStatsCounts' layout (zero
// beyond 2^depth), the sums and the header; scratch left zero.
__device__ __forceinline__ void WriteCounts(const Params& p, Scratch* scratch, SignalStatsCounts* counts) {
  uint32_t* bins = counts->y;  // y, u, v, sat, hue: one array (static_assert above)
  for (uint32_t i = threadIdx.x; i < kCountsBins; i += blockDim.x) {
    const uint32_t component = i / kSignalStatsMaxBins, value = i % kSignalStatsMaxBins;
    const bool used = component == 4 || value < (1u << p.depth);
    bins[i] = used ? atomicExch(scratch->totals + (component << p.depth) + value, 0u) : 0u;
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

template <uint32_t kLogCopies>
__global__ void __launch_bounds__(kSignalStatsThreads)
    SignalStatsKernel(const Params p, Scratch* scratch, SignalStatsCounts* counts) {
  extern __shared__ uint32_t copies[];
  __shared__ unsigned long long block_sums[kSums];
  if (threadIdx.x < kSums) block_sums[threadIdx.x] = 0;
  const uint32_t counters = SharedCounters(p.depth);
  ZeroSharedThenWaitForPriorGrids(copies, counters << kLogCopies);

  UnitCounter<kLogCopies> c{{uint32_t(__cvta_generic_to_shared(copies)), threadIdx.x & ((1u << kLogCopies) - 1), 0}};
  c.slot_y = c.counter.SlotFor(0);
  c.slot_u = c.counter.SlotFor(1u << p.depth);
  c.slot_v = c.counter.SlotFor(2u << p.depth);
  c.slot_sat = c.counter.SlotFor(3u << p.depth);
  c.slot_hue = c.counter.SlotFor(4u << p.depth);
  for (uint32_t unit = blockIdx.x * blockDim.x + threadIdx.x; unit < p.units; unit += gridDim.x * blockDim.x) {
    UnitSamples s;
    LoadUnit(p, unit, s);
    c.Count(p, s);
  }
CUDAHIST_UNROLL
  for (uint32_t i = 0; i < kSums; ++i) {
    const unsigned long long warp = WarpSum(c.sums[i]);
    if (threadIdx.x % 32 == 0 && warp != 0) atomicAdd(&block_sums[i], warp);
  }
  __syncthreads();
  MergeCopies<kLogCopies, false>(copies, 0, counters, 0, scratch->totals);
  if (threadIdx.x < kSums && block_sums[threadIdx.x] != 0) atomicAdd(&scratch->sums[threadIdx.x], block_sums[threadIdx.x]);
  if (LastBlockToArrive(&scratch->ticket, gridDim.x)) WriteCounts(p, scratch, counts);
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
static_assert(kSignalStatsMaxCopies <= 32, "KernelFor instantiates up to 32 copies");

// The largest power of two <= kSignalStatsMaxCopies whose copies fit the budget
// and the device (at least one).
uint32_t LogCopiesFor(uint32_t depth, const DeviceLimits& limits) {
  const uint64_t bytes = uint64_t(SharedCounters(depth)) * sizeof(uint32_t);
  uint32_t log_copies = CeilLog2(kSignalStatsMaxCopies);
  while (log_copies > 0 && ((bytes << log_copies) > kSignalStatsCopiesBudgetBytes ||
                            (bytes << log_copies) > uint64_t(limits.max_shared_per_block))) {
    --log_copies;
  }
  return log_copies;
}

Params ParamsOf(const YuvPlanes& f, const YuvPlanes* previous, const uint32_t* table) {
  Params p = {};
  p.y = AccessOf(f.y);
  p.u = AccessOf(f.u);
  p.v = AccessOf(f.v);
  p.has_previous = previous != nullptr ? 1 : 0;
  if (previous != nullptr) {
    p.py = AccessOf(previous->y);
    p.pu = AccessOf(previous->u);
    p.pv = AccessOf(previous->v);
  }
  const Roi luma = CountedRegion(f.y), chroma = CountedRegion(f.u);
  p.lx0 = luma.x;
  p.ly0 = luma.y;
  p.lx1 = luma.x + luma.width;
  p.ly1 = luma.y + luma.height;
  p.cx0 = chroma.x;
  p.cy0 = chroma.y;
  p.cx1 = chroma.x + chroma.width;
  p.hsub = f.log2_hsub;
  p.vsub = f.log2_vsub;
  p.depth = f.y.depth;
  const bool empty = luma.width == 0 || luma.height == 0;
  p.units_per_row = empty ? 0 : (chroma.width + kSignalStatsRun - 1) / kSignalStatsRun;
  p.units = p.units_per_row * (empty ? 0 : chroma.height);
  p.row_of_unit = FastDivisor::For(std::max<uint32_t>(1, p.units_per_row));
  p.table = table;
  const uint32_t mult = 1u << (p.depth - 8);
  p.low = 16 * mult;
  p.luma_high = 235 * mult;
  p.chroma_high = 240 * mult;
  p.luma_samples = CountedSamples(f.y);
  p.chroma_samples = CountedSamples(f.u);
  return p;
}

}  // namespace
}  // namespace detail

using detail::CudaStatus;

struct SignalStatsCounter::Impl {
  detail::KernelConfig config[detail::kDepths];
  uint32_t* tables[detail::kDepths] = {};
  detail::Scratch* scratch = nullptr;
  // Set when a launch failed: the scratch may hold part of a frame.
  bool scratch_needs_zeroing = false;

  ~Impl() {
    for (uint32_t* t : tables) {
      if (t != nullptr) cudaFree(t);
    }
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
    const uint32_t bytes = (detail::SharedCounters(depth) * uint32_t(sizeof(uint32_t))) << log_copies;
    CUDAHIST_RETURN_IF_ERROR(detail::ConfigureKernel(limits, detail::KernelFor(log_copies), detail::kSignalStatsThreads,
                                                     1, bytes, "signalstats", &impl->config[i]));
    if (!impl->config[i].supported) return Status::Unsupported(impl->config[i].why);
    impl->config[i].log_copies = log_copies;
    const std::vector<uint32_t>& table = detail::SatHueTable(depth);
    const size_t table_bytes = table.size() * sizeof(uint32_t);
    CUDAHIST_RETURN_IF_ERROR(
        CudaStatus(cudaMalloc(reinterpret_cast<void**>(&impl->tables[i]), table_bytes), "cudaMalloc(sat/hue table)"));
    CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaMemcpy(impl->tables[i], table.data(), table_bytes, cudaMemcpyHostToDevice),
                                        "cudaMemcpy(sat/hue table)"));
  }
  CUDAHIST_RETURN_IF_ERROR(
      CudaStatus(cudaMalloc(reinterpret_cast<void**>(&impl->scratch), sizeof(detail::Scratch)), "cudaMalloc(scratch)"));
  CUDAHIST_RETURN_IF_ERROR(
      CudaStatus(cudaMemset(impl->scratch, 0, sizeof(detail::Scratch)), "cudaMemset(scratch)"));
  out->reset(new SignalStatsCounter(std::move(impl)));
  return Status::Ok();
}

Status SignalStatsCounter::Compute(const YuvPlanes& frame, const YuvPlanes* previous, cudaStream_t stream,
                                   SignalStatsCounts* counts) {
  Impl& s = *impl_;
  CUDAHIST_RETURN_IF_ERROR(ValidateYuvPlanes(frame, previous));
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  if (s.scratch_needs_zeroing) {
    CUDAHIST_RETURN_IF_ERROR(
        CudaStatus(cudaMemsetAsync(s.scratch, 0, sizeof(detail::Scratch), stream), "cudaMemsetAsync(scratch)"));
    s.scratch_needs_zeroing = false;
  }
  const uint32_t i = frame.y.depth - kSignalStatsMinDepth;
  const detail::KernelConfig& config = s.config[i];
  detail::Params params = detail::ParamsOf(frame, previous, s.tables[i]);
  const uint32_t blocks = std::max<uint32_t>(
      1, std::min<uint32_t>(config.resident_blocks, (params.units + config.threads - 1) / config.threads));
  detail::Scratch* scratch = s.scratch;
  void* args[] = {&params, &scratch, &counts};
  const cudaError_t error =
      detail::LaunchPrivatizedKernel(config.kernel, dim3(blocks), config.threads, config.shared_bytes, args, stream);
  if (error == cudaSuccess) return Status::Ok();
  s.scratch_needs_zeroing = true;
  return CudaStatus(error, "signalstats kernel launch");
}

Status PinnedSignalStats::Create(std::unique_ptr<PinnedSignalStats>* out) {
  if (out == nullptr) return Status::InvalidArgument("out: null");
  void* data = nullptr;
  // Portable and mapped, as PinnedCounts: any context's kernel may write it.
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(
      cudaHostAlloc(&data, sizeof(SignalStatsCounts), cudaHostAllocPortable | cudaHostAllocMapped),
      "cudaHostAlloc(signalstats counts)"));
  std::memset(data, 0, sizeof(SignalStatsCounts));
  out->reset(new PinnedSignalStats(static_cast<SignalStatsCounts*>(data)));
  return Status::Ok();
}

PinnedSignalStats::~PinnedSignalStats() { cudaFreeHost(counts_); }

}  // namespace cudahist
