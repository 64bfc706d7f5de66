#include "common/gstcudaframefilter.h"

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include <vector>

#include "common/video_formats.h"
#include "common/video_frame_access.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_frame_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_frame_filter_debug

G_DEFINE_ABSTRACT_TYPE(GstCudaFrameFilter, gst_cuda_frame_filter, GST_TYPE_BASE_TRANSFORM);

namespace cudahistogram {

// The refusal posted in the current negotiation: the caps set_caps refused
// (none for a frame's refusal) and the property values it was made with.
struct Refusal {
  bool posted = false;
  GstCaps* incaps = nullptr;
  GstCaps* outcaps = nullptr;
  guint64 settings_serial = 0;
  GstFlowReturn flow = GST_FLOW_NOT_NEGOTIATED;
  // The serial of the settings the frame in transform is counted with at most.
  guint64 frame_serial = 0;

  ~Refusal() { Forget(); }
  void Forget() {
    posted = false;
    gst_clear_caps(&incaps);
    gst_clear_caps(&outcaps);
  }
  void Remember(GstCaps* in, GstCaps* out, guint64 serial, GstFlowReturn flow_return) {
    Forget();
    posted = true;
    incaps = in ? gst_caps_ref(in) : nullptr;
    outcaps = out ? gst_caps_ref(out) : nullptr;
    settings_serial = serial;
    flow = flow_return;
  }
};

}  // namespace cudahistogram

namespace {

using cudahistogram::kAnyCudaDevice;

// Posts `error` (consumed) as the element's error message with `debug`, from
// the caller's file, function and line as GST_ELEMENT_ERROR does.
#define POST_ERROR(filter, error, debug) PostError((filter), (error), (debug), __FILE__, GST_FUNCTION, __LINE__)
void PostError(GstCudaFrameFilter* filter, GError* error, const std::string& debug, const char* file,
               const char* function, int line) {
  gst_element_message_full(GST_ELEMENT(filter), GST_MESSAGE_ERROR, error->domain, error->code,
                           g_strdup(error->message), g_strdup(debug.c_str()), file, function, line);
  g_error_free(error);
}

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
  GError* error = nullptr;
  if (!cudahistogram::CudaDriverLoads(what, &error)) {
    POST_ERROR(self, error, "gst_cuda_load_library failed");
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

guint64 SettingsSerial(GstCudaFrameFilter* self) {
  GST_OBJECT_LOCK(self);
  const guint64 serial = self->parts->settings_serial;
  GST_OBJECT_UNLOCK(self);
  return serial;
}

bool SameCaps(GstCaps* a, GstCaps* b) { return a == b || (a && b && gst_caps_is_equal(a, b)); }

// Whether set_caps refused these caps already, under the same property
// values: the upstream pad pushing its pending CAPS event again.
bool RefusedAlready(GstCudaFrameFilter* self, GstCaps* incaps, GstCaps* outcaps, guint64 serial) {
  const cudahistogram::Refusal& r = *self->refusal;
  return r.posted && r.incaps && r.settings_serial == serial && SameCaps(r.incaps, incaps) &&
         SameCaps(r.outcaps, outcaps);
}

// set_caps' work: FALSE after posting an element error.
// Caps of single fields (interlace-mode=alternate) describe each buffer as a
// picture of the field's height: read them so, as FFmpeg and NVDEC give
// field-coded video.
void FieldsAsPictures(GstVideoInfo* info) {
  if (GST_VIDEO_INFO_INTERLACE_MODE(info) != GST_VIDEO_INTERLACE_MODE_ALTERNATE) return;
  GstVideoInfo field;
  gst_video_info_set_format(&field, GST_VIDEO_INFO_FORMAT(info), GST_VIDEO_INFO_WIDTH(info),
                            GST_VIDEO_INFO_FIELD_HEIGHT(info));
  field.par_n = info->par_n;
  field.par_d = info->par_d;
  field.fps_n = info->fps_n;
  field.fps_d = info->fps_d;
  field.colorimetry = info->colorimetry;
  field.chroma_site = info->chroma_site;
  *info = field;
}

bool Negotiate(GstCudaFrameFilter* self, GstCaps* incaps, GstCaps* outcaps) {
  if (!gst_video_info_from_caps(&self->in_info, incaps)) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("Invalid video caps"), ("%" GST_PTR_FORMAT, incaps));
    return false;
  }
  FieldsAsPictures(&self->in_info);
  GstCapsFeatures* features = gst_caps_get_features(incaps, 0);
  self->cuda_caps = features && gst_caps_features_contains(features, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
  // Only CUDA caps need a GPU: system memory works on any machine.
  if (self->cuda_caps && !EnsureContext(self, "counting frames in CUDA memory")) return false;
  return GST_CUDA_FRAME_FILTER_GET_CLASS(self)->set_info(self, incaps, outcaps);
}

gboolean SetCaps(GstBaseTransform* trans, GstCaps* incaps, GstCaps* outcaps) {
  GstCudaFrameFilter* self = GST_CUDA_FRAME_FILTER(trans);
  self->negotiated = FALSE;
  // Read before set_info copies the settings: a property set meanwhile makes
  // the next retry a new negotiation.
  const guint64 serial = SettingsSerial(self);
  if (RefusedAlready(self, incaps, outcaps, serial)) {
    GST_DEBUG_OBJECT(self, "refused %" GST_PTR_FORMAT " already under these properties", incaps);
    return FALSE;
  }
  self->refusal->Forget();
  self->negotiated = Negotiate(self, incaps, outcaps);
  if (!self->negotiated) self->refusal->Remember(incaps, outcaps, serial, GST_FLOW_NOT_NEGOTIATED);
  return self->negotiated;
}

// A frame came while set_caps' last answer was a refusal: GstBaseTransform
// went back to caps it had (it calls no set_caps for caps equal to the
// current ones, so a renegotiation to refused caps and back would leave the
// element refusing). Negotiates the current caps again, as set_caps would.
bool NegotiateCurrentCaps(GstCudaFrameFilter* self) {
  GstCaps* incaps = gst_pad_get_current_caps(GST_BASE_TRANSFORM_SINK_PAD(self));
  GstCaps* outcaps = gst_pad_get_current_caps(GST_BASE_TRANSFORM_SRC_PAD(self));
  const bool negotiated = incaps && outcaps && SetCaps(GST_BASE_TRANSFORM(self), incaps, outcaps);
  if (incaps) gst_caps_unref(incaps);
  if (outcaps) gst_caps_unref(outcaps);
  return negotiated;
}

// One input upstream may send: a format at a size, in CUDA memory or not.
struct UpstreamInput {
  GstVideoInfo info;
  bool cuda;
};

// The video info of `s` (its features `features`) with `format`, its other
// open fields fixated.
bool InfoWithFormat(const GstStructure* s, GstCapsFeatures* features, const GValue* format, GstVideoInfo* info) {
  GstStructure* one = gst_structure_copy(s);
  gst_structure_set_value(one, "format", format);
  GstCaps* caps = gst_caps_new_empty();
  gst_caps_append_structure_full(caps, one, features ? gst_caps_features_copy(features) : nullptr);
  caps = gst_caps_fixate(caps);
  const bool ok = gst_video_info_from_caps(info, caps);
  gst_caps_unref(caps);
  if (ok) FieldsAsPictures(info);
  return ok;
}

// Every input upstream may send, as its caps (within the sink template)
// say: each format of each structure, at the structure's size. Empty when
// upstream cannot tell yet: not linked, any caps, a size or a format left
// open.
std::vector<UpstreamInput> UpstreamInputs(GstBaseTransform* trans, GstCaps** offered) {
  std::vector<UpstreamInput> inputs;
  GstPad* sink = GST_BASE_TRANSFORM_SINK_PAD(trans);
  if (!gst_pad_is_linked(sink)) return inputs;
  GstCaps* templ = gst_pad_get_pad_template_caps(sink);
  GstCaps* caps = gst_pad_peer_query_caps(sink, templ);
  gst_caps_unref(templ);
  *offered = caps;
  if (gst_caps_is_any(caps)) return inputs;
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    const GstStructure* s = gst_caps_get_structure(caps, i);
    GstCapsFeatures* features = gst_caps_get_features(caps, i);
    const bool cuda = features && gst_caps_features_contains(features, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
    const GValue* formats = gst_structure_get_value(s, "format");
    gint width = 0, height = 0;
    if (!formats || !gst_structure_get_int(s, "width", &width) || !gst_structure_get_int(s, "height", &height)) {
      return {};
    }
    const bool list = GST_VALUE_HOLDS_LIST(formats);
    const guint n = list ? gst_value_list_get_size(formats) : 1;
    for (guint f = 0; f < n; ++f) {
      const GValue* format = list ? gst_value_list_get_value(formats, f) : formats;
      UpstreamInput input{{}, cuda};
      if (!G_VALUE_HOLDS_STRING(format) || !InfoWithFormat(s, features, format, &input.info)) return {};
      inputs.push_back(input);
    }
  }
  return inputs;
}

bool AcceptsInput(GstCudaFrameFilter* self, const UpstreamInput& input, GError** error) {
  if (input.cuda && !cudahistogram::CudaDriverLoads("counting frames in CUDA memory", error)) return false;
  return GST_CUDA_FRAME_FILTER_GET_CLASS(self)->accepts(self, &input.info, input.cuda, error);
}

// Refuses, before any frame, property values that none of the inputs
// upstream offers can take: FALSE after posting the refusal of the first.
bool AcceptsSomeUpstreamInput(GstCudaFrameFilter* self) {
  GstCaps* offered = nullptr;
  const std::vector<UpstreamInput> inputs = UpstreamInputs(GST_BASE_TRANSFORM(self), &offered);
  GError* first = nullptr;
  bool accepted = inputs.empty();
  for (const UpstreamInput& input : inputs) {
    GError* error = nullptr;
    if (AcceptsInput(self, input, &error)) {
      accepted = true;
      break;
    }
    if (first == nullptr) first = error;
    else g_error_free(error);
  }
  if (accepted) {
    g_clear_error(&first);
  } else {
    gchar* caps = gst_caps_to_string(offered);
    POST_ERROR(self, first, std::string("refused before any frame: upstream offers only ") + caps);
    g_free(caps);
  }
  if (offered) gst_caps_unref(offered);
  return accepted;
}

gboolean Start(GstBaseTransform* trans) {
  GstCudaFrameFilter* self = GST_CUDA_FRAME_FILTER(trans);
  self->parts->ResetState();
  self->refusal->Forget();
  return AcceptsSomeUpstreamInput(self);
}

gboolean Stop(GstBaseTransform* trans) {
  GstCudaFrameFilter* self = GST_CUDA_FRAME_FILTER(trans);
  self->negotiated = FALSE;
  self->refusal->Forget();
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
  delete self->refusal;
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
  self->refusal = new cudahistogram::Refusal();
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
  GST_CUDA_FRAME_FILTER_CLASS(klass)->accepts = init.accepts;
  return GST_BASE_TRANSFORM_CLASS(klass);
}

bool EnsureFilterContext(GstCudaFrameFilter* filter, const char* what) { return EnsureContext(filter, what); }

GstFlowReturn FrameRefusal(GstCudaFrameFilter* filter) {
  if (!filter->negotiated && !NegotiateCurrentCaps(filter)) return GST_FLOW_NOT_NEGOTIATED;
  Refusal& r = *filter->refusal;
  r.frame_serial = SettingsSerial(filter);
  if (!r.posted) return GST_FLOW_OK;
  if (r.settings_serial == r.frame_serial) return r.flow;
  r.Forget();  // a property was set: the frame is tried again
  return GST_FLOW_OK;
}

GstFlowReturn RefuseFrames(GstCudaFrameFilter* filter, GstFlowReturn flow) {
  Refusal& r = *filter->refusal;
  r.Remember(nullptr, nullptr, r.frame_serial, flow);
  return flow;
}

gboolean CudaDriverLoads(const char* what, GError** error) {
  if (gst_cuda_load_library()) return TRUE;
  g_set_error(error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
              "No CUDA driver: %s needs the NVIDIA driver (libcuda)", what);
  return FALSE;
}

gboolean NegotiationError(const std::string& text, GError** error) {
  g_set_error_literal(error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION, text.c_str());
  return FALSE;
}

bool PostCudaError(GstCudaFrameFilter* filter, const std::string& error) {
  GST_ELEMENT_ERROR(filter, RESOURCE, FAILED, ("CUDA error: %s", error.c_str()), (nullptr));
  return false;
}

}  // namespace cudahistogram
