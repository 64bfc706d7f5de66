// The raw video formats the plugin's elements read, as caps format lists.
#pragma once

// The formats GStreamer 1.22's CUDA producers (cudaupload, the NVDEC
// decoders) offer in CUDA memory; system memory adds the grey formats.
#define CUDAHISTOGRAM_CUDA_FORMATS                                                               \
  "{ I420, YV12, NV12, NV21, P010_10LE, P016_LE, I420_10LE, Y444, Y444_16LE, BGRA, RGBA, RGBx, " \
  "BGRx, ARGB, ABGR, RGB, BGR, BGR10A2_LE, RGB10A2_LE, Y42B, I422_10LE, I422_12LE, YUY2, UYVY, " \
  "RGBP, BGRP, GBR, GBRA }"
#define CUDAHISTOGRAM_SYSTEM_FORMATS                                                             \
  "{ I420, YV12, NV12, NV21, P010_10LE, P016_LE, I420_10LE, Y444, Y444_16LE, BGRA, RGBA, RGBx, " \
  "BGRx, ARGB, ABGR, RGB, BGR, BGR10A2_LE, RGB10A2_LE, Y42B, I422_10LE, I422_12LE, YUY2, UYVY, " \
  "RGBP, BGRP, GBR, GBRA, GRAY8, GRAY16_LE }"
