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

// Every vector layout reads 16-byte aligned chunks (one LDG.128 each). A thread
// issues this many independent chunk loads before it counts the first one, so
// that a block keeps enough bytes in flight to cover DRAM latency even when
// shared memory allows only one block per SM.
constexpr uint32_t kChunkBytes = 16;

// 8-bit layouts up to this pixel stride take the equal-words shortcut
// (device_helpers.cuh, CountBytes): gray and NV12 planes, not RGBA. With 32
// lane copies RGBA needs no help on one-value frames (0.95 of the roofline
// either way on the H200, 2026-11-22), and skipping the test won uniform
// 0.91 -> 0.93, peaked 0.92 -> 0.94 and photo 0.89 -> 0.93 in the same runs.
constexpr uint32_t kEqualWordsMaxStride = CUDAHIST_EQUAL_WORDS_MAX_STRIDE;

// With C < 32 copies, the 32 / C bins of a row of 32 banks share their banks
// with every bin congruent to them modulo 32 / C: data that uses only every
// 16th bin (8-bit video scaled into a 16-bit container, 4096 bins, C = 8)
// lands on 8 of the 32 banks. The swizzle (device_helpers.cuh, BankSwizzle)
// XORs bits 4 and up of the bin into its row bits: two instructions per
// count. H200, 2026-11-22 (bench/RESULTS.md), 16-bit 1 GiB in 4096 bins,
// fractions of the read roofline, uniform / peaked / photo, over two runs:
// none 0.94-0.96 / 0.94-0.95 / 0.78; this swizzle 0.91-0.92 / 0.92 /
// 0.92-0.93; a multiplicative hash of the upper bits (four instructions)
// 0.89-0.91 in all three.
constexpr bool kBankSwizzle = CUDAHIST_BANK_SWIZZLE != 0;

// The last-block ticket (LastBlockToArrive, device_helpers.cuh): 0 fences in
// thread 0 only, before its ticket and, in the last block, after it, with the
// barriers carrying the order to the other threads (as cooperative groups'
// grid sync does); 1 fences in every thread, as the CUDA samples'
// threadFenceReduction. A fence in every thread was the signalstats kernel's
// largest single stall (8% of Nsight Compute's samples, H100 2026-11-23);
// bench/tune_signalstats.sh's fence_all variant: 13.10 us a 1080p
// signalstats frame against 12.06 with thread 0's fences (H100, 06:05 UTC);
// the Y/U/V histograms went from 7.82 to 7.52 us over the two changes.
constexpr bool kTicketFenceEveryThread = CUDAHIST_TICKET_FENCE_EVERY_THREAD != 0;

// Batches (Histogrammer::ComputeBatch): frames counted by one launch, a row
// of blocks per frame. Their plans travel as the kernel's parameter (about
// 570 bytes a frame, 9 KB for 16; CUDA 12.1+ allows 32 KB of parameters),
// and the accumulator scratch holds one set of totals per frame.
constexpr uint32_t kMaxBatchFrames = 16;

}  // namespace cudahist::detail
