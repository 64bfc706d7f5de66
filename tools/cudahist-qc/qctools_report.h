// FILE.qctools.xml.gz: the document qcli writes, ffprobe's XML
// (`ffprobe -show_frames -show_versions -of xml=x=1:q=1 -noprivate`) with one
// <frame> per video frame carrying FFmpeg's lavfi.* tags, gzip-compressed by
// GIO's zlib compressor. Written to a temporary file beside the report and
// renamed at the end, so that a report under its final name is always whole.
#pragma once

#include <gio/gio.h>

#include <string>

#include "frame_attributes.h"
#include "frame_figures.h"

namespace qc {

// "<input>.qctools.xml.gz", beside the input or in `output_dir` when it is not empty.
std::string ReportPathFor(const std::string& input, const std::string& output_dir);

// One <frame ...>...</frame> element, indented as ffprobe indents it.
std::string FrameElement(const FrameAttributes& attributes, const cudahist_tools::FrameFigures& figures);

// The document's head: XML declaration, <ffprobe:ffprobe>, program_version,
// library_versions, <frames>. And its tail.
std::string DocumentHead();
std::string DocumentTail();

class ReportWriter {
 public:
  ReportWriter() = default;
  ReportWriter(const ReportWriter&) = delete;
  ReportWriter& operator=(const ReportWriter&) = delete;
  ~ReportWriter();  // abandons an unfinished report

  // Creates the temporary file beside `report_path` and writes the head.
  bool Open(const std::string& report_path, bool overwrite, std::string* problem);
  bool Write(const std::string& text, std::string* problem);
  // Writes the tail, closes, and gives the report its final name (refusing to
  // replace one that appeared meanwhile unless `overwrite`).
  bool Finish(std::string* problem);
  // Deletes the temporary file.
  void Abandon();

 private:
  bool Flush(std::string* problem);

  std::string report_path_, temporary_path_;
  bool overwrite_ = false;
  GOutputStream* stream_ = nullptr;  // gzip converter over the file
  std::string pending_;
};

}  // namespace qc
