// The fast CPU path (system-memory frames in the element), single-threaded.
//
// Each component is counted per code value (2^depth counters, not per bin) in
// kCopies counter arrays used round-robin: consecutive samples increment
// different arrays, so a run of equal samples (flat image areas, one-value
// frames) does not serialise on one counter's store-to-load chain. The copies
// are then summed and folded into bins with BinOf, once per code value rather
// than once per sample. Counters are 32-bit: ValidateRequest caps a component
// at 2^32 - 1 samples, so neither a copy nor the sum of the copies can wrap.
//
// The loops are templates on the sample size, the pixel stride (1 to 4 known
// at compile time, anything else at run time) and whether the word is the
// value itself (8-bit and 16-bit samples without shift), so the common
// layouts (GRAY8 / I420 planes, NV12 UV, RGBA, P010 / 16-bit) get tight code.
// Where a pixel is 1, 2 or 4 bytes, a stretch of kFlatStretch pixels that
// are all alike (every byte of them, so also this component) is counted
// with one add.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cudahist/cpu.h"
#include "cpu/sample_access.h"
#include "cpu/start_counts.h"

namespace cudahist {
namespace {

// Independent counter arrays per component. Four cover the latency of a
// load-increment-store on current x86 and ARM cores; more costs cache for
// 16-bit depths without a measurable gain.
constexpr uint32_t kCopies = 4;

using cpu_detail::ComponentWalk;
using cpu_detail::IsFlatStretch;
using cpu_detail::kFlatStretch;
using cpu_detail::LoadWord;
using cpu_detail::WalkOf;
using cpu_detail::WordOf;

// kStride 0: the stride is read from the walk at run time.
// kWholeWord: the value is the whole word (no shift, depth = 8 * kSampleSize).
template <uint32_t kSampleSize, uint32_t kStride, bool kWholeWord>
void CountValues(const ComponentWalk& w, uint32_t* copies, size_t values) {
  // The walk's fields as locals: a counter store could alias them (all are
  // uint32_t or pointers into bytes), and the compiler would reload each
  // one after every increment.
  const size_t stride = kStride != 0 ? kStride : w.stride;
  const uint32_t shift = w.shift, mask = w.mask, width = w.width, offset = w.offset;
  auto value = [&](const uint8_t* p) -> uint32_t {
    const uint32_t word = LoadWord<kSampleSize>(p);
    if constexpr (kWholeWord) return word;
    return (word >> shift) & mask;
  };
  uint32_t* c0 = copies;
  uint32_t* c1 = copies + values;
  uint32_t* c2 = copies + 2 * values;
  uint32_t* c3 = copies + 3 * values;
  static_assert(kCopies == 4, "count_four writes four copies");
  static_assert(kFlatStretch % kCopies == 0, "a stretch fills every copy alike");
  auto count_four = [&](const uint8_t* p) {
    ++c0[value(p)];
    ++c1[value(p + stride)];
    ++c2[value(p + 2 * stride)];
    ++c3[value(p + 3 * stride)];
  };
  using PixelWord = typename WordOf<kStride>::type;  // a whole pixel, for the flat-stretch compare
  const uint8_t* row = w.first;
  for (uint32_t y = 0; y < w.height; ++y, row += w.pitch) {
    const uint8_t* p = row;
    uint32_t x = 0;
    if constexpr (!std::is_void_v<PixelWord>) {
      // The compare reads the stretch's whole pixels, from the first one's
      // first byte. The last sample of a row may end before its pixel does
      // (a tight pitch), so a stretch is compared only while a pixel follows it.
      for (; x + kFlatStretch < width; x += kFlatStretch, p += kFlatStretch * stride) {
        // The first and last samples first: on grain and noise they differ,
        // and the stretch goes straight to the copies without the compare.
        if (value(p) == value(p + (kFlatStretch - 1) * stride) && IsFlatStretch<PixelWord>(p - offset)) {
          c0[value(p)] += kFlatStretch;
          continue;
        }
        for (uint32_t i = 0; i < kFlatStretch; i += kCopies) count_four(p + i * stride);
      }
    }
    for (; x + kCopies <= width; x += kCopies, p += kCopies * stride) count_four(p);
    for (; x < width; ++x, p += stride) ++c0[value(p)];
  }
}

using CountFn = void (*)(const ComponentWalk&, uint32_t*, size_t);

template <uint32_t kSampleSize, bool kWholeWord>
CountFn PickStride(uint32_t stride) {
  // Strides that are not a multiple of the sample size never pass validation.
  switch (stride) {
    case 1:
      if constexpr (kSampleSize == 1) return CountValues<kSampleSize, 1, kWholeWord>;
      break;
    case 2:
      if constexpr (kSampleSize <= 2) return CountValues<kSampleSize, 2, kWholeWord>;
      break;
    case 3:
      if constexpr (kSampleSize == 1) return CountValues<kSampleSize, 3, kWholeWord>;
      break;
    case 4:
      return CountValues<kSampleSize, 4, kWholeWord>;
    default:
      break;
  }
  return CountValues<kSampleSize, 0, kWholeWord>;
}

template <uint32_t kSampleSize>
CountFn PickWholeWord(const PlaneView& plane) {
  // Whole 32-bit words never occur: depth is at most 16.
  if (plane.shift == 0 && plane.depth == 8 * kSampleSize) {
    return PickStride<kSampleSize, kSampleSize <= 2>(plane.pixel_stride);
  }
  return PickStride<kSampleSize, false>(plane.pixel_stride);
}

CountFn PickCountFn(const PlaneView& plane) {
  switch (plane.sample_size) {
    case 1:
      return PickWholeWord<1>(plane);
    case 2:
      return PickWholeWord<2>(plane);
    default:
      return PickWholeWord<4>(plane);
  }
}

// Sums the copies per code value and adds each code value's count to its bin.
void FoldIntoBins(const uint32_t* copies, uint32_t depth, uint32_t bins, uint32_t* histogram) {
  const size_t values = size_t(1) << depth;
  for (size_t v = 0; v < values; ++v) {
    uint32_t total = 0;
    for (uint32_t c = 0; c < kCopies; ++c) total += copies[c * values + v];
    histogram[BinOf(uint32_t(v), bins, depth)] += total;
  }
}

}  // namespace

CpuHistogrammer::CpuHistogrammer(uint32_t bins) : bins_(bins) {}

Status CpuHistogrammer::Compute(const PlaneView* planes, int num_planes, uint32_t* counts) {
  HistogramSpec spec;
  spec.bins = bins_;
  CUDAHIST_RETURN_IF_ERROR(cpu_detail::StartCounts(spec, planes, num_planes, counts));
  for (int c = 0; c < num_planes; ++c) {
    const PlaneView& plane = planes[c];
    if (CountedSamples(plane) == 0) continue;
    const size_t values = size_t(1) << plane.depth;
    // Grows to the deepest component seen, then is reused frame after frame.
    if (scratch_.size() < kCopies * values) scratch_.resize(kCopies * values);
    std::fill(scratch_.begin(), scratch_.begin() + kCopies * values, 0u);
    PickCountFn(plane)(WalkOf(plane), scratch_.data(), values);
    FoldIntoBins(scratch_.data(), plane.depth, bins_, counts + size_t(c) * bins_);
  }
  return Status::Ok();
}

}  // namespace cudahist
