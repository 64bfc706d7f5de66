// tests/support/cuda_test.h: what every GPU test starts with. A test that
// needs a CUDA device skips without one and says why (the library's own
// answer, cudahist::CheckCudaDevice); a CUDA runtime call that fails stops
// the test with the runtime's error string.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "cudahist/histogrammer.h"

#define SKIP_WITHOUT_CUDA_DEVICE()                                  \
  do {                                                              \
    const ::cudahist::Status cuda_ = ::cudahist::CheckCudaDevice(); \
    if (!cuda_.ok()) GTEST_SKIP() << cuda_.message();               \
  } while (0)

#define ASSERT_CUDA(call) ASSERT_EQ((call), cudaSuccess) << #call << ": " << cudaGetErrorString(cudaGetLastError())
