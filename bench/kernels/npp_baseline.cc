// bench/kernels/npp_baseline.cc
//
// NPP's declarations are repeated here (its headers are not on every build
// machine); they follow nppdefs.h and nppi_statistics_functions.h of CUDA 12
// and 13: the _Ctx functions, which take an NppStreamContext by value. The
// buffer-size queries wrote an int in older releases and a size_t since: a
// zeroed size_t read back is right either way on a little-endian host.
#include "npp_baseline.h"

#include <dlfcn.h>

#include <vector>

#include "plane_groups.h"

namespace bench {
namespace {

struct NppiSize {
  int width;
  int height;
};

struct NppStreamContext {
  cudaStream_t hStream;
  int nCudaDeviceId;
  int nMultiProcessorCount;
  int nMaxThreadsPerMultiProcessor;
  int nMaxThreadsPerBlock;
  size_t nSharedMemPerBlock;
  int nCudaDevAttrComputeCapabilityMajor;
  int nCudaDevAttrComputeCapabilityMinor;
  unsigned int nStreamFlags;
  int nReserved0;
};

using BufferSizeC1 = int (*)(NppiSize, int, size_t*, NppStreamContext);
using BufferSizeC4 = int (*)(NppiSize, int*, size_t*, NppStreamContext);
using Even8uC1 = int (*)(const uint8_t*, int, NppiSize, int*, int, int, int, uint8_t*, NppStreamContext);
using Even16uC1 = int (*)(const uint16_t*, int, NppiSize, int*, int, int, int, uint8_t*, NppStreamContext);
using Even8uC4 = int (*)(const uint8_t*, int, NppiSize, int**, int*, int*, int*, uint8_t*, NppStreamContext);

constexpr const char* kLibraryDirs[] = {"", "/usr/local/cuda/lib64/", "/usr/local/cuda/targets/x86_64-linux/lib/"};
constexpr const char* kVersions[] = {".13", ".12", ""};

NppStreamContext StreamContext(cudaStream_t stream) {
  NppStreamContext ctx = {};
  cudaDeviceProp prop = {};
  cudaGetDevice(&ctx.nCudaDeviceId);
  cudaGetDeviceProperties(&prop, ctx.nCudaDeviceId);
  ctx.hStream = stream;
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  cudaStreamGetFlags(stream, &ctx.nStreamFlags);
  return ctx;
}

NppiSize RoiOf(const cudahist::PlaneView& p) { return NppiSize{int(p.width), int(p.height)}; }

}  // namespace

struct NppHistogram::Api {
  BufferSizeC1 size_8u_c1 = nullptr;
  BufferSizeC1 size_16u_c1 = nullptr;
  BufferSizeC4 size_8u_c4 = nullptr;
  Even8uC1 even_8u_c1 = nullptr;
  Even16uC1 even_16u_c1 = nullptr;
  Even8uC4 even_8u_c4 = nullptr;
  NppStreamContext context = {};
};

std::unique_ptr<NppHistogram> NppHistogram::Load(std::string* why) {
  *why = "libnppist not found";
  for (const char* dir : kLibraryDirs) {
    for (const char* version : kVersions) {
      // libnppist needs libnppc; loading it first from the same place lets the
      // loader find it even where the CUDA directory is not on its path.
      const std::string core_name = std::string(dir) + "libnppc.so" + version;
      const std::string name = std::string(dir) + "libnppist.so" + version;
      void* core = dlopen(core_name.c_str(), RTLD_NOW | RTLD_GLOBAL);
      void* statistics = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (statistics == nullptr) {
        if (core != nullptr) dlclose(core);
        continue;
      }
      auto api = std::make_unique<Api>();
      api->size_8u_c1 = reinterpret_cast<BufferSizeC1>(dlsym(statistics, "nppiHistogramEvenGetBufferSize_8u_C1R_Ctx"));
      api->size_16u_c1 = reinterpret_cast<BufferSizeC1>(dlsym(statistics, "nppiHistogramEvenGetBufferSize_16u_C1R_Ctx"));
      api->size_8u_c4 = reinterpret_cast<BufferSizeC4>(dlsym(statistics, "nppiHistogramEvenGetBufferSize_8u_C4R_Ctx"));
      api->even_8u_c1 = reinterpret_cast<Even8uC1>(dlsym(statistics, "nppiHistogramEven_8u_C1R_Ctx"));
      api->even_16u_c1 = reinterpret_cast<Even16uC1>(dlsym(statistics, "nppiHistogramEven_16u_C1R_Ctx"));
      api->even_8u_c4 = reinterpret_cast<Even8uC4>(dlsym(statistics, "nppiHistogramEven_8u_C4R_Ctx"));
      if (!api->size_8u_c1 || !api->size_16u_c1 || !api->size_8u_c4 || !api->even_8u_c1 ||
          !api->even_16u_c1 || !api->even_8u_c4) {
        *why = name + " lacks the nppiHistogramEven _Ctx functions";
        dlclose(statistics);
        if (core != nullptr) dlclose(core);
        continue;
      }
      return std::unique_ptr<NppHistogram>(new NppHistogram(core, statistics, name, std::move(api)));
    }
  }
  return nullptr;
}

NppHistogram::NppHistogram(void* core, void* statistics, std::string library, std::unique_ptr<Api> api)
    : core_(core), statistics_(statistics), library_(std::move(library)), api_(std::move(api)) {}

NppHistogram::~NppHistogram() {
  if (buffer_ != nullptr) cudaFree(buffer_);
  dlclose(statistics_);
  if (core_ != nullptr) dlclose(core_);
}

bool NppHistogram::Prepare(const cudahist::PlaneView* planes, int num_planes, uint32_t bins,
                           std::string* why) {
  std::vector<PlaneGroup> groups;
  if (!GroupInterleavedPlanes(planes, num_planes, &groups, why)) return false;
  api_->context = StreamContext(nullptr);
  size_t needed = 0;
  for (const PlaneGroup& g : groups) {
    const cudahist::PlaneView& p = planes[g.first_plane];
    size_t bytes = 0;
    int status = -1;
    int levels[4] = {int(bins) + 1, int(bins) + 1, int(bins) + 1, int(bins) + 1};
    if (g.channels == 1 && g.sample_size == 1) {
      status = api_->size_8u_c1(RoiOf(p), levels[0], &bytes, api_->context);
    } else if (g.channels == 1 && g.sample_size == 2) {
      status = api_->size_16u_c1(RoiOf(p), levels[0], &bytes, api_->context);
    } else if (g.channels == 4 && g.sample_size == 1) {
      status = api_->size_8u_c4(RoiOf(p), levels, &bytes, api_->context);
    } else {
      *why = "NPP has no HistogramEven for " + std::to_string(g.channels) + " interleaved channels";
      return false;
    }
    if (status != 0) {
      *why = "buffer-size query returned NppStatus " + std::to_string(status);
      return false;
    }
    needed = std::max(needed, bytes);
  }
  if (needed > buffer_bytes_) {
    if (buffer_ != nullptr) cudaFree(buffer_);
    buffer_ = nullptr;
    buffer_bytes_ = 0;
    if (cudaMalloc(&buffer_, needed) != cudaSuccess) {
      *why = "cudaMalloc of the NPP buffer failed";
      return false;
    }
    buffer_bytes_ = needed;
  }
  return true;
}

int NppHistogram::Run(const cudahist::PlaneView* planes, int num_planes, uint32_t bins, int* counts,
                      cudaStream_t stream) {
  std::vector<PlaneGroup> groups;
  std::string why;
  if (!GroupInterleavedPlanes(planes, num_planes, &groups, &why)) return -1;
  NppStreamContext ctx = api_->context;
  ctx.hStream = stream;
  cudaStreamGetFlags(stream, &ctx.nStreamFlags);
  uint8_t* buffer = static_cast<uint8_t*>(buffer_);
  const int levels = int(bins) + 1;
  for (const PlaneGroup& g : groups) {
    const cudahist::PlaneView& p = planes[g.first_plane];
    int* hist = counts + size_t(g.first_plane) * bins;
    const int step = int(p.pitch);
    const int upper = int(g.upper_level);
    int status = -1;
    if (g.channels == 1 && g.sample_size == 1) {
      status = api_->even_8u_c1(static_cast<const uint8_t*>(p.data), step, RoiOf(p), hist, levels, 0,
                                upper, buffer, ctx);
    } else if (g.channels == 1 && g.sample_size == 2) {
      status = api_->even_16u_c1(static_cast<const uint16_t*>(p.data), step, RoiOf(p), hist, levels, 0,
                                 upper, buffer, ctx);
    } else if (g.channels == 4 && g.sample_size == 1) {
      int* hists[4] = {hist, hist + bins, hist + 2 * bins, hist + 3 * bins};
      int level_counts[4] = {levels, levels, levels, levels};
      int lowers[4] = {0, 0, 0, 0};
      int uppers[4] = {upper, upper, upper, upper};
      status = api_->even_8u_c4(static_cast<const uint8_t*>(p.data), step, RoiOf(p), hists, level_counts,
                                lowers, uppers, buffer, ctx);
    }
    if (status != 0) return status;
  }
  return 0;
}

}  // namespace bench
