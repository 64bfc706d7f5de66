// cudahist: what to count, and with which algorithm.
#pragma once

#include <cstdint>
#include <string>

#include "cudahist/plane_view.h"
#include "cudahist/status.h"

#if defined(__CUDACC__)
#define CUDAHIST_HOST_DEVICE __host__ __device__
#else
#define CUDAHIST_HOST_DEVICE
#endif

namespace cudahist {

// One launch counts at most this many components (Y, U, V, A or R, G, B, A).
constexpr int kMaxComponents = 4;
constexpr uint32_t kMaxBins = 1u << kMaxDepth;

enum class Algorithm {
  kAuto,                    // the library chooses (see dispatch.cu for the rule)
  kPrivatized,              // "privatized": lane-indexed shared copies, the fast path
  kPrivatizedPacked,        // "privatized-packed": per-thread packed 8-bit counters, periodic merge
  kPrivatizedSharedAtomic,  // "privatized-shared": one shared copy per block, the baseline
  kTwoPhase,                // "two-phase": per-block partials in global memory, then a reduction
};

// Stable names, used by the element's `algorithm` property and the benchmark.
const char* AlgorithmName(Algorithm algorithm);
// Returns false for an unknown name.
bool AlgorithmFromName(const std::string& name, Algorithm* algorithm);

struct HistogramSpec {
  uint32_t bins = 256;  // per component, 1 to 2^depth of every component counted
  Algorithm algorithm = Algorithm::kAuto;
};

// Equal-width bins over the full code range: value v of a `depth`-bit sample
// falls in bin v * bins >> depth. With bins = 2^depth a bin is one code value.
CUDAHIST_HOST_DEVICE inline uint32_t BinOf(uint32_t value, uint32_t bins, uint32_t depth) {
  return uint32_t((uint64_t(value) * bins) >> depth);
}

// Smallest code value that falls in `bin` (the inverse of BinOf, rounded up).
inline uint32_t BinLowestValue(uint32_t bin, uint32_t bins, uint32_t depth) {
  return uint32_t(((uint64_t(bin) << depth) + bins - 1) / bins);
}

// Checks the spec against the planes it will count: component count 1 to 4,
// bins 1 to 2^depth of each plane; every plane through ValidatePlane.
Status ValidateRequest(const HistogramSpec& spec, const PlaneView* planes, int num_planes);

// Counts are laid out component-major: counts[component * bins + bin].
inline size_t CountsLength(const HistogramSpec& spec, int num_planes) {
  return size_t(spec.bins) * size_t(num_planes);
}

}  // namespace cudahist
