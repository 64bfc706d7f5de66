#include "common/test_hooks.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

namespace cudahistogram {
namespace {

constexpr char kSkipDrawVariable[] = "CUDAVIDEOSCOPE_SKIP_DRAW";

std::atomic<bool> fault_taken{false};

std::string TopLevelName(GstElement* element) {
  GstObject* top = GST_OBJECT(gst_object_ref(element));
  while (GstObject* parent = gst_object_get_parent(top)) {
    gst_object_unref(top);
    top = parent;
  }
  gchar* name = gst_object_get_name(top);
  std::string text = name ? name : "";
  g_free(name);
  gst_object_unref(top);
  return text;
}

}  // namespace

uint64_t TakeCudaFault(GstElement* element) {
  const char* request = std::getenv(kCudaFaultVariable);
  if (!request || fault_taken.load()) return 0;
  const char* colon = std::strrchr(request, ':');
  if (!colon) return 0;
  const uint64_t frame = std::strtoull(colon + 1, nullptr, 10);
  if (frame == 0 || TopLevelName(element) != std::string(request, colon)) return 0;
  bool expected = false;
  return fault_taken.compare_exchange_strong(expected, true) ? frame : 0;
}

bool DrawingSkipped() {
  if (std::getenv(kSkipDrawVariable) == nullptr) return false;
  GST_WARNING("%s is set: frames are counted, pictures not drawn", kSkipDrawVariable);
  return true;
}

}  // namespace cudahistogram
