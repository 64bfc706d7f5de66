#include "thumbnail_branch.h"

#include "picture_tap.h"

namespace cudahist_tools {

GstElement* AddThumbnailBranch(const AnalysisPipeline& parts, const ThumbnailBranchOptions& options,
                               std::string* problem) {
  std::vector<GstElement*> e;
  if (!MakePictureElements({"cudavideoscope", options.gpu ? "cudadownload" : nullptr, "capsfilter", "videoconvert",
                            "jpegenc", "appsink"},
                           {"thumbnail_scale", "thumbnail_download", "thumbnail_size", "thumbnail_convert",
                            "thumbnail_jpeg", "thumbnail_sink"},
                           &e, problem))
    return nullptr;
  GstElement* scale = e.front();
  GstElement* size = e[e.size() - 4];
  GstElement* jpeg = e[e.size() - 2];
  gst_util_set_object_arg(G_OBJECT(scale), "style", "picture");
  // The width alone: the picture's height follows the display aspect ratio.
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "width", G_TYPE_INT, options.width, nullptr);
  g_object_set(size, "caps", caps, nullptr);
  gst_caps_unref(caps);
  g_object_set(jpeg, "quality", options.quality, nullptr);
  if (!TapPictures(parts, "thumbnail_queue", options.period, e, problem)) return nullptr;
  return e.back();
}

}  // namespace cudahist_tools
