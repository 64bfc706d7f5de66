#include "progress.h"

#include <glib.h>

#include <cstdio>

namespace qc {
namespace {

constexpr int kBarWidth = 30;
constexpr const char* kVideoOnly = "not analysed: the report is video-only";

std::string Bar(double fraction) {
  const int filled = int(fraction * kBarWidth + 0.5);
  return "[" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "]";
}

std::string OneDecimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string Rate(guint64 frames, double seconds) { return OneDecimal(seconds > 0 ? double(frames) / seconds : 0.0); }

const char* StatusName(JobResult::Status status) {
  switch (status) {
    case JobResult::Status::kWritten: return "written";
    case JobResult::Status::kSkipped: return "skipped";
    case JobResult::Status::kFailed: break;
  }
  return "failed";
}

}  // namespace

std::string JsonString(const std::string& text) {
  std::string json = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') json += std::string("\\") + char(c);
    else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      json += escaped;
    } else json += char(c);
  }
  return json + "\"";
}

Progress::Progress(bool interactive, size_t total) : interactive_(interactive), total_(total) {}

void Progress::ClearBars() {
  for (; bar_lines_ > 0; --bar_lines_) std::fputs("\033[1A\033[2K", stderr);
  std::fputs("\r", stderr);
}

void Progress::Draw(const std::vector<const FileJob*>& running) {
  if (!interactive_) return;
  ClearBars();
  double overall = double(done_);
  for (const FileJob* job : running) {
    const std::string decoder = job->decoder();
    gchar* name = g_path_get_basename(job->result().input.c_str());
    std::fprintf(stderr, "%s %3d%%  %s  (%s)\n", Bar(job->Progress()).c_str(), int(job->Progress() * 100), name,
                 decoder.empty() ? "starting" : decoder.c_str());
    g_free(name);
    overall += job->Progress();
    ++bar_lines_;
  }
  std::fprintf(stderr, "%s %3d%%  %zu of %zu files, %llu frames\n", Bar(total_ ? overall / total_ : 1).c_str(),
               int(total_ ? 100 * overall / total_ : 100), done_, total_, frames_);
  ++bar_lines_;
  std::fflush(stderr);
}

void Progress::Finished(const JobResult& r) {
  ++done_;
  frames_ += r.frames;
  if (r.status == JobResult::Status::kWritten) ++written_;
  else if (r.status == JobResult::Status::kSkipped) ++skipped_;
  else ++failed_;
  if (r.has_audio) ++with_audio_;
  if (interactive_) {
    ClearBars();
    if (r.status == JobResult::Status::kFailed)
      std::fprintf(stderr, "cudahist-qc: %s: %s\n", r.input.c_str(), r.error.c_str());
    else if (r.status == JobResult::Status::kSkipped)
      std::fprintf(stderr, "skipped %s: %s exists (--force replaces it)\n", r.input.c_str(), r.report.c_str());
    else
      std::fprintf(stderr, "wrote %s: %llu frames, %s frames/s, %s%s%s%s\n", r.report.c_str(),
                   (unsigned long long)r.frames, Rate(r.frames, r.seconds).c_str(), r.decoder.c_str(),
                   r.has_audio ? "; audio not analysed (video-only report)" : "",
                   r.warning.empty() ? "" : "; warning: ", r.warning.c_str());
    return;
  }
  // Errors name the file on stderr too, for whoever reads only that.
  if (r.status == JobResult::Status::kFailed)
    std::fprintf(stderr, "cudahist-qc: %s: %s\n", r.input.c_str(), r.error.c_str());
  if (!r.warning.empty()) std::fprintf(stderr, "cudahist-qc: %s: warning: %s\n", r.input.c_str(), r.warning.c_str());
  std::string line = "{\"input\":" + JsonString(r.input) + ",\"report\":" + JsonString(r.report) +
                     ",\"status\":\"" + StatusName(r.status) + "\"";
  if (r.status == JobResult::Status::kFailed) line += ",\"error\":" + JsonString(r.error);
  if (r.status == JobResult::Status::kWritten)
    line += ",\"frames\":" + std::to_string(r.frames) + ",\"seconds\":" + OneDecimal(r.seconds) +
            ",\"fps\":" + Rate(r.frames, r.seconds) + ",\"decoder\":" + JsonString(r.decoder) +
            ",\"backend\":" + JsonString(r.backend);
  if (r.has_audio) line += std::string(",\"audio\":\"") + kVideoOnly + "\"";
  if (!r.warning.empty()) line += ",\"warning\":" + JsonString(r.warning);
  std::printf("%s}\n", line.c_str());
  std::fflush(stdout);
}

void Progress::Summary(double seconds, int jobs) {
  if (interactive_) {
    ClearBars();
    std::fprintf(stderr, "%zu written, %zu skipped, %zu failed; %llu frames in %.1f s (%s frames/s)%s\n", written_,
                 skipped_, failed_, frames_, seconds, Rate(frames_, seconds).c_str(),
                 with_audio_ ? "; reports are video-only: audio (lavfi.r128.*) is not analysed" : "");
    return;
  }
  std::printf("{\"summary\":true,\"files\":%zu,\"written\":%zu,\"skipped\":%zu,\"failed\":%zu,\"frames\":%llu,"
              "\"seconds\":%.3f,\"fps\":%s,\"jobs\":%d,\"audio\":\"%s\"}\n",
              total_, written_, skipped_, failed_, frames_, seconds, Rate(frames_, seconds).c_str(), jobs,
              "not analysed: reports are video-only");
  std::fflush(stdout);
}

}  // namespace qc
