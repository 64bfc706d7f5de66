// bench/scopes/column_article_baseline.h: the two-phase [length, channels] histogram kernel
// (shared/seeds/004_0f57201e56f71cd5.txt) as its article writes it, the
// baseline of bench/scopebench: H100 configuration (256 threads, 64 channels
// per block, 33 row chunks), [64][257 + padding] shared histograms, 32-bit
// loads of four channels, 8x unrolling with double buffering, partials
// written where non-zero, then the separate reduction kernel (4-way unrolled).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace bench {

struct ArticleShape {
  int length = 0;
  int channels = 0;  // a multiple of 64, as the article's kernel assumes
  int grid_x = 0, grid_y = 0, chunk_size = 0;
};

// The article's grid for [length, channels]; false (with why) when the kernel
// does not apply (channels not a multiple of 64).
bool ArticleShapeFor(int length, int channels, ArticleShape* shape, std::string* why);
size_t ArticlePartialInts(const ArticleShape& shape);  // grid_y x channels x 256

// One histogram per channel of input[length][channels] (bytes, rows
// `channels` bytes apart) into output[channels][256]: the partials zeroed
// (the article stores only non-zero counts, so a partial must start at 0),
// the counting kernel, the reduction kernel. Three operations on `stream`.
cudaError_t LaunchArticleColumns(const uint8_t* input, const ArticleShape& shape, int* partials, int* output,
                                 cudaStream_t stream);

}  // namespace bench
