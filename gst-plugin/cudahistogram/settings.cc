#include "cudahistogram/settings.h"

#include <glib-object.h>
#include <gst/base/gstbasetransform.h>

#include "common/element_parts.h"

namespace cudahistogram {

bool Settings::operator==(const Settings& o) const {
  return count == o.count && algorithm == o.algorithm && attach_meta == o.attach_meta &&
         post_messages == o.post_messages && interval == o.interval && signalstats == o.signalstats &&
         cropdetect == o.cropdetect && field_psnr == o.field_psnr && upload == o.upload && regions == o.regions &&
         objects == o.objects && object_labels == o.object_labels &&
         object_min_confidence == o.object_min_confidence && max_objects == o.max_objects &&
         region_tensor == o.region_tensor;
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

GType ObjectsEnumType() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {int(Objects::kNone), "Only the frame (and the fixed regions)", "none"},
      {int(Objects::kDetections),
       "Also the box of every object detection (GstAnalyticsODMtd) of each frame; needs GStreamer 1.24",
       "detections"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type)) {
    GType registered = g_enum_register_static("GstCudaHistogramObjects", values);
    g_once_init_leave(&type, registered);
  }
  return type;
}

namespace {

// The counted region: roi-x, roi-y, roi-width, roi-height.
struct RegionProperty {
  const char* name;
  const char* nick;
  const char* blurb;
  guint FrameRegion::*edge;
};
constexpr RegionProperty kRegionProperties[] = {
    {"roi-x", "ROI x", "Left edge of the counted region, in frame pixels; must lie inside the frame",
     &FrameRegion::x},
    {"roi-y", "ROI y", "Top edge of the counted region, in frame pixels; must lie inside the frame",
     &FrameRegion::y},
    {"roi-width", "ROI width",
     "Width of the counted region in frame pixels (0 = to the right edge); clipped to the frame. Subsampled "
     "components count every sample the region touches",
     &FrameRegion::width},
    {"roi-height", "ROI height",
     "Height of the counted region in frame pixels (0 = to the bottom edge); clipped to the frame",
     &FrameRegion::height},
};

// regions, objects, object-labels, object-min-confidence, region-tensor:
// the boxes counted besides the frame (frame_regions.h), in one launch.
void InstallRegionProperties(GObjectClass* gobject_class, SettingsProperties<Settings>& props) {
  props.Install(
      gobject_class,
      g_param_spec_string("regions", "Regions",
                          "Fixed regions counted besides the frame, in one launch with the detected objects: "
                          "\"NAME:X,Y,W,H;NAME:X,Y,W,H\" in frame pixels, e.g. "
                          "\"logo:1700,40,180,90;ticker:0,980,1920,100\". Each is clipped to the frame; one "
                          "wholly outside it, or a part that does not read as NAME:X,Y,W,H, is an error naming "
                          "it. The message's \"regions\" field and (GStreamer 1.24+) a GstCudaRegionMtd each "
                          "carry their counts. Empty: none",
                          "", kMutablePlaying),
      [](Settings& s) -> std::string& { return s.regions; });
  props.Install(
      gobject_class,
      g_param_spec_enum("objects", "Objects",
                        "Count each detected object's box too: \"detections\" reads every GstAnalyticsODMtd "
                        "of the buffer's GstAnalyticsRelationMeta (e.g. from ssdobjectdetector), counts its box "
                        "clipped to the frame, attaches a GstCudaRegionMtd related to it and lists it in the "
                        "message's \"objects\" field. Needs GStreamer 1.24 (gstreamer-analytics-1.0): a build "
                        "without it refuses \"detections\"",
                        ObjectsEnumType(), int(Objects::kNone), kMutablePlaying),
      [](Settings& s) -> Objects& { return s.objects; });
  props.Install(
      gobject_class,
      g_param_spec_string("object-labels", "Object labels",
                          "Labels of the detections counted, separated by commas (e.g. \"person,car\"); "
                          "empty: every label. A label that no detection carried by the end of the stream is "
                          "warned about",
                          "", kMutablePlaying),
      [](Settings& s) -> std::string& { return s.object_labels; });
  props.Install(
      gobject_class,
      g_param_spec_double("object-min-confidence", "Object minimum confidence",
                          "Detections whose confidence is below this are not counted; one whose confidence "
                          "is not a number is skipped with a warning",
                          0.0, 1.0, 0.0, kMutablePlaying),
      [](Settings& s) -> double& { return s.object_min_confidence; });
  props.Install(
      gobject_class,
      g_param_spec_uint("max-objects", "Maximum objects",
                        "Detections counted per frame at most, in the order of the relation meta; a frame with "
                        "more has the rest skipped, with a warning once per stream. Each counted detection adds "
                        "a GstCudaRegionMtd to the frame's GstAnalyticsRelationMeta, whose relation matrix grows "
                        "5 Mtds at a time (a copy of N x N bytes each time): thousands cost seconds per frame",
                        1, G_MAXINT, kDefaultMaxObjects, kMutablePlaying),
      [](Settings& s) -> guint& { return s.max_objects; });
  props.Install(
      gobject_class,
      g_param_spec_boolean("region-tensor", "Region tensor",
                           "Attach the regions' histograms as a GstTensorMeta too: UINT32, dims [regions, "
                           "components, bins], id \"CudaHistogram.RegionHistograms\", rows in the order of "
                           "the regions' GstCudaRegionMtds (tensor-row). Needs GStreamer 1.26: a build without "
                           "GstTensorMeta refuses it",
                           FALSE, kMutablePlaying),
      [](Settings& s) -> bool& { return s.region_tensor; });
}

}  // namespace

void InstallSettingsProperties(GObjectClass* gobject_class) {
  SettingsProperties<Settings>& props = SettingsProperties<Settings>::For(gobject_class);
  for (const RegionProperty& r : kRegionProperties) {
    props.Install(gobject_class, g_param_spec_uint(r.name, r.nick, r.blurb, 0, G_MAXUINT, 0, kMutablePlaying),
                  [edge = r.edge](Settings& s) -> guint& { return s.count.region.*edge; });
  }
  props.Install(
      gobject_class,
      g_param_spec_uint("bins", "Bins",
                        "Histogram bins per component, equal width over the full code range "
                        "(bin = value * bins >> depth); at most 2^depth of the negotiated "
                        "format's components, or negotiation fails",
                        kMinBins, kMaxBins,
                        kDefaultBins, kMutablePlaying),
      [](Settings& s) -> guint& { return s.count.bins; });
  props.Install(
      gobject_class,
      g_param_spec_string("components", "Components",
                          "Components to count: \"all\", or names separated by commas, e.g. "
                          "\"Y\", \"U,V\", \"R,G,B\", \"A\" (GRAY formats have \"Y\"). \"all\" "
                          "leaves out components with fewer code values than bins (the 2-bit "
                          "alpha of RGB10A2_LE); a named one that does not fit is an error",
                          kAllComponents, kMutablePlaying),
      [](Settings& s) -> std::string& { return s.count.components; });
  props.Install(
      gobject_class,
      g_param_spec_enum("algorithm", "Algorithm",
                        "GPU histogram algorithm (frames counted on the GPU: CUDA memory, or "
                        "system memory with upload=true)",
                        AlgorithmEnumType(), int(cudahist::Algorithm::kAuto),
                        kMutablePlaying),
      [](Settings& s) -> cudahist::Algorithm& { return s.algorithm; });
  props.Install(
      gobject_class,
      g_param_spec_boolean("attach-meta", "Attach meta",
                           "Attach a GstCudaHistogramMeta with the frame's counts to each "
                           "buffer",
                           TRUE, kMutablePlaying),
      [](Settings& s) -> bool& { return s.attach_meta; },
      // Without a meta to add the buffer need not be writable: pure passthrough.
      [](GObject* element, const Settings& s) {
        gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(element), !s.attach_meta);
      });
  props.Install(
      gobject_class,
      g_param_spec_boolean("post-messages", "Post messages",
                           "Post \"cudahistogram\" element messages with counts and statistics",
                           TRUE, kMutablePlaying),
      [](Settings& s) -> bool& { return s.post_messages; });
  props.Install(
      gobject_class,
      g_param_spec_uint64("interval", "Interval",
                          "Interval of time between messages, in nanoseconds: counts add up "
                          "over frames until their durations reach it (0 = one message per "
                          "frame)",
                          0, G_MAXUINT64, 0, kMutablePlaying),
      [](Settings& s) -> guint64& { return s.interval; });
  props.Install(
      gobject_class,
      g_param_spec_boolean("signalstats", "signalstats",
                           "Add FFmpeg signalstats' figures of each frame (y-min ... brng: "
                           "min, low, avg, high, max of Y, U, V and saturation, hue median and "
                           "mean, difference to the previous frame, out-of-broadcast-range "
                           "fraction) to the message and the meta, counted in the same pass "
                           "as the histograms. YUV formats of 8 to 10 bits only: on others a "
                           "warning, and histograms alone. With it come TOUT and VREP (tout, "
                           "vrep: signalstats=stat=tout+vrep)",
                           FALSE, kMutablePlaying),
      [](Settings& s) -> bool& { return s.signalstats; });
  props.Install(
      gobject_class,
      g_param_spec_boolean("cropdetect", "cropdetect",
                           "Add FFmpeg cropdetect=reset=1's figures of each frame (crop-x1, "
                           "crop-x2, crop-y1, crop-y2, crop-w, crop-h, crop-x, crop-y: the "
                           "picture inside black borders, limit 24/255, round 16) to the message "
                           "and the meta; none on the first two frames, which cropdetect skips. "
                           "YUV formats of 8 to 10 bits, as signalstats",
                           FALSE, kMutablePlaying),
      [](Settings& s) -> bool& { return s.cropdetect; });
  props.Install(
      gobject_class,
      g_param_spec_boolean("field-psnr", "Field PSNR",
                           "Add the PSNR between the top and the bottom field of each frame, as "
                           "FFmpeg's field=top and field=bottom into psnr give it (psnr-mse-y, "
                           "-u, -v, -avg, psnr-y, -u, -v, -avg; +inf when the fields are equal), "
                           "to the message and the meta; none on frames of odd height. YUV "
                           "formats of 8 to 10 bits, as signalstats",
                           FALSE, kMutablePlaying),
      [](Settings& s) -> bool& { return s.field_psnr; });
  props.Install(
      gobject_class,
      g_param_spec_boolean("upload", "Upload",
                           "Copy frames that arrive in system memory into CUDA memory (of "
                           "cuda-device-id) and count them on the GPU, instead of on the CPU "
                           "backend. The same figures, without a cudaupload element and the "
                           "nvcodec plugin it loads. Needs a CUDA device: without one "
                           "negotiation fails. Grey formats, which CUDA memory does not hold, "
                           "are counted on the CPU with a warning. Frames in CUDA memory are "
                           "counted on the GPU either way",
                           FALSE, kMutableReady),
      [](Settings& s) -> bool& { return s.upload; });
  InstallRegionProperties(gobject_class, props);
}


}  // namespace cudahistogram
