#include "common/element_cuda_context.h"

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

#include "cudahistogram/settings.h"

namespace cudahistogram {
namespace {

gint ContextDeviceId(GstCudaContext* context) {
  guint id = 0;
  g_object_get(context, "cuda-device-id", &id, nullptr);
  return gint(id);
}

// A context given by a neighbour (or left from an earlier run) for another
// device than the one the user named is not ours to use.
void DropContextOfOtherDevice(GstElement* element, gint device_id, GstCudaContext** context) {
  if (*context && device_id != kAnyCudaDevice && ContextDeviceId(*context) != device_id) {
    GST_INFO_OBJECT(element, "dropping the CUDA context of device %d: cuda-device-id is %d",
                    ContextDeviceId(*context), device_id);
    gst_clear_object(context);
  }
}

}  // namespace

bool EnsureElementContext(GstElement* element, gint device_id, GstCudaContext** context) {
  // gst-cuda loads libcuda lazily; without it its context helpers would abort.
  if (!gst_cuda_load_library()) {
    GST_ELEMENT_ERROR(element, RESOURCE, NOT_FOUND,
                      ("No CUDA driver: CUDA memory caps need the NVIDIA driver (libcuda)"),
                      ("gst_cuda_load_library failed"));
    return false;
  }
  DropContextOfOtherDevice(element, device_id, context);
  if (!gst_cuda_ensure_element_context(element, device_id, context) ||
      (device_id != kAnyCudaDevice && ContextDeviceId(*context) != device_id)) {
    gst_clear_object(context);
    GST_ELEMENT_ERROR(element, RESOURCE, NOT_FOUND,
                      ("No usable CUDA device for cuda-device-id %d", device_id),
                      ("gst_cuda_ensure_element_context failed: no such device, or no CUDA "
                       "driver on this machine"));
    return false;
  }
  return true;
}

}  // namespace cudahistogram
