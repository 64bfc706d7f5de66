#include "cudahistogram/settings.h"

#include <glib-object.h>

namespace cudahistogram {

bool Settings::operator==(const Settings& o) const {
  return bins == o.bins && components == o.components && roi_x == o.roi_x && roi_y == o.roi_y &&
         roi_width == o.roi_width && roi_height == o.roi_height && algorithm == o.algorithm &&
         attach_meta == o.attach_meta && post_messages == o.post_messages &&
         interval == o.interval && cuda_device_id == o.cuda_device_id &&
         signalstats == o.signalstats && cropdetect == o.cropdetect && field_psnr == o.field_psnr;
}

GType AlgorithmEnumType() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {int(cudahist::Algorithm::kAuto), "The library chooses from the measured benchmark",
       "auto"},
      {int(cudahist::Algorithm::kPrivatized),
       "Per-block shared-memory histograms, lane-indexed copies (no bank conflicts)",
       "privatized"},
      {int(cudahist::Algorithm::kPrivatizedPacked),
       "Per-thread packed 8-bit counters merged periodically", "privatized-packed"},
      {int(cudahist::Algorithm::kPrivatizedSharedAtomic),
       "One shared-memory histogram per block (baseline)", "privatized-shared"},
      {int(cudahist::Algorithm::kTwoPhase),
       "Per-block partial histograms in global memory, then a reduction (any bin count)",
       "two-phase"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type)) {
    GType registered = g_enum_register_static("GstCudaHistogramAlgorithm", values);
    g_once_init_leave(&type, registered);
  }
  return type;
}

}  // namespace cudahistogram
