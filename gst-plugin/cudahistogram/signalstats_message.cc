#include "cudahistogram/signalstats_message.h"

#include <type_traits>

namespace cudahistogram {

// Each figure goes from the library's struct to the meta's under its member
// in cudahist/figures.def; the meta library names it in the message.
#define FIGURE_COPIED_TO_META(member, type)                                           \
  static_assert(std::is_same_v<decltype(meta.member), type>,                         \
                "GstCudaSignalStats / GstCudaQcFigures: " #member " is not the " #type \
                " that cudahist/figures.def declares");

GstCudaSignalStats MetaSignalStats(const cudahist::SignalStatsFigures& figures) {
  GstCudaSignalStats meta{};
#define SIGNALSTATS_FIGURE(group, member, name, ffmpeg_key, type, unit) \
  FIGURE_COPIED_TO_META(member, type)                                  \
  meta.member = figures.member;
#include "cudahist/figures.def"
  return meta;
}

void SetSignalStatsFields(const cudahist::SignalStatsFigures& figures, GstStructure* s) {
  const GstCudaSignalStats meta = MetaSignalStats(figures);
  gst_cuda_signal_stats_to_structure(&meta, s);
}

GstCudaQcFigures MetaQcFigures(const QcFields& qc) {
  GstCudaQcFigures meta{};
  meta.has_tout_vrep = qc.tout_vrep;
  meta.has_crop = qc.crop;
  meta.has_field_psnr = qc.field_psnr;
#define QC_FIGURE(group, has_flag, member, name, ffmpeg_key, type, unit) \
  FIGURE_COPIED_TO_META(member, type)                                   \
  if (meta.has_flag) meta.member = qc.figures.member;
#include "cudahist/figures.def"
  return meta;
}

#undef FIGURE_COPIED_TO_META

void SetQcFields(const QcFields& qc, GstStructure* s) {
  const GstCudaQcFigures meta = MetaQcFigures(qc);
  gst_cuda_qc_figures_to_structure(&meta, s);
}

}  // namespace cudahistogram
