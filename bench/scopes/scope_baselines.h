// bench/scopes/scope_baselines.h: what bench/scopebench measures the scope kernels
// against, besides the two-phase per-column article's kernel (column_article_baseline.h): the read + write roofline
// and CUB.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace bench {

// Reads `bytes` at `data` (16-byte aligned) with 16-byte loads, several in
// flight per thread, then writes `out_words` words to `out` (each a fold of
// what its thread read, so that nothing is optimised away): the least a
// scope kernel must do, one launch.
cudaError_t LaunchReadWriteRoofline(const void* data, size_t bytes, uint32_t* out, size_t out_words,
                                    cudaStream_t stream);

// CUB, one DeviceHistogram::HistogramEven per column of an 8-bit plane
// (256 bins; counts[column * 256 + bin], int):
//   strided: each column as a 2-D region one sample wide (rows `pitch` apart);
//   contiguous: on a transposed copy (columns as rows, TransposeBytes), each
//   column a 1-D call.
// With temp == nullptr: sets *temp_bytes (the most one call needs), launches nothing.
cudaError_t CubColumnsStrided(void* temp, size_t* temp_bytes, const uint8_t* plane, int width, int height,
                              size_t pitch, int* counts, cudaStream_t stream);
cudaError_t CubColumnsContiguous(void* temp, size_t* temp_bytes, const uint8_t* transposed, int width, int height,
                                 int* counts, cudaStream_t stream);
// out[x * height + y] = plane[y * pitch + x].
cudaError_t TransposeBytes(const uint8_t* plane, int width, int height, size_t pitch, uint8_t* out,
                           cudaStream_t stream);

// CUB's joint histogram of NV12's U and V: HistogramEven over the UV plane
// read as 16-bit words, whose value V * 256 + U is the joint bin
// (counts[v * 256 + u], 65536 int counts).
cudaError_t CubJointUv(void* temp, size_t* temp_bytes, const uint8_t* uv_plane, int width, int height, size_t pitch,
                       int* counts, cudaStream_t stream);

}  // namespace bench
