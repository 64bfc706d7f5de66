// A thumbnail of the picture beside the analysis, tapped off the analysed
// frames (picture_tap.h) at most once per `period` and encoded as JPEG:
//
//   frames. ! queue leaky (one frame) ! cudavideoscope style=picture
//           [! cudadownload] ! video/x-raw,width=W ! videoconvert ! jpegenc ! appsink
//
// cudavideoscope scales the frame where it lives (CUDA memory on the GPU:
// only the thumbnail comes down; system memory on the CPU), each thumbnail
// pixel the mean of the frame's box it covers; the height follows the
// frame's display aspect ratio.
#pragma once

#include <gst/gst.h>

#include <string>

#include "analysis_pipeline.h"

namespace cudahist_tools {

struct ThumbnailBranchOptions {
  GstClockTime period = GST_SECOND;
  bool gpu = false;  // the frames are CUDA memory: download the thumbnail
  int width = 320;
  int quality = 80;  // jpegenc's
};

// Adds the branch to `parts` (built by BuildAnalysisPipeline, not yet
// started). Returns the appsink (owned by the pipeline; TakePicture reads
// its JPEG), or nullptr with the reason in `problem`.
GstElement* AddThumbnailBranch(const AnalysisPipeline& parts, const ThumbnailBranchOptions& options,
                               std::string* problem);

}  // namespace cudahist_tools
