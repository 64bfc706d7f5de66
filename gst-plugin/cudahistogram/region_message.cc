#include "cudahistogram/region_message.h"

#include "cudahistogram/histogram_message.h"
#include "cudahistogram/signalstats_message.h"

namespace cudahistogram {
namespace {

bool SameBox(const cudahist::Roi& a, const cudahist::Roi& b) {
  return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}

}  // namespace

bool RegionAccumulator::Accepts(bool counting_regions, const std::vector<RegionEntry>& entries,
                                bool objects) const {
  if (empty()) return true;
  if (!counting_regions || objects != with_objects_) return false;
  size_t fixed = 0;
  for (const RegionEntry& e : entries) {
    if (e.object) continue;
    if (fixed >= fixed_.size() || fixed_[fixed].entry.name != e.name || !SameBox(fixed_[fixed].entry.box, e.box)) {
      return false;
    }
    ++fixed;
  }
  return fixed == fixed_.size();
}

void RegionAccumulator::Add(const HistogramLayout& layout, GstClockTime timestamp,
                            const std::vector<RegionEntry>& entries, const RegionCounter& counted, bool objects) {
  const size_t per_region = size_t(layout.n_components) * layout.bins;
  if (frames_ == 0) layout_ = layout;
  with_objects_ = objects;
  size_t fixed = 0;
  for (size_t r = 0; r < entries.size(); ++r) {
    Record* record;
    if (entries[r].object) {
      objects_.emplace_back();
      record = &objects_.back();
      record->counts.assign(per_region, 0);
    } else {
      if (frames_ == 0) fixed_.emplace_back().counts.assign(per_region, 0);
      record = &fixed_[fixed++];
    }
    record->entry = entries[r];
    record->timestamp = timestamp;
    const uint32_t* counts = counted.counts(r);
    for (size_t i = 0; i < per_region; ++i) record->counts[i] += counts[i];
    if (const cudahist::SignalStatsFigures* figures = counted.figures(r)) {
      record->figures = *figures;
    } else {
      record->figures.reset();
    }
  }
  ++frames_;
}

void RegionAccumulator::Reset() {
  fixed_.clear();
  objects_.clear();
  frames_ = 0;
}

GstStructure* RegionAccumulator::StructureOf(const Record& r) const {
  const RegionEntry& e = r.entry;
  const char* name = e.name != 0 ? g_quark_to_string(e.name) : "";
  GstStructure* s;
  if (e.object) {
    s = gst_structure_new("object", "timestamp", G_TYPE_UINT64, guint64(r.timestamp), "label", G_TYPE_STRING, name,
                          "confidence", G_TYPE_DOUBLE, double(e.confidence), nullptr);
  } else {
    s = gst_structure_new("region", "name", G_TYPE_STRING, name, nullptr);
  }
  gst_structure_set(s, "x", G_TYPE_UINT, e.box.x, "y", G_TYPE_UINT, e.box.y, "width", G_TYPE_UINT, e.box.width,
                    "height", G_TYPE_UINT, e.box.height, nullptr);
  if (e.has_track_id) gst_structure_set(s, "track-id", G_TYPE_UINT64, e.track_id, nullptr);
  SetCountFields(layout_, r.counts.data(), CountsAs::kBytes, s);
  if (r.figures) SetSignalStatsFields(*r.figures, s);
  return s;
}

void RegionAccumulator::SetFields(GstStructure* s) const {
  if (!fixed_.empty()) {
    std::vector<GstStructure*> regions;
    for (const Record& r : fixed_) regions.push_back(StructureOf(r));
    SetStructuresField(s, "regions", regions);
  }
  if (with_objects_) {
    std::vector<GstStructure*> objects;
    for (const Record& r : objects_) objects.push_back(StructureOf(r));
    SetStructuresField(s, "objects", objects);
  }
}

}  // namespace cudahistogram
