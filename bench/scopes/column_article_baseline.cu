// bench/scopes/column_article_baseline.cu: the two-phase per-column histogram kernels, transcribed from the article
// (shared/seeds/004_0f57201e56f71cd5.txt). What the article leaves out is
// filled in the plainest way and marked "not in the article".
#include "column_article_baseline.h"

namespace bench {
namespace {

constexpr int kThreads = 256;
constexpr int kChannelsPerBlock = 64;
constexpr int kTargetChunks = 33;
constexpr int kBins = 256;
constexpr int kSharedInts = kChannelsPerBlock * 258;  // "Shared Memory: [64 channels][258 bins]"

__device__ __forceinline__ void Count4(int* h0, int* h1, int* h2, int* h3, unsigned int v) {
  atomicAdd(&h0[v & 0xFF], 1);
  atomicAdd(&h1[(v >> 8) & 0xFF], 1);
  atomicAdd(&h2[(v >> 16) & 0xFF], 1);
  atomicAdd(&h3[v >> 24], 1);
}

// "Process v0-v7": the article writes the 32 atomics out.
__device__ __forceinline__ void Count8(int* h0, int* h1, int* h2, int* h3, unsigned int v0, unsigned int v1,
                                       unsigned int v2, unsigned int v3, unsigned int v4, unsigned int v5,
                                       unsigned int v6, unsigned int v7) {
  Count4(h0, h1, h2, h3, v0);
  Count4(h0, h1, h2, h3, v1);
  Count4(h0, h1, h2, h3, v2);
  Count4(h0, h1, h2, h3, v3);
  Count4(h0, h1, h2, h3, v4);
  Count4(h0, h1, h2, h3, v5);
  Count4(h0, h1, h2, h3, v6);
  Count4(h0, h1, h2, h3, v7);
}

__global__ void histogram_optimized_kernel(const uint8_t* __restrict__ input, int* __restrict__ partial_output,
                                           int length, int num_channels, int chunk_size) {
  extern __shared__ int s_hist[];
  const int tid = threadIdx.x;
  // 1. Initialize Shared Memory
  for (int i = tid; i < kSharedInts; i += blockDim.x) s_hist[i] = 0;
  __syncthreads();

  // 2. Determine Workload
  const int group_idx = blockIdx.x;
  const int start_channel = group_idx * kChannelsPerBlock;
  const int chunk_idx = blockIdx.y;
  const int row_start = chunk_idx * chunk_size;
  const int row_end = min(row_start + chunk_size, length);

  // 16 threads cover a row's 64 channels with 32-bit loads (4 channels each);
  // a warp covers two rows (sub_row). Not in the article: this mapping of
  // threads to channels, read off "each thread processes 4 consecutive
  // channels via vectorized 32-bit loads" and "r = row_start + warp_id * 2 + sub_row".
  const int warp_id = tid / 32, lane = tid % 32, num_warps = blockDim.x / 32;
  const int sub_row = lane / 16;
  const int word_in_row = lane % 16;
  const int c0 = word_in_row * 4;  // first of this thread's four channels
  // The flush reads channel ch at ch * 257 + (ch >> 2) + bin.
  int* h0 = s_hist + (c0 + 0) * 257 + ((c0 + 0) >> 2);
  int* h1 = s_hist + (c0 + 1) * 257 + ((c0 + 1) >> 2);
  int* h2 = s_hist + (c0 + 2) * 257 + ((c0 + 2) >> 2);
  int* h3 = s_hist + (c0 + 3) * 257 + ((c0 + 3) >> 2);
  const unsigned int* ptr_base = reinterpret_cast<const unsigned int*>(input + start_channel) + word_in_row;
  const int row_stride_u32 = num_channels / 4;

  const int effective_step = num_warps * 2;
  const int unroll_step_8x = effective_step * 8;
  int r = row_start + warp_id * 2 + sub_row;
  const bool has_full_batch_8x = r + effective_step * 7 < row_end;

  // DOUBLE BUFFERING + UNROLLING (8x for better ILP on H100)
  if (has_full_batch_8x) {
    unsigned int v0, v1, v2, v3, v4, v5, v6, v7;
    v0 = ptr_base[size_t(r) * row_stride_u32];
    v1 = ptr_base[size_t(r + effective_step) * row_stride_u32];
    v2 = ptr_base[size_t(r + 2 * effective_step) * row_stride_u32];
    v3 = ptr_base[size_t(r + 3 * effective_step) * row_stride_u32];
    v4 = ptr_base[size_t(r + 4 * effective_step) * row_stride_u32];
    v5 = ptr_base[size_t(r + 5 * effective_step) * row_stride_u32];
    v6 = ptr_base[size_t(r + 6 * effective_step) * row_stride_u32];
    v7 = ptr_base[size_t(r + 7 * effective_step) * row_stride_u32];
    r += unroll_step_8x;
    while (r + effective_step * 7 < row_end) {
      const unsigned int n0 = ptr_base[size_t(r) * row_stride_u32];
      const unsigned int n1 = ptr_base[size_t(r + effective_step) * row_stride_u32];
      const unsigned int n2 = ptr_base[size_t(r + 2 * effective_step) * row_stride_u32];
      const unsigned int n3 = ptr_base[size_t(r + 3 * effective_step) * row_stride_u32];
      const unsigned int n4 = ptr_base[size_t(r + 4 * effective_step) * row_stride_u32];
      const unsigned int n5 = ptr_base[size_t(r + 5 * effective_step) * row_stride_u32];
      const unsigned int n6 = ptr_base[size_t(r + 6 * effective_step) * row_stride_u32];
      const unsigned int n7 = ptr_base[size_t(r + 7 * effective_step) * row_stride_u32];
      Count8(h0, h1, h2, h3, v0, v1, v2, v3, v4, v5, v6, v7);
      v0 = n0; v1 = n1; v2 = n2; v3 = n3;
      v4 = n4; v5 = n5; v6 = n6; v7 = n7;
      r += unroll_step_8x;
    }
    // Not in the article: the last prefetched batch.
    Count8(h0, h1, h2, h3, v0, v1, v2, v3, v4, v5, v6, v7);
  }
  // Not in the article: the rows left over (fewer than 8 steps).
  for (; r < row_end; r += effective_step) Count4(h0, h1, h2, h3, ptr_base[size_t(r) * row_stride_u32]);
  __syncthreads();

  // 3. Flush (Privatized Store with Warp-Level Coalescing)
  const size_t total_elements = size_t(num_channels) * kBins;
  const size_t chunk_offset = size_t(chunk_idx) * total_elements;
  for (int i = tid; i < kChannelsPerBlock * kBins; i += blockDim.x) {
    const int ch_local = i / kBins;
    const int bin = i % kBins;
    const int s_addr = (ch_local * 257) + (ch_local >> 2) + bin;
    const int count = s_hist[s_addr];
    if (count > 0) {
      const int global_ch = start_channel + ch_local;
      partial_output[chunk_offset + size_t(global_ch) * kBins + bin] = count;
    }
  }
}

__global__ void histogram_reduce_kernel(const int* __restrict__ partial_histograms, int* __restrict__ output,
                                        int num_elements, int grid_y) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < num_elements) {
    int sum = 0;
    size_t offset = idx;
    int i = 0;
    for (; i + 3 < grid_y; i += 4) {
      sum += partial_histograms[offset];
      offset += num_elements;
      sum += partial_histograms[offset];
      offset += num_elements;
      sum += partial_histograms[offset];
      offset += num_elements;
      sum += partial_histograms[offset];
      offset += num_elements;
    }
    for (; i < grid_y; ++i) {
      sum += partial_histograms[offset];
      offset += num_elements;
    }
    output[idx] = sum;
  }
}

}  // namespace

bool ArticleShapeFor(int length, int channels, ArticleShape* shape, std::string* why) {
  if (channels <= 0 || channels % kChannelsPerBlock != 0 || length <= 0) {
    *why = "the article's kernel takes channels in blocks of 64 (" + std::to_string(channels) + " channels)";
    return false;
  }
  ArticleShape s;
  s.length = length;
  s.channels = channels;
  s.grid_x = (channels + kChannelsPerBlock - 1) / kChannelsPerBlock;
  s.chunk_size = (length + kTargetChunks - 1) / kTargetChunks;
  if (s.chunk_size < 1) s.chunk_size = 1;
  s.grid_y = (length + s.chunk_size - 1) / s.chunk_size;
  *shape = s;
  return true;
}

size_t ArticlePartialInts(const ArticleShape& shape) { return size_t(shape.grid_y) * shape.channels * kBins; }

cudaError_t LaunchArticleColumns(const uint8_t* input, const ArticleShape& shape, int* partials, int* output,
                                 cudaStream_t stream) {
  static const cudaError_t attribute = cudaFuncSetAttribute(
      histogram_optimized_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSharedInts * sizeof(int)));
  if (attribute != cudaSuccess) return attribute;
  cudaError_t e = cudaMemsetAsync(partials, 0, ArticlePartialInts(shape) * sizeof(int), stream);
  if (e != cudaSuccess) return e;
  histogram_optimized_kernel<<<dim3(shape.grid_x, shape.grid_y), dim3(kThreads, 1), kSharedInts * sizeof(int),
                               stream>>>(input, partials, shape.length, shape.channels, shape.chunk_size);
  if ((e = cudaGetLastError()) != cudaSuccess) return e;
  const int num_elements = shape.channels * kBins;
  histogram_reduce_kernel<<<(num_elements + kThreads - 1) / kThreads, kThreads, 0, stream>>>(
      partials, output, num_elements, shape.grid_y);
  return cudaGetLastError();
}

}  // namespace bench
