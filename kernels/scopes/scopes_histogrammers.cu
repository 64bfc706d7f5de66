// cudahist: ColumnHistogrammer and JointHistogrammer (cudahist/scopes.h).
// Create configures the kernels and allocates the scratch once (sized for the
// device and the tuning budgets, not for a frame); Compute validates, plans
// on the host and enqueues one launch.
#include <string>

#include "cudahist/histogrammer.h"
#include "cudahist/scopes.h"
#include "launch/device_scratch.h"
#include "launch/launch_tuning.h"
#include "scopes/scopes_launch.h"
#include "scopes/scopes_tuning.h"

namespace cudahist {

namespace detail {

SampleGrid SampleGridOf(const PlaneView& plane) {
  const Roi r = CountedRegion(plane);
  SampleGrid g;
  g.first = static_cast<const uint8_t*>(plane.data) + uint64_t(r.y) * plane.pitch + uint64_t(r.x) * plane.pixel_stride +
            plane.offset;
  g.pitch = plane.pitch;
  g.stride = plane.pixel_stride;
  g.sample_size = plane.sample_size;
  g.shift = plane.shift;
  g.mask = uint32_t((uint64_t(1) << plane.depth) - 1);
  g.depth = plane.depth;
  return g;
}

}  // namespace detail

// --- ColumnHistogrammer ---------------------------------------------------------

struct ColumnHistogrammer::Impl {
  detail::DeviceLimits limits;
  detail::ColumnKernels kernels;
  detail::DeviceScratch partials;  // partial_words words; every word a launch reads, it wrote first
  uint64_t partial_words = 0;
};

ColumnHistogrammer::ColumnHistogrammer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ColumnHistogrammer::~ColumnHistogrammer() = default;

Status ColumnHistogrammer::Create(std::unique_ptr<ColumnHistogrammer>* out) {
  if (out == nullptr) return Status::InvalidArgument("out: null");
  CUDAHIST_RETURN_IF_ERROR(CheckCudaDevice());
  auto impl = std::make_unique<Impl>();
  CUDAHIST_RETURN_IF_ERROR(detail::QueryDeviceLimits(&impl->limits));
  CUDAHIST_RETURN_IF_ERROR(detail::ConfigureColumnKernels(impl->limits, &impl->kernels));
  impl->partial_words = detail::kLaunchPolicy.partial_budget_bytes / sizeof(uint32_t);
  CUDAHIST_RETURN_IF_ERROR(
      impl->partials.Allocate(impl->partial_words * sizeof(uint32_t), /*keep_zero=*/false, "column partials"));
  out->reset(new ColumnHistogrammer(std::move(impl)));
  return Status::Ok();
}

Status ColumnHistogrammer::Compute(const ColumnHistogramSpec& spec, const PlaneView& plane, cudaStream_t stream,
                                   uint32_t* counts) {
  CUDAHIST_RETURN_IF_ERROR(ValidateColumnRequest(spec, plane));
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  detail::ColumnPlan plan;
  CUDAHIST_RETURN_IF_ERROR(detail::BuildColumnPlan(impl_->kernels, spec, plane, impl_->partial_words, &plan));
  if (!plan.direct && !impl_->limits.cooperative_launch) {
    return Status::Unsupported("column histogram: this request needs a second phase (grid-wide), and the device "
                               "does not support cooperative launches");
  }
  return detail::LaunchColumn(impl_->kernels, plan, impl_->partials.as<uint32_t>(), counts, stream);
}

// --- JointHistogrammer ----------------------------------------------------------

struct JointHistogrammer::Impl {
  detail::KernelConfig config;
  detail::DeviceScratch accumulator;  // detail::kJointScratchWords words, kept zero between launches
};

JointHistogrammer::JointHistogrammer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
JointHistogrammer::~JointHistogrammer() = default;

Status JointHistogrammer::Create(std::unique_ptr<JointHistogrammer>* out) {
  if (out == nullptr) return Status::InvalidArgument("out: null");
  CUDAHIST_RETURN_IF_ERROR(CheckCudaDevice());
  auto impl = std::make_unique<Impl>();
  detail::DeviceLimits limits;
  CUDAHIST_RETURN_IF_ERROR(detail::QueryDeviceLimits(&limits));
  CUDAHIST_RETURN_IF_ERROR(detail::ConfigureJointKernel(limits, &impl->config));
  CUDAHIST_RETURN_IF_ERROR(impl->accumulator.Allocate(size_t(detail::kJointScratchWords) * sizeof(uint32_t),
                                                       /*keep_zero=*/true, "joint accumulator"));
  out->reset(new JointHistogrammer(std::move(impl)));
  return Status::Ok();
}

Status JointHistogrammer::Compute(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b,
                                  cudaStream_t stream, uint32_t* counts) {
  Impl& s = *impl_;
  CUDAHIST_RETURN_IF_ERROR(ValidateJointRequest(spec, a, b));
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  if (!s.config.supported) return Status::Unsupported(s.config.why);
  CUDAHIST_RETURN_IF_ERROR(s.accumulator.RezeroIfLaunchFailed(stream));
  return s.accumulator.Launched(detail::LaunchJoint(s.config, detail::BuildJointPlan(spec, a, b),
                                                    s.accumulator.as<uint32_t>(), counts,
                                                    detail::JointCountsDirect(counts), stream));
}

}  // namespace cudahist
