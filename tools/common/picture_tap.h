// Where the status page's pictures are tapped off the analysed frames: one
// tee between the analysis pipeline's cudahistogram and its sink, a branch
// per picture (scope_branch.h, thumbnail_branch.h), each fed at most one
// frame per period and ending in an appsink that keeps its newest picture.
//
//   ... ! cudahistogram ! tee name=frames ! queue ! sink
//                          frames. ! queue leaky (one frame) ! <a picture's elements> ! appsink
#pragma once

#include <gst/gst.h>

#include <string>
#include <vector>

#include "analysis_pipeline.h"

namespace cudahist_tools {

// Makes the elements of `factories` (named `names`), or none with the
// missing one in `problem`. Entries of `factories` that are nullptr are skipped.
bool MakePictureElements(const std::vector<const char*>& factories, const std::vector<std::string>& names,
                         std::vector<GstElement*>* made, std::string* problem);

// Adds `elements` to the pipeline after the frames tee (made on first use)
// through a leaky one-frame queue that lets a frame in once per `period` of
// wall time, links them and sets the last, an appsink, to keep only its
// newest picture without ever holding the pipeline back. `queue_name` names
// the queue. False with `problem` when they do not link.
bool TapPictures(const AnalysisPipeline& parts, const std::string& queue_name, GstClockTime period,
                 const std::vector<GstElement*>& elements, std::string* problem);

// The newest picture the appsink holds, as encoded bytes; "" when none came
// since the last call. Never blocks.
std::string TakePicture(GstElement* appsink);

}  // namespace cudahist_tools
