// The monitor's config reader and alarm tracker on plain values.
#include <gtest/gtest.h>

#include "alerts.h"
#include "config.h"

namespace monitor {
namespace {

Observation Picture(double y_high, double y_dif = 5) {
  Observation o;
  o.up = true;
  o.has_figures = true;
  o.figures.y_low = 40;
  o.figures.y_high = y_high;
  o.figures.y_dif = y_dif;
  o.figures.sat_high = 50;
  return o;
}

TEST(AlarmTracker, BlackIsRaisedAfterItsHoldAndClearedAfterTheClearTime) {
  Thresholds t;
  t.hold[static_cast<int>(Alarm::kBlack)] = 2;
  t.clear = 3;
  AlarmTracker tracker(t);
  EXPECT_TRUE(tracker.Observe(0, Picture(180)).empty());
  EXPECT_TRUE(tracker.Observe(1, Picture(20)).empty());    // black starts
  EXPECT_TRUE(tracker.Observe(2.5, Picture(20)).empty());  // 1.5 s < hold
  auto raised = tracker.Observe(3, Picture(20));
  ASSERT_EQ(raised.size(), 1u);
  EXPECT_EQ(raised[0].alarm, Alarm::kBlack);
  EXPECT_TRUE(raised[0].raised);
  EXPECT_TRUE(tracker.active(Alarm::kBlack));
  EXPECT_TRUE(tracker.Observe(4, Picture(180)).empty());  // picture back: clear time starts
  EXPECT_TRUE(tracker.Observe(6, Picture(180)).empty());
  auto cleared = tracker.Observe(7, Picture(180));
  ASSERT_EQ(cleared.size(), 1u);
  EXPECT_FALSE(cleared[0].raised);
  EXPECT_DOUBLE_EQ(cleared[0].duration, 4);  // raised at 3, cleared at 7
  EXPECT_DOUBLE_EQ(tracker.seconds_in(Alarm::kBlack, 10), 4);
}

TEST(AlarmTracker, AFlickerShorterThanTheHoldsRaisesNothing) {
  Thresholds t;
  t.hold[static_cast<int>(Alarm::kBlack)] = 2;
  AlarmTracker tracker(t);
  for (int i = 0; i < 20; ++i) {
    EXPECT_TRUE(tracker.Observe(i, Picture(i % 2 ? 20 : 180)).empty()) << "at " << i;
  }
}

TEST(AlarmTracker, AFlickerShorterThanTheClearTimeKeepsTheAlarmRaised) {
  Thresholds t;
  t.hold[static_cast<int>(Alarm::kBlack)] = 0;
  t.clear = 2;
  AlarmTracker tracker(t);
  ASSERT_EQ(tracker.Observe(0, Picture(20)).size(), 1u);
  for (int i = 1; i < 20; ++i) tracker.Observe(i * 0.5, Picture(i % 2 ? 180 : 20));
  EXPECT_TRUE(tracker.active(Alarm::kBlack));
}

TEST(AlarmTracker, NoSignalWhenDownAndPictureAlarmsClear) {
  Thresholds t;
  t.hold.fill(0);
  t.clear = 0;
  AlarmTracker tracker(t);
  tracker.Observe(0, Picture(20, 0));  // black and frozen
  EXPECT_TRUE(tracker.active(Alarm::kBlack));
  EXPECT_TRUE(tracker.active(Alarm::kFrozen));
  Observation down;
  tracker.Observe(1, down);
  EXPECT_TRUE(tracker.active(Alarm::kNoSignal));
  EXPECT_FALSE(tracker.active(Alarm::kBlack));
  EXPECT_FALSE(tracker.active(Alarm::kFrozen));
}

TEST(AlarmTracker, RangeBrngAndSaturation) {
  Thresholds t;
  t.hold.fill(0);
  AlarmTracker tracker(t);
  Observation o = Picture(240);  // YHIGH above 235
  o.figures.brng = 0.2;
  o.figures.sat_high = 130;
  tracker.Observe(0, o);
  EXPECT_TRUE(tracker.active(Alarm::kLumaRange));
  EXPECT_TRUE(tracker.active(Alarm::kBroadcastRange));
  EXPECT_TRUE(tracker.active(Alarm::kSaturation));
  EXPECT_FALSE(tracker.active(Alarm::kBlack));
}

TEST(Config, ReadsStreamsWithTheirOwnAndTheDefaultThresholds) {
  MonitorConfig c;
  std::string error;
  ASSERT_TRUE(ParseConfig("[monitor]\nlisten=127.0.0.1:9999\nblack-hold=4\n\n"
                          "[stream studio a]\nuri=udp://127.0.0.1:5000\nblack-luma=20\n"
                          "[stream promo]\nuri=file:///media/promo.mp4\nloop=true\n",
                          "test.conf", &c, &error))
      << error;
  EXPECT_EQ(c.listen, "127.0.0.1:9999");
  ASSERT_EQ(c.streams.size(), 2u);
  EXPECT_EQ(c.streams[0].name, "studio a");
  EXPECT_EQ(c.streams[0].thresholds.black_luma, 20);
  EXPECT_EQ(c.streams[0].thresholds.hold[static_cast<int>(Alarm::kBlack)], 4);
  EXPECT_EQ(c.streams[1].thresholds.black_luma, Thresholds().black_luma);
  EXPECT_TRUE(c.streams[1].loop);
  EXPECT_FALSE(c.streams[0].loop);
}

// Each malformed config: the error names the file and the line.
struct Malformed {
  const char* text;
  const char* where;   // "test.conf:LINE:"
  const char* saying;  // a part of the message
};

class MalformedConfig : public testing::TestWithParam<Malformed> {};

TEST_P(MalformedConfig, ErrorNamesTheLine) {
  MonitorConfig c;
  std::string error;
  EXPECT_FALSE(ParseConfig(GetParam().text, "test.conf", &c, &error));
  EXPECT_EQ(error.rfind(GetParam().where, 0), 0u) << error;
  EXPECT_NE(error.find(GetParam().saying), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(
    Config, MalformedConfig,
    testing::Values(
        Malformed{"[stream a]\nuri=udp://127.0.0.1:5000\nthis line is wrong\n", "test.conf:3:", "this line is wrong"},
        Malformed{"[stream a]\nuri=udp://127.0.0.1:5000\n\nblack-luma=dark\n", "test.conf:4:", "not a number"},
        Malformed{"[stream a]\n# comment\nuri=udp://x\nblak-hold=3\n", "test.conf:4:", "unknown key 'blak-hold'"},
        Malformed{"[monitor]\nlisten=9720\n", "test.conf:2:", "HOST:PORT"},
        Malformed{"[stream a]\nloop=true\n", "test.conf:1:", "no uri="},
        Malformed{"[stream a]\nuri=just words\n", "test.conf:2:", "not a URI"},
        Malformed{"[stream a]\nuri=udp://x\n[stream a]\nuri=udp://y\n", "test.conf:3:", "given twice"},
        Malformed{"[stream a]\nuri=udp://x\nuri=udp://y\n", "test.conf:3:", "given twice"},
        Malformed{"[monitor]\ndecoder=fast\n", "test.conf:2:", "auto, nvdec or cpu"},
        Malformed{"[stream a]\nuri=udp://x\nluma-min=240\n", "test.conf:1:", "luma-min must be below luma-max"},
        Malformed{"[streams]\nuri=udp://x\n", "test.conf:1:", "unknown group"},
        Malformed{"[stream a]\nuri=udp://x\nloop=maybe\n", "test.conf:3:", "true or false"}));

TEST(Config, StreamsFromUrisAreNamedAfterThem) {
  auto streams = StreamsFromUris({"srt://127.0.0.1:7001", "file:///a.mp4"});
  ASSERT_EQ(streams.size(), 2u);
  EXPECT_EQ(streams[0].name, "srt://127.0.0.1:7001");
  EXPECT_EQ(streams[1].uri, "file:///a.mp4");
}

TEST(Config, ListenAddress) {
  std::string host;
  int port = 0;
  EXPECT_TRUE(ParseListen("127.0.0.1:9720", &host, &port));
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, 9720);
  EXPECT_FALSE(ParseListen("127.0.0.1", &host, &port));
  EXPECT_FALSE(ParseListen("127.0.0.1:99999", &host, &port));
  EXPECT_FALSE(ParseListen(":80", &host, &port));
}

}  // namespace
}  // namespace monitor
