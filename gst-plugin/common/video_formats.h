// The raw video formats the plugin's elements read, as caps format lists,
// and the caps of the frames they read (CUDA memory first, then system memory).
#pragma once

#include <gst/cuda/gstcudamemory.h>
#include <gst/video/video.h>

// The formats GStreamer 1.22's CUDA producers (cudaupload, the NVDEC
// decoders) offer in CUDA memory; system memory adds the grey formats and
// 10-bit 4:4:4 (ProRes 4444 and FFV1's yuv444p10 decode to it).
#define CUDAHISTOGRAM_CUDA_FORMATS                                                               \
  "{ I420, YV12, NV12, NV21, P010_10LE, P016_LE, I420_10LE, Y444, Y444_16LE, BGRA, RGBA, RGBx, " \
  "BGRx, ARGB, ABGR, RGB, BGR, BGR10A2_LE, RGB10A2_LE, Y42B, I422_10LE, I422_12LE, YUY2, UYVY, " \
  "RGBP, BGRP, GBR, GBRA }"
#define CUDAHISTOGRAM_SYSTEM_FORMATS                                                             \
  "{ I420, YV12, NV12, NV21, P010_10LE, P016_LE, I420_10LE, Y444, Y444_16LE, BGRA, RGBA, RGBx, " \
  "BGRx, ARGB, ABGR, RGB, BGR, BGR10A2_LE, RGB10A2_LE, Y42B, I422_10LE, I422_12LE, YUY2, UYVY, " \
  "RGBP, BGRP, GBR, GBRA, GRAY8, GRAY16_LE, Y444_10LE }"
// Single fields (interlace-mode=alternate: field-coded HEVC from gst-libav)
// are read as pictures of the field's height, as FFmpeg and NVDEC give them.
#define CUDAHISTOGRAM_FRAME_CAPS                                                                        \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, CUDAHISTOGRAM_CUDA_FORMATS) \
  "; " GST_VIDEO_CAPS_MAKE(CUDAHISTOGRAM_SYSTEM_FORMATS) "; "                                          \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES(GST_CAPS_FEATURE_FORMAT_INTERLACED, CUDAHISTOGRAM_SYSTEM_FORMATS)  \
  ", interlace-mode = (string) alternate"
