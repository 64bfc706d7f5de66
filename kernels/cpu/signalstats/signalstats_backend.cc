// CpuSignalStats: the fast CPU path of signalstats and of the QC counts
// (system-memory frames in the element, cudahist-qc without a GPU).
//
// One walk over the luma rows of the region. Every row it needs is first
// decoded into a contiguous row of 16-bit values (the frame's, and the
// previous frame's for DIF); everything after that reads those rows, so the
// loops that are not histograms (DIF, BRNG, the line sums, field SSE, VREP,
// TOUT) run over plain arrays that the compiler vectorises. A chroma row is
// decoded and counted the first time a luma row needs it, and its "out of
// broadcast range" flags are spread to luma width for that luma row's BRNG.
// With QC, the luma rows go into a ring of the last five, which TOUT, VREP
// and the luma field pairs read; the chroma field pairs read the chroma row
// before.
//
// The hot loops are free functions over __restrict pointers: written as
// member loops, each counter store could alias the walk's own fields (a
// uint8_t flag store aliases anything), and the compiler would reload them
// every pixel. On x86-64 they are also built for AVX2 (CUDAHIST_ROW_LOOP).
#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu/sample_access.h"
#include "cudahist/signalstats.h"
#include "signalstats/qc_rules.cuh"
#include "signalstats/sat_hue_tables.h"

namespace cudahist {
namespace {

using cpu_detail::ComponentWalk;
using cpu_detail::IsFlatStretch;
using cpu_detail::kFlatStretch;
using cpu_detail::LoadWord;
using cpu_detail::WalkOf;
using detail::ToutOutlierBytes;

// Terms summed in 32 bits before they are added to a 64-bit total: 2048
// squared 10-bit differences (2048 x 1023^2 < 2^32) cannot wrap, and a
// chunk is long enough that the 64-bit add costs nothing.
constexpr uint32_t kChunk = 2048;

// Independent copies of the luma histogram, used round-robin, so that a run
// of equal samples (flat areas) does not serialise on one counter's
// load-increment-store (as CpuHistogrammer does). Chroma, with four
// histograms per sample already interleaved, takes two.
constexpr uint32_t kLumaCopies = 4;
constexpr uint32_t kChromaCopies = 2;

// Rows of the ring the QC counts keep: TOUT of row y - 2 reads rows y - 4 to
// y, VREP of row y reads row y - 4.
constexpr uint32_t kQcRingRows = 5;

constexpr size_t kCacheLine = 64;

// Where a prefetched row goes: 1 is L2 (__builtin_prefetch's locality), not
// L1. Sixty requests into L1 at once stall the loop on L1's miss buffers
// (perf put a quarter of a row's decoding on the prefetch instructions), and
// L1 is where the histograms' counters live; the row moves up on its first read.
constexpr int kRowPrefetchLocality = 1;

// --- one component's rows, decoded -----------------------------------------

using DecodeFn = void (*)(const ComponentWalk&, uint32_t, uint32_t, uint16_t*);

// A component's rows in the counted region (cpu_detail::WalkOf) and the
// decoder of its layout, picked once per frame.
struct RowSource {
  ComponentWalk walk{};
  DecodeFn decode = nullptr;

  void Decode(uint32_t r, uint32_t width, uint16_t* out) const { decode(walk, r, width, out); }
};

// Asks for a row's cache lines ahead of its decoding. The walk alternates
// between up to six planes (this frame's and the previous one's) a row at a
// time, and a row is short (a 1080p luma row is 60 lines), so the hardware's
// stream prefetcher would start every row cold.
inline void PrefetchRow(const uint8_t* p, size_t bytes) {
  for (size_t b = 0; b < bytes; b += kCacheLine) __builtin_prefetch(p + b, 0, kRowPrefetchLocality);
}

// Row r's first `width` samples as values. kStride 0: the stride is read
// from the walk at run time. kUnshifted: the values sit in the words' low
// bits (planar and semi-planar formats), so a 16-bit word needs only the
// mask, not the widening that a run-time shift costs.
template <uint32_t kSampleSize, size_t kStride, bool kUnshifted>
void DecodeRow(const ComponentWalk& w, uint32_t r, uint32_t width, uint16_t* __restrict out) {
  const uint8_t* __restrict p = w.first + size_t(r) * w.pitch;
  const size_t stride = kStride != 0 ? kStride : w.stride;
  const uint32_t shift = kUnshifted ? 0 : w.shift, mask = w.mask;
  if (r + 1 < w.height) PrefetchRow(p + w.pitch, size_t(width) * stride);  // the next row's
  for (uint32_t x = 0; x < width; ++x) out[x] = uint16_t((LoadWord<kSampleSize>(p + x * stride) >> shift) & mask);
}

template <uint32_t kSampleSize, bool kUnshifted>
DecodeFn PickDecoder(size_t stride) {
  // The layouts of the formats signalstats reads: planar (1 or 2 bytes a
  // sample), NV12/P010 chroma and YUY2 luma (2 or 4), YUY2 chroma (4).
  if (stride == kSampleSize) return DecodeRow<kSampleSize, kSampleSize, kUnshifted>;
  if (stride == 2 * kSampleSize) return DecodeRow<kSampleSize, 2 * kSampleSize, kUnshifted>;
  if (stride == 4 * kSampleSize) return DecodeRow<kSampleSize, 4 * kSampleSize, kUnshifted>;
  return DecodeRow<kSampleSize, 0, kUnshifted>;
}

template <uint32_t kSampleSize>
DecodeFn PickDecoder(const ComponentWalk& walk) {
  return walk.shift == 0 ? PickDecoder<kSampleSize, true>(walk.stride) : PickDecoder<kSampleSize, false>(walk.stride);
}

RowSource SourceOf(const PlaneView& plane) {
  RowSource s;
  s.walk = WalkOf(plane);
  switch (plane.sample_size) {
    case 1: s.decode = PickDecoder<1>(s.walk); break;
    case 2: s.decode = PickDecoder<2>(s.walk); break;
    default: s.decode = PickDecoder<4>(s.walk); break;
  }
  return s;
}

// --- loops over decoded rows -------------------------------------------------

// The loops below are vectorised twice on x86-64: for its baseline (SSE2)
// and for AVX2, chosen once when the library loads (an ifunc), so one build
// runs everywhere and uses twice the lanes where it can.
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define CUDAHIST_ROW_LOOP __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef CUDAHIST_ROW_LOOP
#define CUDAHIST_ROW_LOOP
#endif

// In 16 bits (the samples are at most 10 bits): 16 lanes of an AVX2 vector.
inline uint16_t AbsDiff(uint16_t a, uint16_t b) { return uint16_t(std::max(a, b) - std::min(a, b)); }

// The sum of term(i) for i < n: 32-bit sums of kChunk terms, each term at
// most 2^32 / kChunk, added into a 64-bit total. Inlined into each caller's
// clone, so the loop is vectorised for the caller's target.
template <class Term>
inline uint64_t SumInChunks(uint32_t n, Term term) {
  uint64_t total = 0;
  for (uint32_t start = 0; start < n; start += kChunk) {
    const uint32_t end = std::min(n, start + kChunk);
    uint32_t sum = 0;
    for (uint32_t i = start; i < end; ++i) sum += term(i);
    total += sum;
  }
  return total;
}

CUDAHIST_ROW_LOOP uint64_t SumAbsDiff(const uint16_t* __restrict a, const uint16_t* __restrict b, uint32_t n) {
  return SumInChunks(n, [=](uint32_t x) { return uint32_t(AbsDiff(a[x], b[x])); });
}

CUDAHIST_ROW_LOOP uint64_t SumSquaredDiff(const uint16_t* __restrict a, const uint16_t* __restrict b, uint32_t n) {
  return SumInChunks(n, [=](uint32_t x) {
    const uint32_t d = AbsDiff(a[x], b[x]);  // squared in 32 bits: 20 bits for 10-bit samples
    return d * d;
  });
}

CUDAHIST_ROW_LOOP uint64_t SumSquares(const uint16_t* __restrict a, uint32_t n) {
  return SumInChunks(n, [=](uint32_t x) { return uint32_t(a[x]) * a[x]; });
}

// Counts each value of `values` into `copies` arrays of `stride` counters:
// a flat stretch with one add, the others round-robin.
template <uint32_t kCopies>
CUDAHIST_ROW_LOOP void CountValues(const uint16_t* __restrict values, uint32_t n, uint32_t* __restrict copies,
                                   size_t stride) {
  static_assert(kFlatStretch % kCopies == 0, "a stretch fills every copy alike");
  uint32_t x = 0;
  for (; x + kFlatStretch <= n; x += kFlatStretch) {
    const uint16_t* stretch = values + x;
    if (IsFlatStretch<uint16_t>(stretch)) {
      copies[stretch[0]] += kFlatStretch;
      continue;
    }
    for (uint32_t i = 0; i < kFlatStretch; i += kCopies) {
      for (uint32_t c = 0; c < kCopies; ++c) ++copies[c * stride + stretch[i + c]];
    }
  }
  for (uint32_t c = 0; x < n; ++x, c = (c + 1) % kCopies) ++copies[c * stride + values[x]];
}

// The sat and hue histograms of the chroma pairs (u[x], v[x]), through the
// table of every pair, in kChromaCopies copies each (sat's `sat_stride`
// counters apart, hue's kHueBins); a stretch where both are flat with one
// lookup.
CUDAHIST_ROW_LOOP void CountSatHue(const uint16_t* __restrict u, const uint16_t* __restrict v, uint32_t n,
                                   uint32_t depth, const uint32_t* __restrict table, uint32_t* __restrict sat,
                                   size_t sat_stride, uint32_t* __restrict hue) {
  auto count = [=](uint32_t x, uint32_t copy, uint32_t times) {
    const uint32_t entry = table[detail::SatHueIndex(u[x], v[x], depth)];
    sat[copy * sat_stride + detail::SatOfEntry(entry)] += times;
    hue[copy * kHueBins + detail::HueOfEntry(entry)] += times;
  };
  uint32_t x = 0;
  for (; x + kFlatStretch <= n; x += kFlatStretch) {
    if (IsFlatStretch<uint16_t>(u + x) && IsFlatStretch<uint16_t>(v + x)) {
      count(x, 0, kFlatStretch);
      continue;
    }
    for (uint32_t i = 0; i < kFlatStretch; ++i) count(x + i, i % kChromaCopies, 1);
  }
  for (; x < n; ++x) count(x, x % kChromaCopies, 1);
}

// 1 where the chroma sample's U or V lies outside [lo, hi].
CUDAHIST_ROW_LOOP void ChromaOutOfRange(const uint16_t* __restrict u, const uint16_t* __restrict v, uint32_t n,
                                        uint32_t lo, uint32_t hi, uint8_t* __restrict out) {
  for (uint32_t x = 0; x < n; ++x) out[x] = uint8_t((u[x] < lo) | (u[x] > hi) | (v[x] < lo) | (v[x] > hi));
}

// Luma pixel x of the region takes chroma flag ((x0 + x) >> hsub) - cx0.
CUDAHIST_ROW_LOOP void SpreadToLuma(const uint8_t* __restrict chroma, uint32_t width, uint32_t x0, uint32_t hsub,
                                    uint32_t cx0, uint8_t* __restrict luma) {
  if (hsub == 0) {
    std::memcpy(luma, chroma + (x0 - cx0), width);
    return;
  }
  // Pairs of luma pixels share a chroma sample; an odd x0 starts half a pair in.
  const uint8_t* c = chroma + ((x0 >> 1) - cx0);
  if (x0 & 1) {
    *luma++ = *c++;
    --width;
  }
  const uint32_t pairs = width / 2;
  for (uint32_t i = 0; i < pairs; ++i) {
    luma[2 * i] = c[i];
    luma[2 * i + 1] = c[i];
  }
  if (width & 1) luma[width - 1] = c[pairs];
}

CUDAHIST_ROW_LOOP uint64_t CountBrng(const uint16_t* __restrict y, const uint8_t* __restrict chroma_out, uint32_t n,
                                     uint32_t lo, uint32_t hi) {
  return SumInChunks(n, [=](uint32_t x) { return uint32_t((y[x] < lo) | (y[x] > hi) | chroma_out[x]); });
}

// The row's sum; each value is added to its column's sum too.
CUDAHIST_ROW_LOOP uint32_t SumRowIntoColumns(const uint16_t* __restrict row, uint32_t n, uint32_t* __restrict columns) {
  uint32_t sum = 0;
  for (uint32_t x = 0; x < n; ++x) {
    sum += row[x];
    columns[x] += row[x];
  }
  return sum;
}

// Positions i < n where a[i], b[i] and c[i] are all 1 (flags 0 or 1).
CUDAHIST_ROW_LOOP uint64_t CountTriples(const uint8_t* __restrict a, const uint8_t* __restrict b,
                                        const uint8_t* __restrict c, uint32_t n) {
  return SumInChunks(n, [=](uint32_t i) { return uint32_t(a[i] & b[i] & c[i]); });
}

// TOUT's pixels of row t from rows t - 2 .. t + 2 (r[0] .. r[4]); the far
// pair is tested only where FFmpeg reads it. `flags`: width bytes of scratch.
CUDAHIST_ROW_LOOP uint64_t ToutOfRow(const uint16_t* __restrict r0, const uint16_t* __restrict r1,
                                     const uint16_t* __restrict r2, const uint16_t* __restrict r3,
                                     const uint16_t* __restrict r4, uint32_t width, bool use_far,
                                     uint8_t* __restrict flags) {
  if (use_far) {
    for (uint32_t x = 0; x < width; ++x) {
      flags[x] = ToutOutlierBytes(r1[x], r2[x], r3[x]) & ToutOutlierBytes(r0[x], r2[x], r4[x]);
    }
  } else {
    for (uint32_t x = 0; x < width; ++x) flags[x] = ToutOutlierBytes(r1[x], r2[x], r3[x]);
  }
  return width < 3 ? 0 : CountTriples(flags, flags + 1, flags + 2, width - 2);
}

// Adds `copies` arrays of `n` counters into `out`.
void SumCopies(const uint32_t* __restrict copies, uint32_t n_copies, size_t stride, uint32_t n,
               uint32_t* __restrict out) {
  for (uint32_t c = 0; c < n_copies; ++c) {
    for (uint32_t v = 0; v < n; ++v) out[v] += copies[c * stride + v];
  }
}

// --- the walk -----------------------------------------------------------------

// Where the walk's rows come from, and what it needs to read them: the
// regions, the chroma subsampling, the depth and the sat/hue table.
struct Walk {
  RowSource y, u, v, py, pu, pv;  // p*: the previous frame's (unused without one)
  bool has_previous = false;
  Roi luma, chroma;
  uint32_t hsub = 0, vsub = 0;
  uint32_t depth = 8;
  const uint32_t* table = nullptr;
};

// One frame's walk. Its scratch is carved out of the backend's vectors,
// reused frame after frame.
class FrameWalk {
 public:
  FrameWalk(const Walk& w, SignalStatsCounts* counts, QcCounts* qc, std::vector<uint16_t>* rows,
            std::vector<uint8_t>* flags, std::vector<uint32_t>* copies)
      : w_(w), c_(counts), qc_(qc) {
    const uint32_t lw = w.luma.width, cw = w.chroma.width;
    const uint32_t luma_rows = qc ? kQcRingRows : 1;
    // Luma rows (a ring with QC), the previous frame's luma row, and two
    // chroma rows of U and V each (this one and the one before, for the
    // chroma field pairs), with the previous frame's U and V.
    rows->resize(size_t(luma_rows + 1) * lw + 6 * size_t(cw));
    uint16_t* p = rows->data();
    luma_ring_ = p;
    p += size_t(luma_rows) * lw;
    prev_y_ = p;
    p += lw;
    for (int k = 0; k < 2; ++k) {
      u_rows_[k] = p;
      p += cw;
      v_rows_[k] = p;
      p += cw;
    }
    prev_u_ = p;
    p += cw;
    prev_v_ = p;
    flags->resize(size_t(cw) + 2 * size_t(lw));
    chroma_out_ = flags->data();
    luma_out_ = chroma_out_ + cw;
    tout_flags_ = luma_out_ + lw;
    values_ = size_t(1) << w.depth;
    copies->assign(values_ * (kLumaCopies + 4 * kChromaCopies) + kHueBins * kChromaCopies, 0);
    y_copies_ = copies->data();
    u_copies_ = y_copies_ + kLumaCopies * values_;
    v_copies_ = u_copies_ + kChromaCopies * values_;
    sat_copies_ = v_copies_ + kChromaCopies * values_;
    hue_copies_ = sat_copies_ + kChromaCopies * values_;
    const uint32_t mult = 1u << (w.depth - 8);
    lo_ = 16 * mult;
    luma_hi_ = 235 * mult;
    chroma_hi_ = 240 * mult;
  }

  void Run() {
    uint32_t counted_chroma_row = ~0u;
    for (uint32_t r = 0; r < w_.luma.height; ++r) {
      const uint32_t chroma_row = ((w_.luma.y + r) >> w_.vsub) - w_.chroma.y;
      if (chroma_row != counted_chroma_row) {
        CountChromaRow(chroma_row);
        counted_chroma_row = chroma_row;
      }
      CountLumaRow(r);
    }
    if (qc_ != nullptr) FinishQc();
    SumCopies(y_copies_, kLumaCopies, values_, uint32_t(values_), c_->y);
    SumCopies(u_copies_, kChromaCopies, values_, uint32_t(values_), c_->u);
    SumCopies(v_copies_, kChromaCopies, values_, uint32_t(values_), c_->v);
    SumCopies(sat_copies_, kChromaCopies, values_, uint32_t(values_), c_->sat);
    SumCopies(hue_copies_, kChromaCopies, kHueBins, kHueBins, c_->hue);
  }

 private:
  void CountChromaRow(uint32_t r) {
    const uint32_t n = w_.chroma.width;
    uint16_t* u = u_rows_[r & 1];
    uint16_t* v = v_rows_[r & 1];
    w_.u.Decode(r, n, u);
    w_.v.Decode(r, n, v);
    CountValues<kChromaCopies>(u, n, u_copies_, values_);
    CountValues<kChromaCopies>(v, n, v_copies_, values_);
    CountSatHue(u, v, n, w_.depth, w_.table, sat_copies_, values_, hue_copies_);
    ChromaOutOfRange(u, v, n, lo_, chroma_hi_, chroma_out_);
    SpreadToLuma(chroma_out_, w_.luma.width, w_.luma.x, w_.hsub, w_.chroma.x, luma_out_);
    if (w_.has_previous) {
      w_.pu.Decode(r, n, prev_u_);
      w_.pv.Decode(r, n, prev_v_);
      c_->dif_u += SumAbsDiff(u, prev_u_, n);
      c_->dif_v += SumAbsDiff(v, prev_v_, n);
    }
    if (qc_ != nullptr && r % 2 == 1) {
      qc_->field_sse[1] += SumSquaredDiff(u_rows_[0], u, n);
      qc_->field_sse[2] += SumSquaredDiff(v_rows_[0], v, n);
    }
  }

  uint16_t* LumaRow(uint32_t r) const { return luma_ring_ + size_t(qc_ ? r % kQcRingRows : 0) * w_.luma.width; }

  void CountLumaRow(uint32_t r) {
    const uint32_t n = w_.luma.width;
    uint16_t* row = LumaRow(r);
    w_.y.Decode(r, n, row);
    CountValues<kLumaCopies>(row, n, y_copies_, values_);
    c_->brng += CountBrng(row, luma_out_, n, lo_, luma_hi_);
    if (w_.has_previous) {
      w_.py.Decode(r, n, prev_y_);
      c_->dif_y += SumAbsDiff(row, prev_y_, n);
    }
    if (qc_ != nullptr) CountQcOfLumaRow(r, row);
  }

  void CountQcOfLumaRow(uint32_t y, const uint16_t* row) {
    const uint32_t w = w_.luma.width;
    if (qc_->has_line_sums) qc_->row_sums[y] = SumRowIntoColumns(row, w, qc_->column_sums);
    if (y % 2 == 1) qc_->field_sse[0] += SumSquaredDiff(LumaRow(y - 1), row, w);
    if (y >= uint32_t(detail::kVrepDistance)) {
      qc_->vrep_rows += SumAbsDiff(LumaRow(y - detail::kVrepDistance), row, w) < w ? 1 : 0;
    }
    if (y >= 3) ToutOf(y - 2);
  }

  void ToutOf(uint32_t t) {
    const bool use_far = detail::ToutUsesFarRows(int(t), int(w_.luma.height));
    // Without the far pair, rows t - 2 and t + 2 are not read (and may not exist).
    const uint16_t* far_above = use_far ? LumaRow(t - 2) : LumaRow(t);
    const uint16_t* far_below = use_far ? LumaRow(t + 2) : LumaRow(t);
    qc_->tout += ToutOfRow(far_above, LumaRow(t - 1), LumaRow(t), LumaRow(t + 1), far_below, w_.luma.width, use_far,
                           tout_flags_);
  }

  // The rows' pairs that the last row leaves open: TOUT of the row before the
  // last, and a last row of odd index without a partner against zeros.
  void FinishQc() {
    const uint32_t h = w_.luma.height;
    if (h >= 3) ToutOf(h - 2);
    if (h % 2 == 1) qc_->field_sse[0] += SumSquares(LumaRow(h - 1), w_.luma.width);
    const uint32_t ch = w_.chroma.height;
    if (ch % 2 == 1) {
      qc_->field_sse[1] += SumSquares(u_rows_[(ch - 1) & 1], w_.chroma.width);
      qc_->field_sse[2] += SumSquares(v_rows_[(ch - 1) & 1], w_.chroma.width);
    }
  }

  const Walk& w_;
  SignalStatsCounts* c_;
  QcCounts* qc_;
  uint16_t* luma_ring_ = nullptr;
  uint16_t* prev_y_ = nullptr;
  uint16_t* u_rows_[2] = {};
  uint16_t* v_rows_[2] = {};
  uint16_t* prev_u_ = nullptr;
  uint16_t* prev_v_ = nullptr;
  uint8_t* chroma_out_ = nullptr;
  uint8_t* luma_out_ = nullptr;
  uint8_t* tout_flags_ = nullptr;
  size_t values_ = 0;
  uint32_t* y_copies_ = nullptr;
  uint32_t* u_copies_ = nullptr;
  uint32_t* v_copies_ = nullptr;
  uint32_t* sat_copies_ = nullptr;
  uint32_t* hue_copies_ = nullptr;
  uint32_t lo_ = 0, luma_hi_ = 0, chroma_hi_ = 0;
};

void StartQcCounts(const YuvPlanes& frame, QcCounts* counts) {
  std::memset(counts, 0, sizeof(*counts));
  const Roi luma = CountedRegion(frame.y);
  counts->depth = frame.y.depth;
  counts->width = luma.width;
  counts->height = luma.height;
  counts->chroma_width = CountedRegion(frame.u).width;
  counts->chroma_height = CountedRegion(frame.u).height;
  counts->has_line_sums = luma.width <= kQcMaxWidth && luma.height <= kQcMaxHeight ? 1 : 0;
}

}  // namespace

Status CpuSignalStats::Compute(const YuvPlanes& frame, const YuvPlanes* previous, SignalStatsCounts* counts,
                               QcCounts* qc_counts) {
  CUDAHIST_RETURN_IF_ERROR(ValidateYuvPlanes(frame, previous));
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  std::memset(counts, 0, sizeof(*counts));
  Walk w;
  w.depth = frame.y.depth;
  w.table = detail::SatHueTable(w.depth).data();
  w.luma = CountedRegion(frame.y);
  w.chroma = CountedRegion(frame.u);
  w.hsub = frame.log2_hsub;
  w.vsub = frame.log2_vsub;
  w.has_previous = previous != nullptr;
  counts->depth = w.depth;
  counts->has_previous = w.has_previous ? 1 : 0;
  counts->luma_samples = CountedSamples(frame.y);
  counts->chroma_samples = CountedSamples(frame.u);
  if (qc_counts != nullptr) StartQcCounts(frame, qc_counts);  // an empty region gets its header too
  if (counts->luma_samples == 0) return Status::Ok();
  w.y = SourceOf(frame.y);
  w.u = SourceOf(frame.u);
  w.v = SourceOf(frame.v);
  if (previous != nullptr) {
    w.py = SourceOf(previous->y);
    w.pu = SourceOf(previous->u);
    w.pv = SourceOf(previous->v);
  }
  FrameWalk(w, counts, qc_counts, &rows_, &flags_, &copies_).Run();
  return Status::Ok();
}

}  // namespace cudahist
