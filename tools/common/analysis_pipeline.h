// The analysis pipeline both programs in tools/ run for one input, and the
// choice of backend it rests on.
//
//   uridecodebin uri=URI caps=video/x-raw(ANY)      (video only; and audio/x-raw for an audio hook)
//   ! queue max-size-buffers=4 (1 for a lone stream) (decoding goes on while a frame is counted)
//     CPU:  ! capsfilter caps=video/x-raw
//   ! cudahistogram name=analysis signalstats=true [cropdetect=true field-psnr=true]
//       GPU: upload=true cuda-device-id=N
//       messages (attach-meta=false) or the meta (post-messages=false)
//   ! fakevideosink sync=<live> enable-last-sample=false allocation-meta-flags=0
//       (fakesink without gst-plugins-bad; see MakeSink)
//
// Decoders (decoder_choice.h): on the GPU path the chosen device's NVDEC
// decoder where it is shown to decode the stream as FFmpeg does (the element
// counts their CUDA memory); everything else is decoded by GStreamer's CPU
// decoders, FFmpeg's first, and the element copies it into CUDA memory itself
// (upload=true), so nvcodec is loaded only where NVDEC decodes.
// Without a GPU no NVDEC decoder is used and the element counts system memory
// on its CPU backend. Raw v210 (uncompressed 10-bit 4:2:2) is repacked to
// I422_10LE on the way (videoconvert, sample for sample). A decoded format
// the element does not read is an error naming it.
// On the GPU all the pipelines of the process share one CUDA context per
// device (a context of its own per pipeline costs GPU memory by the GiB),
// made while the device's first pipeline starts and handed to the elements
// that ask for one (the pipeline's bus answers their need-context message).
#pragma once

#include <gst/gst.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "decoder_choice.h"

namespace cudahist_tools {

// What this machine offers. Call after gst_init.
struct Backend {
  bool gpu = false;
  int gpu_count = 0;
  std::string device_name;  // of device 0, when gpu
  std::string why_not;      // when !gpu, in words a person can act on
};
Backend ProbeBackend();

// "GPU: <name> (N devices)" or "CPU backend (<why>)".
std::string DescribeBackend(const Backend& backend);

struct AnalysisTarget {
  bool gpu = false;
  int cuda_device_id = 0;  // which GPU decodes and counts (gpu only)
  bool live = false;       // a live source: the sink syncs to the clock
  // How many inputs the process decodes at the same time, this one included
  // (0: not known). Sizes the queue of decoded frames before the analysis.
  int streams_at_once = 0;
  // Figures as GstCudaHistogramMeta on each buffer (read in a pad probe),
  // instead of a bus message per frame.
  bool figures_in_meta = false;
  // NVDEC also for the codecs that leave the IDCT to a tolerance (MPEG-2 ...):
  // the monitor's choice; cudahist-qc decodes them as FFmpeg does.
  bool gpu_for_tolerance_codecs = false;
  // A decoder the user named for the video stream ("": ChooseDecoders picks).
  std::string decoder;
  // Where the input's first decoded audio stream goes (the monitor's audio
  // branch, audio_branch.h); empty: the pipeline decodes video only. Called
  // once with the pipeline while it is built, before it starts, so that the
  // branch's elements change state with it (added from a streaming thread
  // later, a sink may start rendering before the pipeline has given it a
  // clock); adds its elements and returns the pad to link (a reference), or
  // nullptr.
  std::function<GstPad*(GstBin* pipeline)> audio;
  // Called with the source element uridecodebin makes for the URI, before it
  // opens anything (uridecodebin's "source-setup"): the monitor's source
  // types set their sources up there.
  std::function<void(GstElement* source)> source_setup;
};

// What the decoder choice said of the video stream, written on a streaming
// thread when decodebin picks its decoder.
struct DecoderNote {
  std::mutex lock;
  std::string stream;  // DescribeStream of the video stream
  std::string why;     // why the GPU decoder offered was passed over ("": it was not)
  std::string problem;  // no offered decoder may decode it (a --decoder that does not take it)
};

// The analysis pipeline for one input and its parts. `pipeline` owns the rest.
struct AnalysisPipeline {
  GstElement* pipeline = nullptr;
  GstElement* decodebin = nullptr;  // uridecodebin
  GstElement* analysis = nullptr;   // cudahistogram
  std::shared_ptr<DecoderNote> decoding;
};

// Builds the pipeline above, or returns an empty one with the reason in
// `problem` (a missing element names the package or GST_PLUGIN_PATH). When
// the input has no video stream the pipeline posts an error saying so.
// `pipeline_name` names the pipeline (and so its messages' source path).
AnalysisPipeline BuildAnalysisPipeline(const std::string& uri, const AnalysisTarget& target,
                                       const std::string& pipeline_name, std::string* problem);

// The cudahistogram properties the analysis sets: signalstats=true, and
// cropdetect=true / field-psnr=true where this build of the element has them.
// ("signalstats=true cropdetect=true field-psnr=true", for gst-launch lines.)
std::string AnalysisProperties();

// Whether the element class has these figures (property present).
bool ElementHasCropDetect();
bool ElementHasFieldPsnr();

// A file name or a URI as a URI ("" with `problem` set when it cannot be one).
std::string InputUri(const std::string& file_or_uri, std::string* problem);

// "<element>: <message> (<debug>)" of an error or warning message.
std::string ErrorText(GstMessage* message);

}  // namespace cudahist_tools
