#include "signalstats_output.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "cudahist/figures.h"

namespace examples {
namespace {

std::string Number(double value, bool integer) {
  char text[40];
  if (integer) std::snprintf(text, sizeof text, "%ld", long(value));
  else if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";  // JSON's (Python's) spelling
  else std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// A figure's name in this output: its FFmpeg key without "lavfi." and
// "signalstats." ("YMIN", "TOUT", "cropdetect.x1", "psnr.mse.y").
const char* OutputName(const char* ffmpeg_key) {
  for (const char* prefix : {"lavfi.signalstats.", "lavfi."}) {
    if (g_str_has_prefix(ffmpeg_key, prefix)) return ffmpeg_key + std::strlen(prefix);
  }
  return ffmpeg_key;
}

// The figures of `groups` (cudahist/figures.def), in its order.
std::vector<SignalStatsField> FieldsOf(std::initializer_list<cudahist::FigureGroup> groups) {
  std::vector<SignalStatsField> fields;
  for (const cudahist::Figure& f : cudahist::kFigures) {
    if (std::find(groups.begin(), groups.end(), f.group) == groups.end()) continue;
    fields.push_back({f.name, OutputName(f.ffmpeg_key), f.integer});
  }
  return fields;
}

std::string Pts(double pts) {
  char text[40];
  std::snprintf(text, sizeof text, "%g", pts);
  return pts < 0 ? std::string() : std::string(text);
}

}  // namespace

const std::vector<SignalStatsField>& SignalStatsFields() {
  static const std::vector<SignalStatsField> fields = FieldsOf({cudahist::FigureGroup::kSignalStats});
  return fields;
}

const std::vector<SignalStatsField>& QcFigureFields() {
  static const std::vector<SignalStatsField> fields = FieldsOf(
      {cudahist::FigureGroup::kToutVrep, cudahist::FigureGroup::kCropDetect, cudahist::FigureGroup::kFieldPsnr});
  return fields;
}

std::vector<std::pair<size_t, double>> ReadQcFigures(const GstStructure* message) {
  std::vector<std::pair<size_t, double>> present;
  const std::vector<SignalStatsField>& fields = QcFigureFields();
  for (size_t i = 0; i < fields.size(); ++i) {
    gint integer = 0;
    gdouble real = 0;
    if (fields[i].integer ? gst_structure_get_int(message, fields[i].message_field, &integer)
                          : gst_structure_get_double(message, fields[i].message_field, &real)) {
      present.emplace_back(i, fields[i].integer ? double(integer) : real);
    }
  }
  return present;
}

bool ParseSignalStatsFormat(const std::string& text, SignalStatsFormat* format) {
  if (text == "json") *format = SignalStatsFormat::kJsonLines;
  else if (text == "csv") *format = SignalStatsFormat::kCsv;
  else return false;
  return true;
}

std::string ReadSignalStats(const GstStructure* message, std::vector<double>* figures) {
  figures->clear();
  for (const SignalStatsField& field : SignalStatsFields()) {
    gint integer = 0;
    gdouble real = 0;
    if (field.integer ? gst_structure_get_int(message, field.message_field, &integer)
                      : gst_structure_get_double(message, field.message_field, &real)) {
      figures->push_back(field.integer ? double(integer) : real);
      continue;
    }
    return std::string("the message has no ") + (field.integer ? "int" : "double") + " field '" +
           field.message_field + "' (is signalstats=true, and is the format YUV?)";
  }
  return "";
}

std::string SignalStatsHeader(SignalStatsFormat format) {
  if (format != SignalStatsFormat::kCsv) return "";
  std::string header = "frame,pts";
  for (const SignalStatsField& field : SignalStatsFields()) header += std::string(",") + field.name;
  return header;
}

std::string SignalStatsLine(SignalStatsFormat format, unsigned long frame, double pts,
                            const std::vector<double>& figures,
                            const std::vector<std::pair<size_t, double>>& qc) {
  const std::vector<SignalStatsField>& fields = SignalStatsFields();
  const bool csv = format == SignalStatsFormat::kCsv;
  std::string line = csv ? std::to_string(frame) + "," + Pts(pts)
                         : "{\"frame\":" + std::to_string(frame) +
                               ",\"pts\":" + (pts < 0 ? std::string("null") : Pts(pts));
  for (size_t i = 0; i < fields.size() && i < figures.size(); ++i) {
    const std::string value = Number(figures[i], fields[i].integer);
    line += csv ? "," + value : std::string(",\"") + fields[i].name + "\":" + value;
  }
  if (csv) return line;
  for (const auto& [index, value] : qc) {
    const SignalStatsField& field = QcFigureFields()[index];
    line += std::string(",\"") + field.name + "\":" + Number(value, field.integer);
  }
  return line + "}";
}

}  // namespace examples
