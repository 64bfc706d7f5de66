#include "scope_branch.h"

#include "picture_tap.h"

namespace cudahist_tools {

GstElement* AddScopeBranch(const AnalysisPipeline& parts, const ScopeBranchOptions& options, std::string* problem) {
  std::vector<GstElement*> e;
  if (!MakePictureElements({"cudavideoscope", options.gpu ? "cudadownload" : nullptr, "capsfilter", "pngenc", "appsink"},
                           {"scope", "scope_download", "scope_size", "scope_png", "scope_sink"}, &e, problem))
    return nullptr;
  GstElement* scope = e.front();
  GstElement* size = e[e.size() - 3];
  GstElement* png = e[e.size() - 2];
  GstCaps* size_caps = gst_caps_new_simple("video/x-raw", "width", G_TYPE_INT, options.width, "height", G_TYPE_INT,
                                           options.height, nullptr);
  g_object_set(size, "caps", size_caps, nullptr);
  gst_caps_unref(size_caps);
  gst_util_set_object_arg(G_OBJECT(scope), "style", options.style.c_str());
  g_object_set(png, "compression-level", 1, nullptr);
  if (!TapPictures(parts, "scope_queue", options.period, e, problem)) return nullptr;
  return e.back();
}

}  // namespace cudahist_tools
