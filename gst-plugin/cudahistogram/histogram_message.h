// The "cudahistogram" element message and the statistics it carries.
//
// Fields (level-like), in this order:
//   timestamp, stream-time, running-time  guint64  of the first frame counted
//   duration      guint64  sum of the counted frames' durations (NONE if unknown)
//   frames        guint    frames added up in this message
//   format        string   e.g. "NV12"
//   width, height guint    frame size in pixels
//   roi-x, roi-y, roi-width, roi-height  guint  counted rectangle (clipped)
//   bins          guint
//   components    GValueArray of strings, e.g. ["Y", "U", "V"]
//   depths        GValueArray of guint: bits per sample of each component
//   histograms    GValueArray (one per component) of GValueArray of guint64 counts
//   mean, stddev, min, max        GValueArray of gdouble, in sample code values
//   clipped-low, clipped-high     GValueArray of gdouble, fractions 0..1
//   the figures   signalstats' figures of the last frame, when it has them,
//                 and its QC figures, where asked for and reported, each
//                 under its name in cudahist/figures.def (signalstats_message.h)
//   regions, objects GValueArray of structures: the fixed regions' and the
//                 detected objects' counts (region_message.h), when asked for
//
// Statistics from the counts: with bins == 2^depth a bin is one code value and
// every statistic is exact. With coarser bins, mean and stddev use each bin's
// centre, min is the lowest value of the lowest non-empty bin and max the
// highest value of the highest non-empty bin (the true min/max lie within
// those bins), clipped-low/-high are the fractions in the first/last bin.
#pragma once

#include <gst/gst.h>

#include <cstdint>
#include <vector>

#include "cudahistogram/histogram_accumulator.h"

namespace cudahistogram {

constexpr const char* kMessageName = "cudahistogram";

// The message's structure for what `accumulator` holds (it must not be empty).
GstStructure* HistogramStructure(const HistogramAccumulator& accumulator);

// Which form a structure's counts take: `histograms`, an array per
// component of a guint64 value per bin (the frame's, as `level` posts its
// arrays), or `counts`, one GBytes of every guint64 (each region's and
// object's: a hundred detections a frame as GValues cost milliseconds).
enum class CountsAs { kValueArrays, kBytes };

// The counts field (as `form` says), then mean, stddev, min, max,
// clipped-low, clipped-high of `counts` (the layout's n_components * bins,
// component-major) set on `s`.
void SetCountFields(const HistogramLayout& layout, const uint64_t* counts, CountsAs form, GstStructure* s);

// `field` set to a GValueArray of `structures` (taken).
void SetStructuresField(GstStructure* s, const char* field, const std::vector<GstStructure*>& structures);

}  // namespace cudahistogram
