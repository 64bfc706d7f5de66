// What a run shows: on a terminal, a bar per running file (frames, rate) and
// one overall (files, frames, rate, time left), redrawn in place on stderr,
// with a line per finished file above them; otherwise one JSON object per
// file on stdout and a last one summing up.
#pragma once

#include <glib.h>

#include <string>
#include <vector>

#include "file_job.h"

namespace qc {

class Progress {
 public:
  // `interactive`: stderr is a terminal. `total`: the number of inputs.
  Progress(bool interactive, size_t total);

  // Redraws the bars (interactive only).
  void Draw(const std::vector<const FileJob*>& running);
  // A finished file: a line on the terminal, or its JSON line.
  void Finished(const JobResult& result);
  // The run's last word: totals as a sentence or as a JSON line.
  void Summary(double seconds, int jobs);

  size_t failed() const { return failed_; }

 private:
  void ClearBars();

  bool interactive_;
  size_t total_, done_ = 0, written_ = 0, skipped_ = 0, failed_ = 0, with_audio_ = 0;
  unsigned long long frames_ = 0;
  int bar_lines_ = 0;
  gint64 started_us_;
};

// A JSON string literal of `text` (UTF-8 kept, control characters escaped).
std::string JsonString(const std::string& text);

}  // namespace qc
