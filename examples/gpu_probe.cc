#include "gpu_probe.h"

#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/gst.h>

namespace examples {
namespace {

std::string CudaErrorText(CUresult result) {
  const char* text = nullptr;
  if (CuGetErrorString(result, &text) == CUDA_SUCCESS && text) return text;
  return "CUDA error " + std::to_string(int(result));
}

}  // namespace

GpuProbe ProbeGpu() {
  GpuProbe probe;
  if (!gst_cuda_load_library()) {
    probe.why_not = "libcuda.so.1 could not be loaded: no NVIDIA driver";
    return probe;
  }
  CUresult result = CuInit(0);
  if (result != CUDA_SUCCESS) {
    probe.why_not = "cuInit failed: " + CudaErrorText(result);
    return probe;
  }
  int count = 0;
  result = CuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS || count == 0) {
    probe.why_not = result != CUDA_SUCCESS ? "cuDeviceGetCount failed: " + CudaErrorText(result)
                                           : "the driver sees no device";
    return probe;
  }
  GstElementFactory* upload = gst_element_factory_find("cudaupload");
  if (!upload) {
    probe.why_not = "GStreamer's nvcodec plugin (gstreamer1.0-plugins-bad) offers no cudaupload";
    return probe;
  }
  gst_object_unref(upload);
  CUdevice device;
  char name[256] = "CUDA device 0";
  if (CuDeviceGet(&device, 0) == CUDA_SUCCESS) CuDeviceGetName(name, sizeof name, device);
  probe.usable = true;
  probe.device_name = name;
  return probe;
}

std::string DescribeBackend(const GpuProbe& probe, bool cpu_forced) {
  if (cpu_forced) return "--cpu given: using the CPU backend (system memory)";
  if (probe.usable) return "using the GPU: " + probe.device_name;
  return "no CUDA device (" + probe.why_not + "): using the CPU backend";
}

}  // namespace examples
