// cudahist: the sum of one value over the 32 lanes of a warp, in every lane
// (butterfly shuffles). All 32 lanes must call it together.
#pragma once

#include <cstdint>

#include "launch/launch_plan.h"  // CUDAHIST_UNROLL

namespace cudahist::detail {

#if defined(__CUDACC__)
template <typename T>
__device__ __forceinline__ T WarpSum(T v) {
CUDAHIST_UNROLL
  for (uint32_t d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}
#endif

}  // namespace cudahist::detail
