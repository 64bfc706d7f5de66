// What cudavideoscope counts and draws for one input format, output size and
// set of properties: the traced components (as cudahistogram's CountPlan),
// the per-column or joint histogram specs, and the drawing's description
// with everything but the counts' address. Built in set_caps and again when
// a property changes; every request the format cannot meet is an error here,
// before a frame flows. The picture counts nothing: its plan is the frame's
// colour components and the matrix that turns them into RGB.
#pragma once

#include <gst/video/video.h>

#include <string>

#include "cudahist/scope_render.h"
#include "cudahist/scopes.h"
#include "cudavideoscope/scope_settings.h"
#include "common/video_planes.h"

namespace cudahistogram {

struct ScopePlan {
  ScopeSettings settings;
  guint out_width = 0;
  guint out_height = 0;
  CountPlan count;  // the traced components; views without data
  cudahist::ColumnHistogramSpec columns[kMaxComponents];
  cudahist::JointHistogramSpec joint;
  size_t counts_offset[kMaxComponents] = {};  // of each trace's counts in one array
  size_t counts_total = 0;
  cudahist::ColumnScope column_scope;  // traces[i].counts set per frame (ScopeCountsAt)
  cudahist::VectorScope vector_scope;
  cudahist::PictureScope picture;  // components set per frame (SetPictureFrame)

  bool is_vectorscope() const { return settings.style == ScopeStyle::kVectorscope; }
  bool is_picture() const { return settings.style == ScopeStyle::kPicture; }
  int traces() const { return count.layout.n_components; }
};

// Checks the output size (1 to cudahist::kMaxScopeDimension) and builds the
// plan. Returns false with `error` naming the property or size and the
// format: a vectorscope of a format without chroma, a component the format
// lacks, a parade narrower than its panels.
bool MakeScopePlan(const GstVideoInfo& in, guint out_width, guint out_height, const ScopeSettings& settings,
                   ScopePlan* plan, std::string* error);

// Points the plan's drawing at counts laid out as counts_offset says.
void SetScopeCounts(ScopePlan* plan, uint32_t* counts);

// Points the picture at the frame's planes (the plan's traced components).
void SetPictureFrame(ScopePlan* plan, const cudahist::PlaneView* views);

}  // namespace cudahistogram
