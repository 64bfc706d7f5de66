// cudahist: the launch machinery every module shares (kernel_launch.h).
#include "launch/kernel_launch.h"

#include <string>

namespace cudahist::detail {

Status CudaStatus(cudaError_t error, const char* what) {
  if (error == cudaSuccess) return Status::Ok();
  cudaGetLastError();  // a failed call leaves its error behind; do not leak it to the caller's next check
  return Status(StatusCode::kCudaError, std::string(what) + ": " + cudaGetErrorString(error));
}

uint32_t LargestLogCopiesWithin(uint32_t max_log_copies, uint64_t copy_bytes, int64_t budget_bytes) {
  uint32_t log_copies = max_log_copies;
  while (log_copies > 0 && (budget_bytes < 0 || (copy_bytes << log_copies) > uint64_t(budget_bytes))) --log_copies;
  return log_copies;
}

Status QueryDeviceLimits(DeviceLimits* limits) {
  int device = 0;
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaGetDevice(&device), "cudaGetDevice"));
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(
      cudaDeviceGetAttribute(&limits->sm_count, cudaDevAttrMultiProcessorCount, device),
      "cudaDeviceGetAttribute(multiprocessor count)"));
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(
      cudaDeviceGetAttribute(&limits->max_shared_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                             device),
      "cudaDeviceGetAttribute(max shared memory per block)"));
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(
      cudaDeviceGetAttribute(&limits->shared_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device),
      "cudaDeviceGetAttribute(shared memory per multiprocessor)"));
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(
      cudaDeviceGetAttribute(&limits->reserved_shared_per_block, cudaDevAttrReservedSharedMemoryPerBlock, device),
      "cudaDeviceGetAttribute(reserved shared memory per block)"));
  return CudaStatus(
      cudaDeviceGetAttribute(&limits->cooperative_launch, cudaDevAttrCooperativeLaunch, device),
      "cudaDeviceGetAttribute(cooperative launch)");
}

Status StaticSharedBytes(const void* kernel, uint32_t* bytes) {
  cudaFuncAttributes attributes{};
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(cudaFuncGetAttributes(&attributes, kernel), "cudaFuncGetAttributes"));
  *bytes = uint32_t(attributes.sharedSizeBytes);
  return Status::Ok();
}

Status ConfigureKernel(const DeviceLimits& limits, const void* kernel, uint32_t threads,
                       uint32_t loads_per_thread, uint32_t shared_bytes, const char* name,
                       KernelConfig* config) {
  config->name = name;
  config->kernel = kernel;
  config->threads = threads;
  config->loads_per_thread = loads_per_thread;
  config->shared_bytes = shared_bytes;
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes)),
      "cudaFuncSetAttribute(max dynamic shared memory)"));
  int blocks_per_sm = 0;
  CUDAHIST_RETURN_IF_ERROR(CudaStatus(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, int(threads), shared_bytes),
      "cudaOccupancyMaxActiveBlocksPerMultiprocessor"));
  if (blocks_per_sm == 0) {
    config->why = std::string(name) + ": a block of " + std::to_string(threads) + " threads with " +
                  std::to_string(shared_bytes) + " bytes of shared memory does not fit an SM";
    return Status::Ok();
  }
  config->resident_blocks = uint32_t(blocks_per_sm) * uint32_t(limits.sm_count);
  config->supported = true;
  return Status::Ok();
}

cudaError_t LaunchKernelSerialized(const void* kernel, dim3 grid, uint32_t threads, uint32_t shared_bytes,
                                   void** args, cudaStream_t stream, bool cooperative) {
  cudaLaunchConfig_t launch = {};
  launch.gridDim = grid;
  launch.blockDim = dim3(threads);
  launch.dynamicSmemBytes = shared_bytes;
  launch.stream = stream;
  cudaLaunchAttribute attributes[2] = {};
  attributes[launch.numAttrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attributes[launch.numAttrs++].val.programmaticStreamSerializationAllowed = 1;
  if (cooperative) {
    attributes[launch.numAttrs].id = cudaLaunchAttributeCooperative;
    attributes[launch.numAttrs++].val.cooperative = 1;
  }
  launch.attrs = attributes;
  return cudaLaunchKernelExC(&launch, kernel, args);
}

bool InDeviceMemory(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: clears what the query set
    return false;
  }
  return attributes.type == cudaMemoryTypeDevice;
}

}  // namespace cudahist::detail
