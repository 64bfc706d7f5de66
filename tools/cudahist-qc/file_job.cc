#include "file_job.h"

#include <glib/gstdio.h>
#include <gst/pbutils/missing-plugins.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace qc {
namespace {

std::string FactoryKlass(GstElement* element) {
  GstElementFactory* factory = gst_element_get_factory(element);
  const gchar* klass = factory ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : nullptr;
  return klass ? klass : "";
}

// The video may end this much before the duration its container declares
// (an audio stream may run a little longer) before the file is called truncated.
constexpr GstClockTime kTruncationSlack = GST_SECOND / 2;

std::string SecondsText(GstClockTime t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", double(t) / GST_SECOND);
  return text;
}

bool CreateParentFolder(const std::string& path, std::string* problem) {
  gchar* dir = g_path_get_dirname(path.c_str());
  const bool made = g_mkdir_with_parents(dir, 0777) == 0;
  if (!made) *problem = std::string("cannot create the output folder ") + dir + ": " + g_strerror(errno);
  g_free(dir);
  return made;
}

}  // namespace

FileJob::FileJob(const std::string& input, const std::string& report, const cudahist_tools::AnalysisTarget& target,
                 bool overwrite, std::function<void(FileJob*)> on_done)
    : target_(target), overwrite_(overwrite), on_done_(std::move(on_done)) {
  result_.input = input;
  result_.report = report;
  result_.backend = target.gpu ? "gpu:" + std::to_string(target.cuda_device_id) : "cpu";
  gst_video_info_init(&info_);
  gst_segment_init(&segment_, GST_FORMAT_TIME);
}

FileJob::~FileJob() { Stop(); }

void FileJob::Start() {
  started_us_ = g_get_monotonic_time();
  if (!overwrite_ && g_file_test(result_.report.c_str(), G_FILE_TEST_EXISTS)) {
    result_.status = JobResult::Status::kSkipped;
    finished_ = true;
    on_done_(this);
    return;
  }
  std::string problem;
  if (!g_file_test(result_.input.c_str(), G_FILE_TEST_IS_REGULAR)) {
    Fail(g_file_test(result_.input.c_str(), G_FILE_TEST_EXISTS) ? "not a regular file" : "no such file");
    return;
  }
  const std::string uri = cudahist_tools::InputUri(result_.input, &problem);
  if (uri.empty()) return Fail(problem);
  parts_ = cudahist_tools::BuildAnalysisPipeline(uri, target_, "qc", &problem);
  if (!parts_.pipeline) return Fail(problem);
  if (!CreateParentFolder(result_.report, &problem) || !writer_.Open(result_.report, overwrite_, &problem))
    return Fail(problem);

  ledger_.Watch(parts_.pipeline);
  g_signal_connect(parts_.pipeline, "deep-element-added", G_CALLBACK(OnElementAdded), this);
  GstPad* src = gst_element_get_static_pad(parts_.analysis, "src");
  gst_pad_add_probe(src, GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM),
                    OnAnalysisOutput, this, nullptr);
  gst_object_unref(src);
  GstBus* bus = gst_element_get_bus(parts_.pipeline);
  bus_watch_ = gst_bus_add_watch(bus, OnBusMessage, this);
  gst_object_unref(bus);
  if (gst_element_set_state(parts_.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    // The error itself is on the bus; the watch reports it.
    return;
  }
}

std::string FileJob::decoder() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return result_.decoder;
}

double FileJob::Progress() const {
  if (finished_) return 1.0;
  const GstClockTime duration = duration_, position = position_;
  if (!GST_CLOCK_TIME_IS_VALID(duration) || duration == 0) return 0.0;
  return std::min(1.0, double(position) / double(duration));
}

void FileJob::OnElementAdded(GstBin*, GstBin*, GstElement* element, gpointer self) {
  FileJob* job = static_cast<FileJob*>(self);
  const std::string klass = FactoryKlass(element);
  if (klass.find("Decoder") != std::string::npos && klass.find("Video") != std::string::npos) {
    std::lock_guard<std::mutex> lock(job->mutex_);  // added from a streaming thread
    job->result_.decoder = GST_OBJECT_NAME(gst_element_get_factory(element));
  }
  if (klass.find("Demux") != std::string::npos) {
    g_signal_connect(element, "pad-added", G_CALLBACK(OnDemuxerPad), job);
    g_signal_connect(element, "no-more-pads", G_CALLBACK(OnDemuxerDone), job);
  }
}

void FileJob::OnDemuxerPad(GstElement*, GstPad* pad, gpointer self) {
  FileJob* job = static_cast<FileJob*>(self);
  GstCaps* caps = gst_pad_query_caps(pad, nullptr);
  const std::string name =
      caps && !gst_caps_is_empty(caps) ? gst_structure_get_name(gst_caps_get_structure(caps, 0)) : "";
  if (caps) gst_caps_unref(caps);
  if (name.rfind("audio/", 0) == 0) job->result_.has_audio = true;
  if (name.rfind("video/", 0) == 0 || name.rfind("image/", 0) == 0) job->demuxer_has_video_ = true;
}

void FileJob::OnDemuxerDone(GstElement*, gpointer self) { static_cast<FileJob*>(self)->demuxer_done_ = true; }

std::string FileJob::Explain(const std::string& pipeline_error) const {
  if (demuxer_done_ && !demuxer_has_video_) return "no video stream in the file";
  // Caps refused after frames came: the stream changed to something the
  // decoder or the element does not take.
  if (frames_written_ > 0 && pipeline_error.find("not-negotiated") != std::string::npos) {
    std::lock_guard<std::mutex> lock(mutex_);
    return "the stream changed after " + std::to_string(frames_written_) + " frames (at " + SecondsText(position_) +
           ") to a format " + result_.decoder + " does not take" +
           (result_.decoder.rfind("avdec_", 0) == 0 ? "" : " (--decoder avdec_... decodes it on the CPU)") + ": " +
           pipeline_error;
  }
  if (parts_.decoding) {
    std::lock_guard<std::mutex> lock(parts_.decoding->lock);
    if (!parts_.decoding->problem.empty()) return parts_.decoding->problem;
  }
  if (figures_missing_ && !analysis_warning_.empty()) return "no QC figures: " + analysis_warning_;
  if (!missing_decoder_.empty())
    return "unsupported codec: GStreamer has no " + missing_decoder_ + " here (a plugin package may add it)";
  return pipeline_error;
}

// Field pictures come top, bottom, top ... in display order: two of one
// parity in a row mean the other's field between them is missing.
void FileJob::NoteField(char field, GstClockTime at) {
  if (field && field == last_field_) {
    if (unpaired_fields_ == 0) first_unpaired_at_ = at;
    ++unpaired_fields_;
  }
  last_field_ = field;
}

std::string FileJob::UnpairedFields() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (unpaired_fields_ == 0) return "";
  return "damaged stream: " + std::to_string(unpaired_fields_) + " field" + (unpaired_fields_ > 1 ? "s" : "") +
         " of a field-coded stream without the other field of its frame, the first at " +
         SecondsText(first_unpaired_at_) + " (two fields of one parity in a row)";
}

// An error of the decoder after frames came out: where it stopped, and the
// way to decode the file otherwise ("" for other errors).
std::string FileJob::DecoderStopped(GstMessage* error) const {
  GstObject* source = GST_MESSAGE_SRC(error);
  if (!source || !GST_IS_ELEMENT(source) || FactoryKlass(GST_ELEMENT(source)).find("Decoder") == std::string::npos)
    return "";
  const std::string decoder = GST_OBJECT_NAME(gst_element_get_factory(GST_ELEMENT(source)));
  std::string text = "the decoder " + decoder + " stopped";
  if (frames_written_ > 0)
    text += " after " + std::to_string(frames_written_) + " frames (at " + SecondsText(position_) + ")";
  const bool cpu_decodes = decoder.rfind("avdec_", 0) != 0;
  return text + (cpu_decodes ? " (--decoder avdec_... decodes it on the CPU)" : "") + ": ";
}

// Against the duration known at the first frames: a demuxer that meets the
// end of a truncated file early corrects its duration to what it found.
std::string FileJob::Truncation() const {
  if (!GST_CLOCK_TIME_IS_VALID(duration_) || last_frame_end_ + kTruncationSlack >= duration_) return "";
  return "truncated: its frames end at " + SecondsText(last_frame_end_) + " of the " + SecondsText(duration_) +
         " its container declares (" + std::to_string(result_.frames) + " frames decoded)";
}

// In the streaming thread, for every frame the element analysed: its
// attributes and figures (the meta), written to the report as they come.
GstPadProbeReturn FileJob::OnAnalysisOutput(GstPad* pad, GstPadProbeInfo* info, gpointer self) {
  FileJob* job = static_cast<FileJob*>(self);
  std::lock_guard<std::mutex> lock(job->mutex_);
  if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent* event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
      GstCaps* caps = nullptr;
      gst_event_parse_caps(event, &caps);
      job->have_info_ = gst_video_info_from_caps(&job->info_, caps);
    } else if (GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
      const GstSegment* segment = nullptr;
      gst_event_parse_segment(event, &segment);
      gst_segment_copy_into(segment, &job->segment_);
    }
    return GST_PAD_PROBE_OK;
  }
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (!buffer || !job->have_info_ || !job->stream_error_.empty()) return GST_PAD_PROBE_OK;
  std::string problem = job->WriteFrame(buffer);
  if (!problem.empty()) {
    // Said on the bus, where the main loop fails the job; the frames after it are not written.
    job->stream_error_ = problem;
    GError* error = g_error_new_literal(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_WRITE, problem.c_str());
    GstElement* analysis = gst_pad_get_parent_element(pad);
    gst_element_post_message(analysis, gst_message_new_error(GST_OBJECT(analysis), error, nullptr));
    gst_object_unref(analysis);
    g_error_free(error);
  }
  return GST_PAD_PROBE_OK;
}

std::string FileJob::WriteFrame(GstBuffer* buffer) {
  cudahist_tools::FrameFigures figures;
  std::string problem = cudahist_tools::ReadFrameFigures(buffer, &figures);
  if (!problem.empty()) {
    figures_missing_ = true;
    return problem;
  }
  if (result_.decoder.empty()) result_.decoder = "none (raw video)";  // no decoder was plugged before the first frame
  FrameAttributes attributes = AttributesOfBuffer(buffer, info_, segment_);
  laid_out_by_caps_ = laid_out_by_caps_ || !gst_buffer_get_video_meta(buffer);
  PacketFacts packet;
  if (GST_BUFFER_PTS_IS_VALID(buffer) && ledger_.Take(GST_BUFFER_PTS(buffer), &packet)) {
    attributes.pkt_size = packet.size;
    attributes.pkt_pos = packet.pos;
    // FFmpeg's frame takes its packet's duration; a decoder's may differ
    // (1.26's gst-libav halves a field picture's).
    if (GST_CLOCK_TIME_IS_VALID(packet.duration)) attributes.duration = packet.duration;
    attributes.key_frame = packet.key;
    attributes.pict_type = packet.picture_type;
    attributes.timecode = packet.timecode;
    const bool one_field = GST_VIDEO_INFO_INTERLACE_MODE(&info_) == GST_VIDEO_INTERLACE_MODE_ALTERNATE;
    const char flagged = !one_field                              ? 0
                         : GST_VIDEO_BUFFER_IS_TOP_FIELD(buffer)    ? 't'
                         : GST_VIDEO_BUFFER_IS_BOTTOM_FIELD(buffer) ? 'b'
                                                                    : 0;
    NoteField(packet.picture.field ? packet.picture.field : flagged, attributes.pts_time);
    if (packet.picture.scan_known) {  // FFmpeg's reading of the bitstream, whatever the decoder's flags say
      attributes.interlaced = packet.picture.interlaced;
      attributes.top_field_first = packet.picture.top_field_first;
      attributes.field_order_known = true;
      attributes.repeat_pict = packet.picture.repeat_pict;
    }
  } else if (attributes.key_frame) {
    attributes.pict_type = 'I';  // no packet seen: the decoder's key flag
  }
  field_order_seen_ = field_order_seen_ || attributes.field_order_known;
  ledger_.TimeBase(&attributes.time_base_num, &attributes.time_base_den);
  if (!writer_.Write(FrameElement(attributes, figures), &problem)) return problem;
  ++frames_written_;
  if (GST_CLOCK_TIME_IS_VALID(attributes.pts_time)) {
    position_ = attributes.pts_time;
    last_frame_end_ = attributes.pts_time + (GST_CLOCK_TIME_IS_VALID(attributes.duration) ? attributes.duration : 0);
  }
  if (duration_ == GST_CLOCK_TIME_NONE) {
    gint64 duration = 0;
    GstPad* sink = gst_element_get_static_pad(parts_.analysis, "sink");
    if (gst_pad_peer_query_duration(sink, GST_FORMAT_TIME, &duration) && duration > 0)
      duration_ = GstClockTime(duration);
    gst_object_unref(sink);
  }
  return "";
}

gboolean FileJob::OnBusMessage(GstBus*, GstMessage* message, gpointer self) {
  FileJob* job = static_cast<FileJob*>(self);
  if (job->finished_) {
    job->bus_watch_ = 0;
    return G_SOURCE_REMOVE;
  }
  if (gst_is_missing_plugin_message(message)) {
    gchar* description = gst_missing_plugin_message_get_description(message);
    if (description && job->missing_decoder_.empty()) job->missing_decoder_ = description;
    g_free(description);
  } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_WARNING &&
             GST_MESSAGE_SRC(message) == GST_OBJECT(job->parts_.analysis)) {
    GError* error = nullptr;
    gst_message_parse_warning(message, &error, nullptr);
    if (error && job->analysis_warning_.empty()) job->analysis_warning_ = error->message;
    g_clear_error(&error);
  } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
    job->Fail(job->Explain(job->DecoderStopped(message) + cudahist_tools::ErrorText(message)));
  } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS) {
    job->result_.frames = job->frames_written_;
    const std::string truncated = job->Truncation();
    const std::string lost = job->ledger_.LostPictures();
    const std::string unpaired = job->UnpairedFields();
    if (job->result_.frames == 0) job->Fail(job->Explain("no video frame was decoded"));
    else if (!truncated.empty()) job->Fail(truncated);
    else if (!lost.empty()) job->Fail(lost);
    else if (!unpaired.empty()) job->Fail(unpaired);
    else job->Succeed();
  }
  if (!job->finished_) return G_SOURCE_CONTINUE;
  job->bus_watch_ = 0;  // removed by returning G_SOURCE_REMOVE
  return G_SOURCE_REMOVE;
}

void FileJob::NoteDecoderWhy() {
  if (!parts_.decoding) return;
  std::lock_guard<std::mutex> lock(parts_.decoding->lock);
  result_.decoder_why = parts_.decoding->why;
}

void FileJob::Fail(const std::string& error) {
  if (finished_) return;
  finished_ = true;
  NoteDecoderWhy();
  result_.status = JobResult::Status::kFailed;
  result_.error = error;
  {
    // The streaming thread may still be writing: it stops at stream_error_.
    std::lock_guard<std::mutex> lock(mutex_);
    stream_error_ = error;
    writer_.Abandon();
  }
  result_.seconds = double(g_get_monotonic_time() - started_us_) / 1e6;
  on_done_(this);
}

void FileJob::Succeed() {
  std::string problem;
  bool written = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);  // the streaming thread wrote the frames
    written = writer_.Finish(&problem);
    if (have_info_) {
      std::string warning = LayoutWarning(info_, field_order_seen_, laid_out_by_caps_, result_.decoder);
      const std::string depth = DepthWarning(ledger_.CodedCaps(), info_);
      if (!depth.empty()) warning += (warning.empty() ? "" : "; ") + depth;
      result_.warning = warning;
    }
  }
  if (!written) return Fail(problem);
  finished_ = true;
  NoteDecoderWhy();
  result_.status = JobResult::Status::kWritten;
  result_.seconds = double(g_get_monotonic_time() - started_us_) / 1e6;
  on_done_(this);
}

void FileJob::Stop() {
  if (!parts_.pipeline) return;
  gst_element_set_state(parts_.pipeline, GST_STATE_NULL);
  if (bus_watch_) g_source_remove(bus_watch_);
  bus_watch_ = 0;
  gst_object_unref(parts_.pipeline);
  parts_ = cudahist_tools::AnalysisPipeline();
}

}  // namespace qc
