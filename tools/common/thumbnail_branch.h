// A thumbnail of the picture beside the analysis, tapped off the analysed
// frames (picture_tap.h) at most once per `period` and encoded as JPEG:
//
//   GPU: frames. ! queue leaky ! cudaupload ! cudaconvertscale
//                ! video/x-raw(memory:CUDAMemory),width=W ! cudadownload ! jpegenc ! appsink
//   CPU: frames. ! queue leaky ! videoscale ! videoconvert ! video/x-raw,width=W ! jpegenc ! appsink
//
// On the GPU the frame is scaled where it lives (NVDEC's CUDA memory;
// cudaupload passes such frames through and uploads a CPU decoder's) and
// only the thumbnail is downloaded. The height follows the picture's display
// aspect ratio.
#pragma once

#include <gst/gst.h>

#include <string>

#include "analysis_pipeline.h"

namespace cudahist_tools {

struct ThumbnailBranchOptions {
  GstClockTime period = GST_SECOND;
  bool gpu = false;  // scale on the GPU (nvcodec's cudaconvertscale)
  int width = 320;
  int quality = 80;  // jpegenc's
};

// Adds the branch to `parts` (built by BuildAnalysisPipeline, not yet
// started). Returns the appsink (owned by the pipeline; TakePicture reads
// its JPEG), or nullptr with the reason in `problem`.
GstElement* AddThumbnailBranch(const AnalysisPipeline& parts, const ThumbnailBranchOptions& options,
                               std::string* problem);

}  // namespace cudahist_tools
