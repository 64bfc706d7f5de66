// A live scope beside the analysis: between the analysis pipeline's
// cudahistogram and its sink a tee sends, at most once per `period`, a frame
// to cudavideoscope, whose picture pngenc encodes into an appsink.
//
//   ... ! cudahistogram ! tee ! queue ! fakesink
//                          tee. ! queue leaky (one frame) ! cudavideoscope style=STYLE
//                               [! cudadownload] ! video/x-raw,width=W,height=H ! pngenc ! appsink
//
// Frames between two pictures are dropped before the queue, so a scope costs
// one frame's drawing per period whatever the stream's rate.
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
// started). Returns the appsink (owned by the pipeline), or nullptr with the
// reason in `problem`.
GstElement* AddScopeBranch(const AnalysisPipeline& parts, const ScopeBranchOptions& options, std::string* problem);

// The newest picture the appsink holds, as PNG bytes; "" when none came
// since the last call. Never blocks.
std::string TakeScopePng(GstElement* appsink);

}  // namespace cudahist_tools
