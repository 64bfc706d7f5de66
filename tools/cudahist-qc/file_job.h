// One file's analysis: its pipeline (tools/common), the frame attributes
// taken from the decoded buffers and the demuxer's packets, the element's
// figures from the bus, and the report they are written to as they arrive.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <atomic>
#include <deque>
#include <functional>
#include <mutex>
#include <string>

#include "analysis_pipeline.h"
#include "frame_attributes.h"
#include "qctools_report.h"

namespace qc {

struct JobResult {
  enum class Status { kWritten, kSkipped, kFailed };
  std::string input, report;
  Status status = Status::kFailed;
  std::string error;
  std::string decoder;  // the decoder factory decodebin chose
  std::string decoder_why;  // why it is not the GPU decoder offered ("": it is, or none was offered)
  std::string backend;  // "gpu:N" or "cpu"
  bool has_audio = false;
  std::string warning;  // what the report cannot carry as qcli's would (LayoutWarning)
  guint64 frames = 0;
  double seconds = 0;
};

class FileJob {
 public:
  FileJob(const std::string& input, const std::string& report, const cudahist_tools::AnalysisTarget& target,
          bool overwrite, std::function<void(FileJob*)> on_done);
  // Stops the pipeline. Not from inside the job's own callbacks (the
  // scheduler releases finished jobs from the main loop).
  ~FileJob();
  FileJob(const FileJob&) = delete;
  FileJob& operator=(const FileJob&) = delete;

  // Starts the pipeline. When it cannot start, on_done has already been called.
  void Start();
  // Done fraction from the last frame's time and the input's duration (0 when unknown).
  double Progress() const;
  // Frames written to the report so far, and the seconds since Start.
  guint64 frames_written() const { return frames_written_; }
  double SecondsRunning() const { return double(g_get_monotonic_time() - started_us_) / 1e6; }
  const JobResult& result() const { return result_; }
  // The decoder decodebin chose so far ("" before it chose), for the progress bars.
  std::string decoder() const;
  int cuda_device_id() const { return target_.cuda_device_id; }

 private:
  static gboolean OnBusMessage(GstBus*, GstMessage* message, gpointer self);
  static GstPadProbeReturn OnAnalysisOutput(GstPad* pad, GstPadProbeInfo* info, gpointer self);
  static void OnElementAdded(GstBin*, GstBin*, GstElement* element, gpointer self);
  static void OnDemuxerPad(GstElement*, GstPad* pad, gpointer self);
  static void OnDemuxerDone(GstElement*, gpointer self);
  // The error to report for a failed pipeline: what the input lacks, where known.
  std::string Explain(const std::string& pipeline_error) const;
  // "" or why the frames decoded do not reach the end the container declares.
  std::string Truncation() const;
  // A field picture's parity ('t', 'b'; 0: no field) in display order, and
  // "" or what says a field is missing.
  void NoteField(char field, GstClockTime at);
  std::string UnpairedFields() const;
  // "the decoder X stopped after N frames (at T): " for an error of the decoder, else "".
  std::string DecoderStopped(GstMessage* error) const;
  // The frame's element and its report entry; "" or the problem.
  std::string WriteFrame(GstBuffer* buffer);
  // The decoder choice's word on the video stream, into the result.
  void NoteDecoderWhy();
  void Fail(const std::string& error);
  void Succeed();
  void Stop();

  cudahist_tools::AnalysisTarget target_;
  bool overwrite_;
  std::function<void(FileJob*)> on_done_;
  JobResult result_;
  cudahist_tools::AnalysisPipeline parts_;
  guint bus_watch_ = 0;
  ReportWriter writer_;
  PacketLedger ledger_;
  gint64 started_us_ = 0;
  // Written by the streaming thread, read by the main loop's progress bars.
  std::atomic<GstClockTime> duration_{GST_CLOCK_TIME_NONE}, position_{0};
  std::atomic<guint64> frames_written_{0};
  bool finished_ = false;
  std::atomic<GstClockTime> last_frame_end_{0};
  std::string missing_decoder_;  // what decodebin found no decoder for
  // The element's word on what it does not count (a format signalstats does
  // not read), which explains frames that arrive without figures.
  std::string analysis_warning_;
  std::atomic<bool> figures_missing_{false};

  // Set in the streaming threads: what the demuxer exposed.
  std::atomic<bool> demuxer_done_{false}, demuxer_has_video_{false};

  // The streaming thread's state; the report is written there too.
  mutable std::mutex mutex_;
  std::string stream_error_;
  GstVideoInfo info_;
  bool have_info_ = false;
  bool field_order_seen_ = false;
  bool laid_out_by_caps_ = false;  // a frame came without a GstVideoMeta
  char last_field_ = 0;
  guint64 unpaired_fields_ = 0;
  GstClockTime first_unpaired_at_ = GST_CLOCK_TIME_NONE;
  GstSegment segment_;
};

}  // namespace qc
