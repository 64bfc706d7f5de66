// What a run shows. On a terminal (stderr): a bar per running file (frames,
// rate) and one overall (files, frames, rate, time left), redrawn in place,
// with a line per finished file above them and the totals last. For a
// program (stdout that is not a terminal, or --json): one JSON object per
// file on stdout and a last one summing up. Both at once when stderr is a
// terminal and stdout a pipe. An input is shown with its URI's secrets
// redacted (redact.h).
#pragma once

#include <glib.h>

#include <string>
#include <vector>

#include "file_job.h"

namespace qc {

struct ProgressOutputs {
  bool bars = false;  // stderr is a terminal
  bool json = false;  // stdout is not a terminal, or --json
};

class Progress {
 public:
  // `total`: the number of inputs.
  Progress(ProgressOutputs outputs, size_t total);

  // Redraws the bars (interactive only).
  void Draw(const std::vector<const FileJob*>& running);
  // A finished file: a line on the terminal, or its JSON line.
  void Finished(const JobResult& result);
  // The run's last word: totals as a sentence and/or a JSON line; an
  // interrupted run says so, and how many files it did not finish.
  void Summary(double seconds, int jobs, bool interrupted);

  size_t failed() const { return failed_; }

 private:
  void ClearBars();

  // The per-file lines and the totals in words go to stderr: with the bars,
  // or as its log when no JSON goes out (stdout on a terminal).
  bool Words() const { return outputs_.bars || !outputs_.json; }

  ProgressOutputs outputs_;
  size_t total_, done_ = 0, written_ = 0, skipped_ = 0, failed_ = 0, with_audio_ = 0;
  unsigned long long frames_ = 0;
  int bar_lines_ = 0;
  gint64 started_us_;
};

// A JSON string literal of `text` (UTF-8 kept, control characters escaped).
std::string JsonString(const std::string& text);

}  // namespace qc
