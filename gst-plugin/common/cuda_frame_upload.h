// Frames in system memory copied into CUDA memory by the element itself, for
// cudahistogram's `upload` property: the frame is then counted on the GPU,
// as a frame from cudaupload would be, without loading GStreamer's nvcodec
// plugin (whose start probes every codec of every GPU, about 2 s a process
// on the GPU host) and without a second element.
//
// The copies come from a GstCudaBufferPool of the element's context, laid
// out as that pool lays CUDA frames out (its pitch, a GstVideoMeta). Each
// plane's rows are copied whole: every byte the frame uses, also the last
// sample pair of packed 4:2:2 of odd width, which gst-cuda's own copy drops.
//
// The system memory of the frames is page-locked for CUDA (cudaHostRegister)
// the first time a memory is seen, and unlocked when that memory is freed. A
// decoder's pool hands the same memories round again and again, and a copy
// from page-locked memory is one DMA. From pageable memory the driver stages
// every copy through a buffer of its own, on the element's thread: on the
// H100, 12-14 GB/s for the whole process whatever the number of threads,
// against about 50 GB/s page-locked (bench/probes/host_upload_probe.cu). A
// lone ProRes decoder that hands over its own frames outruns the staged copy.
// Memory that cannot be locked (not system memory, or overlapping memory
// locked already) is copied as it is.
#pragma once

#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include <string>

namespace cudahistogram {

// True when GStreamer's CUDA memory has a layout for `format`: one of
// CUDAHISTOGRAM_CUDA_FORMATS (the grey formats are not).
bool CudaMemoryHolds(GstVideoFormat format);

class CudaFrameUpload {
 public:
  CudaFrameUpload() = default;
  ~CudaFrameUpload() { Close(); }
  CudaFrameUpload(const CudaFrameUpload&) = delete;
  CudaFrameUpload& operator=(const CudaFrameUpload&) = delete;

  // A pool of CUDA frames of `info` in `context`: two at least, the one being
  // counted and the one signalstats holds as the previous frame. False with
  // `error` set.
  bool Open(GstCudaContext* context, const GstVideoInfo& info, std::string* error);
  void Close();
  bool is_open() const { return pool_ != nullptr; }

  // A CUDA frame from the pool holding `host` (a frame of the info given to
  // Open, mapped for reading), copied on `stream` in the pool's context (made
  // current by the caller) and complete when this returns. Null with `error`
  // set; the caller unrefs the frame.
  GstBuffer* Copy(const GstVideoFrame& host, cudaStream_t stream, std::string* error);

 private:
  void PageLockMemoriesOf(GstBuffer* host);

  GstBufferPool* pool_ = nullptr;
  GstCudaContext* context_ = nullptr;
  GstVideoInfo info_;
  guint lock_attempts_ = 0;  // new memories this negotiation tried to lock; see kMaxPageLockAttempts
};

}  // namespace cudahistogram
