// The cudahistogram element, shaped like gst-plugins-good's `level`:
// property values (Settings) live under the object lock and are copied at the
// start of each frame; everything built from caps and settings (State: the
// plan, the frame function, the CUDA and CPU counters) is made in set_caps
// (again only when a property changed) and dropped in stop; messages are
// posted with no lock held. The CUDA context, the sink caps and the map of
// the input frame are GstCudaFrameFilter's (common/gstcudaframefilter.h).
#include "cudahistogram/gstcudahistogram.h"

#include <gst/cuda/gstcudamemory.h>
#include <gst/video/video.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "common/cuda_element_stream.h"
#include "common/cuda_frame_upload.h"
#include "common/video_formats.h"
#include "common/video_planes.h"
#include "cudahist/cpu.h"
#include "cudahistogram/cuda_counter.h"
#include "cudahistogram/frame_regions.h"
#include "cudahistogram/histogram_accumulator.h"
#include "cudahistogram/histogram_message.h"
#include "cudahistogram/region_counter.h"
#include "cudahistogram/region_message.h"
#include "cudahistogram/settings.h"
#include "cudahistogram/signalstats_frame.h"
#include "cudahistogram/signalstats_message.h"
#include "gstcudahistogrammeta.h"
#if CUDAHISTOGRAM_HAVE_ANALYTICS
#include "cudahistogram/region_meta.h"
#endif

CUDAHISTOGRAM_DEFINE_ELEMENT(GstCudaHistogram, gst_cuda_histogram, GST_TYPE_CUDA_HISTOGRAM, cudahistogram,
                             gst_cuda_histogram_debug, "CUDA per-frame histograms");
#define GST_CAT_DEFAULT gst_cuda_histogram_debug

using cudahistogram::CountPlan;
using cudahistogram::Settings;

namespace {

// Counts one frame as the plan says, where the frame lives; false after
// posting an element error. On success *counts holds the plan's
// n_components * bins counts, valid until the next frame.
using CountFunction = bool (*)(GstCudaHistogram* self, GstBuffer* buf, const Settings& settings,
                               const uint32_t** counts);

// What the streaming thread builds from caps and settings; dropped in stop.
struct State {
  // The plan and the frame function for `plan_settings` on the negotiated
  // caps; rebuilt when either changes.
  Settings plan_settings;
  CountPlan plan;
  bool have_plan = false;
  CountFunction count = nullptr;
  bool with_yuv_figures = false;  // signalstats, cropdetect or field-psnr asked of a format they read
  cudahistogram::ElementCuda<cudahistogram::CudaCounter> cuda;
  // upload=true on system-memory caps: each frame is copied into CUDA memory
  // and counted there (decided in set_caps; the property takes effect with
  // the next negotiation).
  bool uploading = false;
  cudahistogram::CudaFrameUpload upload;
  std::unique_ptr<cudahist::CpuHistogrammer> cpu;
  std::vector<uint32_t> cpu_counts;
  cudahistogram::HistogramAccumulator accumulator;
  cudahistogram::SignalStatsFrame signalstats;  // the previous frame for DIF
  // The frame as the element received it, while it is transformed: the
  // buffer transform_ip gets is a writable copy of it when it was not
  // writable (PrepareOutputBuffer).
  GstBuffer* received = nullptr;
  bool signalstats_warned = false;  // of a format signalstats does not read, this negotiation
  guint64 frames_seen = 0;  // since start: cropdetect leaves the first ones without figures
  // The regions counted besides the frame (regions, objects=detections):
  // what they are, this frame's, their counts and their message fields.
  cudahistogram::FrameRegions regions;
  std::vector<cudahistogram::RegionEntry> region_entries;
  cudahistogram::RegionCounter region_counter;
  cudahistogram::RegionAccumulator region_accumulator;
};

// Settings and State are the base class's parts (common/element_parts.h).
using Parts = cudahistogram::ElementPartsOf<Settings, State>;

GstCudaFrameFilter* Filter(GstCudaHistogram* self) { return GST_CUDA_FRAME_FILTER(self); }
const GstVideoInfo& InfoOf(GstCudaHistogram* self) { return Filter(self)->in_info; }
State* StateOf(GstCudaHistogram* self) { return Parts::StateOf(self); }
Settings CopySettings(GstCudaHistogram* self) { return Parts::CopySettings(self); }

void PostPending(GstCudaHistogram* self) {
  cudahistogram::HistogramAccumulator& acc = StateOf(self)->accumulator;
  if (acc.empty()) return;
  GstStructure* s = cudahistogram::HistogramStructure(acc);
  acc.Reset();
  StateOf(self)->region_accumulator.SetFields(s);
  StateOf(self)->region_accumulator.Reset();
  gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), s));
}

// The element's stream in the context of the CUDA memory of `buf`: a frame
// of another context (e.g. a decoder on another device) is counted there.
bool EnsureFrameContext(GstCudaHistogram* self, GstBuffer* buf) {
  GstCudaContext* context = GST_CUDA_MEMORY_CAST(gst_buffer_peek_memory(buf, 0))->context;
  if (StateOf(self)->cuda.context() != context) {
    GST_INFO_OBJECT(self, "input memory belongs to CUDA context %" GST_PTR_FORMAT ", switching to it", context);
  }
  return cudahistogram::EnsureElementCuda(Filter(self), context, &StateOf(self)->cuda);
}

bool CountOnGpu(GstCudaHistogram* self, GstBuffer* buf, const Settings& settings, const uint32_t** counts) {
  State* st = StateOf(self);
  GstVideoFrame frame;
  if (!cudahistogram::MapInputFrame(Filter(self), buf, true, &frame)) return false;
  if (!EnsureFrameContext(self, buf)) {
    gst_video_frame_unmap(&frame);
    return false;
  }
  cudahist::PlaneView views[cudahistogram::kMaxComponents];
  cudahistogram::FramePlaneViews(st->plan, frame, views);
  cudahist::HistogramSpec spec;
  spec.bins = settings.count.bins;
  spec.algorithm = settings.algorithm;
  std::string error;
  const bool ok = st->cuda.RunAfterProducers(
      buf,
      [&](cudahistogram::CudaCounter& counter, cudaStream_t stream, std::string* e) {
        return counter.Count(stream, spec, views, st->plan.layout.n_components, counts, e);
      },
      &error);
  gst_video_frame_unmap(&frame);
  if (!ok) GST_ELEMENT_ERROR(self, STREAM, FAILED, ("CUDA histogram failed: %s", error.c_str()), (nullptr));
  return ok;
}

bool CountOnCpu(GstCudaHistogram* self, GstBuffer* buf, const Settings& settings, const uint32_t** counts) {
  State* st = StateOf(self);
  GstVideoFrame frame;
  if (!cudahistogram::MapInputFrame(Filter(self), buf, false, &frame)) return false;
  const guint bins = settings.count.bins;
  if (!st->cpu || st->cpu->bins() != bins) st->cpu = std::make_unique<cudahist::CpuHistogrammer>(bins);
  const int n = st->plan.layout.n_components;
  st->cpu_counts.resize(size_t(bins) * n);
  cudahist::PlaneView views[cudahistogram::kMaxComponents];
  cudahistogram::FramePlaneViews(st->plan, frame, views);
  const cudahist::Status status = st->cpu->Compute(views, n, st->cpu_counts.data());
  gst_video_frame_unmap(&frame);
  if (!status.ok()) {
    GST_ELEMENT_ERROR(self, STREAM, FAILED, ("Histogram failed: %s", status.message().c_str()), (nullptr));
    return false;
  }
  *counts = st->cpu_counts.data();
  return true;
}

// signalstats' counts (and the QC counts) and the histograms of the plan in
// one library call, where the frame lives (see signalstats_frame.h).
bool CountWithSignalStats(GstCudaHistogram* self, GstBuffer* buf, bool on_gpu, const uint32_t** counts) {
  State* st = StateOf(self);
  GstVideoFrame frame;
  if (!cudahistogram::MapInputFrame(Filter(self), buf, on_gpu, &frame)) return false;
  if (on_gpu && !EnsureFrameContext(self, buf)) {
    gst_video_frame_unmap(&frame);
    return false;
  }
  std::string error;
  const bool ok =
      st->signalstats.Count(InfoOf(self), st->plan, buf, frame, on_gpu ? &st->cuda : nullptr, true, &error);
  gst_video_frame_unmap(&frame);
  if (!ok) {
    GST_ELEMENT_ERROR(self, STREAM, FAILED, ("signalstats failed: %s", error.c_str()), (nullptr));
    return false;
  }
  *counts = st->signalstats.histograms();
  return true;
}

bool CountSignalStatsOnGpu(GstCudaHistogram* self, GstBuffer* buf, const Settings&, const uint32_t** counts) {
  return CountWithSignalStats(self, buf, true, counts);
}

bool CountSignalStatsOnCpu(GstCudaHistogram* self, GstBuffer* buf, const Settings&, const uint32_t** counts) {
  return CountWithSignalStats(self, buf, false, counts);
}

// signalstats, cropdetect and field-psnr count YUV formats of 8 to 10 bits;
// on any other format they are left out with a warning, once per
// negotiation, and the histograms go on.
bool UseYuvFigures(GstCudaHistogram* self, const Settings& settings) {
  State* st = StateOf(self);
  if (!settings.WantsYuvFigures()) return false;
  std::string why;
  if (cudahistogram::SignalStatsReads(InfoOf(self), &why)) return true;
  if (!st->signalstats_warned) {
    st->signalstats_warned = true;
    std::string asked, figures;  // "signalstats=true and cropdetect=true", "signalstats and cropdetect"
    for (const auto& [on, name] : {std::pair<bool, const char*>{settings.signalstats, "signalstats"},
                                   {settings.cropdetect, "cropdetect"},
                                   {settings.field_psnr, "field-psnr"}}) {
      if (!on) continue;
      asked += std::string(asked.empty() ? "" : " and ") + name + "=true";
      figures += std::string(figures.empty() ? "" : " and ") + name;
    }
    GST_ELEMENT_WARNING(self, STREAM, FORMAT,
                        ("%s, but %s: these frames get no %s figures, only histograms", asked.c_str(),
                         why.c_str(), figures.c_str()),
                        ("signalstats reads YUV formats of 8 to 10 bits (NV12, I420, YUY2, "
                         "P010_10LE, I420_10LE, Y444 ...)"));
  }
  return false;
}

// The frame function, chosen once for the caps and the settings as level.c
// chooses its process function: CUDA memory (or system memory uploaded) on
// the GPU, system memory on the CPU, each with or without signalstats'
// counts (which cropdetect and field-psnr share).
void ChooseCountFunction(GstCudaHistogram* self, const Settings& settings) {
  State* st = StateOf(self);
  const bool gpu = Filter(self)->cuda_caps || st->uploading;
  st->with_yuv_figures = UseYuvFigures(self, settings);
  if (st->with_yuv_figures) {
    st->count = gpu ? CountSignalStatsOnGpu : CountSignalStatsOnCpu;
  } else {
    st->count = gpu ? CountOnGpu : CountOnCpu;
  }
}

// The region counter for the plan (signalstats' figures per region where
// the frame gets them); false after posting an element error.
bool ConfigureRegionCounter(GstCudaHistogram* self, const Settings& settings) {
  State* st = StateOf(self);
  std::string error;
  if (st->region_counter.Configure(InfoOf(self), st->plan, st->with_yuv_figures && settings.signalstats, &error)) {
    return true;
  }
  GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("%s", error.c_str()), ("caps %s", GST_VIDEO_INFO_NAME(&InfoOf(self))));
  return false;
}

bool EnsurePlan(GstCudaHistogram* self, const Settings& settings) {
  State* st = StateOf(self);
  if (st->have_plan && st->plan_settings == settings) return true;
  std::string error;
  st->have_plan = cudahistogram::MakeCountPlan(InfoOf(self), settings.count, &st->plan, &error) &&
                  st->regions.Configure(InfoOf(self), settings, &error);
  if (!st->have_plan) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("%s", error.c_str()),
                      ("caps %s", GST_VIDEO_INFO_NAME(&InfoOf(self))));
    return false;
  }
  st->plan_settings = settings;
  ChooseCountFunction(self, settings);
  return ConfigureRegionCounter(self, settings);
}

void AttachMeta(GstCudaHistogram* self, GstBuffer* buf, const uint32_t* counts,
                const cudahist::SignalStatsFigures* figures, const cudahistogram::QcFields* qc) {
  const cudahistogram::HistogramLayout& l = StateOf(self)->plan.layout;
  if (!gst_buffer_is_writable(buf)) {
    // Only while attach-meta was switched on and the frame was already on
    // its way through in passthrough: the next frame carries the meta.
    GST_DEBUG_OBJECT(self, "buffer not writable, no meta on this one");
    return;
  }
  GstCudaHistogramMeta* meta = gst_buffer_add_cuda_histogram_meta(buf, l.bins, l.n_components);
  meta->format = l.format;
  std::tie(meta->width, meta->height, meta->roi_x, meta->roi_y, meta->roi_width, meta->roi_height) =
      std::tie(l.width, l.height, l.roi_x, l.roi_y, l.roi_width, l.roi_height);
  for (int c = 0; c < l.n_components; ++c) {
    meta->component_names[c] = l.names[c];
    meta->component_depth[c] = l.depths[c];
  }
  memcpy(meta->counts, counts, sizeof(guint32) * size_t(l.bins) * l.n_components);
  if (figures != nullptr) {
    const GstCudaSignalStats stats = cudahistogram::MetaSignalStats(*figures);
    gst_cuda_histogram_meta_set_signalstats(meta, &stats);
  }
  if (qc != nullptr) {
    const GstCudaQcFigures figures_of_qc = cudahistogram::MetaQcFigures(*qc);
    gst_cuda_histogram_meta_set_qc_figures(meta, &figures_of_qc);
  }
}

// `buf` (system memory, the negotiated caps) copied into a CUDA frame of the
// element's context; null after posting an element error.
GstBuffer* UploadFrame(GstCudaHistogram* self, GstBuffer* buf) {
  State* st = StateOf(self);
  GstVideoFrame host;
  if (!cudahistogram::MapInputFrame(Filter(self), buf, false, &host)) return nullptr;
  GstBuffer* cuda = nullptr;
  std::string error;
  const bool ok = st->cuda.RunAfterProducers(
      buf,
      [&](cudahistogram::CudaCounter&, cudaStream_t stream, std::string* e) {
        cuda = st->upload.Copy(host, stream, e);
        return cuda != nullptr;
      },
      &error);
  gst_video_frame_unmap(&host);
  if (!ok) {
    gst_clear_buffer(&cuda);
    GST_ELEMENT_ERROR(self, STREAM, FAILED, ("Upload to the GPU failed: %s", error.c_str()), (nullptr));
  }
  return cuda;
}

cudahistogram::FrameTiming TimingOf(GstCudaHistogram* self, GstBuffer* buf) {
  const GstSegment& segment = GST_BASE_TRANSFORM(self)->segment;
  const GstVideoInfo& info = InfoOf(self);
  cudahistogram::FrameTiming t;
  t.timestamp = GST_BUFFER_PTS(buf);
  if (GST_CLOCK_TIME_IS_VALID(t.timestamp) && segment.format == GST_FORMAT_TIME) {
    t.stream_time = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, t.timestamp);
    t.running_time = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, t.timestamp);
  }
  t.duration = GST_BUFFER_DURATION(buf);
  if (!GST_CLOCK_TIME_IS_VALID(t.duration) && GST_VIDEO_INFO_FPS_N(&info) > 0) {
    t.duration = gst_util_uint64_scale_int(GST_SECOND, GST_VIDEO_INFO_FPS_D(&info),
                                           GST_VIDEO_INFO_FPS_N(&info));
  }
  return t;
}

void Accumulate(GstCudaHistogram* self, GstBuffer* buf, const Settings& settings,
                const uint32_t* counts, const cudahist::SignalStatsFigures* figures,
                const cudahistogram::QcFields* qc) {
  State* st = StateOf(self);
  cudahistogram::HistogramAccumulator& acc = st->accumulator;
  const cudahistogram::HistogramLayout& layout = st->plan.layout;
  const bool regions = st->regions.active(), objects = settings.objects == cudahistogram::Objects::kDetections;
  if (!acc.Accepts(layout) || !st->region_accumulator.Accepts(regions, st->region_entries, objects)) {
    PostPending(self);
  }
  acc.Add(layout, counts, TimingOf(self, buf), figures, qc);
  if (regions) st->region_accumulator.Add(layout, GST_BUFFER_PTS(buf), st->region_entries, st->region_counter, objects);
  if (acc.Due(settings.interval)) PostPending(self);
}

// The regions of the frame (its fixed regions and the detections `buf`
// carries) counted in `counted` (`buf`, or its copy in CUDA memory), where it
// lives; false after posting an element error. Warnings about skipped
// detections are posted once per stream.
bool CountRegions(GstCudaHistogram* self, GstBuffer* buf, GstBuffer* counted) {
  State* st = StateOf(self);
  std::vector<std::string> warnings;
  st->regions.Gather(buf, &st->region_entries, &warnings);
  for (const std::string& warning : warnings) {
    GST_ELEMENT_WARNING(self, STREAM, FORMAT, ("%s", warning.c_str()), (nullptr));
  }
  std::vector<cudahist::Roi> boxes;
  for (const cudahistogram::RegionEntry& e : st->region_entries) boxes.push_back(e.box);
  const bool on_gpu = Filter(self)->cuda_caps || st->uploading;
  GstVideoFrame frame;
  if (!cudahistogram::MapInputFrame(Filter(self), counted, on_gpu, &frame)) return false;
  if (on_gpu && !EnsureFrameContext(self, counted)) {
    gst_video_frame_unmap(&frame);
    return false;
  }
  std::string error;
  const bool ok = st->region_counter.Count(frame, counted, boxes, on_gpu ? &st->cuda : nullptr, &error);
  gst_video_frame_unmap(&frame);
  if (!ok) GST_ELEMENT_ERROR(self, STREAM, FAILED, ("Region histograms failed: %s", error.c_str()), (nullptr));
  return ok;
}

// The frame's and the regions' GstCudaRegionMtds (and tensor) on `buf`,
// where the analytics library is there (GStreamer 1.24+).
void AttachRegionMeta(GstCudaHistogram* self, GstBuffer* buf, const Settings& settings, const uint32_t* counts,
                      const cudahist::SignalStatsFigures* figures) {
#if CUDAHISTOGRAM_HAVE_ANALYTICS
  State* st = StateOf(self);
  if (!gst_buffer_is_writable(buf)) return;  // as AttachMeta: the next frame carries them
  if (!cudahistogram::AttachRegionMetas(buf, st->plan.layout, counts, figures, st->region_entries, st->region_counter,
                                        settings.region_tensor)) {
    GST_WARNING_OBJECT(self, "the relation meta refused a region Mtd on %" GST_PTR_FORMAT, buf);
  }
#else
  (void)self, (void)buf, (void)settings, (void)counts, (void)figures;
#endif
}

// Which QC figures the frame reports: TOUT and VREP with signalstats,
// cropdetect's from its third frame on (its skip) where the line sums were
// counted, the field PSNR on even heights (FFmpeg's graph refuses odd ones).
cudahistogram::QcFields QcFieldsOf(const Settings& settings, guint64 frame_index,
                                   const cudahist::QcFigures& figures) {
  cudahistogram::QcFields qc;
  qc.figures = figures;
  qc.tout_vrep = settings.signalstats;
  qc.crop = settings.cropdetect && figures.has_crop &&
            frame_index >= guint64(cudahist::kCropDetectSkippedFrames);
  qc.field_psnr = settings.field_psnr && figures.has_field_psnr;
  return qc;
}

// --- GstBaseTransform / GstElement vfuncs -----------------------------------

// GStreamer's CUDA copies (cudaupload, cudadownload, gst_cuda_buffer_copy)
// move width x pixel-stride bytes per row: for packed 4:2:2 of odd width that
// is 2 bytes short of the row, so the last V sample of every row is not the
// source's (seen on 1.22 and 1.26, see docs/versions.md). The element cannot tell which
// producer wrote the frame, so it says so once per negotiation.
void WarnOfOddWidthPacked422(GstCudaHistogram* self) {
  const GstVideoInfo& info = InfoOf(self);
  const GstVideoFormat format = GST_VIDEO_INFO_FORMAT(&info);
  if (!Filter(self)->cuda_caps || (format != GST_VIDEO_FORMAT_YUY2 && format != GST_VIDEO_FORMAT_UYVY) ||
      GST_VIDEO_INFO_WIDTH(&info) % 2 == 0) {
    return;
  }
  GST_ELEMENT_WARNING(self, STREAM, FORMAT,
                      ("%s frames of odd width (%d) in CUDA memory: if they were copied into CUDA memory "
                       "by GStreamer (cudaupload), the last V sample of every row was lost on the way "
                       "and the V histogram counts what the copy left there",
                       GST_VIDEO_INFO_NAME(&info), GST_VIDEO_INFO_WIDTH(&info)),
                      ("gst-cuda copies width x pixel stride = %d bytes per row; the row holds %d",
                       GST_VIDEO_INFO_WIDTH(&info) * 2, (GST_VIDEO_INFO_WIDTH(&info) + 1) / 2 * 4));
}

// upload=true on system-memory caps: the element's CUDA context (as for
// CUDA caps) and a pool of CUDA frames of the caps to copy into.
bool StartUploading(GstCudaHistogram* self) {
  GstCudaFrameFilter* filter = Filter(self);
  State* st = StateOf(self);
  if (!cudahistogram::EnsureFilterContext(filter, "upload=true") ||
      !cudahistogram::EnsureElementCuda(filter, filter->context, &st->cuda)) {
    return false;
  }
  std::string error;
  if (!st->upload.Open(filter->context, filter->in_info, &error)) return cudahistogram::PostCudaError(filter, error);
  return true;
}

// upload=true on system-memory caps of a format CUDA memory cannot hold
// (the grey ones, Y444_10LE): counted on the CPU backend instead, said once
// per negotiation.
bool UploadsThisFormat(GstCudaHistogram* self) {
  const GstVideoInfo& info = InfoOf(self);
  if (cudahistogram::CudaMemoryHolds(GST_VIDEO_INFO_FORMAT(&info))) return true;
  GST_ELEMENT_WARNING(self, STREAM, FORMAT,
                      ("upload=true, but GStreamer's CUDA memory holds no %s frames: they are counted on the "
                       "CPU backend",
                       GST_VIDEO_INFO_NAME(&info)),
                      ("CUDA memory formats: %s", CUDAHISTOGRAM_CUDA_FORMATS));
  return false;
}

const char* WhereCounted(GstCudaHistogram* self) {
  if (Filter(self)->cuda_caps) return "in CUDA memory on the GPU";
  return StateOf(self)->uploading ? "in system memory, uploaded and counted on the GPU"
                                  : "in system memory with the CPU backend";
}

gboolean SetInfo(GstCudaFrameFilter* filter, GstCaps*, GstCaps*) {
  GstCudaHistogram* self = GST_CUDA_HISTOGRAM(filter);
  State* st = StateOf(self);
  const Settings settings = CopySettings(self);
  st->have_plan = false;
  st->signalstats.Restart();  // never read the old frame with the new layout
  st->signalstats_warned = false;
  st->upload.Close();
  st->uploading = !filter->cuda_caps && settings.upload && UploadsThisFormat(self);
  if (filter->cuda_caps && !cudahistogram::EnsureElementCuda(filter, filter->context, &st->cuda)) return FALSE;
  if (st->uploading && !StartUploading(self)) return FALSE;
  WarnOfOddWidthPacked422(self);
  const GstVideoInfo& info = filter->in_info;
  GST_INFO_OBJECT(self, "counting %s %dx%d %s", GST_VIDEO_INFO_NAME(&info), GST_VIDEO_INFO_WIDTH(&info),
                  GST_VIDEO_INFO_HEIGHT(&info), WhereCounted(self));
  return EnsurePlan(self, settings);
}

// What set_info and the first frame would refuse of `info` under the
// current properties: upload=true without a CUDA driver, a count plan the
// format or size cannot give.
gboolean Accepts(GstCudaFrameFilter* filter, const GstVideoInfo* info, gboolean cuda, GError** error) {
  const Settings settings = CopySettings(GST_CUDA_HISTOGRAM(filter));
  if (!cuda && settings.upload && cudahistogram::CudaMemoryHolds(GST_VIDEO_INFO_FORMAT(info)) &&
      !cudahistogram::CudaDriverLoads("upload=true", error)) {
    return FALSE;
  }
  CountPlan plan;
  std::string why;
  // The regions too: a region list the frames cannot take is refused here,
  // before any frame, as the count plan is.
  cudahistogram::FrameRegions regions;
  if (!cudahistogram::MakeCountPlan(*info, settings.count, &plan, &why) || !regions.Configure(*info, settings, &why)) {
    return cudahistogram::NegotiationError(why, error);
  }
  return TRUE;
}

const cudahistogram::ElementClassInit kElementClass = {
    "CUDA histogram",
    "Per-frame histograms of each colour component, computed where the frame lives (CUDA memory on the GPU, "
    "system memory on the CPU, or on the GPU with upload=true); attached as GstCudaHistogramMeta and posted "
    "as \"cudahistogram\" element messages. Pixels pass through unchanged",
    CUDAHISTOGRAM_FRAME_CAPS, SetInfo, Accepts, cudahistogram::InstallSettingsProperties};

GstFlowReturn TransformIp(GstBaseTransform* trans, GstBuffer* buf) {
  GstCudaHistogram* self = GST_CUDA_HISTOGRAM(trans);
  GstCudaFrameFilter* filter = Filter(self);
  State* st = StateOf(self);
  GstBuffer* received = st->received ? st->received : buf;
  st->received = nullptr;
  // Before the settings are copied: a refusal of newer settings is no refusal of these.
  const GstFlowReturn refused = cudahistogram::FrameRefusal(filter);
  if (refused != GST_FLOW_OK) return refused;
  const Settings settings = CopySettings(self);
  const guint64 frame_index = st->frames_seen++;
  if (!settings.attach_meta && !settings.post_messages) {
    st->signalstats.Restart();  // a frame not counted breaks the chain of previous frames
    return GST_FLOW_OK;
  }
  // Properties set while playing that these caps cannot take.
  if (!EnsurePlan(self, settings)) return cudahistogram::RefuseFrames(filter, GST_FLOW_NOT_NEGOTIATED);
  const bool with_signalstats = st->with_yuv_figures && settings.signalstats;
  if (!with_signalstats) st->signalstats.Restart();  // DIF only against a frame counted with signalstats
  // The frame counted: `buf` itself, or its copy in CUDA memory (no
  // reference to `buf` is taken: it must stay writable for the meta).
  GstBuffer* uploaded = nullptr;
  if (st->uploading && (uploaded = UploadFrame(self, buf)) == nullptr) {
    return cudahistogram::RefuseFrames(filter, GST_FLOW_ERROR);
  }
  GstBuffer* counted = uploaded ? uploaded : buf;
  const uint32_t* counts = nullptr;
  if (!st->count(self, counted, settings, &counts)) {
    if (uploaded) gst_buffer_unref(uploaded);
    return cudahistogram::RefuseFrames(filter, GST_FLOW_ERROR);
  }
  if (st->regions.active() && !CountRegions(self, buf, counted)) {
    if (uploaded) gst_buffer_unref(uploaded);
    return GST_FLOW_ERROR;
  }
  const cudahist::SignalStatsFigures* figures = with_signalstats ? &st->signalstats.figures() : nullptr;
  cudahistogram::QcFields qc_fields;
  if (st->with_yuv_figures) qc_fields = QcFieldsOf(settings, frame_index, st->signalstats.qc_figures());
  const cudahistogram::QcFields* qc = st->with_yuv_figures ? &qc_fields : nullptr;
  if (settings.attach_meta) AttachMeta(self, buf, counts, figures, qc);
  if (settings.attach_meta && st->regions.active()) AttachRegionMeta(self, buf, settings, counts, figures);
  if (settings.post_messages) Accumulate(self, buf, settings, counts, figures, qc);
  // After the meta: while held the buffer is no longer writable. Held is
  // the frame as received, not GstBaseTransform's writable copy of a frame
  // its producer still references (gst-libav's decoders do): the copy shares
  // the frame's memory, and while it lived the producer's pool would find
  // that memory shared when the frame came back, throw the frame away and
  // allocate another, every frame. The received frame goes back whole once
  // the copy has gone downstream and is released.
  if (with_signalstats) {
    st->signalstats.KeepAsPrevious(uploaded ? uploaded : received);
  } else {
    st->signalstats.Restart();  // cropdetect or field-psnr alone hold no previous frame
  }
  if (uploaded) gst_buffer_unref(uploaded);
  return GST_FLOW_OK;
}

// Notes the frame as received; GstBaseTransform's own choice of the buffer
// to transform in place (the frame itself, or its writable copy) stands.
GstFlowReturn PrepareOutputBuffer(GstBaseTransform* trans, GstBuffer* input, GstBuffer** outbuf) {
  StateOf(GST_CUDA_HISTOGRAM(trans))->received = input;
  return GST_BASE_TRANSFORM_CLASS(gst_cuda_histogram_parent_class)->prepare_output_buffer(trans, input, outbuf);
}

gboolean SinkEvent(GstBaseTransform* trans, GstEvent* event) {
  GstCudaHistogram* self = GST_CUDA_HISTOGRAM(trans);
  switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_EOS: {
      PostPending(self);  // the last, possibly partial, interval
      const std::string unmatched = StateOf(self)->regions.UnmatchedLabels();
      if (!unmatched.empty()) GST_ELEMENT_WARNING(self, STREAM, FORMAT, ("%s", unmatched.c_str()), (nullptr));
      break;
    }
    case GST_EVENT_STREAM_START:
      StateOf(self)->regions.Restart();  // warnings once per stream
      break;
    case GST_EVENT_FLUSH_STOP:
      StateOf(self)->accumulator.Reset();
      StateOf(self)->region_accumulator.Reset();
      StateOf(self)->signalstats.Restart();
      break;
    case GST_EVENT_SEGMENT:
      StateOf(self)->signalstats.Restart();  // DIF against a frame of another segment means nothing
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS(gst_cuda_histogram_parent_class)->sink_event(trans, event);
}

// The pools proposed downstream, plus the previous frame held for DIF.
gboolean ProposeAllocation(GstBaseTransform* trans, GstQuery* decide_query, GstQuery* query) {
  GstCudaHistogram* self = GST_CUDA_HISTOGRAM(trans);
  if (!GST_BASE_TRANSFORM_CLASS(gst_cuda_histogram_parent_class)
           ->propose_allocation(trans, decide_query, query)) {
    return FALSE;
  }
  if (CopySettings(self).signalstats) cudahistogram::ReserveThePreviousFrame(query);  // DIF's only
  return TRUE;
}

}  // namespace

static void gst_cuda_histogram_class_init(GstCudaHistogramClass* klass) {
  GstBaseTransformClass* trans_class = cudahistogram::InitElementClass(klass, kElementClass);
  trans_class->transform_ip = TransformIp;
  // In passthrough (attach-meta=false) the frames are still counted for the messages.
  trans_class->transform_ip_on_passthrough = TRUE;
  trans_class->prepare_output_buffer = PrepareOutputBuffer;
  trans_class->sink_event = SinkEvent;
  trans_class->propose_allocation = ProposeAllocation;
}

static void gst_cuda_histogram_init(GstCudaHistogram* self) {
  Parts* parts = new Parts();
  GST_CUDA_FRAME_FILTER(self)->parts = parts;
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  // Without a meta to add the buffer need not be writable: pure passthrough.
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), !parts->settings.attach_meta);
}
