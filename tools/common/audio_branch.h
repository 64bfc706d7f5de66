// The audio of an input beside its video analysis: per channel the peak and
// RMS level (GStreamer's `level`) and the EBU R128 momentary and short-term
// loudness of all channels (libebur128), each once per interval, as bus
// messages of the pipeline:
//
//   decoded audio ! queue ! audioconvert ! audio/x-raw,format=F32LE,layout=interleaved
//                 ! level name=audio_level interval=I ! identity name=loudness ! fakesink
//
// The loudness is measured in a pad probe on `loudness`, which posts a
// "cudahist-loudness" message at the same sample positions as level posts
// its own (level cuts its intervals at exact sample counts; so does the
// probe). The audio is measured where it is decoded: the analysis's video is
// not held up by it. AnalysisTarget::audio (analysis_pipeline.h) is the hook
// that links it.
#pragma once

#include <gst/gst.h>

#include <map>
#include <string>
#include <vector>

namespace cudahist_tools {

struct AudioBranchOptions {
  GstClockTime interval = GST_SECOND;
  bool sync = false;  // the sink syncs to the clock (a stream played at its own pace)
  // The sink takes part in the pipeline's preroll (a file): a flushing seek
  // then resets its clock with the video's. Off for live sources, whose
  // audio may come late or never and must not hold the pipeline.
  bool prerolls = false;
};

// Adds the branch's elements to `pipeline` (running or not) and returns the
// pad to link the decoded audio to (a reference), or nullptr with the
// missing element in `problem`.
GstPad* AddAudioBranch(GstBin* pipeline, const AudioBranchOptions& options, std::string* problem);

// Sends EOS into the branch of `pipeline`, if it has one: a pipeline ended
// from within (EOS into its analysis, not its source) ends only once every
// sink has had one.
void EndAudioBranch(GstBin* pipeline);

// One interval of the branch, from its two messages.
struct AudioLevels {
  std::vector<double> peak_dbfs, rms_dbfs;  // per channel; -inf for digital silence
};
struct Loudness {
  double momentary_lufs = 0, short_term_lufs = 0;  // -inf below EBU R128's absolute gate of silence
  guint64 end_sample = 0;                          // the interval's end, in samples since the branch started
  int rate = 0;                                    // samples per second
};

// Reads the branch's level message; false for any other message.
bool ReadAudioLevels(GstMessage* message, AudioLevels* levels);
// Reads the branch's loudness message; false for any other message.
bool ReadLoudness(GstMessage* message, Loudness* loudness);

// The figures the monitor's alarms read, by name: "peak-dbfs-max" and
// "rms-dbfs-max" (the loudest channel), "momentary-lufs", "short-term-lufs".
std::map<std::string, double> AudioFigures(const AudioLevels& levels, const Loudness& loudness);

}  // namespace cudahist_tools
