// FFmpeg signalstats' figures and the rest of QCTools' graph in the
// "cudahistogram" message and in the meta: every figure under the name,
// member and type that cudahist/figures.def declares for it (G_TYPE_INT or
// G_TYPE_DOUBLE in the message; docs/signalstats.md and docs/qc-figures.md
// list them beside FFmpeg's tags). Values straight from cudahist::FiguresOf
// and QcFiguresOf.
#pragma once

#include <gst/gst.h>

#include "cudahist/signalstats.h"
#include "gstcudahistogrammeta.h"

namespace cudahistogram {

void SetSignalStatsFields(const cudahist::SignalStatsFigures& figures, GstStructure* s);

GstCudaSignalStats MetaSignalStats(const cudahist::SignalStatsFigures& figures);

// The QC figures of a frame, each group where its property asks for it and
// FFmpeg reports it: TOUT and VREP with signalstats=true; cropdetect's with
// cropdetect=true, absent on the frames cropdetect skips; the fields' PSNR
// with field-psnr=true on even heights (+inf for equal fields).
struct QcFields {
  bool tout_vrep = false;
  bool crop = false;
  bool field_psnr = false;
  cudahist::QcFigures figures{};
};

void SetQcFields(const QcFields& qc, GstStructure* s);

GstCudaQcFigures MetaQcFigures(const QcFields& qc);

}  // namespace cudahistogram
