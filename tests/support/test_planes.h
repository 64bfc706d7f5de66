// tests/support/test_planes.h: synthetic planes for every suite.
//
// A HostPlane is one allocation holding one image plane in host memory, laid
// out the way a real frame is (rows of width * pixel_stride bytes, then
// pitch_padding bytes of garbage) and placed base_offset bytes after a
// 256-byte-aligned start, so that unaligned starts are exact and a GPU test
// can copy `storage` into a 256-byte-aligned device buffer and keep the same
// alignment: device view.data = device base + data_offset.
//
// Note on types: `storage` is a std::vector<uint8_t> with a 256-byte-aligned
// allocator (AlignedBytes), not std::vector<uint8_t> with the default one;
// data(), size(), begin()/end() and indexing work the same.
#pragma once

#include <cudahist/plane_view.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <random>
#include <vector>

namespace cudahist_test {

// What counts hold before a call that must leave them alone (a refused
// request, words outside the counts it was given).
constexpr uint32_t kPoison = 0xDEADBEEFu;

enum class Distribution { kUniform, kOneValue, kPeaked };  // peaked: mean of four uniform draws
const char* DistributionName(Distribution d);

// Every allocation of this allocator starts on a kAllocationAlignment boundary.
constexpr size_t kAllocationAlignment = 256;

template <typename T>
struct AlignedAllocator {
  using value_type = T;
  AlignedAllocator() = default;
  template <typename U>
  AlignedAllocator(const AlignedAllocator<U>&) {}
  T* allocate(size_t n) {
    return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(kAllocationAlignment)));
  }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t(kAllocationAlignment)); }
  template <typename U>
  bool operator==(const AlignedAllocator<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const AlignedAllocator<U>&) const {
    return false;
  }
};
using AlignedBytes = std::vector<uint8_t, AlignedAllocator<uint8_t>>;

struct PlaneLayout {
  uint32_t width = 1, height = 1;
  uint32_t pixel_stride = 1, offset = 0, sample_size = 1, shift = 0, depth = 8;
  size_t pitch_padding = 0;  // extra bytes after each row (filled with garbage, never counted)
  size_t base_offset = 0;    // bytes between a 256-byte-aligned allocation start and view.data
};

struct HostPlane {
  AlignedBytes storage;      // whole allocation; storage.data() is 256-byte aligned
  cudahist::PlaneView view;  // view.data = storage.data() + base_offset; pitch = width *
                             // pixel_stride + pitch_padding
  size_t data_offset = 0;    // == base_offset: where view.data sits in the allocation
  size_t bytes = 0;          // bytes from view.data to the end of the last row (pitch * height)
};

// Samples of the component drawn from `dist` (kOneValue: every sample = one_value, which must
// be below 2^depth), every other byte (other components' bytes in the pixel, pitch padding,
// bits outside shift/depth) random garbage. Throws std::invalid_argument for a layout that
// cannot be built (offset + sample_size > pixel_stride, shift + depth > 8 * sample_size, ...).
HostPlane MakePlane(const PlaneLayout& layout, Distribution dist, std::mt19937_64& rng,
                    uint32_t one_value = 0);

// Like MakePlane, but n_components components share the pixel, component k at byte offset
// layout.offset + k * sample_size (RGBA: n_components 4, pixel_stride 4), and ALL of them are
// drawn from `dist`. view describes component 0; ComponentViews gives all of them.
HostPlane MakeInterleavedPlane(const PlaneLayout& layout, int n_components, Distribution dist,
                               std::mt19937_64& rng, uint32_t one_value = 0);

// The views of n_components components interleaved in `plane`: plane.view with offset
// plane.view.offset + k * sample_size for k = 0 .. n_components - 1 (RGBA, NV12's UV).
std::vector<cudahist::PlaneView> ComponentViews(const HostPlane& plane, int n_components);

// Host planes and the component views into them, as a frame or a request
// lays them out (views point into `planes`' storage; moving a Frame keeps
// them valid, copying does not).
struct Frame {
  std::vector<HostPlane> planes;
  std::vector<cudahist::PlaneView> views;
  Frame() = default;
  Frame(Frame&&) = default;
  Frame& operator=(Frame&&) = default;
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;
};

// Every view of `frame` counts only `roi` (which may be empty).
void RestrictToRoi(Frame& frame, const cudahist::Roi& roi);

// Which of `planes` (a frame's allocations) view.data points into, and at
// what byte offset: for copying the planes elsewhere and rebasing the views.
struct ViewAnchor {
  size_t plane;
  size_t offset;
};
ViewAnchor AnchorOf(const std::vector<HostPlane>& planes, const cudahist::PlaneView& view);

// A fresh seed per run (std::random_device), or the value of env CUDAHIST_TEST_SEED to replay
// one. Tests print it on failure (SCOPED_TRACE).
uint64_t FreshSeed();

}  // namespace cudahist_test
