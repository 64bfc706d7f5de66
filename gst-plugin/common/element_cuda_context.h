// The element's GstCudaContext, as gst-plugins-bad's CUDA elements keep it:
// taken from a neighbour (context query / set_context) or created for the
// `cuda-device-id` property. Shared by cudahistogram and cudavideoscope.
#pragma once

#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>

#include <string>

namespace cudahistogram {

// Makes *context a context of `device_id` (kAnyCudaDevice: whichever the
// neighbours share, else device 0): loads the CUDA driver, drops a context of
// another device, then gst_cuda_ensure_element_context. False after posting
// an element error naming the cause (no driver, no such device).
bool EnsureElementContext(GstElement* element, gint device_id, GstCudaContext** context);

// EnsureElementContext, then `cuda` (an element's CUDA state: CudaCounter,
// CudaScope) opened in that context unless it already is. False after
// posting an element error.
template <typename CudaState>
bool EnsureElementCuda(GstElement* element, gint device_id, GstCudaContext** context, CudaState* cuda) {
  if (!EnsureElementContext(element, device_id, context)) return false;
  if (cuda->is_open() && cuda->context() == *context) return true;
  std::string error;
  if (cuda->Open(*context, &error)) return true;
  GST_ELEMENT_ERROR(element, RESOURCE, FAILED, ("CUDA error: %s", error.c_str()), (nullptr));
  return false;
}

}  // namespace cudahistogram
