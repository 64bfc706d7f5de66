// cudahist: Histogrammer and CheckCudaDevice. Everything that
// costs (configuration, scratch allocation and its first zeroing) happens in
// Create, in the CUDA context current there; Compute validates, builds the
// launch plan on the host and enqueues one launch; ComputeBatch does the same
// for up to kMaxBatchFrames frames per launch.
#include "cudahist/histogrammer.h"

#include <algorithm>
#include <string>
#include <vector>

#include "histogram/histogram_launch.h"
#include "launch/device_scratch.h"
#include "launch/launch_plan.h"

namespace cudahist {

using detail::CudaStatus;

static_assert(detail::kMaxBatchFrames == uint32_t(kMaxFramesPerLaunch), "the public constant is the tuning one");

Status CheckCudaDevice() {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    cudaGetLastError();
    return Status(StatusCode::kNoDevice, std::string("no CUDA device: ") + cudaGetErrorString(error));
  }
  if (count == 0) return Status(StatusCode::kNoDevice, "no CUDA device: cudaGetDeviceCount found none");
  return Status::Ok();
}

struct Histogrammer::Impl {
  HistogramSpec spec;
  int num_components = 0;
  uint32_t counters = 0;
  Algorithm algorithm = Algorithm::kAuto;  // resolved
  detail::KernelConfig config;
  // The accumulating algorithms' totals and ticket (kept zero), or two-phase's partials.
  detail::DeviceScratch scratch;

  Status AllocateScratch() {
    return scratch.Allocate(detail::ScratchWords(algorithm, config, counters) * sizeof(uint32_t),
                            detail::ScratchMustBeZero(algorithm), "scratch");
  }

  // Reused by ComputeBatch, so that a batch allocates only when it grows.
  std::vector<detail::Plan> batch_plans;

  // Checks one frame's planes against this Histogrammer and plans its walk.
  Status PlanFrame(const PlaneView* planes, int num_planes, detail::Plan* plan) const {
    CUDAHIST_RETURN_IF_ERROR(ValidateRequest(spec, planes, num_planes));
    if (num_planes != num_components) {
      return Status::InvalidArgument("num_planes: " + std::to_string(num_planes) +
                                     " differs from the Histogrammer's num_components " +
                                     std::to_string(num_components));
    }
    if (!config.supported) return Status::Unsupported(config.why);
    return detail::BuildPlan(spec, planes, num_planes, plan);
  }
};

Histogrammer::Histogrammer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Histogrammer::~Histogrammer() = default;

Status Histogrammer::Create(const HistogramSpec& spec, int num_components,
                            std::unique_ptr<Histogrammer>* out) {
  if (out == nullptr) return Status::InvalidArgument("out: null");
  if (num_components < 1 || num_components > kMaxComponents) {
    return Status::InvalidArgument("num_components: " + std::to_string(num_components) +
                                   " is outside 1 to " + std::to_string(kMaxComponents));
  }
  if (spec.bins < 1 || spec.bins > kMaxBins) {
    return Status::InvalidArgument("spec.bins: " + std::to_string(spec.bins) + " is outside 1 to " +
                                   std::to_string(kMaxBins));
  }
  if (std::string(AlgorithmName(spec.algorithm)) == "unknown") {
    return Status::InvalidArgument("spec.algorithm: unknown value " +
                                   std::to_string(static_cast<int>(spec.algorithm)));
  }
  CUDAHIST_RETURN_IF_ERROR(CheckCudaDevice());
  auto impl = std::make_unique<Impl>();
  impl->spec = spec;
  impl->num_components = num_components;
  impl->counters = spec.bins * uint32_t(num_components);
  detail::DeviceLimits limits;
  CUDAHIST_RETURN_IF_ERROR(detail::QueryDeviceLimits(&limits));
  impl->algorithm = spec.algorithm == Algorithm::kAuto ? detail::ResolveAuto(impl->counters, limits)
                                                       : spec.algorithm;
  CUDAHIST_RETURN_IF_ERROR(detail::ConfigureAlgorithm(impl->algorithm, limits, impl->counters,
                                                      detail::IsPowerOfTwo(spec.bins), &impl->config));
  CUDAHIST_RETURN_IF_ERROR(impl->AllocateScratch());
  out->reset(new Histogrammer(std::move(impl)));
  return Status::Ok();
}

Status Histogrammer::Compute(const PlaneView* planes, int num_planes, cudaStream_t stream,
                             uint32_t* counts) {
  Impl& s = *impl_;
  detail::Plan plan;
  CUDAHIST_RETURN_IF_ERROR(s.PlanFrame(planes, num_planes, &plan));
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  CUDAHIST_RETURN_IF_ERROR(s.scratch.RezeroIfLaunchFailed(stream));
  return s.scratch.Launched(
      detail::LaunchAlgorithm(s.algorithm, s.config, plan, s.scratch.as<uint32_t>(), counts, stream));
}

Status Histogrammer::ComputeBatch(const PlaneView* planes, int num_frames, cudaStream_t stream,
                                  uint32_t* counts) {
  Impl& s = *impl_;
  if (num_frames < 1) {
    return Status::InvalidArgument("num_frames: " + std::to_string(num_frames) + " (must be at least 1)");
  }
  if (planes == nullptr) return Status::InvalidArgument("planes: null");
  // Every frame is checked before the first launch, so bad input launches nothing.
  s.batch_plans.resize(size_t(num_frames));
  for (int f = 0; f < num_frames; ++f) {
    const Status planned = s.PlanFrame(planes + size_t(f) * s.num_components, s.num_components, &s.batch_plans[f]);
    if (!planned.ok()) return Status(planned.code(), "frame " + std::to_string(f) + ": " + planned.message());
  }
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  CUDAHIST_RETURN_IF_ERROR(s.scratch.RezeroIfLaunchFailed(stream));
  uint32_t* scratch = s.scratch.as<uint32_t>();
  for (uint32_t first = 0; first < uint32_t(num_frames); first += detail::kMaxBatchFrames) {
    const uint32_t frames = std::min<uint32_t>(detail::kMaxBatchFrames, uint32_t(num_frames) - first);
    const detail::Plan* plans = &s.batch_plans[first];
    uint32_t* frame_counts = counts + size_t(first) * s.counters;
    if (detail::CanLaunchBatch(s.config, plans, frames)) {
      CUDAHIST_RETURN_IF_ERROR(
          s.scratch.Launched(detail::LaunchBatch(s.config, plans, frames, scratch, frame_counts, stream)));
      continue;
    }
    for (uint32_t f = 0; f < frames; ++f) {
      CUDAHIST_RETURN_IF_ERROR(s.scratch.Launched(detail::LaunchAlgorithm(
          s.algorithm, s.config, plans[f], scratch, frame_counts + size_t(f) * s.counters, stream)));
    }
  }
  return Status::Ok();
}

const HistogramSpec& Histogrammer::spec() const { return impl_->spec; }
int Histogrammer::num_components() const { return impl_->num_components; }

Algorithm Histogrammer::ResolvedAlgorithm(const PlaneView*, int) const { return impl_->algorithm; }

}  // namespace cudahist
