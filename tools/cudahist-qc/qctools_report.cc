#include "qctools_report.h"

#include <gio/gunixoutputstream.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#ifndef CUDAHIST_QC_VERSION
#define CUDAHIST_QC_VERSION "unknown"
#endif

namespace qc {
namespace {

using cudahist_tools::FigureField;
using cudahist_tools::FigureFilter;
using cudahist_tools::FrameFigureFields;
using cudahist_tools::FrameFigures;

constexpr size_t kFlushBytes = 256 * 1024;

std::string Printf(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string Integer(int64_t value) { return std::to_string(value); }

// Seconds as ffprobe prints a *_time field.
std::string Seconds(GstClockTime t) { return Printf("%f", double(t) / GST_SECOND); }

// A time in the stream's time base, rounded as FFmpeg's av_rescale_q rounds.
int64_t Ticks(GstClockTime t, int num, int den) {
  return int64_t(gst_util_uint64_scale_round(t, guint64(den), guint64(num) * GST_SECOND));
}

// The value as the FFmpeg filter that sets the tag prints it: signalstats
// %d / %g, cropdetect %d, psnr %f.
std::string TagValue(const FigureField& field, double value) {
  if (field.integer) return Integer(int64_t(std::llround(value)));
  return Printf(field.filter == FigureFilter::kPsnr ? "%f" : "%g", value);
}

std::string Attribute(const char* name, const std::string& value) {
  gchar* escaped = g_markup_escape_text(value.c_str(), -1);
  std::string text = std::string(" ") + name + "=\"" + escaped + "\"";
  g_free(escaped);
  return text;
}

// ffprobe's frame attributes in its order; "N/A" values are left out, as
// ffprobe's XML writer leaves them out.
std::string FrameAttributesText(const FrameAttributes& a) {
  std::string s = Attribute("media_type", "video") + Attribute("stream_index", "0") +
                  Attribute("key_frame", a.key_frame ? "1" : "0");
  const bool ticks = a.time_base_den > 0;
  if (GST_CLOCK_TIME_IS_VALID(a.pts_time)) {
    // As qcli's graph prints them: its output frames carry the pts as their
    // packet's dts and as the best-effort timestamp.
    for (const char* name : {"pts", "pkt_dts", "best_effort_timestamp"}) {
      if (ticks) s += Attribute(name, Integer(Ticks(a.pts_time, a.time_base_num, a.time_base_den)));
      s += Attribute((std::string(name) + "_time").c_str(), Seconds(a.pts_time));
    }
  }
  if (GST_CLOCK_TIME_IS_VALID(a.duration)) {
    if (ticks) s += Attribute("pkt_duration", Integer(Ticks(a.duration, a.time_base_num, a.time_base_den)));
    s += Attribute("pkt_duration_time", Seconds(a.duration));
  }
  if (a.pkt_pos >= 0) s += Attribute("pkt_pos", Integer(a.pkt_pos));
  if (a.pkt_size >= 0) s += Attribute("pkt_size", Integer(a.pkt_size));
  s += Attribute("width", Integer(a.width)) + Attribute("height", Integer(a.height));
  if (!a.pix_fmt.empty()) s += Attribute("pix_fmt", a.pix_fmt);
  s += Attribute("sample_aspect_ratio", a.sample_aspect_ratio) + Attribute("pict_type", std::string(1, a.pict_type));
  s += Attribute("interlaced_frame", a.interlaced ? "1" : "0") +
       Attribute("top_field_first", a.top_field_first ? "1" : "0") + Attribute("repeat_pict", Integer(a.repeat_pict));
  return s;
}

std::string ProgramVersion() {
  guint major, minor, micro, nano;
  gst_version(&major, &minor, &micro, &nano);
  const std::string gstreamer = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(micro);
  return "    <program_version" + Attribute("version", std::string("cudahist-qc ") + CUDAHIST_QC_VERSION) +
         Attribute("copyright", "the cudahistogram contributors") +
         Attribute("compiler_ident", __VERSION__) +
         Attribute("configuration", "GStreamer " + gstreamer + ", cudahistogram element") + "/>\n";
}

std::string LibraryVersion(const char* name, guint major, guint minor, guint micro, const std::string& ident) {
  return "        <library_version" + Attribute("name", name) + Attribute("major", Integer(major)) +
         Attribute("minor", Integer(minor)) + Attribute("micro", Integer(micro)) +
         Attribute("version", Integer((major << 16) | (minor << 8) | micro)) + Attribute("ident", ident) + "/>\n";
}

std::string LibraryVersions() {
  guint major, minor, micro, nano;
  gst_version(&major, &minor, &micro, &nano);
  std::string text = "    <library_versions>\n";
  text += LibraryVersion("gstreamer", major, minor, micro, "GStreamer " + std::to_string(major) + "." +
                                                             std::to_string(minor) + "." + std::to_string(micro));
  if (GstPlugin* plugin = gst_registry_find_plugin(gst_registry_get(), "cudahistogram")) {
    guint plugin_major = 0, plugin_minor = 0, plugin_micro = 0;
    const gchar* version = gst_plugin_get_version(plugin);
    std::sscanf(version ? version : "", "%u.%u.%u", &plugin_major, &plugin_minor, &plugin_micro);
    text += LibraryVersion("cudahistogram", plugin_major, plugin_minor, plugin_micro,
                           std::string("cudahistogram ") + (version ? version : ""));
    gst_object_unref(plugin);
  }
  return text + "    </library_versions>\n";
}

std::string ErrnoText(int error) { return g_strerror(error); }

}  // namespace

std::string ReportPathFor(const std::string& input, const std::string& output_dir) {
  if (output_dir.empty()) return input + ".qctools.xml.gz";
  gchar* base = g_path_get_basename(input.c_str());
  gchar* path = g_build_filename(output_dir.c_str(), base, nullptr);
  std::string report = std::string(path) + ".qctools.xml.gz";
  g_free(base);
  g_free(path);
  return report;
}

std::string FrameElement(const FrameAttributes& attributes, const FrameFigures& figures) {
  std::string text = "        <frame" + FrameAttributesText(attributes) + ">\n";
  if (!attributes.timecode.empty())
    text += "            <tag key=\"timecode\" value=\"" + attributes.timecode + "\"/>\n";
  const std::vector<FigureField>& fields = FrameFigureFields();
  for (size_t i = 0; i < fields.size() && i < figures.values.size(); ++i) {
    if (!figures.present[i]) continue;
    text += std::string("            <tag key=\"") + fields[i].lavfi_key + "\" value=\"" +
            TagValue(fields[i], figures.values[i]) + "\"/>\n";
  }
  return text + "        </frame>\n";
}

std::string DocumentHead() {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<ffprobe:ffprobe xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
         "xmlns:ffprobe=\"http://www.ffmpeg.org/schema/ffprobe\" "
         "xsi:schemaLocation=\"http://www.ffmpeg.org/schema/ffprobe ffprobe.xsd\">\n" +
         ProgramVersion() + "\n" + LibraryVersions() + "\n    <frames>\n";
}

std::string DocumentTail() { return "    </frames>\n</ffprobe:ffprobe>\n"; }

ReportWriter::~ReportWriter() { Abandon(); }

bool ReportWriter::Open(const std::string& report_path, bool overwrite, std::string* problem) {
  report_path_ = report_path;
  overwrite_ = overwrite;
  gchar* dir = g_path_get_dirname(report_path.c_str());
  gchar* base = g_path_get_basename(report_path.c_str());
  // Hidden and unfinished-looking: a run that dies leaves no file under the report's name.
  gchar* name = g_strdup_printf(".%s.partial-XXXXXX", base);
  gchar* temporary = g_build_filename(dir, name, nullptr);
  g_free(dir);
  g_free(base);
  g_free(name);
  const int fd = g_mkstemp(temporary);
  if (fd < 0) {
    *problem = std::string("cannot create a temporary report in the output folder: ") + ErrnoText(errno);
    g_free(temporary);
    return false;
  }
  temporary_path_ = temporary;
  g_free(temporary);
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);  // a report is as readable as any file the user writes
  GOutputStream* file = g_unix_output_stream_new(fd, TRUE);
  GZlibCompressor* gzip = g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  stream_ = g_converter_output_stream_new(file, G_CONVERTER(gzip));
  g_object_unref(gzip);
  g_object_unref(file);
  return Write(DocumentHead(), problem);
}

bool ReportWriter::Write(const std::string& text, std::string* problem) {
  pending_ += text;
  return pending_.size() < kFlushBytes || Flush(problem);
}

bool ReportWriter::Flush(std::string* problem) {
  GError* error = nullptr;
  if (!stream_) {
    *problem = "the report is not open";
    return false;
  }
  if (!g_output_stream_write_all(stream_, pending_.data(), pending_.size(), nullptr, nullptr, &error)) {
    *problem = "cannot write the report " + report_path_ + ": " + error->message;
    g_clear_error(&error);
    return false;
  }
  pending_.clear();
  return true;
}

bool ReportWriter::Finish(std::string* problem) {
  pending_ += DocumentTail();
  if (!Flush(problem)) return false;
  GError* error = nullptr;
  const bool closed = g_output_stream_close(stream_, nullptr, &error);
  g_clear_object(&stream_);
  if (!closed) {
    *problem = "cannot write the report " + report_path_ + ": " + error->message;
    g_clear_error(&error);
    return false;
  }
  if (overwrite_) {
    if (g_rename(temporary_path_.c_str(), report_path_.c_str()) != 0) {
      *problem = "cannot rename the report to " + report_path_ + ": " + ErrnoText(errno);
      return false;
    }
  } else if (link(temporary_path_.c_str(), report_path_.c_str()) != 0) {
    // A hard link refuses to replace; where links are not supported, a rename
    // after a last look is as close as the file system allows.
    const int link_error = errno;
    if (link_error == EEXIST || g_file_test(report_path_.c_str(), G_FILE_TEST_EXISTS)) {
      *problem = "a report appeared meanwhile at " + report_path_ + " (left as it is; --force replaces it)";
      return false;
    }
    if (g_rename(temporary_path_.c_str(), report_path_.c_str()) != 0) {
      *problem = "cannot rename the report to " + report_path_ + ": " + ErrnoText(errno);
      return false;
    }
  } else {
    g_unlink(temporary_path_.c_str());
  }
  temporary_path_.clear();
  return true;
}

void ReportWriter::Abandon() {
  if (stream_) {
    g_output_stream_close(stream_, nullptr, nullptr);
    g_clear_object(&stream_);
  }
  if (!temporary_path_.empty()) g_unlink(temporary_path_.c_str());
  temporary_path_.clear();
  pending_.clear();
}

}  // namespace qc
