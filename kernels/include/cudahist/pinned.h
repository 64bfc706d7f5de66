// cudahist: page-locked host memory that a kernel writes directly, for the
// counts of every GPU counter:
//
//   std::unique_ptr<cudahist::Pinned<uint32_t>> counts;
//   cudahist::Pinned<uint32_t>::Create(cudahist::CountsLength(spec, n), &counts);  // once
//   histogrammer->Compute(planes, n, stream, counts->data());                     // every frame
//
//   std::unique_ptr<cudahist::Pinned<cudahist::SignalStatsCounts>> stats;
//   cudahist::Pinned<cudahist::SignalStatsCounts>::Create(&stats);                // one of them
//
// Allocate once (e.g. when a stream starts) and reuse for every frame. The
// memory is portable and mapped: a kernel of any context may write it
// (unified addressing). It starts zeroed.
#pragma once

#include <cstddef>
#include <memory>

#include "cudahist/status.h"

namespace cudahist {

namespace detail {
// cudaHostAlloc(portable | mapped) of `bytes`, zeroed; cudaFreeHost.
Status AllocatePinned(size_t bytes, void** out);
void FreePinned(void* data);
}  // namespace detail

// `size()` objects of T (plain data: no constructor runs) in page-locked memory.
template <typename T>
class Pinned {
 public:
  static Status Create(size_t count, std::unique_ptr<Pinned>* out) {
    if (out == nullptr) return Status::InvalidArgument("out: null");
    if (count == 0) return Status::InvalidArgument("count: 0 (must be at least 1)");
    void* data = nullptr;
    CUDAHIST_RETURN_IF_ERROR(detail::AllocatePinned(count * sizeof(T), &data));
    out->reset(new Pinned(static_cast<T*>(data), count));
    return Status::Ok();
  }
  // One T.
  static Status Create(std::unique_ptr<Pinned>* out) { return Create(1, out); }

  ~Pinned() { detail::FreePinned(data_); }
  Pinned(const Pinned&) = delete;
  Pinned& operator=(const Pinned&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  Pinned(T* data, size_t size) : data_(data), size_(size) {}
  T* data_;
  size_t size_;
};

}  // namespace cudahist
