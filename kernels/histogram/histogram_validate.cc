// Checks of plane views and histogram specs, shared by every backend: nothing
// is counted (or launched) before these pass. Every message names the field
// the way the caller wrote it ("plane[1].pitch", "spec.bins") and the values
// that made it wrong.
#include <cstdint>
#include <limits>
#include <string>

#include "cudahist/histogram_spec.h"
#include "cudahist/plane_view.h"
#include "cudahist/status.h"

namespace cudahist {
namespace {

struct AlgorithmEntry {
  Algorithm algorithm;
  const char* name;
};

constexpr AlgorithmEntry kAlgorithms[] = {
    {Algorithm::kAuto, "auto"},
    {Algorithm::kPrivatized, "privatized"},
    {Algorithm::kPrivatizedPacked, "privatized-packed"},
    {Algorithm::kPrivatizedSharedAtomic, "privatized-shared"},
    {Algorithm::kTwoPhase, "two-phase"},
};

std::string S(uint64_t v) { return std::to_string(v); }

// Builds "plane[index].field: why".
class PlaneErrors {
 public:
  explicit PlaneErrors(int index) : prefix_("plane[" + std::to_string(index) + "].") {}
  Status Invalid(const char* field, const std::string& why) const {
    return Status::InvalidArgument(prefix_ + field + ": " + why);
  }
  Status Unsupported(const char* field, const std::string& why) const {
    return Status::Unsupported(prefix_ + field + ": " + why);
  }

 private:
  std::string prefix_;
};

Status ValidateSampleFormat(const PlaneView& p, const PlaneErrors& err) {
  if (p.sample_size != 1 && p.sample_size != 2 && p.sample_size != 4) {
    return err.Invalid("sample_size", S(p.sample_size) + " bytes is not supported (1, 2 or 4)");
  }
  if (p.depth < 1 || p.depth > kMaxDepth) {
    return err.Invalid("depth", S(p.depth) + " bits is outside 1 to " + S(kMaxDepth));
  }
  if (uint64_t(p.shift) + p.depth > 8ull * p.sample_size) {
    return err.Invalid("shift", "shift " + S(p.shift) + " + depth " + S(p.depth) +
                                    " bits does not fit in a " + S(p.sample_size) +
                                    "-byte sample (" + S(8 * p.sample_size) + " bits)");
  }
  return Status::Ok();
}

Status ValidatePixelLayout(const PlaneView& p, const PlaneErrors& err) {
  if (p.pixel_stride == 0) return err.Invalid("pixel_stride", "0 bytes (must be at least 1)");
  if (uint64_t(p.offset) + p.sample_size > p.pixel_stride) {
    return err.Invalid("offset", "offset " + S(p.offset) + " + " + S(p.sample_size) +
                                     "-byte sample runs past the pixel stride of " +
                                     S(p.pixel_stride) + " bytes");
  }
  return Status::Ok();
}

// Wider samples are loaded as whole words, on the GPU as on the CPU.
Status ValidateAlignment(const PlaneView& p, const PlaneErrors& err) {
  const uint32_t size = p.sample_size;
  if (size == 1) return Status::Ok();
  const std::string need = " is not a multiple of the " + S(size) + "-byte sample size";
  const auto address = reinterpret_cast<uintptr_t>(p.data);
  if (address % size != 0) return err.Invalid("data", "address " + S(address) + need);
  if (p.pitch % size != 0) return err.Invalid("pitch", S(p.pitch) + " bytes" + need);
  if (p.pixel_stride % size != 0) {
    return err.Invalid("pixel_stride", S(p.pixel_stride) + " bytes" + need);
  }
  if (p.offset % size != 0) return err.Invalid("offset", S(p.offset) + " bytes" + need);
  return Status::Ok();
}

Status ValidateRowsFit(const PlaneView& p, const PlaneErrors& err) {
  if (p.width == 0 || p.height == 0) return Status::Ok();
  const uint64_t row = uint64_t(p.width - 1) * p.pixel_stride + p.offset + p.sample_size;
  if (p.pitch < row) {
    return err.Invalid("pitch", S(p.pitch) + " bytes is smaller than a row of " + S(p.width) +
                                    " samples (stride " + S(p.pixel_stride) + ", offset " +
                                    S(p.offset) + ", " + S(p.sample_size) + "-byte samples)");
  }
  // The last byte read sits at pitch * (height - 1) + row - 1: it must be addressable.
  const uint64_t max = std::numeric_limits<uintptr_t>::max();
  if (p.height > 1 && p.pitch > (max - row) / (p.height - 1)) {
    return err.Invalid(
        "pitch", S(p.pitch) + " bytes x " + S(p.height) + " rows is larger than the address space");
  }
  return Status::Ok();
}

Status ValidateRoi(const PlaneView& p, const PlaneErrors& err) {
  if (!p.has_roi) return Status::Ok();
  const Roi& r = p.roi;
  if (uint64_t(r.x) + r.width > p.width) {
    return err.Invalid(
        "roi", "x " + S(r.x) + " + width " + S(r.width) + " is past the plane width " + S(p.width));
  }
  if (uint64_t(r.y) + r.height > p.height) {
    return err.Invalid("roi", "y " + S(r.y) + " + height " + S(r.height) +
                                  " is past the plane height " + S(p.height));
  }
  return Status::Ok();
}

Status ValidateCountedSamples(const PlaneView& p, const PlaneErrors& err) {
  const uint64_t samples = CountedSamples(p);
  if (p.data == nullptr && samples != 0) {
    return err.Invalid("data", "null with " + S(samples) + " samples to count");
  }
  if (samples > std::numeric_limits<uint32_t>::max()) {
    return err.Unsupported(p.has_roi ? "roi" : "width",
                           S(samples) + " samples would overflow the 32-bit counts");
  }
  return Status::Ok();
}

}  // namespace

const char* AlgorithmName(Algorithm algorithm) {
  for (const AlgorithmEntry& e : kAlgorithms) {
    if (e.algorithm == algorithm) return e.name;
  }
  return "unknown";
}

bool AlgorithmFromName(const std::string& name, Algorithm* algorithm) {
  for (const AlgorithmEntry& e : kAlgorithms) {
    if (name == e.name) {
      if (algorithm != nullptr) *algorithm = e.algorithm;
      return true;
    }
  }
  return false;
}

Status ValidatePlane(const PlaneView& plane, int index) {
  const PlaneErrors err(index);
  CUDAHIST_RETURN_IF_ERROR(ValidateSampleFormat(plane, err));
  CUDAHIST_RETURN_IF_ERROR(ValidatePixelLayout(plane, err));
  CUDAHIST_RETURN_IF_ERROR(ValidateAlignment(plane, err));
  CUDAHIST_RETURN_IF_ERROR(ValidateRowsFit(plane, err));
  CUDAHIST_RETURN_IF_ERROR(ValidateRoi(plane, err));
  return ValidateCountedSamples(plane, err);
}

Status ValidateRequest(const HistogramSpec& spec, const PlaneView* planes, int num_planes) {
  if (num_planes < 1 || num_planes > kMaxComponents) {
    return Status::InvalidArgument("num_planes: " + std::to_string(num_planes) +
                                   " is outside 1 to " + S(kMaxComponents));
  }
  if (planes == nullptr) {
    return Status::InvalidArgument("planes: null with num_planes " + std::to_string(num_planes));
  }
  if (std::string(AlgorithmName(spec.algorithm)) == "unknown") {
    return Status::InvalidArgument("spec.algorithm: unknown value " +
                                   std::to_string(static_cast<int>(spec.algorithm)));
  }
  if (spec.bins == 0) return Status::InvalidArgument("spec.bins: 0 (must be at least 1)");
  for (int i = 0; i < num_planes; ++i) {
    CUDAHIST_RETURN_IF_ERROR(ValidatePlane(planes[i], i));
    const uint64_t code_values = uint64_t(1) << planes[i].depth;
    if (spec.bins > code_values) {
      return Status::InvalidArgument("spec.bins: " + S(spec.bins) + " is more than the " +
                                     S(code_values) + " code values of plane[" + std::to_string(i) +
                                     "] (depth " + S(planes[i].depth) + ")");
    }
  }
  return Status::Ok();
}

}  // namespace cudahist
