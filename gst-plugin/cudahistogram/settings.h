// The element's property values and the properties that set them. They live
// under the object lock and the streaming thread works on a copy taken at the
// start of each frame, so a property set mid-stream takes effect on a whole
// frame, never half of one.
#pragma once

#include <glib-object.h>

#include "common/video_planes.h"
#include "cudahist/histogram_spec.h"

namespace cudahistogram {

constexpr guint kDefaultBins = 256;
constexpr guint kMinBins = 1;
constexpr guint kMaxBins = cudahist::kMaxBins;

struct Settings {
  // components, roi-x/-y/-width/-height, bins
  CountRequest count = {kAllComponents, kDefaultBins, FrameRegion()};
  cudahist::Algorithm algorithm = cudahist::Algorithm::kAuto;
  bool attach_meta = true;
  bool post_messages = true;
  guint64 interval = 0;  // nanoseconds; 0: one message per frame
  bool signalstats = false;  // FFmpeg signalstats' figures of YUV frames of 8 to 10 bits
  bool cropdetect = false;   // cropdetect=reset=1's figures of the same frames
  bool field_psnr = false;   // the PSNR between each frame's top and bottom field
  bool upload = false;       // system-memory frames copied into CUDA memory and counted on the GPU

  // Whether any of signalstats, cropdetect, field-psnr asks for the YUV counts.
  bool WantsYuvFigures() const { return signalstats || cropdetect || field_psnr; }

  bool operator==(const Settings& other) const;
  bool operator!=(const Settings& other) const { return !(*this == other); }
};

// GEnum of cudahist::Algorithm for the `algorithm` property; nicks are the
// library's stable names (AlgorithmName).
GType AlgorithmEnumType();

// Installs the element's properties on `klass`, each bound to its Settings
// field (common/element_parts.h); setting attach-meta switches passthrough.
void InstallSettingsProperties(GObjectClass* klass);

}  // namespace cudahistogram
