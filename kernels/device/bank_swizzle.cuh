// cudahist: where a bin sits among the lane-indexed copies of a counter.
#pragma once

#include <cstdint>

#include "launch/launch_plan.h"

namespace cudahist::detail {

// --- Bank swizzle of lane copies ---------------------------------------------
// Where bin b of a component sits among C = 2^kLogCopies lane copies
// (privatized.cu): b itself with 32 copies (or one), otherwise b with its low
// bits (the 32 / C bins that share a row of 32 banks) XORed with bits 4 and
// up: with C < 32 copies, data on every 16th bin would otherwise share 8 of
// the 32 banks (docs/tuning.md, bank swizzle). A permutation of [0, bins) for
// every power-of-two bin count, since the bits XORed in are left as they are
// and `low_mask` = (32 / C - 1) & (bins - 1); bin 0 stays 0, so the trash
// counter (always bin 0) stays in place.
template <uint32_t kLogCopies, bool kPow2Bins>
struct BankSwizzle {
  static constexpr uint32_t kRowBits = 5 - kLogCopies;
  static constexpr bool kOn = kPow2Bins && kLogCopies > 0 && kLogCopies < 5;
  // The bits XORed into the low ones start here: bits 4 and up vary in data
  // that is a multiple of 4 (10-bit samples in 4096 bins) or of 16 (8-bit
  // samples scaled to 16 bits), and 4 >= kRowBits keeps the map one to one.
  static constexpr uint32_t kSourceShift = 4;
  static_assert(!kOn || kSourceShift >= kRowBits, "the XORed bits must lie above the row bits");

  CUDAHIST_HD static uint32_t Apply(uint32_t bin, uint32_t low_mask) {
    if constexpr (!kOn) {
      return bin;
    } else {
      return bin ^ ((bin >> kSourceShift) & low_mask);
    }
  }
  // Apply to each byte of `word` at once, for 256 bins (the bits XORed in
  // come from the byte's own top half, since low_mask < 16): two instructions
  // a word where Apply takes two a sample.
  CUDAHIST_HD static uint32_t ApplyToBytes(uint32_t word, uint32_t low_mask) {
    static_assert(!kOn || kRowBits + kSourceShift <= 8, "the XORed bits must stay within their byte");
    if constexpr (!kOn) {
      return word;
    } else {
      return word ^ ((word >> kSourceShift) & (low_mask * 0x01010101u));
    }
  }
  CUDAHIST_HD static uint32_t LowMask(uint32_t bins) { return ((1u << kRowBits) - 1) & (bins - 1); }
};

}  // namespace cudahist::detail
