// Whether the examples can take the GPU path (videotestsrc ! cudaupload !
// cudahistogram), and if not, why, in words a person can act on.
#pragma once

#include <string>

namespace examples {

struct GpuProbe {
  bool usable = false;
  std::string device_name;  // when usable
  std::string why_not;      // when not
};

// Call after gst_init. The programs' probe (tools/common, ProbeBackend):
// loads libcuda through gst-cuda (nothing is linked against the driver),
// counts devices and looks for the nvcodec plugin's cudaupload, which
// registers itself only where CUDA works.
GpuProbe ProbeGpu();

// "using the GPU: <name>" or "no CUDA device (<why>): using the CPU backend".
std::string DescribeBackend(const GpuProbe& probe, bool cpu_forced);

}  // namespace examples
