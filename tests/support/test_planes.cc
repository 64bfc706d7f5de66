#include "test_planes.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cudahist_test {
namespace {

uint32_t DepthMask(uint32_t depth) { return uint32_t((uint64_t(1) << depth) - 1); }

void CheckLayout(const PlaneLayout& l, int n_components, uint32_t one_value) {
  auto fail = [](const std::string& why) { throw std::invalid_argument("PlaneLayout: " + why); };
  if (l.sample_size != 1 && l.sample_size != 2 && l.sample_size != 4)
    fail("sample_size not 1, 2 or 4");
  if (l.depth < 1 || l.depth > cudahist::kMaxDepth) fail("depth not 1 to 16");
  if (l.shift + l.depth > 8 * l.sample_size) fail("shift + depth wider than the sample");
  if (n_components < 1) fail("no component");
  if (l.offset + uint64_t(n_components) * l.sample_size > l.pixel_stride) {
    fail("components do not fit in pixel_stride");
  }
  if (one_value > DepthMask(l.depth)) fail("one_value does not fit in depth");
}

// Values of `depth` bits from `dist`.
class SampleSource {
 public:
  SampleSource(Distribution dist, uint32_t depth, uint32_t one_value, std::mt19937_64& rng)
      : dist_(dist), depth_(depth), one_value_(one_value), rng_(rng) {}

  uint32_t Next() {
    switch (dist_) {
      case Distribution::kOneValue:
        return one_value_;
      case Distribution::kPeaked: {
        uint64_t sum = 0;
        for (int i = 0; i < 4; ++i) sum += Uniform();
        return uint32_t(sum / 4);
      }
      case Distribution::kUniform:
        break;
    }
    return Uniform();
  }

 private:
  uint32_t Uniform() { return uint32_t(rng_() >> (64 - depth_)); }

  Distribution dist_;
  uint32_t depth_;
  uint32_t one_value_;
  std::mt19937_64& rng_;
};

void FillWithGarbage(AlignedBytes& bytes, std::mt19937_64& rng) {
  for (size_t i = 0; i < bytes.size(); i += 8) {
    uint64_t word = rng();
    for (size_t b = 0; b < 8 && i + b < bytes.size(); ++b) bytes[i + b] = uint8_t(word >> (8 * b));
  }
}

// Replaces the depth bits at `shift` of the little-endian word at `p`, keeping the other bits.
void StoreSample(uint8_t* p, uint32_t sample_size, uint32_t shift, uint32_t depth, uint32_t value) {
  uint32_t word = 0;
  for (uint32_t b = 0; b < sample_size; ++b) word |= uint32_t(p[b]) << (8 * b);
  const uint32_t mask = DepthMask(depth) << shift;
  word = (word & ~mask) | (value << shift);
  for (uint32_t b = 0; b < sample_size; ++b) p[b] = uint8_t(word >> (8 * b));
}

HostPlane AllocatePlane(const PlaneLayout& l, std::mt19937_64& rng) {
  HostPlane plane;
  const size_t pitch = size_t(l.width) * l.pixel_stride + l.pitch_padding;
  plane.bytes = pitch * l.height;
  plane.data_offset = l.base_offset;
  // At least one byte, so that view.data is never null even for an empty plane.
  plane.storage.resize(l.base_offset + plane.bytes + (plane.bytes == 0 ? 1 : 0));
  FillWithGarbage(plane.storage, rng);
  plane.view = cudahist::PlaneView{plane.storage.data() + l.base_offset, l.width, l.height, pitch,
                                   l.pixel_stride, l.offset, l.sample_size, l.shift, l.depth};
  return plane;
}

void DrawComponents(HostPlane& plane, int n_components, Distribution dist, std::mt19937_64& rng,
                    uint32_t one_value) {
  const cudahist::PlaneView& v = plane.view;
  SampleSource source(dist, v.depth, one_value, rng);
  uint8_t* data = plane.storage.data() + plane.data_offset;
  for (uint32_t y = 0; y < v.height; ++y) {
    for (uint32_t x = 0; x < v.width; ++x) {
      uint8_t* pixel = data + y * v.pitch + size_t(x) * v.pixel_stride + v.offset;
      for (int k = 0; k < n_components; ++k) {
        StoreSample(pixel + size_t(k) * v.sample_size, v.sample_size, v.shift, v.depth,
                    source.Next());
      }
    }
  }
}

}  // namespace

const char* DistributionName(Distribution d) {
  switch (d) {
    case Distribution::kUniform:
      return "uniform";
    case Distribution::kOneValue:
      return "one-value";
    case Distribution::kPeaked:
      return "peaked";
  }
  return "unknown";
}

HostPlane MakeInterleavedPlane(const PlaneLayout& layout, int n_components, Distribution dist,
                               std::mt19937_64& rng, uint32_t one_value) {
  CheckLayout(layout, n_components, one_value);
  HostPlane plane = AllocatePlane(layout, rng);
  DrawComponents(plane, n_components, dist, rng, one_value);
  return plane;
}

HostPlane MakePlane(const PlaneLayout& layout, Distribution dist, std::mt19937_64& rng,
                    uint32_t one_value) {
  return MakeInterleavedPlane(layout, 1, dist, rng, one_value);
}

std::vector<cudahist::PlaneView> ComponentViews(const HostPlane& plane, int n_components) {
  std::vector<cudahist::PlaneView> views(size_t(n_components > 0 ? n_components : 0), plane.view);
  for (int k = 0; k < n_components; ++k) views[k].offset += uint32_t(k) * plane.view.sample_size;
  return views;
}

uint64_t FreshSeed() {
  if (const char* replay = std::getenv("CUDAHIST_TEST_SEED")) {
    return std::strtoull(replay, nullptr, 0);
  }
  std::random_device device;
  return (uint64_t(device()) << 32) ^ device();
}

void RestrictToRoi(Frame& frame, const cudahist::Roi& roi) {
  for (cudahist::PlaneView& v : frame.views) {
    v.has_roi = true;
    v.roi = roi;
  }
}

ViewAnchor AnchorOf(const std::vector<HostPlane>& planes, const cudahist::PlaneView& view) {
  const auto* p = static_cast<const uint8_t*>(view.data);
  for (size_t i = 0; i < planes.size(); ++i) {
    const AlignedBytes& s = planes[i].storage;
    if (p >= s.data() && p < s.data() + s.size()) return {i, size_t(p - s.data())};
  }
  throw std::logic_error("view does not point into the frame");
}

}  // namespace cudahist_test
