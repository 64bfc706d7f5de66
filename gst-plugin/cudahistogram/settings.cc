#include "cudahistogram/settings.h"

#include <glib-object.h>

namespace cudahistogram {

bool Settings::operator==(const Settings& o) const {
  return count == o.count && algorithm == o.algorithm && attach_meta == o.attach_meta &&
         post_messages == o.post_messages && interval == o.interval && signalstats == o.signalstats;
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
