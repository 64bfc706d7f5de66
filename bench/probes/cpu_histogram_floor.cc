// bench/probes/cpu_histogram_floor.cc: the least a CPU core can spend on a
// decoded 1080p frame before any QC figure exists, to hold against what the
// decoder spends on it. Every figure of a QCTools report rests on the Y, U
// and V histograms, so each sample must at least be read and counted once:
//   read       every sample read once and summed (the memory traffic alone)
//   histograms every sample counted into its plane's histogram, four partial
//              histograms a plane so that repeated values do not wait on one
//              another's increments (the usual fastest scalar form)
//   report     what the report's histogram figures need at least: the Y, U
//              and V histograms, the saturation and hue histograms of every
//              chroma pair (SAT*, HUEMED, HUEAVG; one table lookup a pair, as
//              the element does) and the absolute differences against the
//              previous frame (YDIF, UDIF, VDIF). The fastest of two forms:
//              the differences in the histogram loops, or in a pass of their
//              own that the compiler vectorises. BRNG, TOUT, VREP, cropdetect
//              and the field PSNR come on top of it.
// for 8-bit 4:2:0 (I420, 256 bins) and 10-bit 4:2:2 (I422_10LE, 1024 bins).
// Without arguments the frames hold random samples; with FORMAT FILE they are
// the first 8 frames of a raw 1920x1080 file of that format, e.g.
//   ffmpeg -i clip.mp4 -frames:v 8 -f rawvideo -pix_fmt yuv420p clip.yuv
//   floor I420 clip.yuv
// Prints milliseconds a frame, the median of 15 passes over 8 frames.
//   g++ -O3 -march=native -o floor cpu_histogram_floor.cc
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kWidth = 1920, kHeight = 1080;
constexpr int kFrames = 8;   // more than the caches hold: 25 MB of I420, 66 MB of I422_10LE
constexpr int kPasses = 15;
constexpr int kPartials = 4;
constexpr int kHueBins = 360;

template <typename Sample>
struct Frame {
  std::vector<Sample> planes[3];
};

struct Layout {
  int chroma_width, chroma_height, depth;
  int bins() const { return 1 << depth; }
};

template <typename Sample>
void SizePlanes(const Layout& layout, Frame<Sample>* f) {
  f->planes[0].resize(size_t(kWidth) * kHeight);
  f->planes[1].resize(size_t(layout.chroma_width) * layout.chroma_height);
  f->planes[2].resize(size_t(layout.chroma_width) * layout.chroma_height);
}

template <typename Sample>
std::vector<Frame<Sample>> RandomFrames(const Layout& layout) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> value(0, layout.bins() - 1);
  std::vector<Frame<Sample>> frames(kFrames);
  for (auto& f : frames) {
    SizePlanes(layout, &f);
    for (auto& plane : f.planes)
      for (auto& s : plane) s = Sample(value(rng));
  }
  return frames;
}

// The first kFrames frames of a raw file, planes one after another.
template <typename Sample>
std::vector<Frame<Sample>> FramesOfFile(const Layout& layout, const char* path) {
  FILE* file = std::fopen(path, "rb");
  if (!file) {
    std::fprintf(stderr, "floor: cannot open %s: %s\n", path, std::strerror(errno));
    std::exit(1);
  }
  std::vector<Frame<Sample>> frames(kFrames);
  for (auto& f : frames) {
    SizePlanes(layout, &f);
    for (auto& plane : f.planes)
      if (std::fread(plane.data(), sizeof(Sample), plane.size(), file) != plane.size()) {
        std::fprintf(stderr, "floor: %s holds fewer than %d frames of 1920x1080\n", path, kFrames);
        std::exit(1);
      }
  }
  std::fclose(file);
  return frames;
}

// Entry (u << depth) | v: sat in the low 16 bits, hue in the high 16, with
// signalstats' formulas, so that the histograms fill as the report's do.
std::vector<uint32_t> SatHueTable(int depth) {
  const int size = 1 << depth;
  const float mid = float(1 << (depth - 1));
  std::vector<uint32_t> table(size_t(size) * size);
  for (int u = 0; u < size; ++u)
    for (int v = 0; v < size; ++v) {
      const uint32_t sat = uint32_t(std::lrintf(std::hypot(u - mid, v - mid)));
      const uint32_t hue = uint32_t(std::floor(180.f / float(M_PI) * std::atan2(u - mid, v - mid) + 180.f)) % kHueBins;
      table[(size_t(u) << depth) | v] = sat | (hue << 16);
    }
  return table;
}

template <typename Sample>
uint64_t Read(const Frame<Sample>& f) {
  uint64_t sum = 0;
  for (const auto& plane : f.planes)
    for (Sample s : plane) sum += s;
  return sum;
}

// One plane into kPartials partial histograms of `bins` counters each.
template <typename Sample>
void CountPlane(const std::vector<Sample>& plane, int bins, uint32_t* __restrict c) {
  const Sample* __restrict s = plane.data();
  const size_t n = plane.size();
  size_t i = 0;
  for (; i + kPartials <= n; i += kPartials) {
    ++c[s[i]];
    ++c[bins + s[i + 1]];
    ++c[2 * bins + s[i + 2]];
    ++c[3 * bins + s[i + 3]];
  }
  for (; i < n; ++i) ++c[s[i]];
}

uint64_t Checksum(const std::vector<uint32_t>& counts) {
  uint64_t check = 0;
  for (size_t i = 0; i < counts.size(); ++i) check += (i & 1023) * counts[i];
  return check;
}

template <typename Sample>
uint64_t Histograms(const Frame<Sample>& f, int bins, std::vector<uint32_t>* counts) {
  uint64_t check = 0;
  for (const auto& plane : f.planes) {
    counts->assign(size_t(kPartials) * bins, 0);
    CountPlane(plane, bins, counts->data());
    check += Checksum(*counts);
  }
  return check;
}

template <typename Sample>
uint64_t SumAbsDiff(const std::vector<Sample>& a, const std::vector<Sample>& b) {
  const Sample* __restrict x = a.data();
  const Sample* __restrict y = b.data();
  uint64_t sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += uint32_t(std::abs(int(x[i]) - int(y[i])));
  return sum;
}

// U, V, sat and hue of the chroma pairs, two partial histograms each; with
// kDifferences also the sum of |u - previous u| + |v - previous v|.
template <bool kDifferences, typename Sample>
uint64_t CountChroma(const Frame<Sample>& f, const Frame<Sample>& previous, const Layout& layout,
                     const uint32_t* __restrict table, uint32_t* __restrict u_counts, uint32_t* __restrict v_counts,
                     uint32_t* __restrict sat, uint32_t* __restrict hue) {
  const int bins = layout.bins(), depth = layout.depth;
  const Sample* __restrict u = f.planes[1].data();
  const Sample* __restrict v = f.planes[2].data();
  const Sample* __restrict pu = previous.planes[1].data();
  const Sample* __restrict pv = previous.planes[2].data();
  const size_t n = f.planes[1].size();
  uint64_t dif = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t copy = i & 1;
    ++u_counts[copy * bins + u[i]];
    ++v_counts[copy * bins + v[i]];
    const uint32_t entry = table[(size_t(u[i]) << depth) | v[i]];
    ++sat[copy * bins + (entry & 0xffff)];
    ++hue[copy * kHueBins + (entry >> 16)];
    if constexpr (kDifferences)
      dif += uint32_t(std::abs(int(u[i]) - int(pu[i]))) + uint32_t(std::abs(int(v[i]) - int(pv[i])));
  }
  return dif;
}

template <typename Sample>
uint64_t CountLumaWithDifferences(const Frame<Sample>& f, const Frame<Sample>& previous, int bins,
                                  uint32_t* __restrict c) {
  const Sample* __restrict s = f.planes[0].data();
  const Sample* __restrict p = previous.planes[0].data();
  const size_t n = f.planes[0].size();
  uint64_t dif = 0;
  size_t i = 0;
  for (; i + kPartials <= n; i += kPartials) {
    for (int k = 0; k < kPartials; ++k) {
      ++c[k * bins + s[i + k]];
      dif += uint32_t(std::abs(int(s[i + k]) - int(p[i + k])));
    }
  }
  for (; i < n; ++i) {
    ++c[s[i]];
    dif += uint32_t(std::abs(int(s[i]) - int(p[i])));
  }
  return dif;
}

struct ReportCounts {
  std::vector<uint32_t> luma, u, v, sat, hue;
  void Clear(int bins) {
    luma.assign(size_t(kPartials) * bins, 0);
    u.assign(2 * size_t(bins), 0);
    v.assign(2 * size_t(bins), 0);
    sat.assign(2 * size_t(bins), 0);
    hue.assign(2 * size_t(kHueBins), 0);
  }
  uint64_t Check() const { return Checksum(luma) + Checksum(u) + Checksum(v) + Checksum(sat) + Checksum(hue); }
};

// The differences in passes of their own.
template <typename Sample>
uint64_t ReportSeparate(const Frame<Sample>& f, const Frame<Sample>& previous, const Layout& layout,
                        const uint32_t* table, ReportCounts* counts) {
  counts->Clear(layout.bins());
  CountPlane(f.planes[0], layout.bins(), counts->luma.data());
  CountChroma<false>(f, previous, layout, table, counts->u.data(), counts->v.data(), counts->sat.data(),
                     counts->hue.data());
  uint64_t dif = 0;
  for (int p = 0; p < 3; ++p) dif += SumAbsDiff(f.planes[p], previous.planes[p]);
  return counts->Check() + dif;
}

// The differences in the histogram loops.
template <typename Sample>
uint64_t ReportFused(const Frame<Sample>& f, const Frame<Sample>& previous, const Layout& layout,
                     const uint32_t* table, ReportCounts* counts) {
  counts->Clear(layout.bins());
  uint64_t dif = CountLumaWithDifferences(f, previous, layout.bins(), counts->luma.data());
  dif += CountChroma<true>(f, previous, layout, table, counts->u.data(), counts->v.data(), counts->sat.data(),
                           counts->hue.data());
  return counts->Check() + dif;
}

template <typename Work>
double MedianMsPerFrame(Work work) {
  std::vector<double> passes;
  volatile uint64_t sink = 0;
  for (int p = 0; p < kPasses + 1; ++p) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int f = 0; f < kFrames; ++f) sink = sink + work(f);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (p > 0) passes.push_back(ms / kFrames);  // the first pass warms up
  }
  std::sort(passes.begin(), passes.end());
  return passes[passes.size() / 2];
}

template <typename Sample>
void Measure(const char* name, const Layout& layout, const char* file) {
  const auto frames = file ? FramesOfFile<Sample>(layout, file) : RandomFrames<Sample>(layout);
  const std::vector<uint32_t> table = SatHueTable(layout.depth);
  std::vector<uint32_t> counts;
  ReportCounts report;
  const int bins = layout.bins();
  auto previous = [&](int f) -> const Frame<Sample>& { return frames[(f + kFrames - 1) % kFrames]; };
  const double read = MedianMsPerFrame([&](int f) { return Read(frames[f]); });
  const double histograms = MedianMsPerFrame([&](int f) { return Histograms(frames[f], bins, &counts); });
  const double separate = MedianMsPerFrame(
      [&](int f) { return ReportSeparate(frames[f], previous(f), layout, table.data(), &report); });
  const double fused =
      MedianMsPerFrame([&](int f) { return ReportFused(frames[f], previous(f), layout, table.data(), &report); });
  const size_t samples = frames[0].planes[0].size() + 2 * frames[0].planes[1].size();
  std::printf(
      "%s 1920x1080 (%zu samples, %s): read %.3f ms, histograms %.3f ms (%.2f ns a sample), "
      "report %.3f ms a frame (differences apart %.3f, in the loops %.3f)\n",
      name, samples, file ? file : "random", read, histograms, 1e6 * histograms / double(samples),
      std::min(separate, fused), separate, fused);
}

constexpr Layout kI420{kWidth / 2, kHeight / 2, 8};
constexpr Layout kI422_10{kWidth / 2, kHeight, 10};

}  // namespace

int main(int argc, char** argv) {
  if (argc == 1) {
    Measure<uint8_t>("I420", kI420, nullptr);
    Measure<uint16_t>("I422_10LE", kI422_10, nullptr);
    return 0;
  }
  const std::string format = argc == 3 ? argv[1] : "";
  if (format == "I420") {
    Measure<uint8_t>("I420", kI420, argv[2]);
  } else if (format == "I422_10LE") {
    Measure<uint16_t>("I422_10LE", kI422_10, argv[2]);
  } else {
    std::fprintf(stderr, "usage: floor [I420|I422_10LE RAW_1920x1080_FILE]\n");
    return 2;
  }
  return 0;
}
