// The monitor's detectors on hand-made histograms.
#include "monitor_analysis.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

// A 256-bin, 8-bit histogram with `count` samples at each given value.
std::vector<uint32_t> Histogram(std::initializer_list<std::pair<uint32_t, uint32_t>> value_counts) {
  std::vector<uint32_t> h(256, 0);
  for (auto [value, count] : value_counts) h[value] += count;
  return h;
}

monitor::HistogramRef Ref(const std::vector<uint32_t>& h, uint32_t depth = 8) {
  return {h.data(), uint32_t(h.size()), depth};
}

TEST(Summarize, ExactWithOneBinPerValue) {
  const auto h = Histogram({{10, 1}, {20, 3}});
  const monitor::ComponentSummary s = monitor::Summarize(Ref(h));
  EXPECT_EQ(s.samples, 4u);
  EXPECT_DOUBLE_EQ(s.mean, 17.5);
  EXPECT_EQ(s.min, 10u);
  EXPECT_EQ(s.max, 20u);
  EXPECT_DOUBLE_EQ(s.clipped_low, 0.0);
  EXPECT_DOUBLE_EQ(s.clipped_high, 0.0);
}

TEST(Summarize, ClippingIsTheShareOfTheExtremeBins) {
  const auto h = Histogram({{0, 1}, {128, 2}, {255, 1}});
  const monitor::ComponentSummary s = monitor::Summarize(Ref(h));
  EXPECT_DOUBLE_EQ(s.clipped_low, 0.25);
  EXPECT_DOUBLE_EQ(s.clipped_high, 0.25);
}

TEST(Summarize, CoarseBinsStandForTheirValueRange) {
  // 4 bins over 10-bit values: bin 1 holds 256..511, bin 3 holds 768..1023.
  const std::vector<uint32_t> h = {0, 1, 0, 1};
  const monitor::ComponentSummary s = monitor::Summarize(Ref(h, 10));
  EXPECT_EQ(s.min, 256u);
  EXPECT_EQ(s.max, 1023u);
  EXPECT_DOUBLE_EQ(s.mean, (383.5 + 895.5) / 2);
}

TEST(Summarize, EmptyHistogramHasNoSamples) {
  const std::vector<uint32_t> h(256, 0);
  EXPECT_EQ(monitor::Summarize(Ref(h)).samples, 0u);
}

TEST(FractionBelow, CountsValuesUnderTheThreshold) {
  const auto h = Histogram({{16, 97}, {31, 1}, {32, 2}});
  EXPECT_DOUBLE_EQ(monitor::FractionBelow(Ref(h), 32), 0.98);
  EXPECT_DOUBLE_EQ(monitor::FractionBelow(Ref(h), 16), 0.0);
}

TEST(FractionBelow, ScalesAnEightBitThresholdToTenBits) {
  // 1024 bins, 10-bit: 8-bit threshold 32 is 10-bit 128.
  std::vector<uint32_t> h(1024, 0);
  h[127] = 1;
  h[128] = 1;
  EXPECT_DOUBLE_EQ(monitor::FractionBelow(Ref(h, 10), 32), 0.5);
}

TEST(HistogramDistance, ZeroForTheSameShapeOneForDisjoint) {
  const auto a = Histogram({{10, 2}, {20, 2}});
  const auto b = Histogram({{10, 50}, {20, 50}});  // same shape, more samples
  const auto c = Histogram({{200, 7}});
  EXPECT_DOUBLE_EQ(monitor::HistogramDistance(Ref(a), Ref(b)), 0.0);
  EXPECT_EQ(monitor::HistogramDistance(Ref(a), Ref(c)), 1.0);  // exactly: a threshold of 1 is never exceeded
  const auto d = Histogram({{10, 2}, {200, 2}});
  EXPECT_DOUBLE_EQ(monitor::HistogramDistance(Ref(a), Ref(d)), 0.5);
}

std::string Sketch(const std::vector<uint64_t>& counts, uint32_t columns) {
  return monitor::Sketch(counts.data(), uint32_t(counts.size()), columns);
}

TEST(Sketch, OneCharacterPerGroupScaledToTheFullest) {
  // 256 bins in 32 groups of 8: group 0 full, group 31 an eighth as full, the rest empty.
  std::vector<uint64_t> h(256, 0);
  h[3] = 80;
  h[250] = 10;
  EXPECT_EQ(Sketch(h, 32), "█" + std::string(30, ' ') + "▁");
}

TEST(Sketch, RareValuesStayVisibleBeyond32Bits) {
  std::vector<uint64_t> h(256, 0);
  h[0] = uint64_t(1) << 40;  // counts summed over a long interval
  h[255] = 1;
  EXPECT_EQ(Sketch(h, 2), "█▁");
}

TEST(Sketch, FewerBinsThanColumns) {
  EXPECT_EQ(Sketch({1, 0, 2}, 32), "▄ █");
}

TEST(ValidateOptions, NamesTheBadOption) {
  monitor::DetectorOptions o;
  EXPECT_EQ(monitor::ValidateOptions(o), "");
  o.black_amount = 1.5;
  EXPECT_NE(monitor::ValidateOptions(o).find("--black-amount"), std::string::npos);
  o = {};
  o.cut_threshold = -0.1;
  EXPECT_NE(monitor::ValidateOptions(o).find("--cut-threshold"), std::string::npos);
  o = {};
  o.clip_amount = 2;
  EXPECT_NE(monitor::ValidateOptions(o).find("--clip-amount"), std::string::npos);
  o = {};
  o.black_threshold = 300;
  EXPECT_NE(monitor::ValidateOptions(o).find("--black-threshold"), std::string::npos);
}

TEST(FrameAnalyzer, BlackFrozenAndCutInSequence) {
  monitor::FrameAnalyzer analyzer(monitor::DetectorOptions{});
  const auto bars = Histogram({{16, 100}, {128, 100}, {235, 100}});
  const auto black = Histogram({{16, 300}});

  const monitor::FrameFindings first = analyzer.Analyze(Ref(bars));
  EXPECT_EQ(first.frame, 0u);
  EXPECT_FALSE(first.has_previous);
  EXPECT_FALSE(first.black || first.frozen || first.cut);

  const monitor::FrameFindings same = analyzer.Analyze(Ref(bars));
  EXPECT_TRUE(same.frozen);
  EXPECT_FALSE(same.cut);

  const monitor::FrameFindings cut = analyzer.Analyze(Ref(black));
  EXPECT_EQ(cut.frame, 2u);
  EXPECT_TRUE(cut.black);
  EXPECT_TRUE(cut.cut);
  EXPECT_FALSE(cut.frozen);
  EXPECT_NEAR(cut.distance, 2.0 / 3.0, 1e-12);

  const monitor::FrameFindings still_black = analyzer.Analyze(Ref(black));
  EXPECT_TRUE(still_black.black && still_black.frozen);
  EXPECT_FALSE(still_black.cut);
}

TEST(FrameAnalyzer, ThresholdsComeFromTheOptions) {
  monitor::DetectorOptions o;
  o.black_amount = 0.5;
  o.black_threshold = 20;
  o.clip_amount = 0.3;
  monitor::FrameAnalyzer analyzer(o);
  const auto h = Histogram({{16, 60}, {255, 40}});
  const monitor::FrameFindings f = analyzer.Analyze(Ref(h));
  EXPECT_TRUE(f.black);
  EXPECT_DOUBLE_EQ(f.black_fraction, 0.6);
  EXPECT_TRUE(f.clipped);
}

TEST(FrameAnalyzer, NewBinCountRestartsTheComparison) {
  monitor::FrameAnalyzer analyzer(monitor::DetectorOptions{});
  const auto h256 = Histogram({{16, 10}});
  const std::vector<uint32_t> h4 = {10, 0, 0, 0};
  analyzer.Analyze(Ref(h256));
  EXPECT_FALSE(analyzer.Analyze(Ref(h4)).has_previous);
}

TEST(EventLines, OneJsonLinePerEvent) {
  monitor::FrameFindings f;
  f.frame = 7;
  f.black = true;
  f.black_fraction = 1.0;
  f.cut = true;
  f.distance = 0.75;
  const auto lines = monitor::EventLines(f, 0.25, false);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], R"({"event":"black","frame":7,"pts":0.25,"fraction":1})");
  EXPECT_EQ(lines[1], R"({"event":"cut","frame":7,"pts":0.25,"distance":0.75})");
}

TEST(EventLines, SummaryLineFirstAndNoPtsWhenUnknown) {
  monitor::FrameFindings f;
  f.frame = 1;
  f.luma.mean = 100;
  f.luma.min = 16;
  f.luma.max = 235;
  f.frozen = true;
  f.has_previous = true;
  const auto lines = monitor::EventLines(f, -1, true);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            R"({"event":"frame","frame":1,"mean":100,"min":16,"max":235,"black_fraction":0,"distance":0})");
  EXPECT_EQ(lines[1], R"({"event":"frozen","frame":1})");
}

}  // namespace
