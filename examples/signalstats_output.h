// FFmpeg signalstats' figures from cudahistogram's messages (element
// property signalstats=true), printed per frame under signalstats' own names
// (YMIN, YLOW, YAVG, ... BRNG) so that they line up with
// `ffmpeg -vf signalstats,metadata=mode=print` and QCTools.
//
//   JSON lines: {"frame":0,"pts":0,"YMIN":16,...,"YAVG":122.32732732732732,...}
//   CSV:        frame,pts,YMIN,...,BRNG  then one row per frame
//
// Integers print as integers; the doubles print with 17 significant digits
// (the double itself, round-trippable): FFmpeg prints them with %g, so
// compare after formatting them with %g (examples/compare_ffmpeg.py does).
//
// The rest of QCTools' graph follows where the message has it (TOUT and
// VREP with signalstats=true, cropdetect=true, field-psnr=true), under its
// lavfi names without "lavfi." and "signalstats.": "TOUT", "VREP",
// "cropdetect.x1" ... "cropdetect.y", "psnr.mse.y" ... "psnr.psnr_avg"
// (FFmpeg prints psnr's with %f of a float; +inf prints as Infinity in JSON).
#pragma once

#include <gst/gst.h>

#include <string>
#include <utility>
#include <vector>

namespace examples {

struct SignalStatsField {
  const char* message_field;  // the element's message field, e.g. "y-min"
  const char* name;           // signalstats' name, e.g. "YMIN"
  bool integer;               // G_TYPE_INT in the message; else G_TYPE_DOUBLE
};

// signalstats' figures (cudahist/figures.def's SignalStats group), in the
// order signalstats prints them.
const std::vector<SignalStatsField>& SignalStatsFields();

enum class SignalStatsFormat { kJsonLines, kCsv };

// "json" or "csv"; false for anything else.
bool ParseSignalStatsFormat(const std::string& text, SignalStatsFormat* format);

// The figures of one "cudahistogram" message, in SignalStatsFields() order.
// Returns "" or the problem: a field missing or of another type (the element
// without signalstats=true, or a format without Y, U and V).
std::string ReadSignalStats(const GstStructure* message, std::vector<double>* figures);

// The QC figures the messages may carry (the ToutVrep, CropDetect and
// FieldPsnr groups), in the order FFmpeg prints them.
const std::vector<SignalStatsField>& QcFigureFields();

// The QC figures present in one message: (index into QcFigureFields(), value).
std::vector<std::pair<size_t, double>> ReadQcFigures(const GstStructure* message);

// The CSV header line (no newline); empty for JSON lines.
std::string SignalStatsHeader(SignalStatsFormat format);

// One frame's line (no newline). `pts` in seconds, negative when unknown.
// `qc`: ReadQcFigures' (JSON lines only: CSV keeps its fixed columns).
std::string SignalStatsLine(SignalStatsFormat format, unsigned long frame, double pts,
                            const std::vector<double>& figures,
                            const std::vector<std::pair<size_t, double>>& qc = {});

}  // namespace examples
