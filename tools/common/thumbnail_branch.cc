#include "thumbnail_branch.h"

#include <gst/cuda/gstcudamemory.h>

#include "picture_tap.h"

namespace cudahist_tools {

GstElement* AddThumbnailBranch(const AnalysisPipeline& parts, const ThumbnailBranchOptions& options,
                               std::string* problem) {
  std::vector<GstElement*> e;
  const bool made =
      options.gpu ? MakePictureElements({"cudaupload", "cudaconvertscale", "capsfilter", "cudadownload", "jpegenc",
                                         "appsink"},
                                        {"thumbnail_upload", "thumbnail_scale", "thumbnail_size", "thumbnail_download",
                                         "thumbnail_jpeg", "thumbnail_sink"},
                                        &e, problem)
                  : MakePictureElements({"videoscale", "videoconvert", "capsfilter", "jpegenc", "appsink"},
                                        {"thumbnail_scale", "thumbnail_convert", "thumbnail_size", "thumbnail_jpeg",
                                         "thumbnail_sink"},
                                        &e, problem);
  if (!made) return nullptr;
  GstElement* size = e[2];
  GstElement* jpeg = e[e.size() - 2];
  // Square pixels: the height follows the display aspect ratio (left free,
  // the scalers would keep the height and change the pixel aspect instead).
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "width", G_TYPE_INT, options.width, "pixel-aspect-ratio",
                                      GST_TYPE_FRACTION, 1, 1, nullptr);
  if (options.gpu) gst_caps_set_features(caps, 0, gst_caps_features_new(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, nullptr));
  g_object_set(size, "caps", caps, nullptr);
  gst_caps_unref(caps);
  g_object_set(jpeg, "quality", options.quality, nullptr);
  if (!TapPictures(parts, "thumbnail_queue", options.period, e, problem)) return nullptr;
  return e.back();
}

}  // namespace cudahist_tools
