// cudahist: tuning of what every kernel shares (the plan walk, the bank
// swizzle of lane copies, grid completion), one named constant each with
// its reason; docs/tuning.md keeps the measurements behind them.
#pragma once

#include <cstdint>

#ifndef CUDAHIST_EQUAL_WORDS_MAX_STRIDE
#define CUDAHIST_EQUAL_WORDS_MAX_STRIDE 2
#endif
#ifndef CUDAHIST_BANK_SWIZZLE
#define CUDAHIST_BANK_SWIZZLE 1
#endif
#ifndef CUDAHIST_TICKET_FENCE_EVERY_THREAD
#define CUDAHIST_TICKET_FENCE_EVERY_THREAD 0
#endif

namespace cudahist::detail {

// Bytes of one vector load (LDG.128): every vector layout reads 16-byte aligned chunks.
constexpr uint32_t kChunkBytes = 16;

// 8-bit layouts up to this pixel stride (gray, NV12) take the equal-words shortcut of
// CountBytes (device/plan_walk.cuh); RGBA with 32 lane copies runs faster without the test.
constexpr uint32_t kEqualWordsMaxStride = CUDAHIST_EQUAL_WORDS_MAX_STRIDE;

// XOR bits 4 and up of a bin into its row bits (device/bank_swizzle.cuh): with C < 32
// copies, data on every 16th bin would otherwise share 8 of the 32 banks.
constexpr bool kBankSwizzle = CUDAHIST_BANK_SWIZZLE != 0;

// The last-block ticket (device/grid_completion.cuh) fences in thread 0 only, the barriers
// carrying the order (as cooperative groups' grid sync does): a fence in every thread was
// the signalstats kernel's largest single stall.
constexpr bool kTicketFenceEveryThread = CUDAHIST_TICKET_FENCE_EVERY_THREAD != 0;

// Frames one batch launch counts: their plans travel as the kernel's parameter (about
// 570 bytes a frame; CUDA 12.1+ allows 32 KB) and the scratch holds one set of totals each.
constexpr uint32_t kMaxBatchFrames = 16;

}  // namespace cudahist::detail
