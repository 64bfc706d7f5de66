// The element's property values and the properties that set them. They live
// under the object lock and the streaming thread works on a copy taken at the
// start of each frame, so a property set mid-stream takes effect on a whole
// frame, never half of one.
#pragma once

#include <glib-object.h>

#include <string>

#include "common/video_planes.h"
#include "cudahist/histogram_spec.h"

namespace cudahistogram {

constexpr guint kDefaultBins = 256;
constexpr guint kMinBins = 1;
constexpr guint kMaxBins = cudahist::kMaxBins;
// A GstAnalyticsRelationMeta grows its relation matrix (one byte per pair of
// Mtds) 5 Mtds at a time, copying it each time: every Mtd added to a frame of
// N detections costs O(N^2). 1000 bounds what the element adds to such a
// frame; detectors give far fewer (SSD 100, YOLO's NMS about 300).
constexpr guint kDefaultMaxObjects = 1000;

// What `objects` counts besides the frame: nothing, or the box of every
// GstAnalyticsODMtd of each buffer (GStreamer 1.24+).
enum class Objects { kNone = 0, kDetections = 1 };

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
  // Regions counted besides the frame, all in one launch (frame_regions.h).
  std::string regions;                // "NAME:X,Y,W,H;..." in frame pixels; "" none
  Objects objects = Objects::kNone;
  std::string object_labels;          // labels counted, separated by commas; "" every label
  double object_min_confidence = 0;   // detections below it are not counted
  guint max_objects = kDefaultMaxObjects;  // detections counted per frame at most (frame_regions.h)
  bool region_tensor = false;         // the regions' counts also as a GstTensorMeta (1.26+)

  // Whether anything besides the frame is counted.
  bool CountsRegions() const { return !regions.empty() || objects != Objects::kNone; }

  // Whether any of signalstats, cropdetect, field-psnr asks for the YUV counts.
  bool WantsYuvFigures() const { return signalstats || cropdetect || field_psnr; }

  bool operator==(const Settings& other) const;
  bool operator!=(const Settings& other) const { return !(*this == other); }
};

// GEnum of cudahist::Algorithm for the `algorithm` property; nicks are the
// library's stable names (AlgorithmName).
GType AlgorithmEnumType();

// GEnum of Objects for the `objects` property: "none", "detections".
GType ObjectsEnumType();

// Installs the element's properties on `klass`, each bound to its Settings
// field (common/element_parts.h); setting attach-meta switches passthrough.
void InstallSettingsProperties(GObjectClass* klass);

}  // namespace cudahistogram
