#include "frame_figures.h"

#include "cudahist/figures.h"
#include "gstcudahistogrammeta.h"

namespace cudahist_tools {
namespace {

// The FFmpeg filter that reports a figure of `group`: signalstats reports
// TOUT and VREP beside its levels.
FigureFilter FilterOf(cudahist::FigureGroup group) {
  switch (group) {
    case cudahist::FigureGroup::kCropDetect: return FigureFilter::kCropDetect;
    case cudahist::FigureGroup::kFieldPsnr: return FigureFilter::kPsnr;
    default: return FigureFilter::kSignalStats;
  }
}

bool ReadField(const GstStructure* message, const FigureField& field, double* value) {
  if (field.integer) {
    gint integer = 0;
    if (!gst_structure_get_int(message, field.message_field, &integer)) return false;
    *value = integer;
    return true;
  }
  return gst_structure_get_double(message, field.message_field, value);
}

GstClockTime ClockField(const GstStructure* message, const char* name) {
  guint64 value = GST_CLOCK_TIME_NONE;
  gst_structure_get_uint64(message, name, &value);
  return value;
}

}  // namespace

const std::vector<FigureField>& FrameFigureFields() {
  static const std::vector<FigureField> fields = [] {
    std::vector<FigureField> all;
    for (const cudahist::Figure& f : cudahist::kFigures) {
      all.push_back({f.name, f.ffmpeg_key, FilterOf(f.group), f.integer, f.unit});
    }
    return all;
  }();
  return fields;
}

std::string ReadFrameFigures(GstBuffer* buffer, FrameFigures* figures) {
  const GstCudaHistogramMeta* meta = gst_buffer_get_cuda_histogram_meta(buffer);
  if (!meta) return "the frame has no GstCudaHistogramMeta (is attach-meta=true?)";
  const GstCudaSignalStats* stats = gst_cuda_histogram_meta_get_signalstats(meta);
  if (!stats) return "the frame's meta has no signalstats figures (is signalstats=true, and is the format YUV?)";
  const GstCudaQcFigures* qc = gst_cuda_histogram_meta_get_qc_figures(meta);
  figures->timestamp = GST_BUFFER_PTS(buffer);
  figures->duration = GST_BUFFER_DURATION(buffer);
  figures->width = meta->width;
  figures->height = meta->height;
  const std::vector<FigureField>& fields = FrameFigureFields();
  figures->values.assign(fields.size(), 0.0);
  figures->present.assign(fields.size(), false);
  for (size_t i = 0; i < fields.size(); ++i) {
    double value = 0;
    const bool found = gst_cuda_signal_stats_get_figure(stats, fields[i].message_field, &value) ||
                       (qc && gst_cuda_qc_figures_get_figure(qc, fields[i].message_field, &value));
    figures->values[i] = value;
    figures->present[i] = found;
  }
  return "";
}

const GstStructure* AnalysisMessage(GstMessage* message) {
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return nullptr;
  const GstStructure* s = gst_message_get_structure(message);
  return (s && gst_structure_has_name(s, "cudahistogram")) ? s : nullptr;
}

std::string ReadFrameFigures(const GstStructure* message, FrameFigures* figures) {
  if (!message || !gst_structure_has_name(message, "cudahistogram")) return "not a cudahistogram message";
  if (!gst_structure_has_field(message, cudahist::kFigures[0].name))
    return "the message has no signalstats figures (is signalstats=true, and is the format YUV?)";
  figures->timestamp = ClockField(message, "timestamp");
  figures->stream_time = ClockField(message, "stream-time");
  figures->running_time = ClockField(message, "running-time");
  figures->duration = ClockField(message, "duration");
  const gchar* format = gst_structure_get_string(message, "format");
  figures->format = format ? format : "";
  gst_structure_get_uint(message, "width", &figures->width);
  gst_structure_get_uint(message, "height", &figures->height);
  const std::vector<FigureField>& fields = FrameFigureFields();
  figures->values.assign(fields.size(), 0.0);
  figures->present.assign(fields.size(), false);
  for (size_t i = 0; i < fields.size(); ++i) {
    double value = 0;
    if (!ReadField(message, fields[i], &value)) continue;
    figures->values[i] = value;
    figures->present[i] = true;
  }
  return "";
}

}  // namespace cudahist_tools
