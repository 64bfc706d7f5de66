// cudahist: RegionHistogrammer and RegionSignalStatsCounter. What costs
// (kernel configuration, the sat/hue tables) happens in Create; Compute
// validates, lays the regions out (region_tiles.cc: the histograms' kernel
// cuts its tiles itself, signalstats' tiles are cut on the host), hands the
// table to the launch (its parameters, or one copy) and enqueues the one
// launch.
#include "cudahist/regions.h"

#include <string>
#include <vector>

#include "regions/region_launch.h"
#include "signalstats/signalstats_walk.cuh"
#include "signalstats/device_sat_hue_tables.h"

namespace cudahist {

struct RegionHistogrammer::Impl {
  HistogramSpec spec;
  int num_components = 0;
  detail::DeviceLimits limits;
  detail::KernelConfig config;
  detail::RegionTotals totals;
  detail::TileTable<detail::RegionEntry, detail::kSegmentedPolicy.inline_regions> table;
  detail::InlineRegionEntries carried;
  detail::RegionLayout layout;
};

RegionHistogrammer::RegionHistogrammer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RegionHistogrammer::~RegionHistogrammer() = default;

Status RegionHistogrammer::Create(const HistogramSpec& spec, int num_components,
                                  std::unique_ptr<RegionHistogrammer>* out) {
  if (out == nullptr) return Status::InvalidArgument("out: null");
  if (num_components < 1 || num_components > kMaxComponents) {
    return Status::InvalidArgument("num_components: " + std::to_string(num_components) + " is outside 1 to " +
                                   std::to_string(kMaxComponents));
  }
  if (spec.bins < 1 || spec.bins > kMaxBins) {
    return Status::InvalidArgument("spec.bins: " + std::to_string(spec.bins) + " is outside 1 to " +
                                   std::to_string(kMaxBins));
  }
  CUDAHIST_RETURN_IF_ERROR(CheckCudaDevice());
  auto impl = std::make_unique<Impl>();
  impl->spec = spec;
  impl->num_components = num_components;
  CUDAHIST_RETURN_IF_ERROR(detail::QueryDeviceLimits(&impl->limits));
  CUDAHIST_RETURN_IF_ERROR(detail::ConfigureSegmented(impl->limits, spec.bins * uint32_t(num_components),
                                                      detail::IsPowerOfTwo(spec.bins), &impl->config));
  if (!impl->config.supported) return Status::Unsupported(impl->config.why);
  out->reset(new RegionHistogrammer(std::move(impl)));
  return Status::Ok();
}

Status RegionHistogrammer::Compute(const RegionFrame& frame, const Roi* regions, uint32_t num_regions,
                                   cudaStream_t stream, uint32_t* counts) {
  Impl& s = *impl_;
  if (frame.num_planes != s.num_components) {
    return Status::InvalidArgument("num_planes: " + std::to_string(frame.num_planes) +
                                   " differs from the RegionHistogrammer's num_components " +
                                   std::to_string(s.num_components));
  }
  CUDAHIST_RETURN_IF_ERROR(ValidateRequest(s.spec, frame.planes, frame.num_planes));
  CUDAHIST_RETURN_IF_ERROR(ValidateRegions(frame, regions, num_regions));
  if (num_regions == 0) {
    s.layout.num_tiles = 0;
    return Status::Ok();
  }
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  detail::RegionTemplate tmpl;
  CUDAHIST_RETURN_IF_ERROR(detail::BuildRegionTemplate(s.spec, frame, &tmpl));
  detail::LayOutRegions(tmpl, regions, num_regions, s.config.resident_blocks, &s.layout);
  CUDAHIST_RETURN_IF_ERROR(s.totals.Reserve(num_regions, detail::StoredCounters(tmpl.counters)));
  CUDAHIST_RETURN_IF_ERROR(s.totals.scratch().RezeroIfLaunchFailed(stream));
  const detail::RegionEntry* device_entries = nullptr;
  CUDAHIST_RETURN_IF_ERROR(s.table.Stage(s.layout.entries, stream, &s.carried, &device_entries));
  const detail::RegionLaunchShape shape{num_regions, s.layout.num_tiles, s.layout.tile_units};
  return s.totals.scratch().Launched(
      detail::LaunchSegmented(s.config, tmpl, s.carried, device_entries, shape, s.totals, counts, stream));
}

const HistogramSpec& RegionHistogrammer::spec() const { return impl_->spec; }
int RegionHistogrammer::num_components() const { return impl_->num_components; }
uint32_t RegionHistogrammer::last_tiles() const { return impl_->layout.num_tiles; }

// --- signalstats per region ---------------------------------------------------

namespace {
constexpr uint32_t kDepths = kSignalStatsMaxDepth - kSignalStatsMinDepth + 1;
}  // namespace

struct RegionSignalStatsCounter::Impl {
  detail::KernelConfig config[kDepths];
  detail::DeviceSatHueTables tables;
  detail::RegionTotals totals;
  detail::TileTable<detail::RegionStatsTile, detail::kRegionSignalStatsPolicy.inline_tiles> table;
  detail::InlineRegionStatsTiles carried;
  std::vector<detail::RegionStatsTile> tiles;
};

RegionSignalStatsCounter::RegionSignalStatsCounter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RegionSignalStatsCounter::~RegionSignalStatsCounter() = default;

Status RegionSignalStatsCounter::Create(std::unique_ptr<RegionSignalStatsCounter>* out) {
  if (out == nullptr) return Status::InvalidArgument("out: null");
  CUDAHIST_RETURN_IF_ERROR(CheckCudaDevice());
  auto impl = std::make_unique<Impl>();
  detail::DeviceLimits limits;
  CUDAHIST_RETURN_IF_ERROR(detail::QueryDeviceLimits(&limits));
  for (uint32_t i = 0; i < kDepths; ++i) {
    CUDAHIST_RETURN_IF_ERROR(detail::ConfigureRegionSignalStats(limits, kSignalStatsMinDepth + i, &impl->config[i]));
    if (!impl->config[i].supported) return Status::Unsupported(impl->config[i].why);
  }
  CUDAHIST_RETURN_IF_ERROR(impl->tables.Upload());
  out->reset(new RegionSignalStatsCounter(std::move(impl)));
  return Status::Ok();
}

Status RegionSignalStatsCounter::Compute(const YuvPlanes& frame, const Roi* regions, uint32_t num_regions,
                                         cudaStream_t stream, uint32_t* words) {
  Impl& s = *impl_;
  CUDAHIST_RETURN_IF_ERROR(ValidateRegionSignalStats(frame, regions, num_regions));
  if (num_regions == 0) {
    s.tiles.clear();
    return Status::Ok();
  }
  if (words == nullptr) return Status::InvalidArgument("words: null");
  const uint32_t depth = frame.y.depth;
  const detail::KernelConfig& config = s.config[depth - kSignalStatsMinDepth];
  detail::CutRegionStatsTiles(frame, regions, num_regions, config.resident_blocks, &s.tiles);
  CUDAHIST_RETURN_IF_ERROR(s.totals.Reserve(num_regions, RegionSignalStatsWords(depth)));
  CUDAHIST_RETURN_IF_ERROR(s.totals.scratch().RezeroIfLaunchFailed(stream));
  detail::SignalStatsParams params = detail::SignalStatsParamsOf(frame, nullptr, s.tables.table(depth));
  if (depth == 8) params.packed_table = s.tables.packed();
  const detail::RegionStatsTile* device_tiles = nullptr;
  CUDAHIST_RETURN_IF_ERROR(s.table.Stage(s.tiles, stream, &s.carried, &device_tiles));
  return s.totals.scratch().Launched(detail::LaunchRegionSignalStats(
      config, params, s.carried, device_tiles, uint32_t(s.tiles.size()), s.totals, words, stream));
}

}  // namespace cudahist
