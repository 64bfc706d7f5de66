#include "monitor_analysis.h"

#include <algorithm>
#include <cstdio>

#include "cudahist/statistics.h"

namespace monitor {
namespace {

uint64_t Total(const HistogramRef& h) {
  uint64_t total = 0;
  for (uint32_t b = 0; b < h.bins; ++b) total += h.counts[b];
  return total;
}

uint32_t HighestValue(const HistogramRef& h, uint32_t bin) {
  return cudahist::BinHighestValue(bin, h.bins, h.depth);
}

// Values are printed with a fixed, locale-independent precision so that
// lines compare equal from run to run.
std::string Number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

std::string FramePrefix(const char* event, const FrameFindings& f, double pts_seconds) {
  std::string line = std::string("{\"event\":\"") + event + "\",\"frame\":" + std::to_string(f.frame);
  if (pts_seconds >= 0) line += ",\"pts\":" + Number(pts_seconds);
  return line;
}

}  // namespace

ComponentSummary Summarize(const HistogramRef& h) { return cudahist::Statistics(h.counts, h.bins, h.depth); }

double FractionBelow(const HistogramRef& h, uint32_t threshold8) {
  const uint64_t total = Total(h);
  if (total == 0) return 0.0;
  const uint64_t threshold =
      h.depth >= 8 ? uint64_t(threshold8) << (h.depth - 8) : uint64_t(threshold8) >> (8 - h.depth);
  uint64_t below = 0;
  for (uint32_t b = 0; b < h.bins && HighestValue(h, b) < threshold; ++b) below += h.counts[b];
  return double(below) / double(total);
}

double HistogramDistance(const HistogramRef& a, const HistogramRef& b) {
  const uint64_t ta = Total(a), tb = Total(b);
  if (ta == 0 || tb == 0) return (ta == tb) ? 0.0 : 1.0;
  // sum |a/ta - b/tb| / 2 computed as sum |a*tb - b*ta| / (2*ta*tb) in exact
  // integers, so that disjoint histograms give exactly 1 and equal shapes 0.
  unsigned __int128 l1 = 0;
  for (uint32_t i = 0; i < a.bins; ++i) {
    const unsigned __int128 x = (unsigned __int128)a.counts[i] * tb, y = (unsigned __int128)b.counts[i] * ta;
    l1 += x > y ? x - y : y - x;
  }
  return double(l1) / (2.0 * double(ta) * double(tb));
}

std::string Sketch(const uint64_t* counts, uint32_t bins, uint32_t columns) {
  static const char* const kLevels[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  const uint32_t groups = std::min(columns, bins);
  std::vector<uint64_t> sums(groups, 0);
  for (uint32_t b = 0; b < bins; ++b) sums[uint64_t(b) * groups / bins] += counts[b];
  const uint64_t fullest = groups ? *std::max_element(sums.begin(), sums.end()) : 0;
  std::string sketch;
  for (uint64_t s : sums) {
    // Any non-empty group shows at least the lowest block, so rare values stay visible.
    const uint64_t level = (s == 0) ? 0 : std::max<uint64_t>(1, (8 * s + fullest - 1) / fullest);
    sketch += kLevels[level];
  }
  return sketch;
}

std::string ValidateOptions(const DetectorOptions& o) {
  auto fraction = [](double v) { return v >= 0.0 && v <= 1.0; };
  if (!fraction(o.black_amount)) return "--black-amount must be a fraction from 0 to 1";
  if (o.black_threshold > 256) return "--black-threshold must be an 8-bit code value from 0 to 256";
  if (!fraction(o.clip_amount)) return "--clip-amount must be a fraction from 0 to 1";
  if (!fraction(o.cut_threshold)) return "--cut-threshold must be a distance from 0 to 1";
  return "";
}

FrameFindings FrameAnalyzer::Analyze(const HistogramRef& luma) {
  FrameFindings f;
  f.frame = frames_++;
  f.luma = Summarize(luma);
  f.black_fraction = FractionBelow(luma, options_.black_threshold);
  f.black = f.luma.samples > 0 && f.black_fraction >= options_.black_amount;
  f.clipped = f.luma.clipped_low >= options_.clip_amount || f.luma.clipped_high >= options_.clip_amount;
  // A new bin count (renegotiation) starts a new comparison chain.
  if (previous_.size() == luma.bins) {
    const HistogramRef previous{previous_.data(), luma.bins, luma.depth};
    f.has_previous = true;
    f.distance = HistogramDistance(luma, previous);
    f.frozen = std::equal(previous_.begin(), previous_.end(), luma.counts);
    f.cut = f.distance > options_.cut_threshold;
  }
  previous_.assign(luma.counts, luma.counts + luma.bins);
  return f;
}

std::vector<std::string> EventLines(const FrameFindings& f, double pts, bool summary) {
  std::vector<std::string> lines;
  if (summary)
    lines.push_back(FramePrefix("frame", f, pts) + ",\"mean\":" + Number(f.luma.mean) +
                    ",\"min\":" + std::to_string(f.luma.min) + ",\"max\":" + std::to_string(f.luma.max) +
                    ",\"black_fraction\":" + Number(f.black_fraction) +
                    (f.has_previous ? ",\"distance\":" + Number(f.distance) : std::string()) + "}");
  if (f.black) lines.push_back(FramePrefix("black", f, pts) + ",\"fraction\":" + Number(f.black_fraction) + "}");
  if (f.clipped)
    lines.push_back(FramePrefix("clipping", f, pts) + ",\"low\":" + Number(f.luma.clipped_low) +
                    ",\"high\":" + Number(f.luma.clipped_high) + "}");
  if (f.frozen) lines.push_back(FramePrefix("frozen", f, pts) + "}");
  if (f.cut) lines.push_back(FramePrefix("cut", f, pts) + ",\"distance\":" + Number(f.distance) + "}");
  return lines;
}

}  // namespace monitor
