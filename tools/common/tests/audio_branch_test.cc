// The audio branch on a file: its EBU R128 momentary and short-term loudness
// equal FFmpeg's ebur128 filter's within the precision FFmpeg prints (0.1 LU),
// at every 100 ms FFmpeg reports on the same audio; its level figures are
// those of the tone it measures; digital silence is -inf LUFS and level's
// floors (-700 dBFS RMS, -350 peak). The audio is made by
// ffmpeg itself (two amplitude-modulated tones, so that both windows move),
// 48 kHz 32-bit float, which both read sample for sample (FFmpeg's filter
// works at 48 kHz only).
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "audio_branch.h"

namespace {

constexpr int kRate = 48000;

std::string Ffmpeg() {
  const char* path = g_getenv("FFMPEG");
  return path ? path : "ffmpeg";
}

// Runs ffmpeg with `args`; its stderr, or "" with a test failure.
std::string RunFfmpeg(const std::vector<std::string>& args) {
  std::vector<char*> argv = {const_cast<char*>(Ffmpeg().c_str())};
  std::string program = Ffmpeg();
  argv[0] = const_cast<char*>(program.c_str());
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  gchar* err = nullptr;
  gint status = 0;
  GError* error = nullptr;
  if (!g_spawn_sync(nullptr, argv.data(), nullptr, G_SPAWN_SEARCH_PATH, nullptr, nullptr, nullptr, &err, &status,
                    &error)) {
    ADD_FAILURE() << "cannot run " << program << ": " << error->message;
    g_error_free(error);
    return "";
  }
  std::string text = err ? err : "";
  g_free(err);
  EXPECT_TRUE(g_spawn_check_wait_status(status, nullptr)) << text;
  return text;
}

struct Reading {
  double momentary, short_term;
};

// FFmpeg's framelog lines "t: 0.0999792 TARGET:-23 LUFS M: -20.1 S:-120.7 ...",
// by the number of the 100 ms block they end (t is the block's last sample's
// time, printed to 6 digits).
std::map<long, Reading> FfmpegReadings(const std::string& log) {
  std::map<long, Reading> readings;
  for (const char* at = strstr(log.c_str(), "] t: "); at; at = strstr(at + 1, "] t: ")) {
    double t = 0;
    Reading r{};
    const char* m = strstr(at, "M:");
    const char* s = strstr(at, "S:");
    if (sscanf(at, "] t: %lf", &t) != 1 || !m || !s || sscanf(m, "M: %lf", &r.momentary) != 1 ||
        sscanf(s, "S: %lf", &r.short_term) != 1)
      continue;
    readings[std::lround(t * 10)] = r;
  }
  return readings;
}

class AudioBranchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { gst_init(nullptr, nullptr); }
  void SetUp() override { dir_ = g_dir_make_tmp("audio-branch-XXXXXX", nullptr); }
  void TearDown() override {
    for (const std::string& f : files_) g_remove(f.c_str());
    g_rmdir(dir_);
    g_free(dir_);
  }

  // A WAV file of `expression` (aevalsrc's, one per channel, '|' between), made by ffmpeg.
  std::string MakeWav(const std::string& name, const std::string& expression, double seconds) {
    const std::string path = std::string(dir_) + "/" + name;
    RunFfmpeg({"-v", "error", "-y", "-f", "lavfi", "-i",
               "aevalsrc=" + expression + ":s=" + std::to_string(kRate) + ":d=" + std::to_string(seconds), "-c:a",
               "pcm_f32le", path});
    files_.push_back(path);
    return path;
  }

  // Plays the file through the branch as fast as it goes; its messages.
  void Measure(const std::string& path, GstClockTime interval) {
    GstElement* pipeline = gst_pipeline_new("audio-test");
    GstElement* src = gst_element_factory_make("filesrc", nullptr);
    GstElement* parse = gst_element_factory_make("wavparse", nullptr);
    ASSERT_TRUE(src && parse);
    g_object_set(src, "location", path.c_str(), nullptr);
    gst_bin_add_many(GST_BIN(pipeline), src, parse, nullptr);
    ASSERT_TRUE(gst_element_link(src, parse));
    cudahist_tools::AudioBranchOptions options;
    options.interval = interval;
    std::string problem;
    GstPad* sink = cudahist_tools::AddAudioBranch(GST_BIN(pipeline), options, &problem);
    ASSERT_NE(sink, nullptr) << problem;
    GstPad* parsed = gst_element_get_static_pad(parse, "src");
    ASSERT_NE(parsed, nullptr);
    ASSERT_EQ(gst_pad_link(parsed, sink), GST_PAD_LINK_OK);
    gst_object_unref(parsed);
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    GstBus* bus = gst_element_get_bus(pipeline);
    for (;;) {
      GstMessage* m = gst_bus_timed_pop_filtered(bus, 30 * GST_SECOND,
                                                 GstMessageType(GST_MESSAGE_ELEMENT | GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
      if (!m) {
        ADD_FAILURE() << "no end of stream within 30 s";
        break;
      }
      const bool done = GST_MESSAGE_TYPE(m) != GST_MESSAGE_ELEMENT;
      if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
        GError* error = nullptr;
        gchar* debug = nullptr;
        gst_message_parse_error(m, &error, &debug);
        ADD_FAILURE() << "the pipeline failed: " << error->message << " (" << (debug ? debug : "") << ")";
        g_clear_error(&error);
        g_free(debug);
      }
      cudahist_tools::AudioLevels l;
      cudahist_tools::Loudness r;
      if (cudahist_tools::ReadAudioLevels(m, &l)) levels_.push_back(l);
      if (cudahist_tools::ReadLoudness(m, &r)) loudness_.push_back(r);
      gst_message_unref(m);
      if (done) break;
    }
    gst_object_unref(bus);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(sink);
    gst_object_unref(pipeline);
  }

  gchar* dir_ = nullptr;
  std::vector<std::string> files_;
  std::vector<cudahist_tools::AudioLevels> levels_;
  std::vector<cudahist_tools::Loudness> loudness_;
};

TEST_F(AudioBranchTest, LoudnessEqualsFfmpegEbur128WithinItsPrintedPrecision) {
  const std::string wav = MakeWav("tones.wav",
                                  "0.3*sin(2*PI*440*t)*(1+0.6*sin(2*PI*0.37*t))|"
                                  "0.1*sin(2*PI*1000*t)*(1+0.8*sin(2*PI*0.23*t))",
                                  12);
  const std::map<long, Reading> ffmpeg = FfmpegReadings(
      RunFfmpeg({"-nostats", "-hide_banner", "-v", "verbose", "-i", wav, "-af", "ebur128=framelog=verbose", "-f",
                 "null", "-"}));
  ASSERT_GE(ffmpeg.size(), 115u) << "FFmpeg printed " << ffmpeg.size() << " readings of 100 ms";
  Measure(wav, 100 * GST_MSECOND);
  ASSERT_EQ(loudness_.size(), 120u);
  int momentary = 0, short_term = 0;
  double worst = 0;
  for (const cudahist_tools::Loudness& ours : loudness_) {
    ASSERT_EQ(ours.rate, kRate);
    ASSERT_EQ(ours.end_sample % (kRate / 10), 0u);
    auto theirs = ffmpeg.find(long(ours.end_sample / (kRate / 10)));
    ASSERT_NE(theirs, ffmpeg.end()) << "FFmpeg has no reading ending at sample " << ours.end_sample;
    // Each window counts once it is full: 400 ms, 3 s (FFmpeg prints -120.7 before).
    if (ours.end_sample >= kRate * 4 / 10) {
      EXPECT_NEAR(ours.momentary_lufs, theirs->second.momentary, 0.05 + 1e-9) << "M at sample " << ours.end_sample;
      worst = std::max(worst, std::fabs(ours.momentary_lufs - theirs->second.momentary));
      ++momentary;
    }
    if (ours.end_sample >= kRate * 3) {
      EXPECT_NEAR(ours.short_term_lufs, theirs->second.short_term, 0.05 + 1e-9) << "S at sample " << ours.end_sample;
      worst = std::max(worst, std::fabs(ours.short_term_lufs - theirs->second.short_term));
      ++short_term;
    }
  }
  EXPECT_EQ(momentary, 117);
  EXPECT_EQ(short_term, 91);
  printf("%d momentary and %d short-term readings equal FFmpeg's printed ones within %.3f LU\n", momentary,
         short_term, worst);
}

TEST_F(AudioBranchTest, LevelsOfAToneAndOfSilence) {
  // Left: a full-scale 1 kHz sine at half amplitude (peak -6.02 dBFS, RMS -9.03); right: silence.
  Measure(MakeWav("tone.wav", "0.5*sin(2*PI*1000*t)|0", 3), GST_SECOND);
  ASSERT_GE(levels_.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const cudahist_tools::AudioLevels& l = levels_[i];
    ASSERT_EQ(l.peak_dbfs.size(), 2u);
    EXPECT_NEAR(l.peak_dbfs[0], 20 * std::log10(0.5), 0.01);
    EXPECT_NEAR(l.rms_dbfs[0], 20 * std::log10(0.5 / std::sqrt(2.0)), 0.01);
    EXPECT_LE(l.rms_dbfs[1], -700 + 1e-6) << "level's floor for digital silence";
  }
  const auto figures = cudahist_tools::AudioFigures(levels_[2], loudness_.back());
  EXPECT_NEAR(figures.at("rms-dbfs-max"), -9.03, 0.01);
  EXPECT_NEAR(figures.at("peak-dbfs-max"), -6.02, 0.01);
  // A 1 kHz tone in one channel: K-weighting adds about +0.7 dB at 1 kHz, so
  // -9.03 dB of power reads about -9.03 - 0.691 + 0.69 LUFS.
  EXPECT_NEAR(loudness_.back().short_term_lufs, -9.03, 0.1);
}

TEST_F(AudioBranchTest, DigitalSilenceIsMinusInfinityLoudAndLevelsFloor) {
  Measure(MakeWav("silence.wav", "0|0", 2), GST_SECOND);
  ASSERT_EQ(loudness_.size(), 2u);
  EXPECT_TRUE(std::isinf(loudness_.back().momentary_lufs) && loudness_.back().momentary_lufs < 0);
  EXPECT_TRUE(std::isinf(loudness_.back().short_term_lufs) && loudness_.back().short_term_lufs < 0);
  EXPECT_LE(levels_.front().rms_dbfs[0], -700 + 1e-6);
  EXPECT_LE(levels_.front().peak_dbfs[0], -350 + 1e-6);
}

// A file played at its own pace and looped by a flushing seek, as the
// monitor plays files: the audio's meters keep that pace through the seek,
// though the video takes a second to preroll again. The sink outside the
// preroll kept PLAYING through the seek, rendered the new pass's first
// second at once against the old base time and then waited as long: level's
// messages came in a burst, then a gap (alarms of audio loss on the GPU
// host's 64 looped streams).
struct PacedLevels {
  std::mutex mutex;
  std::vector<gint64> posted_us;  // g_get_monotonic_time() of each level message
};

GstBusSyncReply RecordLevel(GstBus*, GstMessage* m, gpointer data) {
  if (GST_MESSAGE_TYPE(m) != GST_MESSAGE_ELEMENT || !gst_message_has_name(m, "level")) return GST_BUS_PASS;
  auto* paced = static_cast<PacedLevels*>(data);
  {
    std::lock_guard<std::mutex> lock(paced->mutex);
    paced->posted_us.push_back(g_get_monotonic_time());
  }
  gst_message_unref(m);
  return GST_BUS_DROP;
}

// The video's first frame after each flush reaches its sink a second late.
GstPadProbeReturn PrerollSlowlyAfterAFlush(GstPad*, GstPadProbeInfo* info, gpointer data) {
  bool* flushed = static_cast<bool*>(data);
  if (info->type & GST_PAD_PROBE_TYPE_EVENT_FLUSH) {
    if (GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) == GST_EVENT_FLUSH_STOP) *flushed = true;
  } else if (*flushed) {
    *flushed = false;
    g_usleep(G_USEC_PER_SEC);
  }
  return GST_PAD_PROBE_OK;
}

TEST_F(AudioBranchTest, AFilesMetersKeepItsPaceThroughAFlushingSeek) {
  GstElement* pipeline = gst_parse_launch(
      "videotestsrc ! video/x-raw,width=64,height=48,framerate=30/1 ! fakesink name=video sync=true "
      "audiotestsrc ! capsfilter name=audio caps=audio/x-raw,rate=48000,channels=2",
      nullptr);
  ASSERT_NE(pipeline, nullptr);
  cudahist_tools::AudioBranchOptions options;
  const GstClockTime interval = 200 * GST_MSECOND;
  options.interval = interval;
  options.sync = true;
  options.prerolls = true;
  std::string problem;
  GstPad* branch = cudahist_tools::AddAudioBranch(GST_BIN(pipeline), options, &problem);
  ASSERT_NE(branch, nullptr) << problem;
  GstElement* audio = gst_bin_get_by_name(GST_BIN(pipeline), "audio");
  GstPad* audio_src = gst_element_get_static_pad(audio, "src");
  gst_object_unref(audio);
  ASSERT_EQ(gst_pad_link(audio_src, branch), GST_PAD_LINK_OK);
  gst_object_unref(audio_src);
  gst_object_unref(branch);

  bool flushed = false;
  GstElement* video = gst_bin_get_by_name(GST_BIN(pipeline), "video");
  GstPad* video_sink = gst_element_get_static_pad(video, "sink");
  gst_pad_add_probe(video_sink, GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_FLUSH),
                    PrerollSlowlyAfterAFlush, &flushed, nullptr);
  gst_object_unref(video_sink);
  gst_object_unref(video);

  PacedLevels paced;
  GstBus* bus = gst_element_get_bus(pipeline);
  gst_bus_set_sync_handler(bus, RecordLevel, &paced, nullptr);
  ASSERT_NE(gst_element_set_state(pipeline, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  g_usleep(G_USEC_PER_SEC);
  const gint64 seek_us = g_get_monotonic_time();
  ASSERT_TRUE(gst_element_seek_simple(pipeline, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, 0));
  g_usleep(3 * G_USEC_PER_SEC);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_bus_set_sync_handler(bus, nullptr, nullptr, nullptr);
  gst_object_unref(bus);
  gst_object_unref(pipeline);

  std::vector<gint64> after;
  for (gint64 t : paced.posted_us)
    if (t > seek_us) after.push_back(t);
  ASSERT_GE(after.size(), 6u) << "level messages after the seek";
  const gint64 interval_us = gint64(interval / GST_USECOND);
  for (size_t i = 1; i < after.size(); ++i) {
    EXPECT_GE(after[i] - after[i - 1], interval_us / 2)
        << "level message " << i << " after the seek came " << (after[i] - after[i - 1]) / 1000
        << " ms after the one before (the interval is " << interval_us / 1000 << " ms): the audio ran ahead of its clock";
  }
}

}  // namespace
