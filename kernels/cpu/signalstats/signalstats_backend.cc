// CpuSignalStats: the fast CPU path of signalstats (system-memory frames in
// the element, up to 1080p60 on one core), and of the QC counts (CountQc,
// when Compute is given a QcCounts: each region row decoded once into a ring of the last five, from which
// TOUT, VREP, the line sums and the luma field pairs are taken).
//
// One walk over the luma rows of the region. The first time a chroma row is
// needed, its samples are counted (U, V, sat/hue through the shared table,
// their DIF) and each touched chroma sample's "out of broadcast range" flag
// is kept in a row buffer; the luma pixels of that chroma row then only look
// their flag up. Samples are read with pointer steps along a row (templates
// on the word size of luma and chroma), never with per-sample PlaneView
// arithmetic. Luma is counted into two histogram copies (even and odd
// pixels) so that flat areas do not serialise on one counter.
#include <algorithm>
#include <cstring>
#include <vector>

#include "cudahist/signalstats.h"
#include "signalstats/qc_rules.cuh"
#include "signalstats/sat_hue_tables.h"

namespace cudahist {
namespace {

template <class Word>
inline uint32_t Load(const uint8_t* p) {
  Word w;
  std::memcpy(&w, p, sizeof(w));
  return uint32_t(w);
}

inline uint32_t AbsDiff(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

// A component's rows, decoded once: the first counted sample of row r is
// first + r * pitch, the next one stride bytes on.
struct Rows {
  const uint8_t* first = nullptr;
  size_t pitch = 0;
  size_t stride = 0;
  uint32_t shift = 0, mask = 0;

  const uint8_t* Row(uint32_t r) const { return first + size_t(r) * pitch; }
};

// Rows of `plane` starting at column x0, row y0 (absolute plane coordinates).
Rows RowsOf(const PlaneView& plane, uint32_t x0, uint32_t y0) {
  return Rows{static_cast<const uint8_t*>(plane.data) + size_t(y0) * plane.pitch + size_t(x0) * plane.pixel_stride +
                  plane.offset,
              plane.pitch, plane.pixel_stride, plane.shift, uint32_t((1u << plane.depth) - 1)};
}

struct Walk {
  Rows y, u, v, py, pu, pv;  // p*: the previous frame's (unused without one)
  bool has_previous = false;
  Roi luma, chroma;
  uint32_t hsub = 0, vsub = 0;
  uint32_t depth = 8;
  const uint32_t* table = nullptr;
};

template <class YWord, class CWord, bool kPrevious>
class Counter {
 public:
  Counter(const Walk& w, SignalStatsCounts* counts, std::vector<uint8_t>* chroma_out, std::vector<uint32_t>* luma_copy)
      : w_(w), c_(counts), chroma_out_(*chroma_out), luma_copy_(*luma_copy) {
    const uint32_t mult = 1u << (w.depth - 8);
    lo_ = 16 * mult;
    luma_hi_ = 235 * mult;
    chroma_hi_ = 240 * mult;
  }

  void Run() {
    chroma_out_.assign(w_.chroma.width, 0);
    luma_copy_.assign(1u << w_.depth, 0);
    uint32_t counted_chroma_row = ~0u;
    for (uint32_t r = 0; r < w_.luma.height; ++r) {
      const uint32_t chroma_row = ((w_.luma.y + r) >> w_.vsub) - w_.chroma.y;
      if (chroma_row != counted_chroma_row) {
        CountChromaRow(chroma_row);
        counted_chroma_row = chroma_row;
      }
      CountLumaRow(r);
    }
    for (uint32_t value = 0; value < (1u << w_.depth); ++value) c_->y[value] += luma_copy_[value];
  }

 private:
  void CountChromaRow(uint32_t r) {
    const uint8_t* pu = w_.u.Row(r);
    const uint8_t* pv = w_.v.Row(r);
    const uint8_t* qu = kPrevious ? w_.pu.Row(r) : nullptr;
    const uint8_t* qv = kPrevious ? w_.pv.Row(r) : nullptr;
    const size_t su = w_.u.stride, sv = w_.v.stride;
    uint64_t dif_u = 0, dif_v = 0;
    for (uint32_t x = 0; x < w_.chroma.width; ++x) {
      const uint32_t u = (Load<CWord>(pu + x * su) >> w_.u.shift) & w_.u.mask;
      const uint32_t v = (Load<CWord>(pv + x * sv) >> w_.v.shift) & w_.v.mask;
      ++c_->u[u];
      ++c_->v[v];
      const uint32_t entry = w_.table[detail::SatHueIndex(u, v, w_.depth)];
      ++c_->sat[detail::SatOfEntry(entry)];
      ++c_->hue[detail::HueOfEntry(entry)];
      chroma_out_[x] = u < lo_ || u > chroma_hi_ || v < lo_ || v > chroma_hi_;
      if constexpr (kPrevious) {
        dif_u += AbsDiff(u, (Load<CWord>(qu + x * w_.pu.stride) >> w_.pu.shift) & w_.pu.mask);
        dif_v += AbsDiff(v, (Load<CWord>(qv + x * w_.pv.stride) >> w_.pv.shift) & w_.pv.mask);
      }
    }
    c_->dif_u += dif_u;
    c_->dif_v += dif_v;
  }

  static uint32_t At(const uint8_t* row, uint32_t x, const Rows& rows) {
    return (Load<YWord>(row + x * rows.stride) >> rows.shift) & rows.mask;
  }

  // One luma pixel: its histogram copy, BRNG with its chroma sample's flag,
  // and (kPrevious) its difference to the previous frame's.
  void CountLuma(const uint8_t* row, const uint8_t* prev, uint32_t x, uint32_t* histogram, uint64_t& brng,
                 uint64_t& dif) const {
    const uint32_t a = At(row, x, w_.y);
    ++histogram[a];
    brng += uint32_t(a < lo_ || a > luma_hi_ || chroma_out_[((w_.luma.x + x) >> w_.hsub) - w_.chroma.x]);
    if constexpr (kPrevious) dif += AbsDiff(a, At(prev, x, w_.py));
  }

  void CountLumaRow(uint32_t r) {
    const uint8_t* row = w_.y.Row(r);
    const uint8_t* prev = kPrevious ? w_.py.Row(r) : nullptr;
    uint32_t* even = c_->y;
    uint32_t* odd = luma_copy_.data();
    uint64_t brng = 0, dif = 0;
    uint32_t x = 0;
    for (; x + 2 <= w_.luma.width; x += 2) {
      CountLuma(row, prev, x, even, brng, dif);
      CountLuma(row, prev, x + 1, odd, brng, dif);
    }
    if (x < w_.luma.width) CountLuma(row, prev, x, even, brng, dif);
    c_->brng += brng;
    c_->dif_y += dif;
  }

  const Walk& w_;
  SignalStatsCounts* c_;
  std::vector<uint8_t>& chroma_out_;
  std::vector<uint32_t>& luma_copy_;
  uint32_t lo_ = 0, luma_hi_ = 0, chroma_hi_ = 0;
};

template <class YWord, class CWord>
void RunWithPrevious(const Walk& w, SignalStatsCounts* c, std::vector<uint8_t>* out, std::vector<uint32_t>* copy) {
  if (w.has_previous) return Counter<YWord, CWord, true>(w, c, out, copy).Run();
  Counter<YWord, CWord, false>(w, c, out, copy).Run();
}

template <class YWord>
void RunForChromaWord(uint32_t chroma_size, const Walk& w, SignalStatsCounts* c, std::vector<uint8_t>* out,
                      std::vector<uint32_t>* copy) {
  switch (chroma_size) {
    case 1: return RunWithPrevious<YWord, uint8_t>(w, c, out, copy);
    case 2: return RunWithPrevious<YWord, uint16_t>(w, c, out, copy);
    default: return RunWithPrevious<YWord, uint32_t>(w, c, out, copy);
  }
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
  if (qc_counts != nullptr) CountQc(frame, qc_counts);  // an empty region gets its header too
  if (counts->luma_samples == 0) return Status::Ok();
  w.y = RowsOf(frame.y, w.luma.x, w.luma.y);
  w.u = RowsOf(frame.u, w.chroma.x, w.chroma.y);
  w.v = RowsOf(frame.v, w.chroma.x, w.chroma.y);
  if (previous != nullptr) {
    w.py = RowsOf(previous->y, w.luma.x, w.luma.y);
    w.pu = RowsOf(previous->u, w.chroma.x, w.chroma.y);
    w.pv = RowsOf(previous->v, w.chroma.x, w.chroma.y);
  }
  switch (frame.y.sample_size) {
    case 1: RunForChromaWord<uint8_t>(frame.u.sample_size, w, counts, &chroma_flags_, &luma_copy_); break;
    case 2: RunForChromaWord<uint16_t>(frame.u.sample_size, w, counts, &chroma_flags_, &luma_copy_); break;
    default: RunForChromaWord<uint32_t>(frame.u.sample_size, w, counts, &chroma_flags_, &luma_copy_); break;
  }
  return Status::Ok();
}

namespace {

// Rows of the ring CountQc keeps: TOUT of row y - 2 reads rows y - 4 to y,
// VREP of row y reads row y - 4.
constexpr uint32_t kQcRingRows = 5;

template <class Word>
void DecodeRow(const Rows& rows, uint32_t r, uint32_t width, uint16_t* out) {
  const uint8_t* p = rows.Row(r);
  for (uint32_t x = 0; x < width; ++x) out[x] = uint16_t((Load<Word>(p + x * rows.stride) >> rows.shift) & rows.mask);
}

using RowDecoder = void (*)(const Rows&, uint32_t, uint32_t, uint16_t*);

RowDecoder DecoderFor(uint32_t sample_size) {
  switch (sample_size) {
    case 1: return DecodeRow<uint8_t>;
    case 2: return DecodeRow<uint16_t>;
    default: return DecodeRow<uint32_t>;
  }
}

uint64_t SquaredDifferences(const uint16_t* a, const uint16_t* b, uint32_t width) {
  uint64_t sse = 0;
  for (uint32_t x = 0; x < width; ++x) {
    const int64_t d = int64_t(a[x]) - int64_t(b[x]);
    sse += uint64_t(d * d);
  }
  return sse;
}

uint64_t SquaredValues(const uint16_t* a, uint32_t width) {
  uint64_t sse = 0;
  for (uint32_t x = 0; x < width; ++x) sse += uint64_t(a[x]) * a[x];
  return sse;
}

// One chroma plane's field pairs (a last row without a partner against zeros).
uint64_t ChromaFieldSse(const PlaneView& plane, std::vector<uint16_t>* scratch) {
  const Roi r = CountedRegion(plane);
  const Rows rows = RowsOf(plane, r.x, r.y);
  const RowDecoder decode = DecoderFor(plane.sample_size);
  scratch->resize(2 * size_t(r.width));
  uint16_t* top = scratch->data();
  uint16_t* bottom = top + r.width;
  uint64_t sse = 0;
  for (uint32_t y = 0; y < r.height; y += 2) {
    decode(rows, y, r.width, top);
    if (y + 1 < r.height) {
      decode(rows, y + 1, r.width, bottom);
      sse += SquaredDifferences(top, bottom, r.width);
    } else {
      sse += SquaredValues(top, r.width);
    }
  }
  return sse;
}

// TOUT's pixels of row t, from the ring rows t - 2 .. t + 2 (the far pair
// only where FFmpeg reads it). near/far: per-column tests of the pairs.
uint64_t ToutOfRow(const uint16_t* const* row, uint32_t width, bool use_far, uint8_t* near, uint8_t* far) {
  using detail::ToutOutlier;
  for (uint32_t x = 0; x < width; ++x) {
    near[x] = ToutOutlier(row[1][x], row[2][x], row[3][x]);
    far[x] = use_far ? ToutOutlier(row[0][x], row[2][x], row[4][x]) : 1;
  }
  uint64_t count = 0;
  for (uint32_t x = 1; x + 1 < width; ++x) {
    count += (near[x - 1] & near[x] & near[x + 1] & far[x - 1] & far[x] & far[x + 1]) != 0;
  }
  return count;
}

}  // namespace

void CpuSignalStats::CountQc(const YuvPlanes& frame, QcCounts* counts) {
  std::memset(counts, 0, sizeof(*counts));
  const Roi luma = CountedRegion(frame.y);
  const uint32_t w = luma.width, h = luma.height;
  counts->depth = frame.y.depth;
  counts->width = w;
  counts->height = h;
  counts->chroma_width = CountedRegion(frame.u).width;
  counts->chroma_height = CountedRegion(frame.u).height;
  counts->has_line_sums = w <= kQcMaxWidth && h <= kQcMaxHeight ? 1 : 0;
  if (w == 0 || h == 0) return;

  qc_rows_.resize(kQcRingRows * size_t(w));
  qc_flags_.resize(2 * size_t(w));
  auto ring = [&](uint32_t y) { return qc_rows_.data() + size_t(y % kQcRingRows) * w; };
  const Rows rows = RowsOf(frame.y, luma.x, luma.y);
  const RowDecoder decode = DecoderFor(frame.y.sample_size);
  auto tout_of = [&](uint32_t t) {
    const uint16_t* window[5] = {};
    const bool use_far = detail::ToutUsesFarRows(int(t), int(h));
    for (uint32_t k = 0; k < 5; ++k) {
      const uint32_t y = t + k - 2;  // t - 2 .. t + 2; the far rows only read with use_far
      window[k] = (k == 0 || k == 4) && !use_far ? ring(t) : ring(y);
    }
    counts->tout += ToutOfRow(window, w, use_far, qc_flags_.data(), qc_flags_.data() + w);
  };
  for (uint32_t y = 0; y < h; ++y) {
    uint16_t* row = ring(y);
    decode(rows, y, w, row);
    if (counts->has_line_sums) {
      uint32_t sum = 0;
      for (uint32_t x = 0; x < w; ++x) {
        sum += row[x];
        counts->column_sums[x] += row[x];
      }
      counts->row_sums[y] = sum;
    }
    if (y % 2 == 1) counts->field_sse[0] += SquaredDifferences(ring(y - 1), row, w);
    if (y % 2 == 0 && y + 1 == h) counts->field_sse[0] += SquaredValues(row, w);
    if (y >= uint32_t(detail::kVrepDistance)) {
      const uint16_t* earlier = ring(y - detail::kVrepDistance);
      uint64_t total = 0;
      for (uint32_t x = 0; x < w; ++x) total += uint32_t(detail::AbsInt(int(earlier[x]) - int(row[x])));
      counts->vrep_rows += total < w ? 1 : 0;
    }
    if (y >= 3) tout_of(y - 2);
  }
  if (h >= 3) tout_of(h - 2);
  std::vector<uint16_t>& scratch = qc_rows_;
  counts->field_sse[1] = ChromaFieldSse(frame.u, &scratch);
  counts->field_sse[2] = ChromaFieldSse(frame.v, &scratch);
}

}  // namespace cudahist
