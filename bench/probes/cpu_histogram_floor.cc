// bench/probes/cpu_histogram_floor.cc: the least a CPU core can spend on a
// decoded 1080p frame before any QC figure exists, to hold against what the
// decoder spends on it. Every figure of a QCTools report rests on the Y, U
// and V histograms, so each sample must at least be read and counted once:
//   read       every sample read once and summed (the memory traffic alone)
//   histograms every sample counted into its plane's histogram, four partial
//              histograms a plane so that repeated values do not wait on one
//              another's increments (the usual fastest scalar form)
// for 8-bit 4:2:0 (I420, 256 bins) and 10-bit 4:2:2 (I422_10LE, 1024 bins).
// The frames hold random samples, so the figures do not depend on content.
// Prints milliseconds a frame, the median of 15 passes over 8 frames.
//   g++ -O3 -march=native -o floor cpu_histogram_floor.cc
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

constexpr int kWidth = 1920, kHeight = 1080;
constexpr int kFrames = 8;   // more than the caches hold: 25 MB of I420, 66 MB of I422_10LE
constexpr int kPasses = 15;
constexpr int kPartials = 4;

template <typename Sample>
struct Frame {
  std::vector<Sample> planes[3];
};

template <typename Sample>
std::vector<Frame<Sample>> RandomFrames(int chroma_width, int chroma_height, int bins) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> value(0, bins - 1);
  std::vector<Frame<Sample>> frames(kFrames);
  for (auto& f : frames) {
    f.planes[0].resize(size_t(kWidth) * kHeight);
    f.planes[1].resize(size_t(chroma_width) * chroma_height);
    f.planes[2].resize(size_t(chroma_width) * chroma_height);
    for (auto& plane : f.planes)
      for (auto& s : plane) s = Sample(value(rng));
  }
  return frames;
}

template <typename Sample>
uint64_t Read(const Frame<Sample>& f) {
  uint64_t sum = 0;
  for (const auto& plane : f.planes)
    for (Sample s : plane) sum += s;
  return sum;
}

template <typename Sample>
uint64_t Histograms(const Frame<Sample>& f, int bins, std::vector<uint32_t>* counts) {
  uint64_t check = 0;
  for (const auto& plane : f.planes) {
    counts->assign(size_t(kPartials) * bins, 0);
    uint32_t* c = counts->data();
    const Sample* s = plane.data();
    const size_t n = plane.size();
    size_t i = 0;
    for (; i + kPartials <= n; i += kPartials) {
      ++c[s[i]];
      ++c[bins + s[i + 1]];
      ++c[2 * bins + s[i + 2]];
      ++c[3 * bins + s[i + 3]];
    }
    for (; i < n; ++i) ++c[s[i]];
    for (int b = 0; b < bins; ++b) check += uint64_t(b) * (c[b] + c[bins + b] + c[2 * bins + b] + c[3 * bins + b]);
  }
  return check;
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
void Measure(const char* name, int chroma_width, int chroma_height, int bins) {
  const auto frames = RandomFrames<Sample>(chroma_width, chroma_height, bins);
  std::vector<uint32_t> counts;
  const double read = MedianMsPerFrame([&](int f) { return Read(frames[f]); });
  const double histograms = MedianMsPerFrame([&](int f) { return Histograms(frames[f], bins, &counts); });
  const size_t samples = frames[0].planes[0].size() + 2 * frames[0].planes[1].size();
  std::printf("%s 1920x1080 (%zu samples): read %.3f ms, histograms %.3f ms a frame (%.2f ns a sample)\n", name,
              samples, read, histograms, 1e6 * histograms / double(samples));
}

}  // namespace

int main() {
  Measure<uint8_t>("I420", kWidth / 2, kHeight / 2, 256);
  Measure<uint16_t>("I422_10LE", kWidth / 2, kHeight, 1024);
  return 0;
}
