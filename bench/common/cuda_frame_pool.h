// bench/common/cuda_frame_pool.h: the 1080p NV12 frames the element benchmarks push.
//
// A pool of kPoolFrames frames is allocated once in CUDA memory (gst-cuda's
// buffer pool, the way a decoder hands frames on) and filled on the GPU with
// a known pattern (one host-to-device copy per frame). Each frame's host
// image goes to the caller first, which computes what its element must make
// of that frame (counts, a picture). Built against GStreamer 1.24+, a pool
// can hand out frames that carry a producer CUDA stream with work marked
// pending (GST_CUDA_MEMORY_TRANSFER_NEED_SYNC), as every frame of a 1.24+
// decoder or uploader.
#pragma once

#include <cudahist/plane_view.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>

#include <functional>
#include <string>
#include <vector>

namespace bench {

constexpr int kPoolFrames = 32;  // 32 x 3.1 MB: more than any GPU's L2
constexpr int kWidth = 1920, kHeight = 1080;

struct CudaFramePool {
  GstCudaContext* context = nullptr;  // the pool's and, shared, the element's
  GstBufferPool* pool = nullptr;
  bool on_producer_stream = false;  // frames carry a GstCudaStream (1.24+)
};

// Called once per pool frame with the frame's Y, U, V views of its host
// image (the pattern, laid out as the pool lays out the frame); "" or what
// went wrong.
using FrameImageCallback = std::function<std::string(GstBuffer* frame, const std::vector<cudahist::PlaneView>& yuv)>;

// The pool, active, every frame filled and back in it. "" or what went wrong.
std::string MakeFrames(CudaFramePool* frames, const FrameImageCallback& on_image);

// Deactivates and drops the pool.
void DropFrames(CudaFramePool* frames);

// video/x-raw(memory:CUDAMemory), NV12, 1080p, 30 fps.
GstCaps* CudaNv12Caps();

// The CUDA context of device 0, or nullptr with `skip` true where there is
// no CUDA device (or driver) and false where one exists but fails.
GstCudaContext* OpenCuda(bool* skip);

}  // namespace bench
