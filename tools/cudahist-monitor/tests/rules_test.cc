// The monitor's config reader and alarm tracker on plain values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

#include "alerts.h"
#include "config.h"
#include "source.h"

#include <set>
#include <utility>
#include <vector>

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

TEST(Thresholds, PairsOutOfOrderNameBothKeys) {
  Thresholds t;
  EXPECT_TRUE(ValidateThresholds(t).keys.empty());
  t[Threshold::kLoudnessMin] = -10;
  const ThresholdProblem p = ValidateThresholds(t);
  EXPECT_EQ(p.keys, (std::vector<std::string>{"loudness-min", "loudness-max"}));
  EXPECT_EQ(p.text, "loudness-min (-10) must be below loudness-max (-14)");
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
        Malformed{"[monitor]\ndecoder=fast\n", "test.conf:2:", "decoder=fast: one of auto, cpu, nvdec"},
        // The line of the key that makes the pair wrong, not the group's.
        Malformed{"[stream a]\nuri=udp://x\nluma-min=240\n",
                  "test.conf:3:", "luma-min (240) must be below luma-max (235)"},
        Malformed{"[monitor]\nluma-min=100\n[stream a]\nuri=udp://x\n\nluma-max=90\n",
                  "test.conf:6:", "luma-max=90: luma-min (100) must be below luma-max (90)"},
        Malformed{"[stream a]\nuri=udp://x\nloop=true\n", "test.conf:3:", "only a file can loop; this is a udp source"},
        Malformed{"[stream a]\nuri=rtsp://x/s\nreuse=true\n", "test.conf:3:", "this is a rtsp source"},
        Malformed{"[stream a]\nuri=file:///a.mp4\nreuse=maybe\n", "test.conf:3:", "reuse=maybe: true or false"},
        Malformed{"[monitor]\nlisten=[::1]\n", "test.conf:2:", "listen=[::1]: HOST:PORT"},
        Malformed{"[monitor]\nlisten=::1:9720\n", "test.conf:2:", "[::1]:9720"},
        Malformed{"[monitor]\nlisten=127.0.0.1:0\n", "test.conf:2:", "a port from 1 to 65535"},
        Malformed{"[monitor]\nalerts-log=\n", "test.conf:2:", "alerts-log=: a file name, or - for stdout"},
        // A URI's secrets stay out of the error, even in a value that is not a URI.
        Malformed{"[stream a]\nuri=rtsp//admin:S3cret@cam/s\n", "test.conf:2:", "uri=REDACTED@cam/s: not a URI"},
        Malformed{"[stream a]\nuri rtsp://admin:S3cret@cam/s\n", "test.conf:2:", "rtsp://REDACTED@cam/s"},
        Malformed{"[stream a]\nuri=udp://x\nsilence-level=3\n", "test.conf:3:", "silence-level=3: out of range"},
        Malformed{"[stream a]\nuri=udp://x\nloudness-min=-10\n", "test.conf:3:",
                  "loudness-min (-10) must be below loudness-max (-14)"},
        Malformed{"[stream a]\nuri=udp://x\naudio=sometimes\n", "test.conf:3:", "audio=sometimes: one of auto, off, required"},
        Malformed{"[streams]\nuri=udp://x\n", "test.conf:1:", "unknown group"},
        Malformed{"[stream a]\nuri=udp://x\nloop=maybe\n", "test.conf:3:", "true or false"}));

// Each number key: below, above, NaN and infinities are refused, naming the key's own line.
struct OutOfRange {
  const char* key;
  const char* bad;
  const char* saying;
};

class NumberKeyRange : public testing::TestWithParam<OutOfRange> {};

TEST_P(NumberKeyRange, RefusedOnTheKeysLineInEitherGroup) {
  const OutOfRange& p = GetParam();
  const std::string assignment = std::string(p.key) + "=" + p.bad;
  for (const std::string& text :
       {"[monitor]\n# defaults\n" + assignment + "\n[stream a]\nuri=udp://x\n",
        "[stream a]\nuri=udp://x\n" + assignment + "\n"}) {
    MonitorConfig c;
    std::string error;
    EXPECT_FALSE(ParseConfig(text, "t.conf", &c, &error)) << text;
    const std::string where = "t.conf:3: ";  // the key is on line 3 in both
    EXPECT_EQ(error.rfind(where + assignment + ": ", 0), 0u) << error;
    EXPECT_NE(error.find(p.saying), std::string::npos) << error;
  }
}

const OutOfRange kOutOfRange[] = {
    {"black-luma", "-5", "out of range: from 0 to 255 (8-bit code value)"},
    {"black-luma", "1e9", "out of range"},
    {"black-luma", "nan", "not a finite number"},
    {"frozen-ydif", "256", "out of range"},
    {"luma-min", "-1", "out of range"},
    {"luma-max", "255.5", "out of range"},
    {"brng-max", "1.5", "from 0 to 1 (ratio)"},
    {"saturation-max", "182", "from 0 to 181.019"},
    {"silence-level", "1", "from -200 to 0 (dBFS)"},
    {"loudness-min", "-71", "from -70 to 0 (LUFS)"},
    {"loudness-max", "0.5", "out of range"},
    {"black-hold", "nan", "not a finite number"},
    {"frozen-hold", "inf", "not a finite number"},
    {"no-signal-hold", "-inf", "not a finite number"},
    {"luma-out-of-range-hold", "-1", "from 0 to 3600 (seconds)"},
    {"brng-high-hold", "3601", "out of range"},
    {"saturation-high-hold", "infinity", "not a finite number"},
    {"audio-loss-hold", "3601", "out of range"},
    {"silence-hold", "-1", "out of range"},
    {"loudness-out-of-range-hold", "inf", "not a finite number"},
    {"no-signal-clear", "-0.5", "out of range"},
    {"black-clear", "3601", "out of range"},
    {"frozen-clear", "nan", "not a finite number"},
    {"luma-out-of-range-clear", "inf", "not a finite number"},
    {"brng-high-clear", "-1", "out of range"},
    {"saturation-high-clear", "1e4", "out of range"},
    {"audio-loss-clear", "-2", "out of range"},
    {"silence-clear", "-1", "from 0 to 3600 (seconds)"},
    {"loudness-out-of-range-clear", "NaN", "not a finite number"},
    {"stall-timeout", "0", "above 0 and at most 3600 (seconds)"},
    {"start-timeout", "1e5", "out of range"},
    {"start-timeout", "NaN", "not a finite number"}};

INSTANTIATE_TEST_SUITE_P(Config, NumberKeyRange, testing::ValuesIn(kOutOfRange));

TEST(Config, EveryNumberKeyHasARangeCase) {
  // A key added without a case above would pass unchecked.
  std::set<std::string> covered;
  for (const OutOfRange& c : kOutOfRange) covered.insert(c.key);
  for (const std::string& key : RangedKeys()) EXPECT_TRUE(covered.count(key)) << key << " has no out-of-range case";
  // Every key in range is accepted at its bounds.
  MonitorConfig c;
  std::string error;
  EXPECT_TRUE(ParseConfig("[monitor]\ninterval=60\nblack-luma=0\nluma-min=0\nluma-max=255\nbrng-max=1\n"
                          "saturation-max=181\nblack-clear=0\nblack-hold=3600\nstall-timeout=0.1\n"
                          "silence-level=-200\nloudness-min=-70\nloudness-max=0\n"
                          "[stream a]\nuri=udp://@:5000\nreuse=true\n",
                          "t.conf", &c, &error))
      << error;
  EXPECT_TRUE(c.streams[0].reuse);
}

TEST(Config, IntervalOutOfRangeOnItsLine) {
  for (const char* bad : {"0", "-1", "61", "nan", "inf"}) {
    MonitorConfig c;
    std::string error;
    EXPECT_FALSE(ParseConfig(std::string("[monitor]\n\ninterval=") + bad + "\n", "t.conf", &c, &error));
    EXPECT_EQ(error.rfind(std::string("t.conf:3: interval=") + bad + ": ", 0), 0u) << error;
  }
}

// The command line refuses exactly what the config refuses, with the same reason.
TEST(Config, CommandLineAndConfigAcceptTheSameValues) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"interval", "0"},   {"interval", "-1"},   {"interval", "nan"},        {"interval", "61"},
      {"interval", "0.5"}, {"interval", "60"},   {"interval", "x"},          {"decoder", "cpu"},
      {"decoder", "gpu"},  {"scope", "vectorscope"}, {"scope", "parade"},    {"listen", "localhost:9720"},
      {"listen", "[::1]:9720"}, {"listen", "9720"}, {"alerts-log", ""}};
  for (const auto& [key, value] : cases) {
    MonitorConfig from_file, from_command_line;
    std::string file_error, command_line_error;
    const bool file_ok = ParseConfig("[monitor]\n" + key + "=" + value + "\n", "t.conf", &from_file, &file_error);
    const bool command_line_ok = ApplyCommandLineSettings({{key, value}}, &from_command_line, &command_line_error);
    EXPECT_EQ(file_ok, command_line_ok) << key << "=" << value;
    if (!file_ok) {
      EXPECT_EQ(command_line_error, "--" + file_error.substr(std::string("t.conf:2: ").size())) << command_line_error;
      continue;
    }
    EXPECT_EQ(from_file.interval_seconds, from_command_line.interval_seconds);
    EXPECT_EQ(from_file.listen, from_command_line.listen);
    EXPECT_EQ(from_file.decoder, from_command_line.decoder);
    EXPECT_EQ(from_file.scope, from_command_line.scope);
  }
}

TEST(Config, CommandLineSettingsOverTheConfigsLeaveTheRest) {
  MonitorConfig c;
  std::string error;
  ASSERT_TRUE(ParseConfig("[monitor]\ninterval=2\nscope=vectorscope\n[stream a]\nuri=udp://x\n", "t.conf", &c,
                          &error));
  ASSERT_TRUE(ApplyCommandLineSettings({{"interval", "0.25"}}, &c, &error)) << error;
  EXPECT_EQ(c.interval_seconds, 0.25);
  EXPECT_EQ(c.scope, ScopeStyle::kVectorscope);
  ASSERT_EQ(c.streams.size(), 1u);
  EXPECT_EQ(c.streams[0].uri_where, "t.conf:5");
  // A line break in a value stays in that value: no second key slips in.
  EXPECT_FALSE(ApplyCommandLineSettings({{"listen", "127.0.0.1:1\ninterval=5"}}, &c, &error));
  EXPECT_EQ(c.interval_seconds, 0.25);
}

TEST(Config, StreamsFromUrisAreNamedAfterThemWithoutTheirSecrets) {
  auto streams = StreamsFromUris({"srt://127.0.0.1:7001", "file:///a.mp4", "rtsp://admin:p%40ss@cam/s?token=t"});
  ASSERT_EQ(streams.size(), 3u);
  EXPECT_EQ(streams[0].name, "srt://127.0.0.1:7001");
  EXPECT_EQ(streams[1].uri, "file:///a.mp4");
  EXPECT_EQ(streams[2].name, "rtsp://REDACTED@cam/s?token=REDACTED");
  EXPECT_EQ(streams[2].uri, "rtsp://admin:p%40ss@cam/s?token=t");
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
  EXPECT_FALSE(ParseListen("127.0.0.1:0", &host, &port));
  EXPECT_FALSE(ParseListen("::1:9720", &host, &port));
  EXPECT_FALSE(ParseListen("[::1]", &host, &port));
  EXPECT_TRUE(ParseListen("[::1]:9720", &host, &port));
  EXPECT_EQ(host, "::1");
  EXPECT_TRUE(ParseListen("localhost:9720", &host, &port));
  EXPECT_EQ(host, "localhost");
  EXPECT_TRUE(ParseListen("[::]:1", &host, &port));
  EXPECT_EQ(host, "::");
}

TEST(SourceType, ByScheme) {
  EXPECT_STREQ(SourceTypeOf("file:///a.mp4").kind, "file");
  EXPECT_TRUE(SourceTypeOf("file:///a.mp4").is_file);
  EXPECT_STREQ(SourceTypeOf("UDP://@:5000").kind, "udp");
  EXPECT_TRUE(SourceTypeOf("rtp://127.0.0.1:5004").binds_port);
  EXPECT_STREQ(SourceTypeOf("rtsps://cam/s").kind, "rtsp");
  EXPECT_STREQ(SourceTypeOf("foo://bar/baz").kind, "other");
  EXPECT_EQ(HostToResolve("rtsp://admin:pw@cam.example:554/s"), "cam.example");
  EXPECT_EQ(HostToResolve("udp://@:5000"), "");
  EXPECT_EQ(HostToResolve("udp://127.0.0.1:5000"), "");
  EXPECT_EQ(HostToResolve("http://[::1]:8080/x.m3u8"), "");
  EXPECT_EQ(HostToResolve("file:///a.mp4"), "");
  EXPECT_EQ(HostToResolve("v4l2:///dev/video0"), "");
}

}  // namespace
}  // namespace monitor
