// cudahist: the tuning policy of the scope drawing kernel (scope_drawing.cu);
// the counting kernels have scopes/scopes_tuning.h.
#pragma once

#include <cstdint>

namespace cudahist::detail {

struct ScopeDrawingPolicy {
  // A block draws a tile_width x tile_height pixel tile: a warp writes 32 adjacent RGBA
  // pixels of one row (128 bytes, one full line of stores), and the 8 rows of a tile read
  // neighbouring bins of the same column groups, which stay in L1. The image (2 MiB for
  // 1024 x 512) is written once; the counts it reads (1 MiB for 1024 groups x 256 bins)
  // fit in L2.
  uint32_t tile_height = 8;
  // A tile row is a warp's 32 lanes.
  static constexpr uint32_t tile_width() { return 32; }
};

constexpr ScopeDrawingPolicy kScopeDrawingPolicy{};

}  // namespace cudahist::detail
