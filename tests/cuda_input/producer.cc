#include "producer.h"

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>

#include "spin_kernel.h"

namespace cuda_input_test {
namespace {

bool CudaOk(cudaError_t result, const char* what, std::string* why) {
  if (result == cudaSuccess) return true;
  *why = std::string(what) + ": " + cudaGetErrorString(result);
  return false;
}

// Y, then the interleaved UV plane, of a mapped NV12 frame set to `v` on `stream`.
bool FillNv12(const GstVideoFrame& frame, Nv12Values v, cudaStream_t stream, std::string* why) {
  const size_t width = size_t(GST_VIDEO_FRAME_WIDTH(&frame));
  const size_t height = size_t(GST_VIDEO_FRAME_HEIGHT(&frame));
  return CudaOk(cudaMemset2DAsync(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0), GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0),
                                  v.y, width, height, stream),
                "writing the Y plane", why) &&
         CudaOk(cudaMemset2DAsync(GST_VIDEO_FRAME_PLANE_DATA(&frame, 1), GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 1),
                                  v.uv, 2 * ((width + 1) / 2), (height + 1) / 2, stream),
                "writing the UV plane", why);
}

}  // namespace

std::unique_ptr<CudaFrameProducer> CudaFrameProducer::Create(int width, int height, ProducerStream stream,
                                                             std::string* why) {
  if (!gst_cuda_load_library()) {
    *why = "no CUDA driver";
    return nullptr;
  }
  gst_cuda_memory_init_once();  // gst-cuda's pool looks its allocator up by name
  std::unique_ptr<CudaFrameProducer> p(new CudaFrameProducer());
  p->context_ = gst_cuda_context_new(0);
  if (p->context_ == nullptr) {
    *why = "gst_cuda_context_new(0) failed";
    return nullptr;
  }
  gst_video_info_set_format(&p->info_, GST_VIDEO_FORMAT_NV12, guint(width), guint(height));
  GstCaps* caps = p->NewCaps();
  p->pool_ = gst_cuda_buffer_pool_new(p->context_);
  GstStructure* config = gst_buffer_pool_get_config(p->pool_);
  gst_buffer_pool_config_set_params(config, caps, guint(GST_VIDEO_INFO_SIZE(&p->info_)), 2, 0);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_caps_unref(caps);
#if GST_CHECK_VERSION(1, 24, 0)
  if (stream == ProducerStream::kOwn) {
    p->stream_ = gst_cuda_stream_new(p->context_);
    if (p->stream_ == nullptr) {
      gst_structure_free(config);
      *why = "gst_cuda_stream_new failed";
      return nullptr;
    }
    // Every frame of the pool then carries the producer's stream, as a 1.24+
    // decoder's or uploader's frames do.
    gst_buffer_pool_config_set_cuda_stream(config, p->stream_);
  }
#else
  if (stream == ProducerStream::kOwn) {
    gst_structure_free(config);
    *why = "GStreamer 1.22's CUDA memory carries no stream";
    return nullptr;
  }
#endif
  if (!gst_buffer_pool_set_config(p->pool_, config) || !gst_buffer_pool_set_active(p->pool_, TRUE)) {
    *why = "the CUDA buffer pool refuses NV12 " + std::to_string(width) + "x" + std::to_string(height);
    return nullptr;
  }
  return p;
}

CudaFrameProducer::~CudaFrameProducer() {
  if (pool_ != nullptr) {
    gst_buffer_pool_set_active(pool_, FALSE);
    gst_object_unref(pool_);
  }
#if GST_CHECK_VERSION(1, 24, 0)
  gst_clear_cuda_stream(&stream_);
#endif
  gst_clear_object(&context_);
}

GstCaps* CudaFrameProducer::NewCaps() const {
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "NV12", "width", G_TYPE_INT,
                                      GST_VIDEO_INFO_WIDTH(&info_), "height", G_TYPE_INT,
                                      GST_VIDEO_INFO_HEIGHT(&info_), "framerate", GST_TYPE_FRACTION, 30, 1,
                                      nullptr);
  gst_caps_set_features(caps, 0, gst_caps_features_new(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, nullptr));
  return caps;
}

bool CudaFrameProducer::WritePlanes(GstBuffer* buffer, cudaStream_t stream, Nv12Values stale,
                                    Nv12Values final, uint64_t delay_ns, std::string* why) {
  GstVideoFrame frame;
  // A CUDA write map: on 1.24+ gst-cuda marks the memory as having work
  // pending on its stream (GST_CUDA_MEMORY_TRANSFER_NEED_SYNC).
  if (!gst_video_frame_map(&frame, &info_, buffer, GstMapFlags(GST_MAP_WRITE | GST_MAP_CUDA))) {
    *why = "cannot map a producer frame for writing on the GPU";
    return false;
  }
  bool ok = gst_cuda_context_push(context_);
  if (!ok) *why = "cannot push the producer's CUDA context";
  // The stale bytes are certainly in place before the slow write is queued.
  ok = ok && FillNv12(frame, stale, stream, why) &&
       CudaOk(cudaStreamSynchronize(stream), "waiting for the stale bytes", why);
  if (ok && delay_ns > 0) ok = CudaOk(EnqueueSpin(stream, delay_ns), "launching the busy kernel", why);
  ok = ok && FillNv12(frame, final, stream, why);
  // A producer without a stream of its own finishes before handing on.
  if (ok && stream == nullptr) ok = CudaOk(cudaStreamSynchronize(stream), "finishing the frame", why);
  gst_cuda_context_pop(nullptr);
  gst_video_frame_unmap(&frame);
  return ok;
}

GstBuffer* CudaFrameProducer::SlowFrame(Nv12Values stale, Nv12Values final, uint64_t delay_ns,
                                        std::string* why) {
  GstBuffer* buffer = nullptr;
  if (gst_buffer_pool_acquire_buffer(pool_, &buffer, nullptr) != GST_FLOW_OK) {
    *why = "cannot acquire a frame from the producer's pool";
    return nullptr;
  }
  cudaStream_t stream = nullptr;
#if GST_CHECK_VERSION(1, 24, 0)
  if (stream_ != nullptr) stream = cudaStream_t(gst_cuda_stream_get_handle(stream_));
#endif
  if (!WritePlanes(buffer, stream, stale, final, delay_ns, why)) gst_clear_buffer(&buffer);
  return buffer;
}

#if GST_CHECK_VERSION(1, 24, 0)
GstBuffer* CudaFrameProducer::FrameClaimingStream(GstCudaStream* stream, Nv12Values v, std::string* why) {
  GstBuffer* backing = SlowFrame(v, v, 0, why);
  if (backing == nullptr) return nullptr;
  GstCudaMemory* mem = GST_CUDA_MEMORY_CAST(gst_buffer_peek_memory(backing, 0));
  gst_cuda_memory_sync(mem);  // the bytes are complete; only the claim is wrong
  GstMapInfo map;
  if (!gst_memory_map(GST_MEMORY_CAST(mem), &map, GstMapFlags(GST_MAP_READ | GST_MAP_CUDA))) {
    gst_buffer_unref(backing);
    *why = "cannot map a producer frame on the GPU";
    return nullptr;
  }
  const CUdeviceptr device = CUdeviceptr(map.data);
  gst_memory_unmap(GST_MEMORY_CAST(mem), &map);
  // The same device bytes, as a memory that says it was written on `stream`;
  // the pool frame lives as long as it does.
  GstMemory* wrapped = gst_cuda_allocator_alloc_wrapped(nullptr, context_, stream, &mem->info, device, backing,
                                                        GDestroyNotify(gst_buffer_unref));
  GstBuffer* buffer = gst_buffer_new();
  gst_buffer_append_memory(buffer, wrapped);
  const GstVideoInfo& layout = mem->info;
  gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&layout),
                                 GST_VIDEO_INFO_WIDTH(&layout), GST_VIDEO_INFO_HEIGHT(&layout),
                                 GST_VIDEO_INFO_N_PLANES(&layout), layout.offset, layout.stride);
  // What its producer would have done: a CUDA write map (NEED_SYNC is set).
  if (!gst_memory_map(wrapped, &map, GstMapFlags(GST_MAP_WRITE | GST_MAP_CUDA))) {
    gst_buffer_unref(buffer);
    *why = "cannot map the wrapped frame for writing";
    return nullptr;
  }
  gst_memory_unmap(wrapped, &map);
  return buffer;
}
#endif

std::vector<uint32_t> ExpectedNv12Counts(int width, int height, Nv12Values v) {
  std::vector<uint32_t> counts(3 * 256, 0);
  const uint32_t chroma = uint32_t((width + 1) / 2) * uint32_t((height + 1) / 2);
  counts[v.y] = uint32_t(width) * uint32_t(height);
  counts[256 + v.uv] = chroma;
  counts[512 + v.uv] = chroma;
  return counts;
}

}  // namespace cuda_input_test
