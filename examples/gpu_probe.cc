#include "gpu_probe.h"

#include "analysis_pipeline.h"

namespace examples {

GpuProbe ProbeGpu() {
  const cudahist_tools::Backend backend = cudahist_tools::ProbeBackend();
  GpuProbe probe;
  probe.usable = backend.gpu;
  probe.device_name = backend.device_name;
  probe.why_not = backend.why_not;
  return probe;
}

std::string DescribeBackend(const GpuProbe& probe, bool cpu_forced) {
  if (cpu_forced) return "--cpu given: using the CPU backend (system memory)";
  if (probe.usable) return "using the GPU: " + probe.device_name;
  return "no CUDA device (" + probe.why_not + "): using the CPU backend";
}

}  // namespace examples
