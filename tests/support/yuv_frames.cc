#include "yuv_frames.h"

#include <stdexcept>

namespace cudahist_test {
namespace {

struct FormatInfo {
  YuvFormat format;
  const char* name;
  uint32_t log2_hsub, log2_vsub;
  uint32_t sample_size, shift, depth;
  enum class Kind { kPlanar, kSemiPlanar, kPacked } kind;
  bool swap_uv;  // NV21 (V first), YV12 (V plane first), UYVY (U first, so offsets differ)
};

constexpr FormatInfo kFormats[] = {
    {YuvFormat::kNv12, "NV12", 1, 1, 1, 0, 8, FormatInfo::Kind::kSemiPlanar, false},
    {YuvFormat::kNv21, "NV21", 1, 1, 1, 0, 8, FormatInfo::Kind::kSemiPlanar, true},
    {YuvFormat::kI420, "I420", 1, 1, 1, 0, 8, FormatInfo::Kind::kPlanar, false},
    {YuvFormat::kYv12, "YV12", 1, 1, 1, 0, 8, FormatInfo::Kind::kPlanar, true},
    {YuvFormat::kP010, "P010_10LE", 1, 1, 2, 6, 10, FormatInfo::Kind::kSemiPlanar, false},
    {YuvFormat::kI420_10, "I420_10LE", 1, 1, 2, 0, 10, FormatInfo::Kind::kPlanar, false},
    {YuvFormat::kY444, "Y444", 0, 0, 1, 0, 8, FormatInfo::Kind::kPlanar, false},
    {YuvFormat::kY42b, "Y42B", 1, 0, 1, 0, 8, FormatInfo::Kind::kPlanar, false},
    {YuvFormat::kI422_10, "I422_10LE", 1, 0, 2, 0, 10, FormatInfo::Kind::kPlanar, false},
    {YuvFormat::kYuy2, "YUY2", 1, 0, 1, 0, 8, FormatInfo::Kind::kPacked, false},
    {YuvFormat::kUyvy, "UYVY", 1, 0, 1, 0, 8, FormatInfo::Kind::kPacked, true},
};

const FormatInfo& InfoOf(YuvFormat format) {
  for (const FormatInfo& f : kFormats) {
    if (f.format == format) return f;
  }
  throw std::invalid_argument("unknown YuvFormat");
}

uint32_t CeilShift(uint32_t v, uint32_t s) { return (v + (1u << s) - 1) >> s; }

PlaneLayout LayoutOf(const YuvFrameSpec& spec, const FormatInfo& f, uint32_t width, uint32_t height,
                     uint32_t pixel_stride) {
  const auto whole_samples = [&f](size_t bytes) {
    return (bytes + f.sample_size - 1) / f.sample_size * f.sample_size;
  };
  const size_t row = size_t(width) * pixel_stride;
  size_t padding = whole_samples(spec.pitch_padding);
  if (spec.pitch_alignment > 0) {
    padding = (row + padding + spec.pitch_alignment - 1) / spec.pitch_alignment * spec.pitch_alignment - row;
  }
  return PlaneLayout{width, height, pixel_stride, /*offset=*/0, f.sample_size, f.shift, f.depth, padding,
                     whole_samples(spec.base_offset)};
}

void ApplyRoi(const YuvFrameSpec& spec, cudahist::YuvPlanes& v) {
  if (!spec.has_roi) return;
  const cudahist::Roi chroma = ChromaRoi(spec.roi, v.log2_hsub, v.log2_vsub);
  v.y.has_roi = v.u.has_roi = v.v.has_roi = true;
  v.y.roi = spec.roi;
  v.u.roi = v.v.roi = chroma;
}

}  // namespace

const char* YuvFormatName(YuvFormat format) { return InfoOf(format).name; }
uint32_t YuvFormatDepth(YuvFormat format) { return InfoOf(format).depth; }

std::vector<YuvFormat> AllYuvFormats() {
  std::vector<YuvFormat> all;
  for (const FormatInfo& f : kFormats) all.push_back(f.format);
  return all;
}

std::string Describe(const YuvFrameSpec& s) {
  std::string d = std::string(YuvFormatName(s.format)) + " " + std::to_string(s.width) + "x" +
                  std::to_string(s.height) + " " + DistributionName(s.distribution) + " padding " +
                  std::to_string(s.pitch_padding) + " base " + std::to_string(s.base_offset);
  if (s.pitch_alignment > 0) d += " pitch a multiple of " + std::to_string(s.pitch_alignment);
  if (s.has_roi) {
    d += " roi (" + std::to_string(s.roi.x) + "," + std::to_string(s.roi.y) + ") " + std::to_string(s.roi.width) +
         "x" + std::to_string(s.roi.height);
  }
  return d;
}

cudahist::Roi ChromaRoi(const cudahist::Roi& r, uint32_t hsub, uint32_t vsub) {
  if (r.width == 0 || r.height == 0) return cudahist::Roi{r.x >> hsub, r.y >> vsub, 0, 0};
  const uint32_t x0 = r.x >> hsub, y0 = r.y >> vsub;
  return cudahist::Roi{x0, y0, ((r.x + r.width - 1) >> hsub) - x0 + 1, ((r.y + r.height - 1) >> vsub) - y0 + 1};
}

YuvFrame MakeYuvFrame(const YuvFrameSpec& spec, std::mt19937_64& rng) {
  const FormatInfo& f = InfoOf(spec.format);
  const uint32_t cw = CeilShift(spec.width, f.log2_hsub), ch = CeilShift(spec.height, f.log2_vsub);
  YuvFrame frame;
  cudahist::YuvPlanes& v = frame.view;
  v.log2_hsub = f.log2_hsub;
  v.log2_vsub = f.log2_vsub;
  const uint32_t s = f.sample_size;
  switch (f.kind) {
    case FormatInfo::Kind::kPlanar: {
      frame.planes.push_back(MakePlane(LayoutOf(spec, f, spec.width, spec.height, s), spec.distribution, rng,
                                       spec.one_value));
      frame.planes.push_back(MakePlane(LayoutOf(spec, f, cw, ch, s), spec.distribution, rng, spec.one_value));
      frame.planes.push_back(MakePlane(LayoutOf(spec, f, cw, ch, s), spec.distribution, rng, spec.one_value));
      v.y = frame.planes[0].view;
      v.u = frame.planes[f.swap_uv ? 2 : 1].view;
      v.v = frame.planes[f.swap_uv ? 1 : 2].view;
      break;
    }
    case FormatInfo::Kind::kSemiPlanar: {
      frame.planes.push_back(MakePlane(LayoutOf(spec, f, spec.width, spec.height, s), spec.distribution, rng,
                                       spec.one_value));
      frame.planes.push_back(
          MakeInterleavedPlane(LayoutOf(spec, f, cw, ch, 2 * s), 2, spec.distribution, rng, spec.one_value));
      const std::vector<cudahist::PlaneView> uv = ComponentViews(frame.planes[1], 2);
      v.y = frame.planes[0].view;
      v.u = uv[f.swap_uv ? 1 : 0];
      v.v = uv[f.swap_uv ? 0 : 1];
      break;
    }
    case FormatInfo::Kind::kPacked: {
      // Macropixels of 4 bytes (two luma samples and a chroma pair), as many
      // as chroma samples: an odd width's last macropixel holds one counted
      // luma sample and one garbage one.
      frame.planes.push_back(
          MakeInterleavedPlane(LayoutOf(spec, f, 2 * cw, spec.height, 2), 2, spec.distribution, rng, spec.one_value));
      const cudahist::PlaneView& packed = frame.planes[0].view;
      v.y = packed;
      v.y.width = spec.width;
      v.y.offset = f.swap_uv ? 1 : 0;  // UYVY: U Y0 V Y1
      v.u = packed;
      v.u.width = cw;
      v.u.pixel_stride = 4;
      v.u.offset = f.swap_uv ? 0 : 1;
      v.v = v.u;
      v.v.offset = f.swap_uv ? 2 : 3;
      break;
    }
  }
  ApplyRoi(spec, v);
  return frame;
}

YuvFrame MakePreviousYuvFrame(const YuvFrameSpec& spec, std::mt19937_64& rng) {
  YuvFrameSpec previous = spec;
  previous.distribution = Distribution::kUniform;
  previous.pitch_padding += 2;
  return MakeYuvFrame(previous, rng);
}

namespace {

uint8_t* LumaSample(const YuvFrame& frame, uint32_t x, uint32_t y) {
  const cudahist::PlaneView& p = frame.view.y;
  return static_cast<uint8_t*>(const_cast<void*>(p.data)) + size_t(y) * p.pitch + size_t(x) * p.pixel_stride +
         p.offset;
}

uint32_t LumaAt(const YuvFrame& frame, uint32_t x, uint32_t y) {
  const cudahist::PlaneView& p = frame.view.y;
  const uint8_t* at = LumaSample(frame, x, y);
  uint32_t word = 0;
  for (uint32_t b = 0; b < p.sample_size; ++b) word |= uint32_t(at[b]) << (8 * b);
  return (word >> p.shift) & ((1u << p.depth) - 1);
}

// Only the sample's bits change: the rest of a packed word stays.
void SetLuma(const YuvFrame& frame, uint32_t x, uint32_t y, uint32_t value) {
  const cudahist::PlaneView& p = frame.view.y;
  uint8_t* at = LumaSample(frame, x, y);
  uint32_t word = 0;
  for (uint32_t b = 0; b < p.sample_size; ++b) word |= uint32_t(at[b]) << (8 * b);
  const uint32_t mask = ((1u << p.depth) - 1) << p.shift;
  word = (word & ~mask) | ((value << p.shift) & mask);
  for (uint32_t b = 0; b < p.sample_size; ++b) at[b] = uint8_t(word >> (8 * b));
}

}  // namespace

void AddQcStructure(const YuvFrame& frame, std::mt19937_64& rng) {
  const cudahist::Roi r = cudahist::CountedRegion(frame.view.y);
  const uint32_t top = (1u << frame.view.y.depth) - 1;
  std::uniform_int_distribution<uint32_t> any(0, top);
  for (uint32_t y = 0; y < r.height; ++y) {
    for (uint32_t x = 0; x < r.width; ++x) {
      uint32_t v = any(rng);
      if (y < r.height / 5 || x < r.width / 7) {
        v = 0;
      } else if (y % 4 == 1 && y >= 4) {
        v = LumaAt(frame, r.x + x, r.y + y - 4);
      } else if (y % 4 == 3) {
        v = x % 2 ? top : 3;
      }
      SetLuma(frame, r.x + x, r.y + y, v);
    }
  }
}

std::string QcCountsDifference(const cudahist::QcCounts& got, const cudahist::QcCounts& want) {
  auto field = [](const std::string& name, uint64_t a, uint64_t b) {
    return a == b ? std::string() : name + ": " + std::to_string(a) + " != " + std::to_string(b);
  };
  for (const std::string& d :
       {field("depth", got.depth, want.depth), field("width", got.width, want.width),
        field("height", got.height, want.height), field("chroma_width", got.chroma_width, want.chroma_width),
        field("chroma_height", got.chroma_height, want.chroma_height),
        field("has_line_sums", got.has_line_sums, want.has_line_sums), field("tout", got.tout, want.tout),
        field("vrep_rows", got.vrep_rows, want.vrep_rows), field("field_sse[0]", got.field_sse[0], want.field_sse[0]),
        field("field_sse[1]", got.field_sse[1], want.field_sse[1]),
        field("field_sse[2]", got.field_sse[2], want.field_sse[2])}) {
    if (!d.empty()) return d;
  }
  // Every entry, beyond the region's too: the counts are written whole (zeros there).
  for (uint32_t y = 0; y < cudahist::kQcMaxHeight; ++y) {
    if (got.row_sums[y] != want.row_sums[y]) {
      return field("row_sums[" + std::to_string(y) + "]", got.row_sums[y], want.row_sums[y]);
    }
  }
  for (uint32_t x = 0; x < cudahist::kQcMaxWidth; ++x) {
    if (got.column_sums[x] != want.column_sums[x]) {
      return field("column_sums[" + std::to_string(x) + "]", got.column_sums[x], want.column_sums[x]);
    }
  }
  return "";
}

std::string CountsDifference(const cudahist::SignalStatsCounts& got, const cudahist::SignalStatsCounts& want) {
  auto field = [](const char* name, uint64_t a, uint64_t b) {
    return a == b ? std::string() : std::string(name) + ": " + std::to_string(a) + " != " + std::to_string(b);
  };
  for (const std::string& d :
       {field("depth", got.depth, want.depth), field("has_previous", got.has_previous, want.has_previous),
        field("luma_samples", got.luma_samples, want.luma_samples),
        field("chroma_samples", got.chroma_samples, want.chroma_samples), field("dif_y", got.dif_y, want.dif_y),
        field("dif_u", got.dif_u, want.dif_u), field("dif_v", got.dif_v, want.dif_v),
        field("brng", got.brng, want.brng)}) {
    if (!d.empty()) return d;
  }
  struct Histogram {
    const char* name;
    const uint32_t* got;
    const uint32_t* want;
    uint32_t bins;
  };
  const Histogram histograms[] = {{"y", got.y, want.y, cudahist::kSignalStatsMaxBins},
                                  {"u", got.u, want.u, cudahist::kSignalStatsMaxBins},
                                  {"v", got.v, want.v, cudahist::kSignalStatsMaxBins},
                                  {"sat", got.sat, want.sat, cudahist::kSignalStatsMaxBins},
                                  {"hue", got.hue, want.hue, cudahist::kHueBins}};
  for (const Histogram& h : histograms) {
    for (uint32_t i = 0; i < h.bins; ++i) {
      if (h.got[i] != h.want[i]) {
        return std::string(h.name) + "[" + std::to_string(i) + "]: " + std::to_string(h.got[i]) +
               " != " + std::to_string(h.want[i]);
      }
    }
  }
  return "";
}

std::vector<YuvFrameSpec> SignalStatsMatrix() {
  struct Size {
    uint32_t w, h;
  };
  const Size sizes[] = {{1, 1}, {3, 5}, {18, 4}, {333, 77}};
  std::vector<YuvFrameSpec> all;
  for (YuvFormat format : AllYuvFormats()) {
    for (const Size& size : sizes) {
      YuvFrameSpec s{format, size.w, size.h};
      s.pitch_padding = size.w % 2 == 1 ? 7 : 0;
      s.base_offset = size.h % 2 == 1 ? 3 : 0;
      all.push_back(s);
    }
    YuvFrameSpec big{format, 333, 77};
    big.pitch_padding = 13;
    big.base_offset = 5;
    YuvFrameSpec flat = big;
    flat.distribution = Distribution::kOneValue;
    flat.one_value = 241;  // out of range at 8 bits, in range at 10
    all.push_back(flat);
    YuvFrameSpec peaked = big;
    peaked.distribution = Distribution::kPeaked;
    all.push_back(peaked);
    for (const cudahist::Roi& roi : {cudahist::Roi{3, 1, 100, 50}, cudahist::Roi{0, 0, 333, 77},
                                     cudahist::Roi{331, 75, 2, 2}, cudahist::Roi{7, 9, 0, 4}}) {
      YuvFrameSpec r = big;
      r.has_roi = true;
      r.roi = roi;
      all.push_back(r);
    }
  }
  return all;
}

std::vector<MatrixFrames> SignalStatsMatrixFrames(std::mt19937_64& rng) {
  std::vector<MatrixFrames> all;
  for (const YuvFrameSpec& spec : SignalStatsMatrix()) {
    YuvFrame frame = MakeYuvFrame(spec, rng);
    all.push_back(MatrixFrames{spec, std::move(frame), MakePreviousYuvFrame(spec, rng)});
  }
  return all;
}

}  // namespace cudahist_test
