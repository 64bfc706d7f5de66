#include "thumbnail_branch.h"

#include <gst/cuda/gstcudamemory.h>

#include <algorithm>

#include "picture_tap.h"

namespace cudahist_tools {

namespace {

// GStreamer's CUDA scaler compiles its kernels with NVRTC when nvcodec
// loads, and does not register where that fails (CUDA 13's NVRTC refuses
// its compute_52 target: docs/versions.md).
bool CudaScalerRegistered() {
  GstElementFactory* factory = gst_element_factory_find("cudaconvertscale");
  if (factory) gst_object_unref(factory);
  return factory != nullptr;
}

}  // namespace

GstElement* AddThumbnailBranch(const AnalysisPipeline& parts, const ThumbnailBranchOptions& options,
                               std::string* problem) {
  std::vector<GstElement*> e;
  // On the GPU the picture is scaled where it is and only the thumbnail
  // comes down; without GStreamer's CUDA scaler, the one frame a period
  // comes down whole and the CPU scales it.
  const bool scale_on_gpu = options.gpu && CudaScalerRegistered();
  const bool made =
      scale_on_gpu ? MakePictureElements({"cudaupload", "cudaconvertscale", "capsfilter", "cudadownload", "jpegenc",
                                          "appsink"},
                                         {"thumbnail_upload", "thumbnail_scale", "thumbnail_size",
                                          "thumbnail_download", "thumbnail_jpeg", "thumbnail_sink"},
                                         &e, problem)
      : options.gpu ? MakePictureElements({"cudadownload", "videoscale", "videoconvert", "capsfilter", "jpegenc",
                                           "appsink"},
                                          {"thumbnail_download", "thumbnail_scale", "thumbnail_convert",
                                           "thumbnail_size", "thumbnail_jpeg", "thumbnail_sink"},
                                          &e, problem)
                    : MakePictureElements({"videoscale", "videoconvert", "capsfilter", "jpegenc", "appsink"},
                                          {"thumbnail_scale", "thumbnail_convert", "thumbnail_size", "thumbnail_jpeg",
                                           "thumbnail_sink"},
                                          &e, problem);
  if (!made) return nullptr;
  GstElement* size = *std::find_if(e.begin(), e.end(), [](GstElement* element) {
    return g_str_equal(GST_OBJECT_NAME(element), "thumbnail_size");
  });
  GstElement* jpeg = e[e.size() - 2];
  // Square pixels: the height follows the display aspect ratio (left free,
  // the scalers would keep the height and change the pixel aspect instead).
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "width", G_TYPE_INT, options.width, "pixel-aspect-ratio",
                                      GST_TYPE_FRACTION, 1, 1, nullptr);
  if (scale_on_gpu) gst_caps_set_features(caps, 0, gst_caps_features_new(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, nullptr));
  g_object_set(size, "caps", caps, nullptr);
  gst_caps_unref(caps);
  g_object_set(jpeg, "quality", options.quality, nullptr);
  if (!TapPictures(parts, "thumbnail_queue", options.period, e, problem)) return nullptr;
  return e.back();
}

}  // namespace cudahist_tools
