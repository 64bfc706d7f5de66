// GstCudaFrameFilter: the abstract base of the plugin's elements, as
// gst-plugins-bad's GstCudaBaseTransform is of cudaconvert and cudascale.
// It reads video frames where they live and keeps what both elements need
// for that, written once:
//   - the sink pad template: CUDA memory or system memory, every format read;
//   - the `cuda-device-id` property and the element's GstCudaContext, taken
//     from a neighbour (context query / set_context) or created for the
//     device (gst_cuda_ensure_element_context), dropped in stop;
//   - set_caps: the input's GstVideoInfo, whether it is in CUDA memory, the
//     context made sure for CUDA caps (only they need a GPU), then the
//     subclass's set_info, as GstVideoFilter does it;
//   - refusals, each posted once per negotiation however often the pads
//     retry it, and made in start when nothing upstream offers can be taken
//     (see "Refusals" below);
//   - the map of an input frame, laid out as its GstVideoMeta says when it
//     has one (and GstVideoMeta proposed upstream, as GstVideoFilter does),
//     with a clear element error for a buffer that cannot hold the frame its
//     caps or its meta describe;
//   - the subclass's C++ parts: its Settings and State (element_parts.h).
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include <string>

#include "common/cuda_element_stream.h"
#include "common/test_hooks.h"
#include "common/element_parts.h"

namespace cudahistogram {
struct Refusal;
}

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FRAME_FILTER (gst_cuda_frame_filter_get_type())
#define GST_CUDA_FRAME_FILTER(obj) (G_TYPE_CHECK_INSTANCE_CAST((obj), GST_TYPE_CUDA_FRAME_FILTER, GstCudaFrameFilter))
#define GST_CUDA_FRAME_FILTER_CLASS(klass) \
  (G_TYPE_CHECK_CLASS_CAST((klass), GST_TYPE_CUDA_FRAME_FILTER, GstCudaFrameFilterClass))
#define GST_CUDA_FRAME_FILTER_GET_CLASS(obj) \
  (G_TYPE_INSTANCE_GET_CLASS((obj), GST_TYPE_CUDA_FRAME_FILTER, GstCudaFrameFilterClass))

typedef struct _GstCudaFrameFilter GstCudaFrameFilter;
typedef struct _GstCudaFrameFilterClass GstCudaFrameFilterClass;

struct _GstCudaFrameFilter {
  GstBaseTransform parent;

  /*< protected: the streaming thread's, valid from set_caps to stop >*/
  GstCudaContext* context;  // the element's context, shared with its neighbours
  GstVideoInfo in_info;
  gboolean cuda_caps;   // the input caps have the memory:CUDAMemory feature
  gboolean negotiated;  // set_info accepted the caps

  // The subclass's Settings and State (element_parts.h), made in its
  // instance init; the State is renewed in start and stop, all deleted in
  // finalize.
  cudahistogram::ElementParts* parts;

  /*< private >*/
  gint cuda_device_id;  // under the object lock
  cudahistogram::Refusal* refusal;  // the streaming thread's
};

struct _GstCudaFrameFilterClass {
  GstBaseTransformClass parent_class;

  // Called by set_caps once in_info and cuda_caps are set and, for CUDA
  // caps, the context is there. FALSE after posting an element error.
  gboolean (*set_info)(GstCudaFrameFilter* filter, GstCaps* incaps, GstCaps* outcaps);
  // Whether frames of `info` (in CUDA memory with `cuda`) can be taken with
  // the element's current property values, judged from them alone (no
  // context, no output caps): FALSE with the error set_caps would post for
  // them. Asked in start, for what upstream offers.
  gboolean (*accepts)(GstCudaFrameFilter* filter, const GstVideoInfo* info, gboolean cuda, GError** error);
};

GType gst_cuda_frame_filter_get_type(void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(GstCudaFrameFilter, gst_object_unref)

G_END_DECLS

// Defines an element of the plugin, a final GstCudaFrameFilter subclass
// declared with G_DECLARE_FINAL_TYPE: its debug category (named as the
// element; the file defines GST_CAT_DEFAULT as it), its instance struct (its
// data are the base class's parts), its GType and its GST_ELEMENT_REGISTER.
#define CUDAHISTOGRAM_DEFINE_ELEMENT(TypeName, type_name, TYPE, element, debug_category, debug_description) \
  GST_DEBUG_CATEGORY_STATIC(debug_category);                                                              \
  struct _##TypeName {                                                                                    \
    GstCudaFrameFilter parent;                                                                            \
  };                                                                                                      \
  G_DEFINE_TYPE_WITH_CODE(TypeName, type_name, GST_TYPE_CUDA_FRAME_FILTER,                                \
                          GST_DEBUG_CATEGORY_INIT(debug_category, #element, 0, debug_description));       \
  GST_ELEMENT_REGISTER_DEFINE(element, #element, GST_RANK_NONE, TYPE)

namespace cudahistogram {

constexpr gint kAnyCudaDevice = -1;

// Maps `buffer` as a frame of the input caps for reading: host memory, or
// with `cuda` the device pointers of its CUDA memory (GST_MAP_CUDA). A
// GstVideoMeta on the buffer gives the planes' offsets and strides. False
// after posting an element error that names the cause: a buffer too small
// for its caps or for the layout its video meta describes, a meta that
// contradicts the caps, system memory where CUDA memory was negotiated, a
// map refused.
bool MapInputFrame(GstCudaFrameFilter* filter, GstBuffer* buffer, bool cuda, GstVideoFrame* frame);

// What an element's class_init gives its base class: its metadata (under the
// classification every element of the plugin has, Filter/Analyzer/Video/
// Hardware), the caps of its src pad template (the sink template is the base
// class's), its set_info and the function that installs its properties.
// Returns the class as GstBaseTransformClass, for the element's own vfuncs.
struct ElementClassInit {
  const char* long_name;
  const char* description;
  const char* src_caps;
  gboolean (*set_info)(GstCudaFrameFilter* filter, GstCaps* incaps, GstCaps* outcaps);
  gboolean (*accepts)(GstCudaFrameFilter* filter, const GstVideoInfo* info, gboolean cuda, GError** error);
  void (*install_properties)(GObjectClass* klass);
};
GstBaseTransformClass* InitElementClass(gpointer klass, const ElementClassInit& init);

// --- Refusals ----------------------------------------------------------------
// An element refuses what it cannot take (bins above a component's depth, a
// component the format lacks, an ROI outside the frame, a scope the format
// cannot draw, upload=true without a CUDA driver, a frame too small for its
// caps ...) with one element error per negotiation, a negotiation being the
// caps and the property values it was made with (docs/element.md,
// "Refusals"):
//   - Settings that none of the inputs upstream offers can take are refused
//     in start, on the application's thread: the state change fails, and no
//     error comes from a streaming thread while the application is still
//     inside gst_element_set_state (gst-launch-1.0 loses such an error and
//     waits forever).
//   - set_caps posts once. A refused CAPS event stays pending on the
//     upstream pad, which pushes it again before each serialized event,
//     query and buffer, and basetransform's reconfigure calls set_caps
//     again: those retries get FALSE without another message.
//   - A frame refused in transform (a property set while playing that the
//     caps cannot take, a buffer that cannot hold its frame) posts once:
//     FrameRefusal gives the following frames the same flow return, without
//     a message, until a property is set or new caps come.

// GST_FLOW_OK when the next frame may be counted: the caps were accepted and
// no refusal stands under the current property values. Otherwise the flow
// return the frame gets, with no message posted.
GstFlowReturn FrameRefusal(GstCudaFrameFilter* filter);

// Called after posting an element error about a frame: returns `flow`, which
// the following frames get (FrameRefusal) until a property is set or new
// caps come.
GstFlowReturn RefuseFrames(GstCudaFrameFilter* filter, GstFlowReturn flow);

// FALSE with the error "No CUDA driver: <what> needs the NVIDIA driver
// (libcuda)" when gst-cuda cannot load libcuda.
gboolean CudaDriverLoads(const char* what, GError** error);

// Sets *error to a negotiation error (CORE, NEGOTIATION) with `text`;
// returns FALSE.
gboolean NegotiationError(const std::string& text, GError** error);

// Makes filter->context a context of the cuda-device-id, as set_caps does
// for CUDA caps, for a subclass that brings system-memory frames to the GPU
// itself. False after posting an element error naming the cause and `what`
// needs the GPU ("upload=true").
bool EnsureFilterContext(GstCudaFrameFilter* filter, const char* what);

// Posts "CUDA error: <error>" as the element's error; returns false.
bool PostCudaError(GstCudaFrameFilter* filter, const std::string& error);

// Opens `cuda` (the element's ElementCuda) in `context` unless it is open
// there already, armed with a requested fault (test_hooks.h).
// False after posting an element error.
template <typename Device>
bool EnsureElementCuda(GstCudaFrameFilter* filter, GstCudaContext* context, ElementCuda<Device>* cuda) {
  if (cuda->is_open() && cuda->context() == context) return true;
  std::string error;
  if (!cuda->Open(context, &error)) return PostCudaError(filter, error);
  cuda->FailRun(TakeCudaFault(GST_ELEMENT(filter)));
  return true;
}

}  // namespace cudahistogram
