// The cudavideoscope element: a GstCudaFrameFilter (a GstBaseTransform, not
// in place) from any format cudahistogram reads to RGBA pictures of a scope,
// at the input's frame rate. Settings and state as in cudahistogram (and
// level.c): property values under the object lock, copied at the start of
// each frame; everything built from caps and settings (the ScopePlan, the
// frame function, CUDA objects) made in set_caps or on the first frame after
// a change, dropped in stop. CUDA memory in gives CUDA memory out (a
// gst-cuda buffer pool in the element's context), counted and drawn on the
// element's stream; system memory is counted and drawn on the CPU, pixel for
// pixel the same picture.
#include "cudavideoscope/gstcudavideoscope.h"

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/video/video.h>

#include <memory>
#include <string>
#include <vector>

#include "common/cuda_element_stream.h"
#include "common/cuda_support.h"
#include "common/test_hooks.h"
#include "common/video_frame_access.h"
#include "cudahist/scope_render.h"
#include "cudahist/scopes.h"
#include "cudavideoscope/cuda_scope.h"
#include "cudavideoscope/scope_caps.h"
#include "cudavideoscope/scope_plan.h"
#include "cudavideoscope/scope_settings.h"

CUDAHISTOGRAM_DEFINE_ELEMENT(GstCudaVideoScope, gst_cuda_video_scope, GST_TYPE_CUDA_VIDEO_SCOPE, cudavideoscope,
                             gst_cuda_video_scope_debug, "CUDA video scopes");
#define GST_CAT_DEFAULT gst_cuda_video_scope_debug

using cudahistogram::ScopePlan;
using cudahistogram::ScopeSettings;
using cudahistogram::ScopeStyle;

namespace {

// Counts and draws one frame into the picture, where the frame lives; false
// after posting an element error.
using RenderFunction = bool (*)(GstCudaVideoScope* self, GstBuffer* inbuf, GstBuffer* outbuf);

struct State {
  GstVideoInfo out_info;
  bool draw = !cudahistogram::DrawingSkipped();  // a benchmark's hook (common/test_hooks.h)
  ScopePlan plan;
  bool have_plan = false;
  RenderFunction render = nullptr;  // chosen in set_caps: CUDA or system memory
  cudahistogram::ElementCuda<cudahistogram::CudaScope> cuda;
  std::vector<uint32_t> cpu_counts;
};

// ScopeSettings and State are the base class's parts (common/element_parts.h).
using Parts = cudahistogram::ElementPartsOf<ScopeSettings, State>;

GstCudaFrameFilter* Filter(GstCudaVideoScope* self) { return GST_CUDA_FRAME_FILTER(self); }
State* StateOf(GstCudaVideoScope* self) { return Parts::StateOf(self); }
ScopeSettings CopySettings(GstCudaVideoScope* self) { return Parts::CopySettings(self); }

bool EnsurePlan(GstCudaVideoScope* self, const ScopeSettings& settings) {
  State* st = StateOf(self);
  if (st->have_plan && st->plan.settings == settings) return true;
  std::string error;
  const GstVideoInfo& in = Filter(self)->in_info;
  st->have_plan = cudahistogram::MakeScopePlan(in, GST_VIDEO_INFO_WIDTH(&st->out_info),
                                               GST_VIDEO_INFO_HEIGHT(&st->out_info), settings, &st->plan, &error);
  if (!st->have_plan) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("%s", error.c_str()),
                      ("style %s, caps %s %dx%d to %dx%d", cudahistogram::ScopeStyleName(settings.style),
                       GST_VIDEO_INFO_NAME(&in), GST_VIDEO_INFO_WIDTH(&in), GST_VIDEO_INFO_HEIGHT(&in),
                       GST_VIDEO_INFO_WIDTH(&st->out_info),
                       GST_VIDEO_INFO_HEIGHT(&st->out_info)));
  }
  return st->have_plan;
}

bool MapOutput(GstCudaVideoScope* self, GstBuffer* buf, GstMapFlags flags, GstVideoFrame* frame) {
  return cudahistogram::MapVideoFrame(GST_ELEMENT(self), "output picture", &StateOf(self)->out_info, buf, flags,
                                      frame);
}

cudahist::ScopeImage ImageOf(const GstVideoFrame& frame) {
  cudahist::ScopeImage image;
  image.data = GST_VIDEO_FRAME_PLANE_DATA(&frame, 0);
  image.width = GST_VIDEO_FRAME_WIDTH(&frame);
  image.height = GST_VIDEO_FRAME_HEIGHT(&frame);
  image.pitch = size_t(GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0));
  return image;
}

// The picture is drawn from the frame's device pointers into the output's:
// both must be valid in the element's context.
bool InElementContext(GstCudaVideoScope* self, GstBuffer* inbuf, GstBuffer* outbuf) {
  GstCudaContext* context = StateOf(self)->cuda.context();
  GstCudaContext* in_context = GST_CUDA_MEMORY_CAST(gst_buffer_peek_memory(inbuf, 0))->context;
  GstMemory* out_mem = gst_buffer_peek_memory(outbuf, 0);
  if (in_context == context && gst_is_cuda_memory(out_mem) && GST_CUDA_MEMORY_CAST(out_mem)->context == context) {
    return true;
  }
  GST_ELEMENT_ERROR(self, STREAM, FAILED,
                    ("The input frame and the output picture must be CUDA memory of the element's CUDA "
                     "context (share one context with the upstream CUDA elements, or set cuda-device-id)"),
                    ("input context %" GST_PTR_FORMAT ", element context %" GST_PTR_FORMAT, in_context, context));
  return false;
}

bool RenderOnGpu(GstCudaVideoScope* self, GstBuffer* inbuf, GstBuffer* outbuf) {
  State* st = StateOf(self);
  GstVideoFrame in, out;
  if (!cudahistogram::MapInputFrame(Filter(self), inbuf, true, &in)) return false;
  if (!InElementContext(self, inbuf, outbuf) ||
      !MapOutput(self, outbuf, GstMapFlags(GST_MAP_WRITE | GST_MAP_CUDA), &out)) {
    gst_video_frame_unmap(&in);
    return false;
  }
  cudahist::PlaneView views[cudahistogram::kMaxComponents];
  cudahistogram::FramePlaneViews(st->plan.count, in, views);
  const cudahist::ScopeImage image = ImageOf(out);
  std::string error;
  const bool ok = st->cuda.RunAfterProducers(
      inbuf,
      [&](cudahistogram::CudaScope& scope, cudaStream_t stream, std::string* e) {
        return scope.Render(stream, &st->plan, views, image, st->draw, e);
      },
      &error);
  gst_video_frame_unmap(&out);
  gst_video_frame_unmap(&in);
  if (!ok) GST_ELEMENT_ERROR(self, STREAM, FAILED, ("CUDA video scope failed: %s", error.c_str()), (nullptr));
  return ok;
}

cudahist::Status CountOnCpu(ScopePlan* plan, const cudahist::PlaneView* views, uint32_t* counts) {
  if (plan->is_vectorscope()) return cudahist::CpuJointHistogram(plan->joint, views[0], views[1], counts);
  for (int i = 0; i < plan->traces(); ++i) {
    CUDAHIST_RETURN_IF_ERROR(cudahist::CpuColumnHistogram(plan->columns[i], views[i], counts + plan->counts_offset[i]));
  }
  return cudahist::Status::Ok();
}

cudahist::Status DrawOnCpu(ScopePlan* plan, const cudahist::PlaneView* views, const cudahist::ScopeImage& image,
                           bool draw, std::vector<uint32_t>* counts) {
  if (plan->is_picture()) {
    cudahistogram::SetPictureFrame(plan, views);
    return draw ? cudahist::DrawPictureCpu(plan->picture, image) : cudahist::Status::Ok();
  }
  counts->resize(plan->counts_total);
  CUDAHIST_RETURN_IF_ERROR(CountOnCpu(plan, views, counts->data()));
  cudahistogram::SetScopeCounts(plan, counts->data());
  if (!draw) return cudahist::Status::Ok();
  return plan->is_vectorscope() ? cudahist::DrawVectorScopeCpu(plan->vector_scope, image)
                                : cudahist::DrawColumnScopeCpu(plan->column_scope, image);
}

bool RenderOnCpu(GstCudaVideoScope* self, GstBuffer* inbuf, GstBuffer* outbuf) {
  State* st = StateOf(self);
  GstVideoFrame in, out;
  if (!cudahistogram::MapInputFrame(Filter(self), inbuf, false, &in)) return false;
  if (!MapOutput(self, outbuf, GST_MAP_WRITE, &out)) {
    gst_video_frame_unmap(&in);
    return false;
  }
  cudahist::PlaneView views[cudahistogram::kMaxComponents];
  cudahistogram::FramePlaneViews(st->plan.count, in, views);
  const cudahist::Status status = DrawOnCpu(&st->plan, views, ImageOf(out), st->draw, &st->cpu_counts);
  gst_video_frame_unmap(&out);
  gst_video_frame_unmap(&in);
  if (!status.ok()) {
    GST_ELEMENT_ERROR(self, STREAM, FAILED, ("Video scope failed: %s", status.message().c_str()), (nullptr));
  }
  return status.ok();
}

// --- caps ---------------------------------------------------------------------

bool CheckPictureCaps(GstCudaVideoScope* self, GstCaps* outcaps, GstVideoInfo* info) {
  const GstStructure* s = gst_caps_get_structure(outcaps, 0);
  gint width = 0, height = 0;
  gst_structure_get_int(s, "width", &width);
  gst_structure_get_int(s, "height", &height);
  const gint max = gint(cudahist::kMaxScopeDimension);
  if (width < 1 || height < 1 || width > max || height > max) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION,
                      ("Output size %dx%d is outside 1x1 to %dx%d: ask downstream (a caps filter) for a size in "
                       "that range",
                       width, height, max, max),
                      ("output caps %" GST_PTR_FORMAT, outcaps));
    return false;
  }
  if (gst_video_info_from_caps(info, outcaps)) return true;
  GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("Invalid output caps"), ("%" GST_PTR_FORMAT, outcaps));
  return false;
}

gboolean SetInfo(GstCudaFrameFilter* filter, GstCaps*, GstCaps* outcaps) {
  GstCudaVideoScope* self = GST_CUDA_VIDEO_SCOPE(filter);
  State* st = StateOf(self);
  st->have_plan = false;
  if (!CheckPictureCaps(self, outcaps, &st->out_info)) return FALSE;
  const ScopeSettings settings = CopySettings(self);
  if (!EnsurePlan(self, settings)) return FALSE;
  if (filter->cuda_caps && !cudahistogram::EnsureElementCuda(filter, filter->context, &st->cuda)) return FALSE;
  // The frame function, chosen once for the caps as level.c chooses its process function.
  st->render = filter->cuda_caps ? RenderOnGpu : RenderOnCpu;
  const GstVideoInfo& in = filter->in_info;
  GST_INFO_OBJECT(self, "%s of %s %dx%d as %dx%d RGBA %s", cudahistogram::ScopeStyleName(settings.style),
                  GST_VIDEO_INFO_NAME(&in), GST_VIDEO_INFO_WIDTH(&in), GST_VIDEO_INFO_HEIGHT(&in),
                  GST_VIDEO_INFO_WIDTH(&st->out_info), GST_VIDEO_INFO_HEIGHT(&st->out_info),
                  filter->cuda_caps ? "on the GPU" : "on the CPU");
  return TRUE;
}

// What set_info would refuse of `info` under the current properties, judged
// at the style's default size: a plan refused there is refused at every
// size (the size is set_caps' to check, against what downstream asks).
gboolean Accepts(GstCudaFrameFilter* filter, const GstVideoInfo* info, gboolean, GError** error) {
  const ScopeSettings settings = CopySettings(GST_CUDA_VIDEO_SCOPE(filter));
  gint width = 0, height = 0;
  cudahistogram::DefaultScopeSize(settings.style, &width, &height);
  ScopePlan plan;
  std::string why;
  if (!cudahistogram::MakeScopePlan(*info, guint(width), guint(height), settings, &plan, &why)) {
    return cudahistogram::NegotiationError(why, error);
  }
  return TRUE;
}

const cudahistogram::ElementClassInit kElementClass = {
    "CUDA video scope",
    "Video scopes of each frame as RGBA video at the input's frame rate: histogram, waveform, parade, "
    "vectorscope or the picture itself, counted and drawn where the frame lives (CUDA memory on the GPU, system "
    "memory on the CPU)",
    // RGBA pictures, in the memory the frames come in.
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, "RGBA") "; " GST_VIDEO_CAPS_MAKE("RGBA"),
    SetInfo, Accepts, cudahistogram::InstallScopeSettingsProperties};

// CUDA pictures come from a gst-cuda pool of the element's context (the
// drawing writes them through device pointers); system memory takes the
// default pool.
gboolean DecideAllocation(GstBaseTransform* trans, GstQuery* query) {
  GstCudaVideoScope* self = GST_CUDA_VIDEO_SCOPE(trans);
  GstCudaContext* context = Filter(self)->context;
  if (!Filter(self)->cuda_caps || !context) {
    return GST_BASE_TRANSFORM_CLASS(gst_cuda_video_scope_parent_class)->decide_allocation(trans, query);
  }
  GstCaps* outcaps = nullptr;
  gst_query_parse_allocation(query, &outcaps, nullptr);
  if (!outcaps) return FALSE;
  GstBufferPool* pool = nullptr;
  guint size = GST_VIDEO_INFO_SIZE(&StateOf(self)->out_info), min = 0, max = 0;
  const bool have_pool = gst_query_get_n_allocation_pools(query) > 0;
  if (have_pool) {
    gst_query_parse_nth_allocation_pool(query, 0, &pool, &size, &min, &max);
    // Only a CUDA pool of our own context hands out memory we can draw into.
    if (pool && (!GST_IS_CUDA_BUFFER_POOL(pool) || GST_CUDA_BUFFER_POOL(pool)->context != context)) {
      gst_clear_object(&pool);
    }
  }
  if (!pool) pool = cudahistogram::NewCudaFramePool(context);
  GstStructure* config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_set_params(config, outcaps, size, min, max);
  if (!gst_buffer_pool_set_config(pool, config)) {
    gst_object_unref(pool);
    GST_ELEMENT_ERROR(self, RESOURCE, SETTINGS, ("Could not configure a CUDA buffer pool for the output"),
                      ("caps %" GST_PTR_FORMAT, outcaps));
    return FALSE;
  }
  // The CUDA pool may pad rows: take the size it settled on.
  config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_get_params(config, nullptr, &size, nullptr, nullptr);
  gst_structure_free(config);
  if (have_pool) {
    gst_query_set_nth_allocation_pool(query, 0, pool, size, min, max);
  } else {
    gst_query_add_allocation_pool(query, pool, size, min, max);
  }
  gst_object_unref(pool);
  return GST_BASE_TRANSFORM_CLASS(gst_cuda_video_scope_parent_class)->decide_allocation(trans, query);
}

// --- streaming ------------------------------------------------------------------

GstFlowReturn Transform(GstBaseTransform* trans, GstBuffer* inbuf, GstBuffer* outbuf) {
  GstCudaVideoScope* self = GST_CUDA_VIDEO_SCOPE(trans);
  GstCudaFrameFilter* filter = Filter(self);
  const GstFlowReturn refused = cudahistogram::FrameRefusal(filter);
  if (refused != GST_FLOW_OK) return refused;
  // Properties set while playing that these caps cannot take.
  if (!EnsurePlan(self, CopySettings(self))) return cudahistogram::RefuseFrames(filter, GST_FLOW_NOT_NEGOTIATED);
  if (!StateOf(self)->render(self, inbuf, outbuf)) return cudahistogram::RefuseFrames(filter, GST_FLOW_ERROR);
  return GST_FLOW_OK;
}

}  // namespace

static void gst_cuda_video_scope_class_init(GstCudaVideoScopeClass* klass) {
  GstBaseTransformClass* trans_class = cudahistogram::InitElementClass(klass, kElementClass);
  // RGBA pictures of any size from frames of any format, at the same rate, in the same memory.
  cudahistogram::InitScopeCaps(trans_class);
  trans_class->decide_allocation = DecideAllocation;
  trans_class->transform = Transform;
}

static void gst_cuda_video_scope_init(GstCudaVideoScope* self) { GST_CUDA_FRAME_FILTER(self)->parts = new Parts(); }
