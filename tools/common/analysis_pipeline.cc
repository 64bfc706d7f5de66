#include "analysis_pipeline.h"

#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include <pthread.h>
#include <sched.h>

#include <cstring>
#include <future>
#include <map>
#include <mutex>
#include <vector>

namespace cudahist_tools {
namespace {

constexpr const char* kAnalysisFactory = "cudahistogram";
// The queue between the decoder and the analysis; its thread runs the analysis.
constexpr const char* kDecodedQueue = "decoded";
constexpr size_t kDetailLength = 200;
// Decoded frames held between the decoder's thread and the thread that
// uploads and counts, so that decoding goes on while a frame is counted.
// With several streams at once, four: each decoder goes on while its frames
// wait their turn for the cores and the copies (eight 3,000-frame 1080p
// ProRes files on a 16-core H100 host: 0.98 of decoding alone with four,
// 0.90 with one). Each is a whole frame of memory.
constexpr guint kDecodedFramesAhead = 4;
// A stream decoded alone holds one: its frames are copied right after they
// are decoded. Four gained nothing (one 3,000-frame ProRes file on an H200:
// 3.263 s with one, 3.267 s with four; behind fakesink, when the decoder
// still copied every frame itself, four was slower: docs/qc.md).
// NVDEC's lone stream is the same either way.
constexpr guint kDecodedFramesAheadAlone = 1;

unsigned RuntimeMinorVersion() {
  guint major = 0, minor = 0, micro = 0, nano = 0;
  gst_version(&major, &minor, &micro, &nano);
  return minor;
}

std::string CudaErrorText(CUresult result) {
  const char* text = nullptr;
  if (CuGetErrorString(result, &text) == CUDA_SUCCESS && text) return text;
  return "CUDA error " + std::to_string(int(result));
}

bool AnalysisHasProperty(const char* property) {
  GstElementFactory* factory = gst_element_factory_find(kAnalysisFactory);
  if (!factory) return false;
  bool has = false;
  if (GstElementFactory* loaded = GST_ELEMENT_FACTORY(gst_plugin_feature_load(GST_PLUGIN_FEATURE(factory)))) {
    if (GType type = gst_element_factory_get_element_type(loaded)) {
      gpointer klass = g_type_class_ref(type);
      has = g_object_class_find_property(G_OBJECT_CLASS(klass), property) != nullptr;
      g_type_class_unref(klass);
    }
    gst_object_unref(loaded);
  }
  gst_object_unref(factory);
  return has;
}

void SetIfPresent(GstElement* element, const char* property, int value) {
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), property))
    g_object_set(element, property, value, nullptr);
}

bool IsDecoderFactory(GstElementFactory* factory) {
  const char* klass = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS);
  return klass && std::strstr(klass, "Decoder");
}

bool IsVideoCaps(GstCaps* caps) {
  if (!caps || gst_caps_is_empty(caps) || gst_caps_is_any(caps)) return false;
  const char* name = gst_structure_get_name(gst_caps_get_structure(caps, 0));
  return g_str_has_prefix(name, "video/") || g_str_has_prefix(name, "image/");
}

struct DecoderSort {
  DecoderPolicy policy;
  std::shared_ptr<DecoderNote> note;
};

// decodebin's candidates for one stream: parsers and demuxers first, as
// decodebin ranks them, then the video decoders in the order ChooseDecoders
// gives (a GPU decoder only where it is shown exact). Putting a decoder
// before the parser would plug it on the unparsed stream, where a decoder
// that needs parsed input (1.22's nvh264dec: byte-stream) cannot link and
// the next one, whatever it is, wins.
GValueArray* SortFactories(GstElement*, GstPad*, GstCaps* caps, GValueArray* factories, gpointer data) {
  if (!IsVideoCaps(caps)) return nullptr;
  auto* sort = static_cast<DecoderSort*>(data);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  std::vector<std::string> decoders;
  std::map<std::string, GValue*> by_name;
  GValueArray* sorted = g_value_array_new(factories->n_values);
  for (guint i = 0; i < factories->n_values; ++i) {
    GValue* value = g_value_array_get_nth(factories, i);
    auto* factory = GST_ELEMENT_FACTORY(g_value_get_object(value));
    if (!IsDecoderFactory(factory)) {
      g_value_array_append(sorted, value);
      continue;
    }
    decoders.push_back(GST_OBJECT_NAME(factory));
    by_name[decoders.back()] = value;
  }
  if (decoders.empty()) {
    g_value_array_free(sorted);
    return nullptr;
  }
  // A parser offered beside the decoders of a stream not parsed yet comes
  // first and describes the stream better: the choice that counts is made
  // on its caps (decodebin offers the parser again there, and skips it).
  gboolean parsed = FALSE;
  gst_structure_get_boolean(gst_caps_get_structure(caps, 0), "parsed", &parsed);
  const bool parser_first = sorted->n_values > 0 && !parsed;
  const StreamKind stream = StreamKindOfCaps(caps);
  const DecoderChoice choice = ChooseDecoders(decoders, stream, sort->policy);
  for (const std::string& name : choice.order) g_value_array_append(sorted, by_name[name]);
  G_GNUC_END_IGNORE_DEPRECATIONS
  if (parser_first) return sorted;
  // A stream the named decoder does not take is left without a decoder:
  // decodebin then fails it as one it has no decoder for, and the
  // program reports the problem noted here.
  std::lock_guard<std::mutex> hold(sort->note->lock);
  sort->note->stream = DescribeStream(stream);
  sort->note->why = choice.why;
  sort->note->problem = choice.problem;
  return sorted;
}

struct LinkState {
  GstElement* first;     // the element the decoded video enters
  GstElement* analysis;  // cudahistogram, whose sink template says what it reads
  bool linked = false;
  std::string refused;  // the format of a video stream that could not be linked
  GstPad* audio = nullptr;  // the audio branch's sink pad (a reference), built with the pipeline
  bool audio_linked = false;

  ~LinkState() {
    if (audio) gst_object_unref(audio);
  }
};

// Takes the chain of elements that starts at `pad` out of their bin: an
// audio branch the input had no audio for, whose sink would otherwise never
// have the EOS that ends the pipeline at the end of a file.
void RemoveChainFrom(GstPad* pad) {
  GstElement* element = gst_pad_get_parent_element(pad);
  while (element) {
    GstElement* next = nullptr;
    GstPad* src = gst_element_get_static_pad(element, "src");
    if (src) {
      if (GstPad* peer = gst_pad_get_peer(src)) {
        next = gst_pad_get_parent_element(peer);
        gst_object_unref(peer);
      }
      gst_object_unref(src);
    }
    gst_element_set_locked_state(element, TRUE);
    gst_element_set_state(element, GST_STATE_NULL);
    if (GstObject* bin = gst_object_get_parent(GST_OBJECT(element))) {
      gst_bin_remove(GST_BIN(bin), element);
      gst_object_unref(bin);
    }
    gst_object_unref(element);
    element = next;
  }
}

// The first decoded audio stream into the audio branch.
void LinkAudio(GstPad* pad, LinkState* state) {
  if (!state->audio || state->audio_linked) return;
  state->audio_linked = gst_pad_link(pad, state->audio) == GST_PAD_LINK_OK;
}

// Raw formats the element does not read that GStreamer repacks into one it
// does without changing a sample: videoconvert with nearest chroma (no
// resampling of 4:2:2 chroma) and no dither gives exactly the planes
// FFmpeg's decoder gives (v210: its yuv422p10le).
struct Repack {
  const char* from;
  const char* to;
};
constexpr Repack kRepacks[] = {{"v210", "I422_10LE"}};

const Repack* RepackOf(const std::string& format) {
  for (const Repack& repack : kRepacks)
    if (format == repack.from) return &repack;
  return nullptr;
}

// videoconvert ! capsfilter, added to the pipeline before `next` and started;
// the pad to link the stream to, or null.
GstPad* AddRepacker(GstElement* next, const Repack& repack) {
  GstElement* convert = gst_element_factory_make("videoconvert", nullptr);
  GstElement* filter = gst_element_factory_make("capsfilter", nullptr);
  if (!convert || !filter) {
    for (GstElement* e : {convert, filter})
      if (e) gst_object_unref(gst_object_ref_sink(e));
    return nullptr;
  }
  gst_util_set_object_arg(G_OBJECT(convert), "chroma-resampler", "nearest");
  gst_util_set_object_arg(G_OBJECT(convert), "dither", "none");
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, repack.to, nullptr);
  g_object_set(filter, "caps", caps, nullptr);
  gst_caps_unref(caps);
  GstBin* bin = GST_BIN(GST_ELEMENT_PARENT(next));
  gst_bin_add_many(bin, convert, filter, nullptr);
  gst_element_link_many(convert, filter, next, nullptr);
  gst_element_sync_state_with_parent(filter);
  gst_element_sync_state_with_parent(convert);
  return gst_element_get_static_pad(convert, "sink");
}

// Whether the analysis reads the decoded frames: their format in the memory
// the decoder gives them in (NVDEC's CUDA memory, or system memory).
bool AnalysisReads(const LinkState& state, GstCaps* decoded) {
  GstPad* sink = gst_element_get_static_pad(state.analysis, "sink");
  GstCaps* readable = gst_pad_get_pad_template_caps(sink);
  gst_object_unref(sink);
  const bool reads = gst_caps_can_intersect(decoded, readable);
  gst_caps_unref(readable);
  return reads;
}

// A decoded format the analysis cannot read would otherwise end in a bare
// "not-negotiated": name the format instead.
GstPadProbeReturn CheckDecodedFormat(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  GstEvent* event = GST_PAD_PROBE_INFO_EVENT(info);
  if (GST_EVENT_TYPE(event) != GST_EVENT_CAPS) return GST_PAD_PROBE_OK;
  const LinkState* state = static_cast<const LinkState*>(data);
  GstCaps* caps = nullptr;
  gst_event_parse_caps(event, &caps);
  const char* format = gst_structure_get_string(gst_caps_get_structure(caps, 0), "format");
  if (!format || AnalysisReads(*state, caps)) return GST_PAD_PROBE_OK;
  const GstCapsFeatures* features = gst_caps_get_features(caps, 0);
  const bool cuda = features && gst_caps_features_contains(features, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
  GstElement* decoder = gst_pad_get_parent_element(pad);
  GST_ELEMENT_ERROR(decoder, STREAM, FORMAT,
                    ("the video decodes to %s, which cudahistogram does not read%s (gst-inspect-1.0 "
                     "cudahistogram lists the formats it reads)",
                     format, cuda ? " in CUDA memory" : ""),
                    (nullptr));
  if (decoder) gst_object_unref(decoder);
  return GST_PAD_PROBE_DROP;
}

void OnPadAdded(GstElement*, GstPad* pad, gpointer data) {
  LinkState* state = static_cast<LinkState*>(data);
  GstCaps* caps = gst_pad_get_current_caps(pad);
  if (!caps) caps = gst_pad_query_caps(pad, nullptr);
  const char* media = caps && !gst_caps_is_empty(caps) ? gst_structure_get_name(gst_caps_get_structure(caps, 0)) : "";
  const bool video = g_str_has_prefix(media, "video/");
  const bool audio = g_str_has_prefix(media, "audio/");
  const char* format = video ? gst_structure_get_string(gst_caps_get_structure(caps, 0), "format") : nullptr;
  const std::string format_name = format ? format : "";
  if (caps) gst_caps_unref(caps);
  if (audio) LinkAudio(pad, state);
  if (!video || state->linked) return;
  const Repack* repack = RepackOf(format_name);
  GstPad* sink = repack ? AddRepacker(state->first, *repack) : gst_element_get_static_pad(state->first, "sink");
  state->linked = sink && gst_pad_link(pad, sink) == GST_PAD_LINK_OK;
  if (sink) gst_object_unref(sink);
  if (!state->linked) {
    state->refused = format_name;
    return;
  }
  // A repacked stream's format is the repacker's to check.
  if (!repack) gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, CheckDecodedFormat, state, nullptr);
}

// Every stream has been exposed: none linked is an error of the input, or of
// a raw format the element does not read.
void OnNoMorePads(GstElement* decodebin, gpointer data) {
  const LinkState* state = static_cast<LinkState*>(data);
  if (state->audio && !state->audio_linked) RemoveChainFrom(state->audio);
  if (state->linked) return;
  if (!state->refused.empty()) {
    GST_ELEMENT_ERROR(decodebin, STREAM, FORMAT,
                      ("the video is %s, which cudahistogram does not read (gst-inspect-1.0 cudahistogram lists "
                       "the formats it reads)",
                       state->refused.c_str()),
                      ("the video pad could not be linked"));
    return;
  }
  GST_ELEMENT_ERROR(decodebin, STREAM, WRONG_TYPE, ("the input has no video stream"),
                    ("no decoded video pad was exposed"));
}

// One CUDA context per device for all the process's pipelines. Left to
// themselves, the CUDA elements of every pipeline create a context of their
// own, and a context holds hundreds of MiB of GPU memory (the stack reserved
// for every thread the GPU can run): on an H100 about 0.7 GiB a 1080p stream,
// against the decoder's tens. Kept for the life of the process.
//
// A context takes about 0.1 s to make (bench/probes/cuda_start_probe.cu), so
// it is made on a thread of its own, started when the device's first
// pipeline is built: the pipelines open their inputs and start decoding
// meanwhile, and the first element that needs the context waits for it in
// the bus's sync handler (AnswerCudaContextNeed). Beside eight starting
// ProRes decoders it took 0.28-0.36 s on the H100 instead of 0.12, so
// their first frames still wait for it (docs/qc.md).
std::shared_future<GstContext*> SharedCudaContext(int device) {
  static std::mutex lock;
  static std::map<int, std::shared_future<GstContext*>> contexts;
  std::lock_guard<std::mutex> hold(lock);
  std::shared_future<GstContext*>& context = contexts[device];
  if (!context.valid()) {
    // gst-cuda's loader of libcuda is not safe on two threads at once (the
    // probe's and this one's: "CuInit: assertion failed" on the GPU host),
    // so it runs here, before the thread starts. Without libcuda,
    // gst-cuda's calls into the driver abort: there is no context to make.
    if (!gst_cuda_load_library()) {
      std::promise<GstContext*> none;
      none.set_value(nullptr);
      context = none.get_future().share();
    } else {
      context = std::async(std::launch::async, [device]() -> GstContext* {
                  GstCudaContext* cuda = gst_cuda_context_new(guint(device));
                  if (!cuda) return nullptr;
                  GstContext* shared = gst_context_new_cuda_context(cuda);
                  gst_object_unref(cuda);
                  return shared;
                }).share();
    }
  }
  return context;
}

// An element asking for a CUDA context (cudahistogram, NVDEC decoders: after
// asking their neighbours) gets the device's shared one, once it is made. It
// asks from its own thread, which waits here; without a shared context
// (gst_cuda_context_new failed) it makes one of its own, as it would alone.
GstBusSyncReply AnswerCudaContextNeed(GstMessage* message, int device) {
  const gchar* type = nullptr;
  if (!gst_message_parse_context_type(message, &type) || g_strcmp0(type, GST_CUDA_CONTEXT_TYPE) != 0) {
    return GST_BUS_PASS;
  }
  GstContext* shared = SharedCudaContext(device).get();
  if (!shared) return GST_BUS_PASS;
  gst_element_set_context(GST_ELEMENT(GST_MESSAGE_SRC(message)), shared);
  gst_message_unref(message);  // dropped: the handler owns it, and it holds its element
  return GST_BUS_DROP;
}

// The queue's streaming thread, which carries the analysis, runs only on
// cores the decoders leave idle (SCHED_IDLE), from the moment it starts (its
// stream-status ENTER message is posted from that thread). A lone CPU
// decoder does not keep two cores busy, yet the analysis beside it at normal
// priority slowed it down: one FFV1 file on two cores ran at 0.87 of
// decoding alone's frames/s, at 0.95 with the analysis thread idle-only
// (nice 19 was not enough: no change); on the GPU host's 16 cores, ProRes and
// NVDEC ran the same either way (docs/qc.md). Where the decoders keep
// every core busy, the queue fills, the decoder waits on it, and the
// analysis gets its turn. GStreamer's task pool hands a finished thread to
// the next task (another pipeline's decoder, say), so the thread takes the
// usual policy back on LEAVE, also posted from it. If the kernel refuses a
// policy, the thread keeps the one it has.
void YieldAnalysisThread(GstMessage* message) {
  GstStreamStatusType status;
  GstElement* owner = nullptr;
  gst_message_parse_stream_status(message, &status, &owner);
  if (!owner || g_strcmp0(GST_OBJECT_NAME(owner), kDecodedQueue) != 0) return;
#ifdef SCHED_IDLE
  sched_param none{};
  if (status == GST_STREAM_STATUS_TYPE_ENTER) pthread_setschedparam(pthread_self(), SCHED_IDLE, &none);
  if (status == GST_STREAM_STATUS_TYPE_LEAVE) pthread_setschedparam(pthread_self(), SCHED_OTHER, &none);
#endif
}

// What the bus's synchronous handler answers for one pipeline.
struct SyncAnswers {
  int cuda_device;            // the device whose shared context answers, or -1: none
  bool analysis_thread_idle;  // the analysis thread at SCHED_IDLE (YieldAnalysisThread)
};

GstBusSyncReply OnSyncMessage(GstBus*, GstMessage* message, gpointer data) {
  const auto* answers = static_cast<const SyncAnswers*>(data);
  switch (GST_MESSAGE_TYPE(message)) {
    case GST_MESSAGE_NEED_CONTEXT:
      return answers->cuda_device >= 0 ? AnswerCudaContextNeed(message, answers->cuda_device) : GST_BUS_PASS;
    case GST_MESSAGE_STREAM_STATUS:
      if (answers->analysis_thread_idle) YieldAnalysisThread(message);
      return GST_BUS_PASS;
    default:
      return GST_BUS_PASS;
  }
}

GstElement* MakeElement(const char* factory, const char* name, std::string* problem) {
  GstElement* element = gst_element_factory_make(factory, name);
  if (element) return element;
  *problem = std::string("the GStreamer element '") + factory + "' is missing";
  if (std::strcmp(factory, kAnalysisFactory) == 0)
    *problem += " (install the cudahistogram plugin, or set GST_PLUGIN_PATH to <builddir>/gst-plugin)";
  return nullptr;
}

// The sink reads no pixel, and says so where it can. fakevideosink
// (gst-plugins-bad) accepts frames laid out by their GstVideoMeta; a gst-libav
// decoder then pushes the frames it decoded into its own pool, where behind
// fakesink it copies every frame into a pool of the caps' default layout on
// its one output thread. It exposes no crop meta (allocation-meta-flags=0):
// the element counts whole frames, so no decoder may leave its cropping to
// the sink. Without gst-plugins-bad, fakesink.
GstElement* MakeSink(std::string* problem) {
  if (GstElement* sink = gst_element_factory_make("fakevideosink", "sink")) {
    g_object_set(sink, "allocation-meta-flags", 0u, nullptr);
    return sink;
  }
  return MakeElement("fakesink", "sink", problem);
}

}  // namespace

Backend ProbeBackend() {
  Backend backend;
  if (!gst_cuda_load_library()) {
    backend.why_not = "libcuda.so.1 could not be loaded: no NVIDIA driver";
    return backend;
  }
  CUresult result = CuInit(0);
  if (result != CUDA_SUCCESS) {
    backend.why_not = "cuInit failed: " + CudaErrorText(result);
    return backend;
  }
  result = CuDeviceGetCount(&backend.gpu_count);
  if (result != CUDA_SUCCESS || backend.gpu_count == 0) {
    backend.why_not = result != CUDA_SUCCESS ? "cuDeviceGetCount failed: " + CudaErrorText(result)
                                             : "the driver sees no device";
    backend.gpu_count = 0;
    return backend;
  }
  CUdevice device;
  char name[256] = "CUDA device 0";
  if (CuDeviceGet(&device, 0) == CUDA_SUCCESS) CuDeviceGetName(name, sizeof name, device);
  backend.gpu = true;
  backend.device_name = name;
  return backend;
}

std::string DescribeBackend(const Backend& backend) {
  if (backend.gpu)
    return "GPU: " + backend.device_name + " (" + std::to_string(backend.gpu_count) + " device" +
           (backend.gpu_count > 1 ? "s)" : ")");
  return "CPU backend (" + backend.why_not + ")";
}

bool ElementHasCropDetect() { return AnalysisHasProperty("cropdetect"); }
bool ElementHasFieldPsnr() { return AnalysisHasProperty("field-psnr"); }

std::string AnalysisProperties() {
  std::string properties = "signalstats=true";
  if (ElementHasCropDetect()) properties += " cropdetect=true";
  if (ElementHasFieldPsnr()) properties += " field-psnr=true";
  return properties;
}

std::string InputUri(const std::string& file_or_uri, std::string* problem) {
  if (gst_uri_is_valid(file_or_uri.c_str())) return file_or_uri;
  GError* error = nullptr;
  gchar* uri = gst_filename_to_uri(file_or_uri.c_str(), &error);
  if (!uri) {
    *problem = error ? error->message : "not a file name";
    g_clear_error(&error);
    return "";
  }
  std::string text = uri;
  g_free(uri);
  return text;
}

std::string ErrorText(GstMessage* message) {
  GError* error = nullptr;
  gchar* debug = nullptr;
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_WARNING) gst_message_parse_warning(message, &error, &debug);
  else gst_message_parse_error(message, &error, &debug);
  // The debug text's last line says what went wrong; the lines before it say where in the source.
  std::string detail = debug ? g_strstrip(debug) : "";
  detail = detail.substr(detail.find_last_of('\n') == std::string::npos ? 0 : detail.find_last_of('\n') + 1);
  if (detail.size() > kDetailLength) detail = detail.substr(0, kDetailLength) + "...";
  std::string text = std::string(GST_MESSAGE_SRC(message) ? GST_OBJECT_NAME(GST_MESSAGE_SRC(message)) : "?") +
                     ": " + (error ? error->message : "unknown error") +
                     (detail.empty() ? std::string() : " (" + detail + ")");
  g_clear_error(&error);
  g_free(debug);
  return text;
}

AnalysisPipeline BuildAnalysisPipeline(const std::string& uri, const AnalysisTarget& target,
                                       const std::string& pipeline_name, std::string* problem) {
  AnalysisPipeline parts;
  GstElement* decodebin = MakeElement("uridecodebin", "decode", problem);
  GstElement* decoded = MakeElement("queue", kDecodedQueue, problem);
  // The CPU path stays in system memory; the GPU path takes whatever the
  // decoder gives: NVDEC's CUDA memory, or system memory the element uploads.
  GstElement* memory = target.gpu ? nullptr : MakeElement("capsfilter", "memory", problem);
  GstElement* analysis = MakeElement(kAnalysisFactory, "analysis", problem);
  GstElement* sink = MakeSink(problem);
  if (!decodebin || !decoded || (!target.gpu && !memory) || !analysis || !sink) {
    for (GstElement* e : {decodebin, decoded, memory, analysis, sink})
      if (e) gst_object_unref(gst_object_ref_sink(e));
    return parts;
  }
  GstCaps* decoded_caps = gst_caps_from_string(target.audio ? "video/x-raw(ANY); audio/x-raw" : "video/x-raw(ANY)");
  g_object_set(decodebin, "uri", uri.c_str(), "caps", decoded_caps, "expose-all-streams", FALSE, nullptr);
  gst_caps_unref(decoded_caps);
  if (target.source_setup) {
    using SourceSetup = std::function<void(GstElement*)>;
    g_signal_connect_data(
        decodebin, "source-setup",
        G_CALLBACK(+[](GstElement*, GstElement* source, gpointer setup) { (*static_cast<SourceSetup*>(setup))(source); }),
        new SourceSetup(target.source_setup), [](gpointer setup, GClosure*) { delete static_cast<SourceSetup*>(setup); },
        GConnectFlags(0));
  }

  if (memory) {
    // System memory, of whole frames or single fields (interlace-mode=alternate).
    GstCaps* system_memory = gst_caps_from_string("video/x-raw; video/x-raw(format:Interlaced)");
    g_object_set(memory, "caps", system_memory, nullptr);
    gst_caps_unref(system_memory);
  }

  g_object_set(analysis, "signalstats", TRUE, "attach-meta", gboolean(target.figures_in_meta), "post-messages",
               gboolean(!target.figures_in_meta), nullptr);
  SetIfPresent(analysis, "cropdetect", TRUE);
  SetIfPresent(analysis, "field-psnr", TRUE);
  if (target.gpu) {
    // The element's own copy of system-memory frames: no cudaupload, and so
    // no nvcodec plugin loaded (its start costs about 2 s) for CPU-decoded files.
    g_object_set(analysis, "upload", TRUE, "cuda-device-id", target.cuda_device_id, nullptr);
  }
  // The sink keeps no last frame: nothing reads it, and held it keeps a
  // decoder's frame out of the decoder's pool one frame longer.
  g_object_set(sink, "sync", gboolean(target.live), "enable-last-sample", FALSE, nullptr);
  const guint frames_ahead = target.streams_at_once == 1 ? kDecodedFramesAheadAlone : kDecodedFramesAhead;
  g_object_set(decoded, "max-size-buffers", frames_ahead, "max-size-bytes", 0, "max-size-time", guint64(0), nullptr);

  parts.pipeline = gst_pipeline_new(pipeline_name.c_str());
  if (target.gpu) SharedCudaContext(target.cuda_device_id);  // starts making it, if not yet
  GstBus* bus = gst_element_get_bus(parts.pipeline);
  // A live source's frames are counted as they come, at normal priority.
  gst_bus_set_sync_handler(bus, OnSyncMessage, new SyncAnswers{target.gpu ? target.cuda_device_id : -1, !target.live},
                           [](gpointer answers) { delete static_cast<SyncAnswers*>(answers); });
  gst_object_unref(bus);
  gst_bin_add_many(GST_BIN(parts.pipeline), decodebin, decoded, analysis, sink, nullptr);
  bool linked;
  if (memory) {
    gst_bin_add(GST_BIN(parts.pipeline), memory);
    linked = gst_element_link_many(decoded, memory, analysis, sink, nullptr);
  } else {
    linked = gst_element_link_many(decoded, analysis, sink, nullptr);
  }
  if (!linked) {
    *problem = "cannot link queue ! " + std::string(memory ? "capsfilter ! " : "") + "cudahistogram ! " +
               GST_OBJECT_NAME(gst_element_get_factory(sink));
    gst_object_unref(parts.pipeline);
    return AnalysisPipeline();
  }

  // Both live as long as the pipeline: freed with the decodebin.
  parts.decoding = std::make_shared<DecoderNote>();
  DecoderPolicy policy;
  policy.gpu = target.gpu;
  policy.cuda_device = target.cuda_device_id;
  policy.gpu_for_tolerance_codecs = target.gpu_for_tolerance_codecs;
  policy.forced = target.decoder;
  policy.gst_minor = RuntimeMinorVersion();
  auto* sort = new DecoderSort{policy, parts.decoding};
  g_signal_connect_data(decodebin, "autoplug-sort", G_CALLBACK(SortFactories), sort,
                        [](gpointer data, GClosure*) { delete static_cast<DecoderSort*>(data); },
                        GConnectFlags(0));
  auto* link = new LinkState{decoded, analysis, false, "", target.audio ? target.audio(GST_BIN(parts.pipeline)) : nullptr};
  g_signal_connect_data(decodebin, "pad-added", G_CALLBACK(OnPadAdded), link,
                        [](gpointer data, GClosure*) { delete static_cast<LinkState*>(data); },
                        GConnectFlags(0));
  g_signal_connect(decodebin, "no-more-pads", G_CALLBACK(OnNoMorePads), link);
  parts.decodebin = decodebin;
  parts.analysis = analysis;
  return parts;
}

}  // namespace cudahist_tools
