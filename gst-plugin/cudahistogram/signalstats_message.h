// FFmpeg signalstats' figures in the "cudahistogram" message and in the meta,
// under the names docs/signalstats.md's table gives beside signalstats' own:
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

// The rest of QCTools' graph (docs/qc-figures.md), each group where its
// property asks for it and FFmpeg reports it:
//   tout vrep                 (TOUT VREP) signalstats=true; G_TYPE_DOUBLE
//   crop-x1 crop-x2 crop-y1 crop-y2 crop-w crop-h crop-x crop-y
//                             (lavfi.cropdetect.*) cropdetect=true, absent on
//                             the frames cropdetect skips; G_TYPE_INT
//   psnr-mse-y psnr-mse-u psnr-mse-v psnr-mse-avg psnr-y psnr-u psnr-v psnr-avg
//                             (lavfi.psnr.mse.y ... psnr_avg) field-psnr=true,
//                             even heights; G_TYPE_DOUBLE, +inf for equal fields
// The meta's GstCudaQcFigures has them with '_' for '-' (psnr_mse_y ...).
struct QcFields {
  bool tout_vrep = false;
  bool crop = false;
  bool field_psnr = false;
  cudahist::QcFigures figures{};
};

void SetQcFields(const QcFields& qc, GstStructure* s);

GstCudaQcFigures MetaQcFigures(const QcFields& qc);

}  // namespace cudahistogram
