// FFmpeg signalstats' figures in the element: which formats signalstats
// reads, the frame's Y, U and V as the library's YuvPlanes (built from the
// element's own plane views, so the ROI rules are the histograms'), the
// previous frame kept for DIF, and the element's histograms taken from
// signalstats' full-depth Y/U/V counts (RebinCounts), so a frame with
// signalstats is counted by ONE library call.
//
// The previous frame is the previous buffer itself: a reference is held (no
// copy) and it is mapped again, the way the new frame is, for the next frame.
// It is used only when it was counted with the same format, size and region
// and lives where the new frame lives (system memory, or CUDA memory of the
// same context); otherwise, and after Restart, the frame's DIF is 0.
#pragma once

#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include <memory>
#include <string>
#include <vector>

#include "common/cuda_element_stream.h"
#include "common/video_planes.h"
#include "cudahist/signalstats.h"
#include "cudahistogram/cuda_counter.h"

namespace cudahistogram {

// True when signalstats reads frames of `info`: YUV with Y, U and V of 8 to
// 10 bits. Otherwise `why` names the format and what it lacks.
bool SignalStatsReads(const GstVideoInfo& info, std::string* why);

// Adds the buffer the element holds as the previous frame to the pools an
// ALLOCATION query proposes (one more at least, and at most when bounded),
// so that a producer whose pool is sized to the buffers in flight downstream
// does not wait for it. As videorate does for the buffer it holds.
void ReserveThePreviousFrame(GstQuery* allocation);

class SignalStatsFrame {
 public:
  SignalStatsFrame();
  ~SignalStatsFrame();
  SignalStatsFrame(const SignalStatsFrame&) = delete;
  SignalStatsFrame& operator=(const SignalStatsFrame&) = delete;

  // Drops the previous frame: the next frame's DIF is 0 (flush, segment,
  // renegotiation, stop, signalstats switched off, a failed frame).
  void Restart();

  // Counts `frame` (the mapping of `buffer` with `info`: device pointers of
  // cuda->context() when `cuda` is given, host memory otherwise) against the
  // previous frame when one applies. `plan` is the element's plan for this
  // frame (components, bins, region). With `with_qc`, the QC counts of the
  // frame too (TOUT, VREP, cropdetect's line sums, the field pairs), before
  // the same wait. False with `error` naming the cause; the previous frame is
  // dropped then.
  bool Count(const GstVideoInfo& info, const CountPlan& plan, GstBuffer* buffer,
             const GstVideoFrame& frame, ElementCuda<CudaCounter>* cuda, bool with_qc, std::string* error);
  // Keeps `buffer` as the next frame's previous: a reference, so that
  // neither its memory nor its producer's pool lets the frame change while
  // held. Called once the element is done with the frame counted; the
  // caller passes the frame as the element received it (see TransformIp).
  void KeepAsPrevious(GstBuffer* buffer);

  // Valid after a successful Count, until the next one.
  const cudahist::SignalStatsFigures& figures() const { return figures_; }
  // The QC figures, after a successful Count with `with_qc`.
  const cudahist::QcFigures& qc_figures() const { return qc_figures_; }
  // plan.layout.n_components * plan.layout.bins counts, component-major:
  // what the histogram path counts for the same plan.
  const uint32_t* histograms() const { return histograms_.data(); }

 private:
  bool EnsureYuvPlan(const GstVideoInfo& info, const CountPlan& plan, std::string* error);
  // The held previous buffer when it may be read as the previous frame of a
  // frame in `context` (null: system memory) counted with `yuv_plan_`.
  GstBuffer* UsablePrevious(GstCudaContext* context) const;
  cudahist::YuvPlanes YuvPlanesOf(const GstVideoFrame& frame) const;
  // `qc` null: no QC counts wanted.
  bool CountMapped(const cudahist::YuvPlanes& planes, const cudahist::YuvPlanes* previous,
                   GstBuffer* buffer, ElementCuda<CudaCounter>* cuda, const cudahist::SignalStatsCounts** counts,
                   const cudahist::QcCounts** qc, std::string* error);
  void TakeHistograms(const cudahist::SignalStatsCounts& counts, const HistogramLayout& layout);

  CountPlan yuv_plan_;  // components Y, U, V of the element's region
  bool have_yuv_plan_ = false;
  uint32_t log2_hsub_ = 0;
  uint32_t log2_vsub_ = 0;

  GstBuffer* previous_ = nullptr;  // a reference, or null
  HistogramLayout previous_layout_;  // yuv_plan_'s layout when it was counted

  cudahist::CpuSignalStats cpu_;
  std::unique_ptr<cudahist::SignalStatsCounts> cpu_counts_;
  std::unique_ptr<cudahist::QcCounts> cpu_qc_;
  cudahist::SignalStatsFigures figures_{};
  cudahist::QcFigures qc_figures_{};
  std::vector<uint32_t> histograms_;
};

}  // namespace cudahistogram
