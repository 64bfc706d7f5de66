// A live scope beside the analysis, tapped off the analysed frames
// (picture_tap.h) at most once per `period`:
//
//   frames. ! queue leaky (one frame) ! cudavideoscope style=STYLE
//           [! cudadownload] ! video/x-raw,width=W,height=H ! pngenc ! appsink
#pragma once

#include <gst/gst.h>

#include <string>

#include "analysis_pipeline.h"

namespace cudahist_tools {

struct ScopeBranchOptions {
  std::string style = "waveform";  // cudavideoscope's style nick
  GstClockTime period = GST_SECOND;
  bool gpu = false;                // the frames are CUDA memory: download the picture
  int width = 512, height = 256;   // of the picture
};

// Adds the branch to `parts` (built by BuildAnalysisPipeline, not yet
// started). Returns the appsink (owned by the pipeline; TakePicture reads
// its PNG), or nullptr with the reason in `problem`.
GstElement* AddScopeBranch(const AnalysisPipeline& parts, const ScopeBranchOptions& options, std::string* problem);

}  // namespace cudahist_tools
