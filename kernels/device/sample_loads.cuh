// cudahist: loading samples on the device (and on the host, for the tests):
// whole aligned 16-byte chunks, naturally aligned words, a byte of a word.
#pragma once

#include <cstdint>
#include <cstring>

#include "launch/launch_plan.h"

namespace cudahist::detail {

struct Chunk16 {
  uint32_t w[4];
};

CUDAHIST_HD Chunk16 LoadChunk16(const uint8_t* aligned) {
  Chunk16 c;
#if defined(__CUDA_ARCH__)
  const uint4 v = __ldg(reinterpret_cast<const uint4*>(aligned));
  c.w[0] = v.x;
  c.w[1] = v.y;
  c.w[2] = v.z;
  c.w[3] = v.w;
#else
  std::memcpy(c.w, aligned, sizeof(c.w));
#endif
  return c;
}

// The little-endian word of sample_size (1, 2 or 4) naturally aligned bytes.
CUDAHIST_HD uint32_t LoadSample(const uint8_t* p, uint32_t sample_size) {
#if defined(__CUDA_ARCH__)
  if (sample_size == 1) return __ldg(p);
  if (sample_size == 2) return __ldg(reinterpret_cast<const unsigned short*>(p));
  return __ldg(reinterpret_cast<const unsigned int*>(p));
#else
  uint32_t v = 0;
  for (uint32_t b = 0; b < sample_size; ++b) v |= uint32_t(p[b]) << (8 * b);
  return v;
#endif
}

CUDAHIST_HD uint32_t RotateLeft(uint32_t x, uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_l(x, x, bits);
#else
  bits &= 31;
  return bits == 0 ? x : (x << bits) | (x >> (32 - bits));
#endif
}

// Byte i (0..3) of x, as a value: one PRMT on the device.
CUDAHIST_HD uint32_t ByteOf(uint32_t x, uint32_t i) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, 0, 0x4440 | i);
#else
  return (x >> (8 * i)) & 0xffu;
#endif
}

}  // namespace cudahist::detail
