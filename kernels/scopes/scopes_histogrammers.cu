// cudahist: ColumnHistogrammer and JointHistogrammer (cudahist/scopes.h).
// Create configures the kernels and allocates the scratch once (sized for the
// device and the tuning budgets, not for a frame); Compute validates, plans
// on the host and enqueues one launch.
#include <string>

#include "cudahist/histogrammer.h"
#include "cudahist/scopes.h"
#include "scopes/scopes_launch.h"
#include "scopes/scopes_tuning.h"

namespace cudahist {

using detail::CudaStatus;

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
  uint32_t* partials = nullptr;
  uint64_t partial_words = 0;

  ~Impl() {
    if (partials != nullptr) cudaFree(partials);
  }
};

ColumnHistogrammer::ColumnHistogrammer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ColumnHistogrammer::~ColumnHistogrammer() = default;

Status ColumnHistogrammer::Create(std::unique_ptr<ColumnHistogrammer>* out) {
  if (out == nullptr) return Status::InvalidArgument("out: null");
  CUDAHIST_RETURN_IF_ERROR(CheckCudaDevice());
  auto impl = std::make_unique<Impl>();
  CUDAHIST_RETURN_IF_ERROR(detail::QueryDeviceLimits(&impl->limits));
  CUDAHIST_RETURN_IF_ERROR(detail::ConfigureColumnKernels(impl->limits, &impl->kernels));
  // Partials need no zeroing: every word a launch reads, it wrote first.
  impl->partial_words = detail::kColumnPartialBudgetBytes / sizeof(uint32_t);
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(
      cudaMalloc(reinterpret_cast<void**>(&impl->partials), impl->partial_words * sizeof(uint32_t)),
      "cudaMalloc(column partials)"));
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
  return detail::LaunchColumn(impl_->kernels, plan, impl_->partials, counts, stream);
}

// --- JointHistogrammer ----------------------------------------------------------

struct JointHistogrammer::Impl {
  detail::KernelConfig config;
  uint32_t* accumulator = nullptr;  // detail::kJointScratchWords words, zero between launches
  // Set when a launch failed: the accumulator may hold part of a frame.
  bool accumulator_needs_zeroing = false;

  ~Impl() {
    if (accumulator != nullptr) cudaFree(accumulator);
  }
};

namespace {
constexpr size_t kJointAccumulatorBytes = size_t(detail::kJointScratchWords) * sizeof(uint32_t);
}

JointHistogrammer::JointHistogrammer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
JointHistogrammer::~JointHistogrammer() = default;

Status JointHistogrammer::Create(std::unique_ptr<JointHistogrammer>* out) {
  if (out == nullptr) return Status::InvalidArgument("out: null");
  CUDAHIST_RETURN_IF_ERROR(CheckCudaDevice());
  auto impl = std::make_unique<Impl>();
  detail::DeviceLimits limits;
  CUDAHIST_RETURN_IF_ERROR(detail::QueryDeviceLimits(&limits));
  CUDAHIST_RETURN_IF_ERROR(detail::ConfigureJointKernel(limits, &impl->config));
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaMalloc(reinterpret_cast<void**>(&impl->accumulator), kJointAccumulatorBytes),
                                      "cudaMalloc(joint accumulator)"));
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaMemsetAsync(impl->accumulator, 0, kJointAccumulatorBytes, nullptr),
                                      "cudaMemsetAsync(joint accumulator)"));
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize(accumulator zeroing)"));
  out->reset(new JointHistogrammer(std::move(impl)));
  return Status::Ok();
}

Status JointHistogrammer::Compute(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b,
                                  cudaStream_t stream, uint32_t* counts) {
  Impl& s = *impl_;
  CUDAHIST_RETURN_IF_ERROR(ValidateJointRequest(spec, a, b));
  if (counts == nullptr) return Status::InvalidArgument("counts: null");
  if (!s.config.supported) return Status::Unsupported(s.config.why);
  if (s.accumulator_needs_zeroing) {
    CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaMemsetAsync(s.accumulator, 0, kJointAccumulatorBytes, stream),
                                        "cudaMemsetAsync(joint accumulator)"));
    s.accumulator_needs_zeroing = false;
  }
  const Status launched = detail::LaunchJoint(s.config, detail::BuildJointPlan(spec, a, b), s.accumulator, counts,
                                              detail::JointCountsDirect(counts), stream);
  if (!launched.ok()) s.accumulator_needs_zeroing = true;
  return launched;
}

}  // namespace cudahist
