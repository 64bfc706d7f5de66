#include "cuda_frame_pool.h"

#include <gst/cuda/cuda-gst.h>  // CuMemcpy2D & co., resolved by gst_cuda_load_library
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#if GST_CHECK_VERSION(1, 24, 0)
#include <gst/cuda/gstcudastream.h>
#endif
#include <gst/video/video.h>

namespace bench {
namespace {

// The pattern of frame f: every code value appears, differently per frame.
uint8_t PatternSample(int component, int f, int x, int y) {
  switch (component) {
    case 0: return uint8_t(x + 3 * y + 7 * f);
    case 1: return uint8_t(5 * x + y + f);
    default: return uint8_t(255 - x - 7 * y - f);
  }
}

// Y, U, V views of an NV12 frame starting at `base`, laid out as `meta` says
// (the pool's GstVideoMeta carries the CUDA allocation's pitch and offsets).
std::vector<cudahist::PlaneView> Nv12Views(const uint8_t* base, const GstVideoMeta& meta) {
  std::vector<cudahist::PlaneView> v(3);
  for (int c = 0; c < 3; ++c) {
    const int plane = c == 0 ? 0 : 1;
    v[c].data = base + meta.offset[plane];
    v[c].width = c == 0 ? kWidth : kWidth / 2;
    v[c].height = c == 0 ? kHeight : kHeight / 2;
    v[c].pitch = uint32_t(meta.stride[plane]);
    v[c].pixel_stride = c == 0 ? 1 : 2;
    v[c].offset = c == 2 ? 1 : 0;
  }
  return v;
}

// "" when `meta` describes a 1080p NV12 frame whose planes lie within `size` bytes.
std::string CheckLayout(const GstVideoMeta* meta, gsize size) {
  if (meta == nullptr) return "a pool frame has no GstVideoMeta";
  if (meta->format != GST_VIDEO_FORMAT_NV12 || meta->n_planes != 2 || meta->width != guint(kWidth) ||
      meta->height != guint(kHeight)) {
    return "a pool frame's GstVideoMeta is not 1080p NV12";
  }
  const bool fits = meta->stride[0] >= kWidth && meta->stride[1] >= kWidth &&
                    meta->offset[0] + gsize(meta->stride[0]) * kHeight <= size &&
                    meta->offset[1] + gsize(meta->stride[1]) * (kHeight / 2) <= size;
  return fits ? "" : "a pool frame's planes do not fit in its memory";
}

// The pattern of frame f into `views` (host memory).
void WritePattern(const std::vector<cudahist::PlaneView>& views, int f) {
  for (int c = 0; c < 3; ++c) {
    uint8_t* base = const_cast<uint8_t*>(static_cast<const uint8_t*>(views[c].data));
    for (uint32_t y = 0; y < views[c].height; ++y) {
      for (uint32_t x = 0; x < views[c].width; ++x) {
        base[y * views[c].pitch + x * views[c].pixel_stride + views[c].offset] = PatternSample(c, f, x, y);
      }
    }
  }
}

// Copies `rows` rows of `pitch` bytes from `host` to `device`. "" or what went wrong.
std::string CopyToDevice(GstCudaContext* context, const uint8_t* host, CUdeviceptr device, size_t pitch, size_t rows) {
  CUDA_MEMCPY2D copy = {};
  copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  copy.srcHost = host;
  copy.srcPitch = pitch;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = device;
  copy.dstPitch = pitch;
  copy.WidthInBytes = pitch;
  copy.Height = rows;
  if (!gst_cuda_context_push(context)) return "cannot make the CUDA context current";
  const CUresult result = CuMemcpy2D(&copy);  // returns once the pageable source is consumed
  gst_cuda_context_pop(nullptr);
  if (result != CUDA_SUCCESS) return "the host-to-device copy of a frame failed (CUresult " + std::to_string(result) + ")";
  return "";
}

// Writes the pattern of frame f into the buffer's CUDA memory (the whole
// allocation, from a host image of the same layout), after showing that
// image to `on_image`. "" or what went wrong.
std::string FillFrame(GstCudaContext* context, GstBuffer* buffer, int f, const FrameImageCallback& on_image) {
  if (gst_buffer_n_memory(buffer) != 1 || !gst_is_cuda_memory(gst_buffer_peek_memory(buffer, 0))) {
    return "a pool frame is not one GstCudaMemory";
  }
  const GstVideoMeta* meta = gst_buffer_get_video_meta(buffer);
  GstMapInfo map;
  if (!gst_buffer_map(buffer, &map, GstMapFlags(GST_MAP_WRITE | GST_MAP_CUDA))) {
    return "cannot map a pool frame for writing on the GPU";
  }
  std::string why = CheckLayout(meta, map.size);
  if (why.empty() && map.size % gsize(meta->stride[0]) != 0) why = "a pool frame's size is not a whole number of rows";
  if (why.empty()) {
    std::vector<uint8_t> host(map.size, 0);
    const std::vector<cudahist::PlaneView> views = Nv12Views(host.data(), *meta);
    WritePattern(views, f);
    why = on_image(buffer, views);
    if (why.empty()) {
      // A GST_MAP_CUDA map yields the device pointer.
      const size_t pitch = size_t(meta->stride[0]);
      why = CopyToDevice(context, host.data(), CUdeviceptr(map.data), pitch, map.size / pitch);
    }
  }
  gst_buffer_unmap(buffer, &map);
  return why;
}

// "" when the frame carries a producer stream with work marked pending: what
// the element must order its count after (GStreamer 1.24+).
std::string CheckPendingOnProducerStream(GstBuffer* buffer) {
#if GST_CHECK_VERSION(1, 24, 0)
  GstMemory* mem = gst_buffer_peek_memory(buffer, 0);
  if (gst_cuda_memory_get_stream(GST_CUDA_MEMORY_CAST(mem)) == nullptr) return "a pool frame carries no CUDA stream";
  if (!GST_MEMORY_FLAG_IS_SET(mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC)) return "a pool frame has no pending work marked";
  return "";
#else
  (void)buffer;
  return "GStreamer 1.22's CUDA memory carries no stream";
#endif
}

}  // namespace

GstCaps* CudaNv12Caps() {
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "NV12", "width", G_TYPE_INT, kWidth,
                                      "height", G_TYPE_INT, kHeight, "framerate", GST_TYPE_FRACTION, 30, 1, nullptr);
  gst_caps_set_features(caps, 0, gst_caps_features_new(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, nullptr));
  return caps;
}

// The pool, active, every frame filled and back in it. "" or what went wrong.
// gst-cuda 1.22's pool finds its allocator by name (gst_allocator_find of
// GST_CUDA_MEMORY_TYPE_NAME): gst_cuda_memory_init_once() must have run.
std::string MakeFrames(CudaFramePool* frames, const FrameImageCallback& on_image) {
  GstCaps* caps = CudaNv12Caps();
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, caps)) {
    gst_caps_unref(caps);
    return "the frames' caps are not video caps";
  }
  frames->pool = gst_cuda_buffer_pool_new(frames->context);
  GstStructure* config = gst_buffer_pool_get_config(frames->pool);
  // The size is the caps' and the pool replaces it by the CUDA allocation's
  // (pitched rows); the pool adds a GstVideoMeta with that layout anyway.
  gst_buffer_pool_config_set_params(config, caps, guint(GST_VIDEO_INFO_SIZE(&info)), kPoolFrames, kPoolFrames);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_caps_unref(caps);
#if GST_CHECK_VERSION(1, 24, 0)
  if (frames->on_producer_stream) {
    GstCudaStream* stream = gst_cuda_stream_new(frames->context);
    gst_buffer_pool_config_set_cuda_stream(config, stream);  // the pool takes its own reference
    gst_clear_cuda_stream(&stream);
  }
#endif
  if (!gst_buffer_pool_set_config(frames->pool, config)) {
    return "the CUDA buffer pool refuses its configuration (1080p NV12 memory:CUDAMemory, " +
           std::to_string(kPoolFrames) + " frames); GST_DEBUG=cudabufferpool:5 tells why";
  }
  if (!gst_buffer_pool_set_active(frames->pool, TRUE)) {
    return "the CUDA buffer pool cannot allocate its " + std::to_string(kPoolFrames) + " frames";
  }
  std::vector<GstBuffer*> held;  // all at once, so that each is a different frame
  std::string why;
  for (int f = 0; f < kPoolFrames && why.empty(); ++f) {
    GstBuffer* b = nullptr;
    if (gst_buffer_pool_acquire_buffer(frames->pool, &b, nullptr) != GST_FLOW_OK) {
      why = "cannot acquire frame " + std::to_string(f) + " of the pool";
    } else {
      held.push_back(b);
      why = FillFrame(frames->context, b, f, on_image);
      if (why.empty() && frames->on_producer_stream) why = CheckPendingOnProducerStream(b);
    }
  }
  for (GstBuffer* b : held) gst_buffer_unref(b);  // back to the pool, filled
  return why;
}

void DropFrames(CudaFramePool* frames) {
  if (frames->pool == nullptr) return;
  gst_buffer_pool_set_active(frames->pool, FALSE);
  gst_object_unref(frames->pool);
  frames->pool = nullptr;
}

// The CUDA context of device 0, or nullptr with `skip` true where there is
// no CUDA device (or driver) and false where one exists but fails.
GstCudaContext* OpenCuda(bool* skip) {
  *skip = true;
  if (!gst_cuda_load_library()) return nullptr;  // no libcuda.so: no driver
  GstCudaContext* context = gst_cuda_context_new(0);
  int devices = 0;
  if (context == nullptr) *skip = CuInit(0) != CUDA_SUCCESS || CuDeviceGetCount(&devices) != CUDA_SUCCESS || devices == 0;
  return context;
}

}  // namespace bench
