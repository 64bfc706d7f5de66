#include "signalstats_output.h"

#include <cmath>
#include <cstdio>

namespace examples {
namespace {

std::string Number(double value, bool integer) {
  char text[40];
  if (integer) std::snprintf(text, sizeof text, "%ld", long(value));
  else if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";  // JSON's (Python's) spelling
  else std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string Pts(double pts) {
  char text[40];
  std::snprintf(text, sizeof text, "%g", pts);
  return pts < 0 ? std::string() : std::string(text);
}

}  // namespace

const std::vector<SignalStatsField>& SignalStatsFields() {
  static const std::vector<SignalStatsField> fields = {
      {"y-min", "YMIN", true},       {"y-low", "YLOW", true},       {"y-avg", "YAVG", false},
      {"y-high", "YHIGH", true},     {"y-max", "YMAX", true},       {"u-min", "UMIN", true},
      {"u-low", "ULOW", true},       {"u-avg", "UAVG", false},      {"u-high", "UHIGH", true},
      {"u-max", "UMAX", true},       {"v-min", "VMIN", true},       {"v-low", "VLOW", true},
      {"v-avg", "VAVG", false},      {"v-high", "VHIGH", true},     {"v-max", "VMAX", true},
      {"sat-min", "SATMIN", true},   {"sat-low", "SATLOW", true},   {"sat-avg", "SATAVG", false},
      {"sat-high", "SATHIGH", true}, {"sat-max", "SATMAX", true},   {"hue-med", "HUEMED", true},
      {"hue-avg", "HUEAVG", false},  {"y-dif", "YDIF", false},      {"u-dif", "UDIF", false},
      {"v-dif", "VDIF", false},      {"brng", "BRNG", false},
  };
  return fields;
}

const std::vector<SignalStatsField>& QcFigureFields() {
  static const std::vector<SignalStatsField> fields = {
      {"tout", "TOUT", false},
      {"vrep", "VREP", false},
      {"crop-x1", "cropdetect.x1", true},
      {"crop-x2", "cropdetect.x2", true},
      {"crop-y1", "cropdetect.y1", true},
      {"crop-y2", "cropdetect.y2", true},
      {"crop-w", "cropdetect.w", true},
      {"crop-h", "cropdetect.h", true},
      {"crop-x", "cropdetect.x", true},
      {"crop-y", "cropdetect.y", true},
      {"psnr-mse-y", "psnr.mse.y", false},
      {"psnr-y", "psnr.psnr.y", false},
      {"psnr-mse-u", "psnr.mse.u", false},
      {"psnr-u", "psnr.psnr.u", false},
      {"psnr-mse-v", "psnr.mse.v", false},
      {"psnr-v", "psnr.psnr.v", false},
      {"psnr-mse-avg", "psnr.mse_avg", false},
      {"psnr-avg", "psnr.psnr_avg", false},
  };
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
