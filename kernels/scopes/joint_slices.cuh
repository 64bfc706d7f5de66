// cudahist: the walk of the sliced joint histogram (joint_histogram.cu;
// docs/tuning.md says why sliced): block (part, slice)
// reads the rows of its slice and counts the samples whose b bin falls in
// its part of the b range. Written once for the kernel and for the host test
// that runs it against the CPU reference (scope_plan_test.cc), as
// device/plan_walk.cuh's walk is.
#pragma once

#include <cstdint>

#include "device/plan_walk.cuh"
#include "scopes/scopes_launch.h"

namespace cudahist::detail {

// The first row of slice `slice` of `slices` (slice == slices: the end).
CUDAHIST_HD uint32_t JointSliceRow(const JointPlan& p, uint32_t slice, uint32_t slices) {
  return uint32_t(uint64_t(p.height) * slice / slices);
}

// Counts (JointCountsLength order) of part `part`: the first and how many.
CUDAHIST_HD uint32_t JointPartFirst(const JointPlan& p, uint32_t part) { return part * p.part_rows * p.bins_a; }
CUDAHIST_HD uint32_t JointPartLength(const JointPlan& p, uint32_t part) {
  const uint32_t rows = p.bins_b - part * p.part_rows;
  return (rows < p.part_rows ? rows : p.part_rows) * p.bins_a;
}

CUDAHIST_HD uint32_t JointBinOf(const SampleGrid& g, uint32_t word, uint32_t bins) {
  return (((word >> g.shift) & g.mask) * bins) >> g.depth;
}

// count(i, n, add): n samples of the pair at counter i of part `part`
// (counts index - JointPartFirst) when `add`: when the sample is `valid` and
// the pair's b bin falls in the part (i means nothing otherwise). A b bin of
// another part wraps to a row >= part_rows (unsigned). kByteBins
// (plan.byte_bins): the 16-bit pair is its own counts index, so the counter is
// pair - first, in the part when below its length. Every pair reaches count,
// so that the kernel's count is one predicated reduction, not a branch
// around it (a warp's lanes fall in a part one time in `parts`).
template <bool kByteBins, class Count>
CUDAHIST_HD void CountPairOfPart(const JointPlan& p, uint32_t part, uint32_t word_a, uint32_t word_b, uint32_t n,
                                 bool valid, Count& count) {
  if constexpr (kByteBins) {
    const uint32_t i = word_a - JointPartFirst(p, part);
    count(i, n, valid && i < JointPartLength(p, part));
  } else {
    const uint32_t row = JointBinOf(p.b, word_b, p.bins_b) - part * p.part_rows;
    count(row * p.bins_a + JointBinOf(p.a, word_a, p.bins_a), n, valid && row < p.part_rows);
  }
}

// NV12's U and V (plan.packed_pairs): each row is 2 x width contiguous bytes,
// read as the aligned 16-byte chunks that hold them (chunk_span units a row,
// the last one skipped when the row ends before it). Unit u of the slice's
// rows x chunk_span falls to the thread when u = first + k step; kLoads
// units are loaded before any is counted. A whole chunk of eight equal pairs
// (flat picture: borders, mattes, captions' backgrounds) is counted with one
// addition instead of eight on one counter.
template <uint32_t kLoads, bool kByteBins, class Count>
CUDAHIST_HD void CountPackedPairs(const JointPlan& p, uint32_t part, uint32_t y0, uint32_t y1, uint32_t first,
                                  uint32_t step, Count& count) {
  const uint32_t units = (y1 - y0) * p.chunk_span;
  for (uint32_t base = first; base < units; base += kLoads * step) {
    Chunk16 chunk[kLoads] = {};
    uint32_t head[kLoads], tail[kLoads];  // bytes of the chunk before the row / up to its end
CUDAHIST_UNROLL
    for (uint32_t k = 0; k < kLoads; ++k) {
      head[k] = 16;
      tail[k] = 0;
      const uint32_t u = base + k * step;
      if (u >= units) continue;
      const uint32_t r = p.chunk_row_of.Divide(u);
      const uint32_t c = u - r * p.chunk_span;
      const uintptr_t start = reinterpret_cast<uintptr_t>(p.a.first + uint64_t(y0 + r) * p.a.pitch);
      const uintptr_t end = start + 2 * uintptr_t(p.width);
      const uintptr_t at = (start & ~uintptr_t(15)) + 16 * uintptr_t(c);
      if (at >= end) continue;  // no byte of the row: not loaded
      chunk[k] = LoadChunk16(reinterpret_cast<const uint8_t*>(at));
      head[k] = at < start ? uint32_t(start - at) : 0;
      tail[k] = end - at < 16 ? uint32_t(end - at) : 16;
    }
CUDAHIST_UNROLL
    for (uint32_t k = 0; k < kLoads; ++k) {
      const uint32_t w0 = chunk[k].w[0];
      if (head[k] == 0 && tail[k] == 16 && w0 == chunk[k].w[1] && w0 == chunk[k].w[2] && w0 == chunk[k].w[3] &&
          (w0 & 0xffffu) == (w0 >> 16)) {
        CountPairOfPart<kByteBins>(p, part, w0 & 0xffffu, (w0 >> 8) & 0xffu, 8, true, count);
        continue;
      }
CUDAHIST_UNROLL
      for (uint32_t w = 0; w < 4; ++w) {
CUDAHIST_UNROLL
        for (uint32_t h = 0; h < 2; ++h) {
          const uint32_t byte = 4 * w + 2 * h;
          const uint32_t pair = (chunk[k].w[w] >> (16 * h)) & 0xffffu;
          CountPairOfPart<kByteBins>(p, part, pair, pair >> 8, 1, byte >= head[k] && byte < tail[k], count);
        }
      }
    }
  }
}

// Any other pair of planes: one sample position a unit (unit u of the
// slice's rows x width), kLoads loaded before any is counted.
template <uint32_t kLoads, class Count>
CUDAHIST_HD void CountSamplePairs(const JointPlan& p, uint32_t part, uint32_t y0, uint32_t y1, uint32_t first,
                                  uint32_t step, Count& count) {
  const uint32_t units = (y1 - y0) * p.width;
  for (uint32_t base = first; base < units; base += kLoads * step) {
    uint32_t word_a[kLoads], word_b[kLoads];
    bool valid[kLoads];
CUDAHIST_UNROLL
    for (uint32_t k = 0; k < kLoads; ++k) {
      const uint32_t u = base + k * step;
      valid[k] = u < units;
      word_a[k] = word_b[k] = 0;
      if (!valid[k]) continue;
      const uint32_t r = p.width_of.Divide(u);
      const uint32_t x = u - r * p.width;
      const uint32_t y = y0 + r;
      const uint8_t* at_a = p.a.first + uint64_t(y) * p.a.pitch + uint64_t(x) * p.a.stride;
      if (p.paired) {
        word_a[k] = LoadSample(at_a, 2);
        word_b[k] = word_a[k] >> 8;
      } else {
        word_a[k] = LoadSample(at_a, p.a.sample_size);
        word_b[k] = LoadSample(p.b.first + uint64_t(y) * p.b.pitch + uint64_t(x) * p.b.stride, p.b.sample_size);
      }
    }
CUDAHIST_UNROLL
    for (uint32_t k = 0; k < kLoads; ++k) {
      CountPairOfPart<false>(p, part, word_a[k], word_b[k], 1, valid[k], count);
    }
  }
}

// Every sample of rows [y0, y1) that falls to thread `first` of `step`, of
// part `part`: count(counter index in the part, samples, add) as
// CountPairOfPart calls it.
template <uint32_t kLoads, class Count>
CUDAHIST_HD void CountSlicePart(const JointPlan& p, uint32_t part, uint32_t y0, uint32_t y1, uint32_t first,
                                uint32_t step, Count count) {
  if (p.packed_pairs && p.byte_bins) {
    CountPackedPairs<kLoads, true>(p, part, y0, y1, first, step, count);
  } else if (p.packed_pairs) {
    CountPackedPairs<kLoads, false>(p, part, y0, y1, first, step, count);
  } else {
    CountSamplePairs<kLoads>(p, part, y0, y1, first, step, count);
  }
}

}  // namespace cudahist::detail
