// One frame's figures, read from the cudahistogram element's "cudahistogram"
// bus message (signalstats=true, and cropdetect / field-psnr where present),
// under FFmpeg's names and in the order ffprobe prints FFmpeg's tags for
//   signalstats=stat=tout+vrep+brng,cropdetect=reset=1,
//   split[a][b];[a]field=top[a1];[b]field=bottom[b1],[a1][b1]psnr
// The programs add no figure of their own: every value is the element's.
#pragma once

#include <gst/gst.h>

#include <string>
#include <vector>

namespace cudahist_tools {

enum class FigureFilter { kSignalStats, kCropDetect, kPsnr };

struct FigureField {
  const char* message_field;  // the element's message field, e.g. "y-min"
  const char* lavfi_key;      // FFmpeg's frame metadata key, e.g. "lavfi.signalstats.YMIN"
  FigureFilter filter;
  bool integer;  // G_TYPE_INT in the message (printed %d); else G_TYPE_DOUBLE
  // What the figure is measured in where it is not a code value of the
  // frame's samples: "ratio" (a fraction of the pixels), "degrees" (a hue).
  const char* unit = nullptr;
};

// Every figure in ffprobe's order: signalstats' 26 with YBITDEPTH, UBITDEPTH,
// VBITDEPTH, TOUT, VREP before BRNG; cropdetect's x1 x2 y1 y2 w h x y; psnr's
// mse.y psnr.y mse.u psnr.u mse.v psnr.v mse_avg psnr_avg.
const std::vector<FigureField>& FrameFigureFields();

struct FrameFigures {
  GstClockTime timestamp = GST_CLOCK_TIME_NONE;    // the buffer's PTS
  GstClockTime stream_time = GST_CLOCK_TIME_NONE;  // PTS in stream time (what ffprobe's pts_time is)
  GstClockTime running_time = GST_CLOCK_TIME_NONE;
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  std::string format;  // GStreamer's video format name, e.g. "I420"
  unsigned width = 0, height = 0;
  // Parallel to FrameFigureFields(): the value, and whether the message had it
  // (cropdetect skips its first frames; an element without cropdetect or
  // field-psnr has none of theirs).
  std::vector<double> values;
  std::vector<bool> present;
};

// Reads a "cudahistogram" message. Returns "" or the problem (not such a
// message; no signalstats figures: the element ran without signalstats=true,
// or the format has no Y, U and V).
std::string ReadFrameFigures(const GstStructure* message, FrameFigures* figures);

// The same record from the GstCudaHistogramMeta of a buffer the element
// analysed with attach-meta=true: the way to read every frame's figures
// without a bus message per frame (a message carries every histogram as
// GValues, which costs more than the counting on the CPU backend).
// timestamp and duration are the buffer's; stream_time and running_time are
// left to the caller, who has the segment.
std::string ReadFrameFigures(GstBuffer* buffer, FrameFigures* figures);

// The structure of a "cudahistogram" element message, or nullptr.
const GstStructure* AnalysisMessage(GstMessage* message);

}  // namespace cudahist_tools
