// cudahist: the saturation and hue of every chroma pair, as FFmpeg's
// signalstats computes them (see cudahist/signalstats.h, Definitions).
//
// One table per depth d (8, 9, 10): entry (u << d) | v holds sat in its low
// 16 bits and hue in its high 16 bits. The tables are built on the host with
// the C library's own hypotf and atan2f and FFmpeg's expression, so that on
// the machine that runs FFmpeg every pair lands in the same bin as there; the
// reference, the CPU backend and the GPU path (which uploads them once) all
// read these, never a second formula.
#pragma once

#include <cstdint>
#include <vector>

namespace cudahist::detail {

constexpr uint32_t kSatHueSatMask = 0xffffu;
constexpr uint32_t kSatHueHueShift = 16;

inline uint32_t SatOfEntry(uint32_t entry) { return entry & kSatHueSatMask; }
inline uint32_t HueOfEntry(uint32_t entry) { return entry >> kSatHueHueShift; }
inline uint32_t SatHueIndex(uint32_t u, uint32_t v, uint32_t depth) { return (u << depth) | v; }

// signalstats' two formulas for one pair (depth 8 to 10).
uint32_t SignalStatsSat(uint32_t u, uint32_t v, uint32_t depth);
uint32_t SignalStatsHue(uint32_t u, uint32_t v, uint32_t depth);

// The table of `depth` (8 to 10): 2^(2 depth) entries, built on first use
// (thread-safe) and kept for the life of the process.
const std::vector<uint32_t>& SatHueTable(uint32_t depth);

}  // namespace cudahist::detail
