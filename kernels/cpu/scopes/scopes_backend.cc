// The fast CPU path of the scope counts (system-memory frames in the
// element), single-threaded. Two tables built once per call replace the
// per-sample arithmetic: each column's counter base (group * bins: no
// division per sample) and each code value's bin (2^depth entries, premultiplied
// by bins_a for the joint histogram's b side). The rows are walked in memory
// order, the loops templated on the sample size.
//
// Unlike histogram_backend.cc there are no counter copies: in a per-column histogram
// consecutive samples of a row fall into different columns' counters, and in a
// joint histogram into a 2-D table, so runs of equal samples rarely chain on
// one counter (a flat frame with groups = 1 does; it stays correct, only slower).
#include <cstdint>
#include <vector>

#include "cudahist/histogram_spec.h"
#include "cudahist/scopes.h"
#include "cpu/sample_access.h"
#include "cpu/start_counts.h"

namespace cudahist {
namespace {

using cpu_detail::ComponentWalk;
using cpu_detail::LoadWord;
using cpu_detail::WalkOf;

// counts offset of each code value's bin, times `scale`.
std::vector<uint32_t> BinTable(uint32_t depth, uint32_t bins, uint32_t scale) {
  std::vector<uint32_t> table(size_t(1) << depth);
  for (size_t v = 0; v < table.size(); ++v) table[v] = BinOf(uint32_t(v), bins, depth) * scale;
  return table;
}

template <uint32_t kSampleSize>
inline uint32_t ValueAt(const ComponentWalk& r, const uint8_t* row, uint32_t x) {
  return (LoadWord<kSampleSize>(row + size_t(x) * r.stride) >> r.shift) & r.mask;
}

template <uint32_t kSampleSize>
void CountColumns(const ComponentWalk& r, const Roi& region, const uint32_t* column_base, const uint32_t* bin_of,
                  uint32_t* counts) {
  const uint8_t* row = r.first;
  for (uint32_t y = 0; y < region.height; ++y, row += r.pitch) {
    for (uint32_t x = 0; x < region.width; ++x) ++counts[column_base[x] + bin_of[ValueAt<kSampleSize>(r, row, x)]];
  }
}

template <uint32_t kSampleSizeA, uint32_t kSampleSizeB>
void CountPairs(const ComponentWalk& a, const ComponentWalk& b, const Roi& region, const uint32_t* bin_a,
                const uint32_t* bin_b, uint32_t* counts) {
  const uint8_t* row_a = a.first;
  const uint8_t* row_b = b.first;
  for (uint32_t y = 0; y < region.height; ++y, row_a += a.pitch, row_b += b.pitch) {
    for (uint32_t x = 0; x < region.width; ++x) {
      ++counts[bin_b[ValueAt<kSampleSizeB>(b, row_b, x)] + bin_a[ValueAt<kSampleSizeA>(a, row_a, x)]];
    }
  }
}

template <uint32_t kSampleSizeA>
void CountPairsPickB(uint32_t sample_size_b, const ComponentWalk& a, const ComponentWalk& b, const Roi& region,
                     const uint32_t* bin_a, const uint32_t* bin_b, uint32_t* counts) {
  switch (sample_size_b) {
    case 1: return CountPairs<kSampleSizeA, 1>(a, b, region, bin_a, bin_b, counts);
    case 2: return CountPairs<kSampleSizeA, 2>(a, b, region, bin_a, bin_b, counts);
    default: return CountPairs<kSampleSizeA, 4>(a, b, region, bin_a, bin_b, counts);
  }
}

}  // namespace

Status CpuColumnHistogram(const ColumnHistogramSpec& spec, const PlaneView& plane, uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(cpu_detail::StartCounts(spec, plane, counts));
  const Roi region = CountedRegion(plane);
  if (region.width == 0 || region.height == 0) return Status::Ok();
  std::vector<uint32_t> column_base(region.width);
  for (uint32_t x = 0; x < region.width; ++x) {
    column_base[x] = ColumnGroupOf(x, spec.groups, region.width) * spec.bins;
  }
  const std::vector<uint32_t> bin_of = BinTable(plane.depth, spec.bins, 1);
  const ComponentWalk walk = WalkOf(plane);
  switch (plane.sample_size) {
    case 1: CountColumns<1>(walk, region, column_base.data(), bin_of.data(), counts); break;
    case 2: CountColumns<2>(walk, region, column_base.data(), bin_of.data(), counts); break;
    default: CountColumns<4>(walk, region, column_base.data(), bin_of.data(), counts); break;
  }
  return Status::Ok();
}

Status CpuJointHistogram(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b,
                         uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(cpu_detail::StartCounts(spec, a, b, counts));
  const Roi region = CountedRegion(a);
  if (region.width == 0 || region.height == 0) return Status::Ok();
  const std::vector<uint32_t> bin_a = BinTable(a.depth, spec.bins_a, 1);
  const std::vector<uint32_t> bin_b = BinTable(b.depth, spec.bins_b, spec.bins_a);
  const ComponentWalk ra = WalkOf(a), rb = WalkOf(b);
  switch (a.sample_size) {
    case 1: CountPairsPickB<1>(b.sample_size, ra, rb, region, bin_a.data(), bin_b.data(), counts); break;
    case 2: CountPairsPickB<2>(b.sample_size, ra, rb, region, bin_a.data(), bin_b.data(), counts); break;
    default: CountPairsPickB<4>(b.sample_size, ra, rb, region, bin_a.data(), bin_b.data(), counts); break;
  }
  return Status::Ok();
}

}  // namespace cudahist
