// cudahist: checks of scope drawing requests (scope_render.h), shared by the
// CPU and GPU paths, and the picture's colour matrix that the host computes
// for both.
#include <cmath>
#include <string>

#include "cudahist/plane_view.h"
#include "cudahist/scope_render.h"

namespace cudahist {
namespace {

Status Invalid(const std::string& field, const std::string& why) {
  return Status::InvalidArgument(field + ": " + why);
}

std::string Range(uint64_t lo, uint64_t hi) { return std::to_string(lo) + " to " + std::to_string(hi); }

}  // namespace

Status ValidateScopeImage(const ScopeImage& image) {
  if (image.width < 1 || image.width > kMaxScopeDimension) {
    return Invalid("image.width", std::to_string(image.width) + " is outside " + Range(1, kMaxScopeDimension));
  }
  if (image.height < 1 || image.height > kMaxScopeDimension) {
    return Invalid("image.height", std::to_string(image.height) + " is outside " + Range(1, kMaxScopeDimension));
  }
  if (image.data == nullptr) return Invalid("image.data", "null");
  if (image.pitch < size_t(image.width) * 4) {
    return Invalid("image.pitch", std::to_string(image.pitch) + " bytes is smaller than a row of " +
                                      std::to_string(image.width) + " RGBA pixels");
  }
  return Status::Ok();
}

Status ValidateColumnScope(const ColumnScope& scope, const ScopeImage& image) {
  CUDAHIST_RETURN_IF_ERROR(ValidateScopeImage(image));
  if (scope.num_traces < 1 || scope.num_traces > kMaxScopeTraces) {
    return Invalid("num_traces", std::to_string(scope.num_traces) + " is outside " + Range(1, kMaxScopeTraces));
  }
  if (scope.num_levels < 0 || scope.num_levels > kMaxScopeLevels) {
    return Invalid("num_levels", std::to_string(scope.num_levels) + " is outside " + Range(0, kMaxScopeLevels));
  }
  if (scope.gain < 1) return Invalid("gain", "must be at least 1");
  if (scope.style == ColumnScopeStyle::kParade && image.width < uint32_t(scope.num_traces)) {
    return Invalid("image.width", std::to_string(image.width) + " is narrower than the parade's " +
                                      std::to_string(scope.num_traces) + " panels");
  }
  for (int i = 0; i < scope.num_traces; ++i) {
    const ColumnTrace& t = scope.traces[i];
    const std::string name = "traces[" + std::to_string(i) + "]";
    if (t.counts == nullptr) return Invalid(name + ".counts", "null");
    if (t.depth < 1 || t.depth > kMaxDepth) return Invalid(name + ".depth", "outside " + Range(1, kMaxDepth));
    if (t.bins < 1 || uint64_t(t.bins) > (uint64_t(1) << t.depth)) {
      return Invalid(name + ".bins", std::to_string(t.bins) + " is outside 1 to 2^depth");
    }
    if (t.groups < 1 || t.groups > t.counted_width) {
      return Invalid(name + ".groups", std::to_string(t.groups) + " is outside 1 to the counted width " +
                                           std::to_string(t.counted_width));
    }
    if (scope.style == ColumnScopeStyle::kHistogram && t.groups != 1) {
      return Invalid(name + ".groups", "a histogram draws one group per trace");
    }
  }
  return Status::Ok();
}

Status ValidateVectorScope(const VectorScope& scope, const ScopeImage& image) {
  CUDAHIST_RETURN_IF_ERROR(ValidateScopeImage(image));
  if (scope.counts == nullptr) return Invalid("counts", "null");
  if (scope.bins_a < 1 || scope.bins_a > 256) return Invalid("bins_a", "outside 1 to 256");
  if (scope.bins_b < 1 || scope.bins_b > 256) return Invalid("bins_b", "outside 1 to 256");
  if (scope.gain < 1) return Invalid("gain", "must be at least 1");
  if (scope.num_targets < 0 || scope.num_targets > kMaxScopeTargets) {
    return Invalid("num_targets", std::to_string(scope.num_targets) + " is outside " + Range(0, kMaxScopeTargets));
  }
  return Status::Ok();
}

Status ValidatePictureScope(const PictureScope& scope, const ScopeImage& image) {
  CUDAHIST_RETURN_IF_ERROR(ValidateScopeImage(image));
  if (scope.colour != PictureColour::kGray && scope.colour != PictureColour::kYuv &&
      scope.colour != PictureColour::kRgb) {
    return Invalid("colour", std::to_string(uint32_t(scope.colour)) + " is not gray, YUV or RGB");
  }
  const int components = scope.colour == PictureColour::kGray ? 1 : 3;
  for (int i = 0; i < components; ++i) {
    const PlaneView& plane = scope.components[i];
    CUDAHIST_RETURN_IF_ERROR(ValidatePlane(plane, i));
    if (plane.width < 1 || plane.height < 1 || plane.data == nullptr) {
      return Invalid("components[" + std::to_string(i) + "]", "a picture needs samples to draw");
    }
    if (plane.has_roi) return Invalid("components[" + std::to_string(i) + "].has_roi", "a picture shows whole planes");
  }
  return Status::Ok();
}

PictureMatrix PictureMatrixOf(double kr, double kb, bool full_range) {
  // Q8 coefficients of the inverse of Y = Kr R + (1 - Kr - Kb) G + Kb B,
  // Cb = (B - Y) / (2 (1 - Kb)), Cr = (R - Y) / (2 (1 - Kr)); limited range
  // stretches 219 luma and 224 chroma codes to 255.
  const double kg = 1.0 - kr - kb;
  const double y_scale = full_range ? 1.0 : 255.0 / 219.0;
  const double c_scale = full_range ? 1.0 : 255.0 / 224.0;
  const auto q8 = [](double v) { return int32_t(std::lround(v * 256.0)); };
  PictureMatrix m;
  m.y_gain = q8(y_scale);
  m.y_offset = full_range ? 0 : 16;
  m.v_to_r = q8(c_scale * 2.0 * (1.0 - kr));
  m.u_to_b = q8(c_scale * 2.0 * (1.0 - kb));
  m.u_to_g = q8(c_scale * 2.0 * (1.0 - kb) * kb / kg);
  m.v_to_g = q8(c_scale * 2.0 * (1.0 - kr) * kr / kg);
  return m;
}

}  // namespace cudahist
