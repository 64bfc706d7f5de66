#include "progress.h"

#include <glib.h>

#include <cstdio>

#include "redact.h"

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

// The overall bar's estimate is shown once this much of the run is done: before,
// the first files' start dominates it.
constexpr double kEstimateAfterFraction = 0.02;
constexpr double kEstimateAfterSeconds = 2.0;

// "45 s", "3 min 20 s", "2 h 05 min".
std::string Duration(double seconds) {
  const long s = long(seconds + 0.5);
  char text[32];
  if (s < 60) std::snprintf(text, sizeof text, "%ld s", s);
  else if (s < 3600) std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, s / 60 % 60);
  return text;
}

// The time the rest of the run should take at its rate so far, or "" while too little is done to tell.
std::string TimeLeft(double fraction, double elapsed) {
  if (fraction < kEstimateAfterFraction || elapsed < kEstimateAfterSeconds || fraction >= 1.0) return "";
  return ", about " + Duration(elapsed * (1.0 - fraction) / fraction) + " left";
}

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

Progress::Progress(ProgressOutputs outputs, size_t total)
    : outputs_(outputs), total_(total), started_us_(g_get_monotonic_time()) {}

void Progress::ClearBars() {
  for (; bar_lines_ > 0; --bar_lines_) std::fputs("\033[1A\033[2K", stderr);
  std::fputs("\r", stderr);
}

void Progress::Draw(const std::vector<const FileJob*>& running) {
  if (!outputs_.bars) return;
  ClearBars();
  double overall = double(done_);
  unsigned long long frames = frames_;
  for (const FileJob* job : running) {
    const std::string decoder = job->decoder();
    const guint64 written = job->frames_written();
    gchar* name = g_path_get_basename(cudahist_tools::RedactUri(job->result().input).c_str());
    std::fprintf(stderr, "%s %3d%%  %s  %llu frames, %s/s  (%s)\n", Bar(job->Progress()).c_str(),
                 int(job->Progress() * 100), name, (unsigned long long)written,
                 Rate(written, job->SecondsRunning()).c_str(), decoder.empty() ? "starting" : decoder.c_str());
    g_free(name);
    overall += job->Progress();
    frames += written;
    ++bar_lines_;
  }
  const double fraction = total_ ? overall / total_ : 1.0;
  const double elapsed = double(g_get_monotonic_time() - started_us_) / 1e6;
  std::fprintf(stderr, "%s %3d%%  %zu of %zu files, %llu frames, %s frames/s%s\n", Bar(fraction).c_str(),
               int(100 * fraction), done_, total_, frames, Rate(frames, elapsed).c_str(),
               TimeLeft(fraction, elapsed).c_str());
  ++bar_lines_;
  std::fflush(stderr);
}

void Progress::Finished(const JobResult& result) {
  // An input may be a URI: what leaves the program is without its secrets.
  const cudahist_tools::UriSecrets secrets(result.input);
  JobResult r = result;
  r.input = cudahist_tools::RedactUri(result.input);
  r.report = secrets.Scrub(result.report);
  r.error = secrets.Scrub(result.error);
  r.warning = secrets.Scrub(result.warning);
  ++done_;
  frames_ += r.frames;
  if (r.status == JobResult::Status::kWritten) ++written_;
  else if (r.status == JobResult::Status::kSkipped) ++skipped_;
  else ++failed_;
  if (r.has_audio) ++with_audio_;
  if (Words()) {
    ClearBars();
    if (r.status == JobResult::Status::kFailed)
      std::fprintf(stderr, "cudahist-qc: %s: %s\n", r.input.c_str(), r.error.c_str());
    else if (r.status == JobResult::Status::kSkipped)
      std::fprintf(stderr, "skipped %s: %s exists (--force replaces it)\n", r.input.c_str(), r.report.c_str());
    else
      std::fprintf(stderr, "wrote %s: %llu frames, %s frames/s, %s%s%s%s%s%s\n", r.report.c_str(),
                   (unsigned long long)r.frames, Rate(r.frames, r.seconds).c_str(), r.decoder.c_str(),
                   r.decoder_why.empty() ? "" : " (", r.decoder_why.empty() ? "" : (r.decoder_why + ")").c_str(),
                   r.has_audio ? "; audio not analysed (video-only report)" : "",
                   r.warning.empty() ? "" : "; warning: ", r.warning.c_str());
    std::fflush(stderr);
  } else {
    // Errors name the file on stderr too, for whoever reads only that.
    if (r.status == JobResult::Status::kFailed)
      std::fprintf(stderr, "cudahist-qc: %s: %s\n", r.input.c_str(), r.error.c_str());
    if (!r.warning.empty()) std::fprintf(stderr, "cudahist-qc: %s: warning: %s\n", r.input.c_str(), r.warning.c_str());
  }
  if (!outputs_.json) return;
  std::string line = "{\"input\":" + JsonString(r.input) + ",\"report\":" + JsonString(r.report) +
                     ",\"status\":\"" + StatusName(r.status) + "\"";
  if (r.status == JobResult::Status::kFailed) line += ",\"error\":" + JsonString(r.error);
  if (r.status == JobResult::Status::kWritten)
    line += ",\"frames\":" + std::to_string(r.frames) + ",\"seconds\":" + OneDecimal(r.seconds) +
            ",\"fps\":" + Rate(r.frames, r.seconds) + ",\"decoder\":" + JsonString(r.decoder) +
            (r.decoder_why.empty() ? "" : ",\"why\":" + JsonString(r.decoder_why)) +
            ",\"backend\":" + JsonString(r.backend);
  if (r.has_audio) line += std::string(",\"audio\":\"") + kVideoOnly + "\"";
  if (!r.warning.empty()) line += ",\"warning\":" + JsonString(r.warning);
  std::printf("%s}\n", line.c_str());
  std::fflush(stdout);
}

void Progress::Summary(double seconds, int jobs, bool interrupted) {
  const size_t unfinished = total_ - done_;
  ClearBars();
  if (interrupted)
    std::fprintf(stderr, "cudahist-qc: interrupted; %zu file%s not finished (their reports were not kept)\n",
                 unfinished, unfinished == 1 ? "" : "s");
  if (Words()) {
    std::fprintf(stderr, "%zu written, %zu skipped, %zu failed; %llu frames in %.1f s (%s frames/s)%s\n", written_,
                 skipped_, failed_, frames_, seconds, Rate(frames_, seconds).c_str(),
                 with_audio_ ? "; reports are video-only: audio (lavfi.r128.*) is not analysed" : "");
    std::fflush(stderr);
  }
  if (!outputs_.json) return;
  std::printf("{\"summary\":true,\"files\":%zu,\"written\":%zu,\"skipped\":%zu,\"failed\":%zu,\"frames\":%llu,"
              "\"seconds\":%.3f,\"fps\":%s,\"jobs\":%d,\"audio\":\"%s\"%s}\n",
              total_, written_, skipped_, failed_, frames_, seconds, Rate(frames_, seconds).c_str(), jobs,
              "not analysed: reports are video-only",
              interrupted ? (",\"interrupted\":true,\"unfinished\":" + std::to_string(unfinished)).c_str() : "");
  std::fflush(stdout);
}

}  // namespace qc
