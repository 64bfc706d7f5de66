// FFmpeg signalstats' figures in the "cudahistogram" message and in the meta,
// under the names the README's table gives beside signalstats' own:
//   y-min y-low y-avg y-high y-max   (YMIN YLOW YAVG YHIGH YMAX), u-..., v-...
//   sat-min sat-low sat-avg sat-high sat-max   (SATMIN ... SATMAX)
//   hue-med hue-avg   (HUEMED HUEAVG)
//   y-dif u-dif v-dif   (YDIF UDIF VDIF)
//   brng   (BRNG)
// *-min, *-low, *-high, *-max and hue-med are G_TYPE_INT; the averages, the
// difs and brng G_TYPE_DOUBLE; values straight from cudahist::FiguresOf.
// The meta's GstCudaSignalStats has the same names with '_' for '-'.
#pragma once

#include <gst/gst.h>

#include "cudahist/signalstats.h"
#include "gstcudahistogrammeta.h"

namespace cudahistogram {

void SetSignalStatsFields(const cudahist::SignalStatsFigures& figures, GstStructure* s);

GstCudaSignalStats MetaSignalStats(const cudahist::SignalStatsFigures& figures);

}  // namespace cudahistogram
