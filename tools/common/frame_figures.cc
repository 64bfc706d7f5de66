#include "frame_figures.h"

#include "gstcudahistogrammeta.h"

namespace cudahist_tools {
namespace {

constexpr FigureFilter kStats = FigureFilter::kSignalStats;
constexpr FigureFilter kCrop = FigureFilter::kCropDetect;
constexpr FigureFilter kPsnr = FigureFilter::kPsnr;

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
  static const std::vector<FigureField> fields = {
      {"y-min", "lavfi.signalstats.YMIN", kStats, true},
      {"y-low", "lavfi.signalstats.YLOW", kStats, true},
      {"y-avg", "lavfi.signalstats.YAVG", kStats, false},
      {"y-high", "lavfi.signalstats.YHIGH", kStats, true},
      {"y-max", "lavfi.signalstats.YMAX", kStats, true},
      {"u-min", "lavfi.signalstats.UMIN", kStats, true},
      {"u-low", "lavfi.signalstats.ULOW", kStats, true},
      {"u-avg", "lavfi.signalstats.UAVG", kStats, false},
      {"u-high", "lavfi.signalstats.UHIGH", kStats, true},
      {"u-max", "lavfi.signalstats.UMAX", kStats, true},
      {"v-min", "lavfi.signalstats.VMIN", kStats, true},
      {"v-low", "lavfi.signalstats.VLOW", kStats, true},
      {"v-avg", "lavfi.signalstats.VAVG", kStats, false},
      {"v-high", "lavfi.signalstats.VHIGH", kStats, true},
      {"v-max", "lavfi.signalstats.VMAX", kStats, true},
      {"sat-min", "lavfi.signalstats.SATMIN", kStats, true},
      {"sat-low", "lavfi.signalstats.SATLOW", kStats, true},
      {"sat-avg", "lavfi.signalstats.SATAVG", kStats, false},
      {"sat-high", "lavfi.signalstats.SATHIGH", kStats, true},
      {"sat-max", "lavfi.signalstats.SATMAX", kStats, true},
      {"hue-med", "lavfi.signalstats.HUEMED", kStats, true, "degrees"},
      {"hue-avg", "lavfi.signalstats.HUEAVG", kStats, false, "degrees"},
      {"y-dif", "lavfi.signalstats.YDIF", kStats, false},
      {"u-dif", "lavfi.signalstats.UDIF", kStats, false},
      {"v-dif", "lavfi.signalstats.VDIF", kStats, false},
      {"y-bitdepth", "lavfi.signalstats.YBITDEPTH", kStats, true},
      {"u-bitdepth", "lavfi.signalstats.UBITDEPTH", kStats, true},
      {"v-bitdepth", "lavfi.signalstats.VBITDEPTH", kStats, true},
      {"tout", "lavfi.signalstats.TOUT", kStats, false, "ratio"},
      {"vrep", "lavfi.signalstats.VREP", kStats, false, "ratio"},
      {"brng", "lavfi.signalstats.BRNG", kStats, false, "ratio"},
      {"crop-x1", "lavfi.cropdetect.x1", kCrop, true},
      {"crop-x2", "lavfi.cropdetect.x2", kCrop, true},
      {"crop-y1", "lavfi.cropdetect.y1", kCrop, true},
      {"crop-y2", "lavfi.cropdetect.y2", kCrop, true},
      {"crop-w", "lavfi.cropdetect.w", kCrop, true},
      {"crop-h", "lavfi.cropdetect.h", kCrop, true},
      {"crop-x", "lavfi.cropdetect.x", kCrop, true},
      {"crop-y", "lavfi.cropdetect.y", kCrop, true},
      {"psnr-mse-y", "lavfi.psnr.mse.y", kPsnr, false},
      {"psnr-y", "lavfi.psnr.psnr.y", kPsnr, false},
      {"psnr-mse-u", "lavfi.psnr.mse.u", kPsnr, false},
      {"psnr-u", "lavfi.psnr.psnr.u", kPsnr, false},
      {"psnr-mse-v", "lavfi.psnr.mse.v", kPsnr, false},
      {"psnr-v", "lavfi.psnr.psnr.v", kPsnr, false},
      {"psnr-mse-avg", "lavfi.psnr.mse_avg", kPsnr, false},
      {"psnr-avg", "lavfi.psnr.psnr_avg", kPsnr, false},
  };
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
  if (!gst_structure_has_field(message, "y-min"))
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
