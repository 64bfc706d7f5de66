#include "common/gstcudaframefilter.h"

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "common/video_formats.h"
#include "common/video_frame_access.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_frame_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_frame_filter_debug

G_DEFINE_ABSTRACT_TYPE(GstCudaFrameFilter, gst_cuda_frame_filter, GST_TYPE_BASE_TRANSFORM);

namespace {

using cudahistogram::kAnyCudaDevice;

enum { PROP_0, PROP_CUDA_DEVICE_ID };

GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(CUDAHISTOGRAM_FRAME_CAPS));

gint DeviceIdOf(GstCudaFrameFilter* self) {
  GST_OBJECT_LOCK(self);
  const gint id = self->cuda_device_id;
  GST_OBJECT_UNLOCK(self);
  return id;
}

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

// Makes self->context a context of the cuda-device-id (kAnyCudaDevice:
// whichever the neighbours share, else device 0): loads the CUDA driver,
// drops a context of another device, then gst_cuda_ensure_element_context.
// False after posting an element error naming the cause and `what` needs
// the GPU.
bool EnsureContext(GstCudaFrameFilter* self, const char* what) {
  GstElement* element = GST_ELEMENT(self);
  const gint device_id = DeviceIdOf(self);
  // gst-cuda loads libcuda lazily; without it its context helpers would abort.
  if (!gst_cuda_load_library()) {
    GST_ELEMENT_ERROR(element, RESOURCE, NOT_FOUND,
                      ("No CUDA driver: %s needs the NVIDIA driver (libcuda)", what),
                      ("gst_cuda_load_library failed"));
    return false;
  }
  DropContextOfOtherDevice(element, device_id, &self->context);
  if (!gst_cuda_ensure_element_context(element, device_id, &self->context) ||
      (device_id != kAnyCudaDevice && ContextDeviceId(self->context) != device_id)) {
    gst_clear_object(&self->context);
    GST_ELEMENT_ERROR(element, RESOURCE, NOT_FOUND,
                      ("No usable CUDA device for cuda-device-id %d, which %s needs", device_id, what),
                      ("gst_cuda_ensure_element_context failed: no such device, or no CUDA "
                       "driver on this machine"));
    return false;
  }
  return true;
}

gboolean SetCaps(GstBaseTransform* trans, GstCaps* incaps, GstCaps* outcaps) {
  GstCudaFrameFilter* self = GST_CUDA_FRAME_FILTER(trans);
  self->negotiated = FALSE;
  if (!gst_video_info_from_caps(&self->in_info, incaps)) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("Invalid video caps"), ("%" GST_PTR_FORMAT, incaps));
    return FALSE;
  }
  GstCapsFeatures* features = gst_caps_get_features(incaps, 0);
  self->cuda_caps = features && gst_caps_features_contains(features, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
  // Only CUDA caps need a GPU: system memory works on any machine.
  if (self->cuda_caps && !EnsureContext(self, "counting frames in CUDA memory")) return FALSE;
  self->negotiated = GST_CUDA_FRAME_FILTER_GET_CLASS(self)->set_info(self, incaps, outcaps);
  return self->negotiated;
}

gboolean Start(GstBaseTransform* trans) {
  GST_CUDA_FRAME_FILTER(trans)->parts->ResetState();
  return TRUE;
}

gboolean Stop(GstBaseTransform* trans) {
  GstCudaFrameFilter* self = GST_CUDA_FRAME_FILTER(trans);
  self->negotiated = FALSE;
  self->parts->ResetState();  // closes the CUDA stream in its context
  gst_clear_object(&self->context);
  return TRUE;
}

// Frames laid out by a GstVideoMeta are read as the meta says
// (MapInputFrame): upstream may send them, as to any GstVideoFilter.
gboolean ProposeAllocation(GstBaseTransform* trans, GstQuery* decide_query, GstQuery* query) {
  if (!GST_BASE_TRANSFORM_CLASS(gst_cuda_frame_filter_parent_class)->propose_allocation(trans, decide_query, query)) {
    return FALSE;
  }
  if (!gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr)) {
    gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  }
  return TRUE;
}

gboolean Query(GstBaseTransform* trans, GstPadDirection direction, GstQuery* query) {
  GstCudaFrameFilter* self = GST_CUDA_FRAME_FILTER(trans);
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT &&
      gst_cuda_handle_context_query(GST_ELEMENT(self), query, self->context)) {
    return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS(gst_cuda_frame_filter_parent_class)->query(trans, direction, query);
}

void SetContext(GstElement* element, GstContext* context) {
  GstCudaFrameFilter* self = GST_CUDA_FRAME_FILTER(element);
  gst_cuda_handle_set_context(element, context, DeviceIdOf(self), &self->context);
  GST_ELEMENT_CLASS(gst_cuda_frame_filter_parent_class)->set_context(element, context);
}

void SetProperty(GObject* object, guint prop_id, const GValue* value, GParamSpec* pspec) {
  GstCudaFrameFilter* self = GST_CUDA_FRAME_FILTER(object);
  if (prop_id != PROP_CUDA_DEVICE_ID) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
    return;
  }
  GST_OBJECT_LOCK(self);
  self->cuda_device_id = g_value_get_int(value);
  GST_OBJECT_UNLOCK(self);
}

void GetProperty(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GstCudaFrameFilter* self = GST_CUDA_FRAME_FILTER(object);
  if (prop_id != PROP_CUDA_DEVICE_ID) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
    return;
  }
  g_value_set_int(value, DeviceIdOf(self));
}

void Finalize(GObject* object) {
  GstCudaFrameFilter* self = GST_CUDA_FRAME_FILTER(object);
  delete self->parts;
  gst_clear_object(&self->context);
  G_OBJECT_CLASS(gst_cuda_frame_filter_parent_class)->finalize(object);
}

}  // namespace

static void gst_cuda_frame_filter_class_init(GstCudaFrameFilterClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass* trans_class = GST_BASE_TRANSFORM_CLASS(klass);

  gobject_class->set_property = SetProperty;
  gobject_class->get_property = GetProperty;
  gobject_class->finalize = Finalize;
  g_object_class_install_property(
      gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int("cuda-device-id", "CUDA device id",
                       "CUDA device that reads the frames in CUDA memory, and those cudahistogram uploads "
                       "(upload=true) (-1 = the device of the CUDA context the neighbouring CUDA elements share, "
                       "device 0 when there is none). System memory counted on the CPU needs none",
                       -1, G_MAXINT, kAnyCudaDevice,
                       GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY)));
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  element_class->set_context = SetContext;
  trans_class->set_caps = SetCaps;
  // Neither element may be skipped when its caps match: each reads every frame.
  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = Start;
  trans_class->stop = Stop;
  trans_class->query = Query;
  trans_class->propose_allocation = ProposeAllocation;
  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_FRAME_FILTER, GstPluginAPIFlags(0));
  GST_DEBUG_CATEGORY_INIT(gst_cuda_frame_filter_debug, "cudaframefilter", 0,
                          "Base of the CUDA histogram elements: CUDA context, input frames");
}

static void gst_cuda_frame_filter_init(GstCudaFrameFilter* self) {
  self->context = nullptr;
  gst_video_info_init(&self->in_info);
  self->cuda_caps = FALSE;
  self->negotiated = FALSE;
  self->parts = nullptr;
  self->cuda_device_id = kAnyCudaDevice;
}

namespace cudahistogram {

ElementParts* PartsOf(GObject* element) { return GST_CUDA_FRAME_FILTER(element)->parts; }

bool MapInputFrame(GstCudaFrameFilter* filter, GstBuffer* buffer, bool cuda, GstVideoFrame* frame) {
  GstElement* element = GST_ELEMENT(filter);
  if (cuda && !IsCudaFrame(buffer)) {
    GST_ELEMENT_ERROR(element, STREAM, FORMAT, ("Buffer in system memory where CUDA memory was negotiated"),
                      ("the caps have memory:CUDAMemory, the memory of %" GST_PTR_FORMAT " is not GstCudaMemory",
                       buffer));
    return false;
  }
  if (!BufferHoldsFrame(element, filter->in_info, buffer)) return false;
  const GstMapFlags flags = cuda ? GstMapFlags(GST_MAP_READ | GST_MAP_CUDA) : GST_MAP_READ;
  return MapVideoFrame(element, "video frame", &filter->in_info, buffer, flags, frame);
}

GstBaseTransformClass* InitElementClass(gpointer klass, const ElementClassInit& init) {
  init.install_properties(G_OBJECT_CLASS(klass));
  GstCaps* src_caps = gst_caps_from_string(init.src_caps);
  gst_element_class_add_pad_template(GST_ELEMENT_CLASS(klass),
                                     gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS, src_caps));
  gst_caps_unref(src_caps);
  gst_element_class_set_static_metadata(GST_ELEMENT_CLASS(klass), init.long_name, "Filter/Analyzer/Video/Hardware",
                                        init.description, "cudahistogram developers");
  GST_CUDA_FRAME_FILTER_CLASS(klass)->set_info = init.set_info;
  return GST_BASE_TRANSFORM_CLASS(klass);
}

bool EnsureFilterContext(GstCudaFrameFilter* filter, const char* what) { return EnsureContext(filter, what); }

bool PostCudaError(GstCudaFrameFilter* filter, const std::string& error) {
  GST_ELEMENT_ERROR(filter, RESOURCE, FAILED, ("CUDA error: %s", error.c_str()), (nullptr));
  return false;
}

}  // namespace cudahistogram
