// The element's CUDA state: its stream in GStreamer's CUDA context, ordered
// after each frame's producer (cuda_element_stream.h), and the Histogrammer
// and pinned counts reused frame after frame (and, with signalstats, the
// SignalStatsCounter and its pinned counts: the same stream, the same ordering).
//
// Everything that touches CUDA runs between gst_cuda_context_push and
// gst_cuda_context_pop (ScopedContext). Waiting is on the element's stream
// only, never the device, and never on the producer's stream from the CPU.
#pragma once

#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>

#include <memory>
#include <string>

#include "common/cuda_element_stream.h"
#include "cudahist/histogrammer.h"
#include "cudahist/signalstats.h"

namespace cudahistogram {

class CudaCounter {
 public:
  CudaCounter() = default;
  ~CudaCounter() { Close(); }
  CudaCounter(const CudaCounter&) = delete;
  CudaCounter& operator=(const CudaCounter&) = delete;

  // Creates the stream and event in `context` (a new reference is taken).
  // Closes whatever was open before.
  bool Open(GstCudaContext* context, std::string* error);
  // Destroys the stream, event, counters and pinned counts in their context.
  void Close();
  bool is_open() const { return stream_.is_open(); }
  GstCudaContext* context() const { return stream_.context(); }

  // Counts `planes` (device pointers valid in this counter's context, into
  // the CUDA memory of `frame`) once the work pending on the producer
  // streams of `frame` is done, and waits for the result on the element's
  // stream. The Histogrammer and the pinned counts are (re)built only when
  // spec or component count change. On success *counts points to
  // n * spec.bins counts, valid until the next call.
  bool Count(const cudahist::HistogramSpec& spec, GstBuffer* frame, const cudahist::PlaneView* planes,
             int n, const uint32_t** counts, std::string* error);

  // signalstats' counts of `planes` (device pointers into the CUDA memory of
  // `frame`) against `previous` (the previous frame's, or null), ordered and
  // waited for as Count is. `previous` needs no ordering of its own: it was
  // the frame of an earlier call, whose wait on this stream came first. With
  // `qc` (null: not wanted), the frame's QC counts too, enqueued before the
  // same wait. On success *counts (and *qc) are valid until the next call.
  bool CountSignalStats(GstBuffer* frame, const cudahist::YuvPlanes& planes,
                        const cudahist::YuvPlanes* previous,
                        const cudahist::SignalStatsCounts** counts, const cudahist::QcCounts** qc,
                        std::string* error);

 private:
  bool EnsureHistogrammer(const cudahist::HistogramSpec& spec, int n, std::string* error);
  bool EnsureSignalStats(bool with_qc, std::string* error);
  // With the context current: `prepare` (builds what the launch needs), the
  // stream ordered after `frame`'s producers, `launch` (enqueues on stream_),
  // then the wait for the stream. Each returns false with `error` set.
  template <typename Prepare, typename Launch>
  bool RunAfterProducers(GstBuffer* frame, Prepare prepare, Launch launch, std::string* error);

  CudaElementStream stream_;
  std::unique_ptr<cudahist::Histogrammer> histogrammer_;
  std::unique_ptr<cudahist::PinnedCounts> pinned_;
  std::unique_ptr<cudahist::SignalStatsCounter> signalstats_;
  std::unique_ptr<cudahist::PinnedSignalStats> pinned_signalstats_;
  std::unique_ptr<cudahist::PinnedQcCounts> pinned_qc_;
};

}  // namespace cudahistogram
