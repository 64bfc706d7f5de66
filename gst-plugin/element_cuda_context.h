// The element's GstCudaContext, as gst-plugins-bad's CUDA elements keep it:
// taken from a neighbour (context query / set_context) or created for the
// `cuda-device-id` property. Shared by cudahistogram and cudavideoscope.
#pragma once

#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>

namespace cudahistogram {

// Makes *context a context of `device_id` (kAnyCudaDevice: whichever the
// neighbours share, else device 0): loads the CUDA driver, drops a context of
// another device, then gst_cuda_ensure_element_context. False after posting
// an element error naming the cause (no driver, no such device).
bool EnsureElementContext(GstElement* element, gint device_id, GstCudaContext** context);

}  // namespace cudahistogram
