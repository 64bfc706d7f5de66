#include "common/cuda_frame_upload.h"

#include <gst/cuda/gstcudamemory.h>

#include "common/cuda_support.h"
#include "common/video_formats.h"
#include "common/video_frame_access.h"

namespace cudahistogram {

namespace {

// The pool's buffers: one counted, one held for DIF.
constexpr guint kMinUploadFrames = 2;

// A decoder's pool holds a few dozen frames at most (its references, its
// threads' frames, a queue's). Past this many new memories in one
// negotiation, upstream is not recycling (a pool that throws frames away, or
// no pool), and locking each new memory would cost more than its copy.
constexpr guint kMaxPageLockAttempts = 64;

// Attached to a memory the element page-locked: unlocks it when the memory is freed.
struct PageLock {
  GstCudaContext* context;
  void* data;
};

GQuark PageLockQuark() {
  static const GQuark quark = g_quark_from_static_string("cudahistogram-page-lock");
  return quark;
}

void Unlock(gpointer data) {
  auto* lock = static_cast<PageLock*>(data);
  if (gst_cuda_context_push(lock->context)) {
    cudaHostUnregister(lock->data);
    cudaGetLastError();  // nothing to do about a failure here; leave no error for the next call
    gst_cuda_context_pop(nullptr);
  }
  gst_object_unref(lock->context);
  delete lock;
}

// Page-locks `mem` (with `context` current on this thread) for every CUDA
// context, as several elements may read one frame. Memory that cannot be
// locked is left as it is: its copy goes through the driver's staging.
void Lock(GstCudaContext* context, GstMemory* mem) {
  if (!gst_memory_is_type(mem, GST_ALLOCATOR_SYSMEM)) return;
  GstMapInfo map;
  if (!gst_memory_map(mem, &map, GST_MAP_READ)) return;
  void* data = map.data;
  const cudaError_t locked = cudaHostRegister(data, map.size, cudaHostRegisterPortable);
  gst_memory_unmap(mem, &map);
  if (locked != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  gst_mini_object_set_qdata(GST_MINI_OBJECT(mem), PageLockQuark(),
                            new PageLock{GST_CUDA_CONTEXT(gst_object_ref(context)), data}, Unlock);
}

GstCaps* CudaCapsOf(const GstVideoInfo& info) {
  GstCaps* caps = gst_video_info_to_caps(&info);
  gst_caps_set_features_simple(caps, gst_caps_features_new(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, nullptr));
  return caps;
}

}  // namespace

bool CudaMemoryHolds(GstVideoFormat format) {
  static GstCaps* const cuda_formats = gst_caps_from_string(GST_VIDEO_CAPS_MAKE(CUDAHISTOGRAM_CUDA_FORMATS));
  GstCaps* one = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, gst_video_format_to_string(format),
                                     nullptr);
  const bool held = gst_caps_can_intersect(one, cuda_formats);
  gst_caps_unref(one);
  return held;
}

bool CudaFrameUpload::Open(GstCudaContext* context, const GstVideoInfo& info, std::string* error) {
  Close();
  GstCaps* caps = CudaCapsOf(info);
  GstBufferPool* pool = StartFramePool(NewCudaFramePool(context), caps, info, kMinUploadFrames, true);
  gst_caps_unref(caps);
  if (!pool) {
    *error = std::string("could not make a pool of CUDA frames of ") + GST_VIDEO_INFO_NAME(&info) + " " +
             std::to_string(GST_VIDEO_INFO_WIDTH(&info)) + "x" + std::to_string(GST_VIDEO_INFO_HEIGHT(&info)) +
             " to upload into";
    return false;
  }
  pool_ = pool;
  context_ = GST_CUDA_CONTEXT(gst_object_ref(context));
  info_ = info;
  lock_attempts_ = 0;
  return true;
}

void CudaFrameUpload::Close() {
  StopFramePool(&pool_);
  gst_clear_object(&context_);
}

void CudaFrameUpload::PageLockMemoriesOf(GstBuffer* host) {
  for (guint i = 0; i < gst_buffer_n_memory(host); ++i) {
    GstMemory* mem = gst_buffer_peek_memory(host, i);
    if (gst_mini_object_get_qdata(GST_MINI_OBJECT(mem), PageLockQuark()) != nullptr) continue;
    if (lock_attempts_ >= kMaxPageLockAttempts) return;
    ++lock_attempts_;
    Lock(context_, mem);
  }
}

GstBuffer* CudaFrameUpload::Copy(const GstVideoFrame& host, cudaStream_t stream, std::string* error) {
  GstBuffer* cuda = nullptr;
  if (pool_ == nullptr || gst_buffer_pool_acquire_buffer(pool_, &cuda, nullptr) != GST_FLOW_OK) {
    *error = "no CUDA frame to upload into";
    return nullptr;
  }
  GstVideoFrame device;
  if (!gst_video_frame_map(&device, &info_, cuda, GstMapFlags(GST_MAP_WRITE | GST_MAP_CUDA))) {
    gst_buffer_unref(cuda);
    *error = "could not map a CUDA frame of the upload pool";
    return nullptr;
  }
  PageLockMemoriesOf(host.buffer);
  bool ok = true;
  for (guint p = 0; ok && p < GST_VIDEO_FRAME_N_PLANES(&host); ++p) {
    ok = CudaOk(cudaMemcpy2DAsync(GST_VIDEO_FRAME_PLANE_DATA(&device, p), GST_VIDEO_FRAME_PLANE_STRIDE(&device, p),
                                  GST_VIDEO_FRAME_PLANE_DATA(&host, p), GST_VIDEO_FRAME_PLANE_STRIDE(&host, p),
                                  PlaneRowBytes(info_, p), PlaneRows(info_, p), cudaMemcpyHostToDevice, stream),
                "cudaMemcpy2DAsync (upload)", error);
  }
  // The map is released only once the copies are done.
  ok = CudaOk(cudaStreamSynchronize(stream), "cudaStreamSynchronize (upload)", error) && ok;
  gst_video_frame_unmap(&device);
  if (!ok) gst_clear_buffer(&cuda);
  return cuda;
}

}  // namespace cudahistogram
