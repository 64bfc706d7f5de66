// Builds the launch plan: groups components that share a plane so that it is
// read once, and chooses each group's layout (see launch_plan.h).
#include "launch/launch_plan.h"

#include <string>


namespace cudahist::detail {
namespace {

constexpr uint64_t kMaxUnits = (1ull << 31) - 1;

GroupLayout LayoutOf(const PlaneView& p) {
  if (p.sample_size == 1 && p.shift + p.depth <= 8 && p.offset < p.pixel_stride) {
    if (p.pixel_stride == 1) return kBytesStride1;
    if (p.pixel_stride == 2) return kBytesStride2;
    if (p.pixel_stride == 4) return kBytesStride4;
  }
  if (p.sample_size == 2 && p.pixel_stride == 2 && p.offset == 0 && p.shift + p.depth <= 16) {
    return kWords16;
  }
  return kGeneral;
}

SlotParams SlotFor(const PlaneView& p, int component, uint32_t bins) {
  SlotParams s;
  s.base = uint32_t(component) * bins;
  s.depth = p.depth;
  if (IsPowerOfTwo(bins)) {
    s.shift = p.shift + p.depth - CeilLog2(bins);
    s.mask = bins - 1;
  } else {
    s.shift = p.shift;
    s.mask = uint32_t((1ull << p.depth) - 1);
  }
  return s;
}

// Components join a group when they are the same bytes read the same way.
bool SameSpanSource(const GroupPlan& g, const PlaneView& p, const uint8_t* pixel0, uint32_t rows,
                    uint32_t width) {
  return g.layout != kGeneral && g.layout == uint32_t(LayoutOf(p)) && g.pixel0 == pixel0 &&
         g.pitch == p.pitch && g.rows == rows && g.units_per_row == width &&
         (g.counted_slots & (1u << p.offset)) == 0;
}

// Every slot of the pixel counted, each bin a whole byte (see GroupPlan).
bool ByteIsBin(const GroupPlan& g, bool pow2_bins) {
  if (!pow2_bins || g.layout == kGeneral || g.layout == kWords16) return false;
  for (uint32_t s = 0; s < g.pixel_stride; ++s) {
    const bool whole_byte = g.slot[s].shift == 0 && g.slot[s].mask == 0xff;
    if ((g.counted_slots & (1u << s)) == 0 || !whole_byte) return false;
  }
  return true;
}

}  // namespace

Status BuildPlan(const HistogramSpec& spec, const PlaneView* planes, int num_planes, Plan* plan) {
  *plan = Plan();
  plan->bins = spec.bins;
  plan->counters = spec.bins * uint32_t(num_planes);
  plan->pow2_bins = IsPowerOfTwo(spec.bins);
  for (int k = 0; k < num_planes; ++k) {
    const PlaneView& p = planes[k];
    const Roi r = CountedRegion(p);
    if (r.width == 0 || r.height == 0) continue;  // its counts stay zero
    const uint8_t* pixel0 = static_cast<const uint8_t*>(p.data) + uint64_t(r.y) * p.pitch +
                            uint64_t(r.x) * p.pixel_stride;
    GroupPlan* g = nullptr;
    for (uint32_t i = 0; i < plan->num_groups; ++i) {
      if (SameSpanSource(plan->group[i], p, pixel0, r.height, r.width)) g = &plan->group[i];
    }
    if (g == nullptr) {
      g = &plan->group[plan->num_groups++];
      g->pixel0 = pixel0;
      g->pitch = p.pitch;
      g->layout = LayoutOf(p);
      g->pixel_stride = p.pixel_stride;
      g->sample_size = p.sample_size;
      g->offset = p.offset;
      g->rows = r.height;
      g->units_per_row = r.width;  // the counted width, until SetGroupWidth below
      for (SlotParams& trash : g->slot) trash.base = plan->counters;
    }
    const uint32_t slot = g->layout == kGeneral ? 0 : p.offset;
    g->slot[slot] = SlotFor(p, k, spec.bins);
    g->counted_slots |= 1u << slot;
  }
  uint64_t total = 0;
  for (uint32_t i = 0; i < plan->num_groups; ++i) {
    GroupPlan& g = plan->group[i];
    SetGroupWidth(g, g.units_per_row);
    g.byte_is_bin = ByteIsBin(g, plan->pow2_bins);
    const uint64_t units = uint64_t(g.rows) * g.units_per_row;
    total += units;
    if (total > kMaxUnits) {
      return Status::Unsupported("frame too large: " + std::to_string(total) +
                                 " chunks or samples to walk (at most 2^31 - 1 per launch)");
    }
    g.units = uint32_t(units);
  }
  plan->total_units = uint32_t(total);
  return Status::Ok();
}

}  // namespace cudahist::detail
