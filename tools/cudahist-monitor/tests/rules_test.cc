// The monitor's config reader and alarm tracker on plain values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

#include "alerts.h"
#include "config.h"

namespace monitor {
namespace {

Observation Picture(double y_high, double y_dif = 5) {
  Observation o;
  o.up = true;
  o.picture = true;
  o.figures = {{"y-low", 40}, {"y-high", y_high}, {"y-dif", y_dif}, {"sat-high", 50}, {"brng", 0}};
  return o;
}

Observation Down() { return Observation(); }

Observation Sound(double rms_dbfs, double short_term_lufs) {
  Observation o = Picture(180);
  o.audio_expected = true;
  o.audio = true;
  o.figures["rms-dbfs-max"] = rms_dbfs;
  o.figures["short-term-lufs"] = short_term_lufs;
  return o;
}

TEST(AlarmTracker, BlackIsRaisedAfterItsHoldAndClearedAfterTheClearTime) {
  Thresholds t;
  t.hold_of(Alarm::kBlack) = 2;
  t.clear_of(Alarm::kBlack) = 3;
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
  t.hold_of(Alarm::kBlack) = 2;
  AlarmTracker tracker(t);
  for (int i = 0; i < 20; ++i) {
    EXPECT_TRUE(tracker.Observe(i, Picture(i % 2 ? 20 : 180)).empty()) << "at " << i;
  }
}

TEST(AlarmTracker, AFlickerShorterThanTheClearTimeKeepsTheAlarmRaised) {
  Thresholds t;
  t.hold_of(Alarm::kBlack) = 0;
  t.clear_of(Alarm::kBlack) = 2;
  AlarmTracker tracker(t);
  ASSERT_EQ(tracker.Observe(0, Picture(20)).size(), 1u);
  for (int i = 1; i < 20; ++i) tracker.Observe(i * 0.5, Picture(i % 2 ? 180 : 20));
  EXPECT_TRUE(tracker.active(Alarm::kBlack));
}

TEST(AlarmTracker, NoSignalWhenDownAndPictureAlarmsClear) {
  Thresholds t;
  t.hold.fill(0);
  t.clear.fill(0);
  AlarmTracker tracker(t);
  tracker.Observe(0, Picture(20, 0));  // black and frozen
  EXPECT_TRUE(tracker.active(Alarm::kBlack));
  EXPECT_TRUE(tracker.active(Alarm::kFrozen));
  const auto changes = tracker.Observe(1, Down());
  EXPECT_TRUE(tracker.active(Alarm::kNoSignal));
  EXPECT_FALSE(tracker.active(Alarm::kBlack));
  EXPECT_FALSE(tracker.active(Alarm::kFrozen));
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_TRUE(changes[0].raised);
  EXPECT_EQ(changes[0].alarm, Alarm::kNoSignal);
  for (int i : {1, 2}) {
    EXPECT_FALSE(changes[i].raised);
    EXPECT_EQ(changes[i].reason, ClearReason::kNoSignal) << "the picture did not recover: its signal went";
  }
}

// Every id raised once and cleared once, whatever ends it.
class Ledger {
 public:
  void Add(const std::vector<AlarmChange>& changes) {
    for (const AlarmChange& c : changes) {
      ASSERT_FALSE(c.id.empty());
      if (c.raised) {
        EXPECT_EQ(raised_.count(c.id), 0u) << "raised twice: " << c.id;
        raised_[c.id] = c.alarm;
      } else {
        EXPECT_EQ(raised_.count(c.id), 1u) << "cleared, never raised: " << c.id;
        EXPECT_EQ(cleared_.count(c.id), 0u) << "cleared twice: " << c.id;
        EXPECT_EQ(raised_[c.id], c.alarm);
        cleared_[c.id] = c.reason;
        order_.push_back(c.id);
      }
    }
  }
  size_t open() const { return raised_.size() - cleared_.size(); }
  size_t raised() const { return raised_.size(); }
  // Why each of the alarm's ids cleared, in the order they cleared.
  std::vector<ClearReason> reasons(Alarm alarm) const {
    std::vector<ClearReason> r;
    for (const std::string& id : order_)
      if (raised_.at(id) == alarm) r.push_back(cleared_.at(id));
    return r;
  }

 private:
  std::map<std::string, Alarm> raised_;
  std::map<std::string, ClearReason> cleared_;
  std::vector<std::string> order_;
};

TEST(AlarmTracker, PictureAlarmsWaitForNoSignalWhileAStreamIsBrieflyDown) {
  Thresholds t;
  t.hold.fill(0);
  t.hold_of(Alarm::kNoSignal) = 2;
  t.clear.fill(0);
  AlarmTracker tracker(t);
  Ledger ledger;
  ledger.Add(tracker.Observe(0, Picture(20)));
  ASSERT_TRUE(tracker.active(Alarm::kBlack));
  ledger.Add(tracker.Observe(1, Down()));  // down for less than no_signal's hold: nothing is known, nothing changes
  EXPECT_TRUE(tracker.active(Alarm::kBlack));
  ledger.Add(tracker.Observe(2, Picture(20)));
  EXPECT_TRUE(tracker.active(Alarm::kBlack));
  EXPECT_FALSE(tracker.active(Alarm::kNoSignal));
  EXPECT_EQ(ledger.raised(), 1u);
}

TEST(AlarmTracker, EachIdIsRaisedOnceAndClearedOnceThroughDeathRuleChangeAndShutdown) {
  Thresholds t;
  AlarmTracker tracker(t);
  Ledger ledger;
  double now = 0;
  auto run = [&](double seconds, const Observation& o) {
    for (double end = now + seconds; now < end; now += 0.25) ledger.Add(tracker.Observe(now, o));
  };
  run(5, Picture(20));  // black, held 2 s
  ASSERT_TRUE(tracker.active(Alarm::kBlack));
  run(5, Down());  // the source dies mid-alarm
  ASSERT_TRUE(tracker.active(Alarm::kNoSignal));
  EXPECT_EQ(ledger.reasons(Alarm::kBlack), std::vector<ClearReason>{ClearReason::kNoSignal});
  run(5, Picture(20));  // back, still black: a new black alarm
  EXPECT_FALSE(tracker.active(Alarm::kNoSignal));
  ASSERT_TRUE(tracker.active(Alarm::kBlack));
  // A reload raises black-luma: the rule changed, the alarm clears and is
  // judged again from now (still black under the new rule: raised again after its hold).
  Thresholds raised_luma = t;
  raised_luma[Threshold::kBlackLuma] = 40;
  ledger.Add(tracker.SetThresholds(now, raised_luma));
  EXPECT_FALSE(tracker.active(Alarm::kBlack));
  run(1, Picture(20));
  EXPECT_FALSE(tracker.active(Alarm::kBlack)) << "raised again before its hold";
  run(2, Picture(20));
  EXPECT_TRUE(tracker.active(Alarm::kBlack));
  // A change to another alarm's rule leaves black alone.
  Thresholds other = raised_luma;
  other[Threshold::kSaturationMax] = 100;
  other.hold_of(Alarm::kFrozen) = 7;
  ledger.Add(tracker.SetThresholds(now, other));
  EXPECT_TRUE(tracker.active(Alarm::kBlack));
  ledger.Add(tracker.ClearAll(now, ClearReason::kShutdown));
  EXPECT_EQ(ledger.open(), 0u);
  EXPECT_EQ(ledger.raised(), 4u);  // black three times, no_signal once
  EXPECT_EQ(ledger.reasons(Alarm::kBlack),
            (std::vector<ClearReason>{ClearReason::kNoSignal, ClearReason::kRuleChanged, ClearReason::kShutdown}));
  EXPECT_EQ(ledger.reasons(Alarm::kNoSignal), std::vector<ClearReason>{ClearReason::kRecovered});
}

TEST(AlarmTracker, ARaisedAlarmCarriesItsFigureValueThresholdAndHold) {
  Thresholds t;
  t.hold_of(Alarm::kLumaRange) = 0;
  AlarmTracker tracker(t);
  Observation o = Picture(180);
  o.figures["y-low"] = 7;  // below luma-min
  const auto changes = tracker.Observe(0, o);
  ASSERT_EQ(changes.size(), 1u);
  const AlarmChange& c = changes[0];
  EXPECT_EQ(c.alarm, Alarm::kLumaRange);
  ASSERT_NE(c.test, nullptr);
  EXPECT_STREQ(c.test->figure, "y-low");
  EXPECT_EQ(c.test->compare, Compare::kBelow);
  EXPECT_EQ(c.value, 7);
  EXPECT_EQ(c.threshold, 16);
  EXPECT_EQ(c.hold, 0);
  EXPECT_EQ(c.id.size(), 36u);  // a UUID
}

TEST(AlarmTracker, SilenceMasksLoudnessAndAudioLossNeedsAudioExpected) {
  Thresholds t;
  t.hold.fill(1);
  t.clear.fill(1);
  AlarmTracker tracker(t);
  for (double now = 0; now <= 3; now += 0.5) tracker.Observe(now, Sound(-80, -90));
  EXPECT_TRUE(tracker.active(Alarm::kSilence));
  EXPECT_FALSE(tracker.active(Alarm::kLoudness)) << "silent audio is silence, not a loudness fault";
  for (double now = 3.5; now <= 6; now += 0.5) tracker.Observe(now, Sound(-6, -8));
  EXPECT_FALSE(tracker.active(Alarm::kSilence));
  EXPECT_TRUE(tracker.active(Alarm::kLoudness));  // -8 LUFS: above loudness-max
  Observation no_audio = Picture(180);
  for (double now = 6.5; now <= 9; now += 0.5) tracker.Observe(now, no_audio);
  EXPECT_FALSE(tracker.active(Alarm::kAudioLoss)) << "a stream never known to carry audio";
  no_audio.audio_expected = true;
  for (double now = 9.5; now <= 12; now += 0.5) tracker.Observe(now, no_audio);
  EXPECT_TRUE(tracker.active(Alarm::kAudioLoss));
  EXPECT_TRUE(tracker.active(Alarm::kLoudness)) << "without audio figures the loudness is not known to be back";
}

TEST(Thresholds, OutOfRangeAndNotANumberAreRefusedNamingTheKey) {
  Thresholds t;
  EXPECT_TRUE(ValidateThresholds(t).keys.empty());
  t[Threshold::kBrngMax] = std::nan("");
  EXPECT_EQ(ValidateThresholds(t).keys, std::vector<std::string>{"brng-max"});
  t = Thresholds();
  t.hold_of(Alarm::kFrozen) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ValidateThresholds(t).keys, std::vector<std::string>{"frozen-hold"});
  t = Thresholds();
  t[Threshold::kBlackLuma] = 1e9;
  EXPECT_EQ(ValidateThresholds(t).keys, std::vector<std::string>{"black-luma"});
}

TEST(AlarmTracker, RangeBrngAndSaturation) {
  Thresholds t;
  t.hold.fill(0);
  AlarmTracker tracker(t);
  Observation o = Picture(240);  // YHIGH above 235
  o.figures["brng"] = 0.2;
  o.figures["sat-high"] = 130;
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
  EXPECT_EQ(c.streams[0].thresholds[Threshold::kBlackLuma], 20);
  EXPECT_EQ(c.streams[0].thresholds.hold_of(Alarm::kBlack), 4);
  EXPECT_EQ(c.streams[1].thresholds[Threshold::kBlackLuma], Thresholds()[Threshold::kBlackLuma]);
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
        Malformed{"[stream a]\nuri=udp://x\nluma-min=240\n", "test.conf:3:", "luma-min must be below luma-max"},
        Malformed{"[monitor]\nluma-min=100\n[stream a]\nuri=udp://x\nluma-max=90\n", "test.conf:5:",
                  "luma-min must be below luma-max"},
        Malformed{"[stream a]\nuri=udp://x\nsilence-level=3\n", "test.conf:3:", "-200 to 0 (dBFS)"},
        Malformed{"[stream a]\nuri=udp://x\nloudness-min=-10\n", "test.conf:3:", "loudness-min must be below"},
        Malformed{"[stream a]\nuri=udp://x\nsilence-clear=-1\n", "test.conf:3:", "0 to 86400 seconds"},
        Malformed{"[stream a]\nuri=udp://x\naudio=sometimes\n", "test.conf:3:", "auto, required or off"},
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
