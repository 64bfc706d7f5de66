#include "element_test_util.h"

#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "cudahist/histogrammer.h"

namespace element_test {

void PluginEnvironment::SetUp() {
  gst_init(nullptr, nullptr);
  GstElementFactory* factory = gst_element_factory_find(factory_);
  ASSERT_NE(factory, nullptr) << "element " << factory_ << " not found: GST_PLUGIN_PATH="
                              << (g_getenv("GST_PLUGIN_PATH") ? g_getenv("GST_PLUGIN_PATH") : "(unset)")
                              << " must name the folder holding libgstcudahistogram.so";
  gst_object_unref(factory);
}

namespace {

// appsink "new-sample": appends the sample to the std::vector<GstSample*> at `data`.
GstFlowReturn KeepSample(GstElement* sink, gpointer data) {
  GstSample* sample = nullptr;
  g_signal_emit_by_name(sink, "pull-sample", &sample);
  if (sample) static_cast<std::vector<GstSample*>*>(data)->push_back(sample);
  return GST_FLOW_OK;
}

// Unpacked pixel layout: A, then Y/R, U/G, V/B.
int UnpackedIndex(guint component) { return component == GST_VIDEO_COMP_A ? 0 : int(component) + 1; }

const char* NameOf(const GstVideoFormatInfo* finfo, guint c) {
  static const char* const yuv[] = {"Y", "U", "V", "A"};
  static const char* const rgb[] = {"R", "G", "B", "A"};
  return GST_VIDEO_FORMAT_INFO_IS_RGB(finfo) ? rgb[c] : yuv[c];
}

// Every row of the frame unpacked: width * 4 samples per row, 16-bit, A first.
std::vector<std::vector<uint16_t>> UnpackRows(const GstVideoInfo& info, GstBuffer* buffer,
                                              guint* unpack_bits) {
  const GstVideoFormatInfo* finfo = info.finfo;
  const GstVideoFormatInfo* unpacked = gst_video_format_get_info(finfo->unpack_format);
  *unpack_bits = GST_VIDEO_FORMAT_INFO_DEPTH(unpacked, 0);
  const guint width = GST_VIDEO_INFO_WIDTH(&info);
  std::vector<std::vector<uint16_t>> rows;
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ)) return rows;
  std::vector<uint8_t> line(size_t(width) * 4 * 2 + 64);
  for (gint y = 0; y < GST_VIDEO_INFO_HEIGHT(&info); ++y) {
    finfo->unpack_func(finfo, GST_VIDEO_PACK_FLAG_TRUNCATE_RANGE, line.data(), frame.data,
                       frame.info.stride, 0, gint(y), gint(width));
    std::vector<uint16_t> row(size_t(width) * 4);
    for (size_t i = 0; i < row.size(); ++i) {
      row[i] = *unpack_bits == 8 ? line[i] : reinterpret_cast<const uint16_t*>(line.data())[i];
    }
    rows.push_back(std::move(row));
  }
  gst_video_frame_unmap(&frame);
  return rows;
}

}  // namespace

std::vector<guint> AllComponentsFor(const GstVideoInfo& info, guint bins) {
  std::vector<guint> all;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    if (guint64(bins) <= (guint64(1) << GST_VIDEO_INFO_COMP_DEPTH(&info, c))) all.push_back(c);
  }
  return all;
}

namespace {

// Component `c` of the unpacked `rows`, one sample per subsampled position
// (the unpacked pixel at its top-left), as a view of 16-bit samples in
// `samples` whose ROI is every sample that `roi` touches.
cudahist::PlaneView ComponentSamples(const GstVideoInfo& info,
                                     const std::vector<std::vector<uint16_t>>& rows,
                                     guint unpack_bits, guint c, const FrameRoi& roi,
                                     std::vector<uint16_t>* samples) {
  const GstVideoFormatInfo* finfo = info.finfo;
  const guint ws = GST_VIDEO_FORMAT_INFO_W_SUB(finfo, c), hs = GST_VIDEO_FORMAT_INFO_H_SUB(finfo, c);
  const guint depth = GST_VIDEO_FORMAT_INFO_DEPTH(finfo, c);
  const guint cw = GST_VIDEO_INFO_COMP_WIDTH(&info, c), ch = GST_VIDEO_INFO_COMP_HEIGHT(&info, c);
  samples->clear();
  for (guint sy = 0; sy < ch; ++sy) {
    for (guint sx = 0; sx < cw; ++sx) {
      const uint16_t v = rows[size_t(sy) << hs][(size_t(sx) << ws) * 4 + UnpackedIndex(c)];
      samples->push_back(uint16_t(v >> (unpack_bits - depth)));
    }
  }
  cudahist::PlaneView view;
  view.data = samples->data();
  view.width = cw;
  view.height = ch;
  view.pitch = size_t(cw) * 2;
  view.pixel_stride = 2;
  view.sample_size = 2;
  view.depth = depth;
  const guint rw = roi.width ? roi.width : GST_VIDEO_INFO_WIDTH(&info) - roi.x;
  const guint rh = roi.height ? roi.height : GST_VIDEO_INFO_HEIGHT(&info) - roi.y;
  view.has_roi = true;
  view.roi.x = roi.x >> ws;
  view.roi.y = roi.y >> hs;
  view.roi.width = ((roi.x + rw + (1u << ws) - 1) >> ws) - view.roi.x;
  view.roi.height = ((roi.y + rh + (1u << hs) - 1) >> hs) - view.roi.y;
  return view;
}

// Y, U and V of the frame in `buffer`, their samples kept in `samples`.
cudahist::YuvPlanes YuvSamples(const GstVideoInfo& info, GstBuffer* buffer, const FrameRoi& roi,
                               std::vector<uint16_t> samples[3]) {
  guint unpack_bits = 0;
  const auto rows = UnpackRows(info, buffer, &unpack_bits);
  cudahist::YuvPlanes planes;
  planes.y = ComponentSamples(info, rows, unpack_bits, GST_VIDEO_COMP_Y, roi, &samples[0]);
  planes.u = ComponentSamples(info, rows, unpack_bits, GST_VIDEO_COMP_U, roi, &samples[1]);
  planes.v = ComponentSamples(info, rows, unpack_bits, GST_VIDEO_COMP_V, roi, &samples[2]);
  planes.log2_hsub = GST_VIDEO_FORMAT_INFO_W_SUB(info.finfo, GST_VIDEO_COMP_U);
  planes.log2_vsub = GST_VIDEO_FORMAT_INFO_H_SUB(info.finfo, GST_VIDEO_COMP_U);
  return planes;
}

}  // namespace

Expected ExpectedCounts(const GstVideoInfo& info, GstBuffer* buffer, guint bins,
                        const std::vector<guint>& components, const FrameRoi& roi) {
  const GstVideoFormatInfo* finfo = info.finfo;
  guint unpack_bits = 0;
  const auto rows = UnpackRows(info, buffer, &unpack_bits);
  Expected e;
  std::vector<std::vector<uint16_t>> samples(components.size());
  std::vector<cudahist::PlaneView> views(components.size());
  for (size_t k = 0; k < components.size(); ++k) {
    const guint c = components[k];
    views[k] = ComponentSamples(info, rows, unpack_bits, c, roi, &samples[k]);
    e.names.push_back(NameOf(finfo, c));
    e.depths.push_back(GST_VIDEO_FORMAT_INFO_DEPTH(finfo, c));
  }
  cudahist::HistogramSpec spec;
  spec.bins = bins;
  e.counts.assign(size_t(bins) * components.size(), 0);
  const cudahist::Status status =
      cudahist::ReferenceHistogram(spec, views.data(), int(views.size()), e.counts.data());
  if (!status.ok()) e.names = {"ReferenceHistogram failed: " + status.message()};
  return e;
}

cudahist::SignalStatsFigures ExpectedSignalStats(const GstVideoInfo& info, GstBuffer* buffer,
                                                 GstBuffer* previous, const FrameRoi& roi) {
  std::vector<uint16_t> samples[3], previous_samples[3];
  const cudahist::YuvPlanes planes = YuvSamples(info, buffer, roi, samples);
  cudahist::YuvPlanes previous_planes;
  if (previous) previous_planes = YuvSamples(info, previous, roi, previous_samples);
  auto counts = std::make_unique<cudahist::SignalStatsCounts>();
  const cudahist::Status status =
      cudahist::ReferenceSignalStats(planes, previous ? &previous_planes : nullptr, counts.get());
  EXPECT_TRUE(status.ok()) << "ReferenceSignalStats: " << status.message();
  return cudahist::FiguresOf(*counts);
}

cudahist::QcFigures ExpectedQcFigures(const GstVideoInfo& info, GstBuffer* buffer, const FrameRoi& roi) {
  std::vector<uint16_t> samples[3];
  const cudahist::YuvPlanes planes = YuvSamples(info, buffer, roi, samples);
  auto counts = std::make_unique<cudahist::QcCounts>();
  const cudahist::Status status = cudahist::ReferenceQcCounts(planes, counts.get());
  EXPECT_TRUE(status.ok()) << "ReferenceQcCounts: " << status.message();
  return cudahist::QcFiguresOf(*counts);
}

GstBuffer* RandomFrame(const GstVideoInfo& info, std::mt19937_64& rng) {
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstMapInfo map;
  gst_buffer_map(buffer, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size; ++i) map.data[i] = uint8_t(rng());
  gst_buffer_unmap(buffer, &map);
  return buffer;
}

GstVideoInfo VideoInfo(GstVideoFormat format, guint width, guint height) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, width, height);
  GST_VIDEO_INFO_FPS_N(&info) = 25;
  GST_VIDEO_INFO_FPS_D(&info) = 1;
  return info;
}

std::string CapsString(const GstVideoInfo& info) {
  GstCaps* caps = gst_video_info_to_caps(&info);
  gchar* text = gst_caps_to_string(caps);
  std::string s = text;
  g_free(text);
  gst_caps_unref(caps);
  return s;
}

std::string CudaCapsString(const GstVideoInfo& info) {
  std::string caps = CapsString(info);
  caps.replace(caps.find("video/x-raw"), strlen("video/x-raw"), "video/x-raw(memory:CUDAMemory)");
  return caps;
}

std::string FormatAndSizeName(const ::testing::TestParamInfo<std::tuple<GstVideoFormat, SizeCase>>& p) {
  const SizeCase s = std::get<1>(p.param);
  return std::string(gst_video_format_to_string(std::get<0>(p.param))) + "_" + std::to_string(s.width) +
         "x" + std::to_string(s.height);
}

std::string FormatName(const ::testing::TestParamInfo<GstVideoFormat>& p) {
  return gst_video_format_to_string(p.param);
}

std::vector<uint32_t> MetaCounts(const GstCudaHistogramMeta* m) {
  return std::vector<uint32_t>(m->counts, m->counts + size_t(m->bins) * m->n_components);
}

GstMessage* PopHistogramMessage(GstBus* bus) {
  while (GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
    if (gst_message_has_name(m, "cudahistogram")) return m;
    gst_message_unref(m);
  }
  return nullptr;
}

std::string ErrorText(GstMessage* error) {
  GError* e = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(error, &e, &debug);
  std::string text = std::string(e->message) + " | " + (debug ? debug : "");
  g_error_free(e);
  g_free(debug);
  return text;
}

std::string RefusedWith(const std::string& properties, const GstVideoInfo& info) {
  Harness hx(properties);
  hx.SetCaps(info);
  std::mt19937_64 rng(6);
  GstBuffer* frame = RandomFrame(info, rng);
  const GstFlowReturn ret = hx.Push(frame, 0, kFrame);
  gst_buffer_unref(frame);
  EXPECT_NE(ret, GST_FLOW_OK) << properties;
  return PopErrorText(hx.bus());
}

std::string PopErrorText(GstBus* bus) {
  GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  if (!m) return "";
  std::string text = ErrorText(m);
  gst_message_unref(m);
  return text;
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static GValueArray* ArrayField(const GstStructure* s, const char* field) {
  const GValue* v = gst_structure_get_value(s, field);
  if (!v || G_VALUE_TYPE(v) != g_value_array_get_type()) return nullptr;
  return static_cast<GValueArray*>(g_value_get_boxed(v));
}

std::vector<std::vector<uint64_t>> MessageHistograms(const GstStructure* s) {
  std::vector<std::vector<uint64_t>> out;
  GValueArray* outer = ArrayField(s, "histograms");
  for (guint c = 0; outer && c < outer->n_values; ++c) {
    GValueArray* inner = static_cast<GValueArray*>(g_value_get_boxed(&outer->values[c]));
    std::vector<uint64_t> counts;
    for (guint b = 0; b < inner->n_values; ++b) counts.push_back(g_value_get_uint64(&inner->values[b]));
    out.push_back(std::move(counts));
  }
  return out;
}

std::vector<std::vector<uint64_t>> MessageRegionCounts(const GstStructure* region, guint bins) {
  std::vector<std::vector<uint64_t>> out;
  const GValue* value = gst_structure_get_value(region, "counts");
  if (!value || !G_VALUE_HOLDS(value, G_TYPE_BYTES) || bins == 0) return out;
  gsize size = 0;
  const auto* counts = static_cast<const uint64_t*>(g_bytes_get_data(static_cast<GBytes*>(g_value_get_boxed(value)), &size));
  const size_t n = size / sizeof(uint64_t);
  for (size_t c = 0; c + bins <= n; c += bins) out.emplace_back(counts + c, counts + c + bins);
  return out;
}

std::vector<const GstStructure*> MessageStructures(const GstStructure* s, const char* field) {
  std::vector<const GstStructure*> out;
  GValueArray* a = ArrayField(s, field);
  for (guint i = 0; a && i < a->n_values; ++i) out.push_back(gst_value_get_structure(&a->values[i]));
  return out;
}

std::vector<std::string> MessageStrings(const GstStructure* s, const char* field) {
  std::vector<std::string> out;
  GValueArray* a = ArrayField(s, field);
  for (guint i = 0; a && i < a->n_values; ++i) out.push_back(g_value_get_string(&a->values[i]));
  return out;
}

std::vector<double> MessageDoubles(const GstStructure* s, const char* field) {
  std::vector<double> out;
  GValueArray* a = ArrayField(s, field);
  for (guint i = 0; a && i < a->n_values; ++i) out.push_back(g_value_get_double(&a->values[i]));
  return out;
}
G_GNUC_END_IGNORE_DEPRECATIONS

GstElement* Launch(const std::string& description) {
  GError* error = nullptr;
  GstElement* p = gst_parse_launch(description.c_str(), &error);
  EXPECT_EQ(error, nullptr) << (error ? error->message : "");
  if (error) g_error_free(error);
  return p;
}

std::string RunToEnd(GstElement* pipeline, std::vector<GstMessage*>* histograms,
                     std::vector<std::string>* warnings) {
  GstBus* bus = gst_element_get_bus(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  const GstMessageType wanted = GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT |
                                               (warnings ? GST_MESSAGE_WARNING : 0));
  std::string error;
  for (;;) {
    GstMessage* m = gst_bus_timed_pop_filtered(bus, 20 * GST_SECOND, wanted);
    if (!m) {
      error = "timeout";
      break;
    }
    const GstMessageType type = GST_MESSAGE_TYPE(m);
    if (type == GST_MESSAGE_ELEMENT && gst_message_has_name(m, "cudahistogram")) {
      histograms->push_back(m);
      continue;
    }
    if (type == GST_MESSAGE_WARNING) {
      GError* e = nullptr;
      gst_message_parse_warning(m, &e, nullptr);
      warnings->push_back(e->message);
      g_error_free(e);
    }
    if (type == GST_MESSAGE_ERROR) error = ErrorText(m);
    const bool end = type == GST_MESSAGE_EOS || type == GST_MESSAGE_ERROR;
    gst_message_unref(m);
    if (end) break;
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  return error;
}

std::string RunToSink(GstElement* pipeline, std::vector<GstSample*>* samples,
                      std::vector<GstMessage*>* histograms) {
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  g_signal_connect(sink, "new-sample", G_CALLBACK(KeepSample), samples);
  const std::string error = RunToEnd(pipeline, histograms);
  gst_object_unref(sink);
  return error;
}

bool CudaPipelinesAvailable(std::string* why) {
  const cudahist::Status device = cudahist::CheckCudaDevice();
  if (!device.ok()) {
    *why = device.message();
    return false;
  }
  for (const char* name : {"cudaupload", "cudadownload"}) {
    GstElementFactory* f = gst_element_factory_find(name);
    if (!f) {
      *why = std::string("no ") + name + " element (gst-plugins-bad nvcodec)";
      return false;
    }
    gst_object_unref(f);
  }
  return true;
}

GstBuffer* DownloadPlanes(const GstVideoInfo& info, GstBuffer* buffer) {
  GstCudaMemory* mem = reinterpret_cast<GstCudaMemory*>(gst_buffer_peek_memory(buffer, 0));
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, const_cast<GstVideoInfo*>(&info), buffer,
                           GstMapFlags(GST_MAP_READ | GST_MAP_CUDA))) {
    return nullptr;
  }
  GstBuffer* host = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstMapInfo out;
  gst_buffer_map(host, &out, GST_MAP_WRITE);
  const bool pushed = gst_cuda_context_push(mem->context);
  bool ok = pushed;
  for (guint p = 0; ok && p < GST_VIDEO_FRAME_N_PLANES(&frame); ++p) {
    const gint src_stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
    const gint dst_stride = GST_VIDEO_INFO_PLANE_STRIDE(&info, p);
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component(info.finfo, p, comp);
    const guint rows = GST_VIDEO_INFO_COMP_HEIGHT(&info, comp[0]);
    ok = cudaMemcpy2D(out.data + GST_VIDEO_INFO_PLANE_OFFSET(&info, p), dst_stride,
                      GST_VIDEO_FRAME_PLANE_DATA(&frame, p), src_stride,
                      std::min(src_stride, dst_stride), rows, cudaMemcpyDeviceToHost) == cudaSuccess;
  }
  if (pushed) gst_cuda_context_pop(nullptr);
  gst_buffer_unmap(host, &out);
  gst_video_frame_unmap(&frame);
  if (!ok) gst_clear_buffer(&host);
  return host;
}

void CopyCudaFrameToHost(GstSample* sample, GstVideoInfo* info, GstBuffer** host) {
  ASSERT_TRUE(gst_video_info_from_caps(info, gst_sample_get_caps(sample)));
  GstBuffer* buffer = gst_sample_get_buffer(sample);
  ASSERT_TRUE(gst_is_cuda_memory(gst_buffer_peek_memory(buffer, 0)))
      << "the frame was not in CUDA memory: the GPU path was not taken";
  *host = DownloadPlanes(*info, buffer);
  ASSERT_NE(*host, nullptr) << "could not copy the CUDA frame to the host";
}

const std::vector<TightLayout>& OddTightLayouts() {
  static const std::vector<TightLayout> layouts = {
      {GST_VIDEO_FORMAT_I420, 333, 77, {333, 167, 167}, {77, 39, 39}},
      {GST_VIDEO_FORMAT_NV12, 333, 77, {333, 334}, {77, 39}},
      {GST_VIDEO_FORMAT_YUY2, 333, 77, {668}, {77}},
      {GST_VIDEO_FORMAT_RGB, 333, 77, {999}, {77}},
  };
  return layouts;
}

gsize TightLayout::Offset(guint plane) const {
  gsize offset = 0;
  for (guint p = 0; p < plane; ++p) offset += gsize(strides[p]) * rows[p];
  return offset;
}

std::string TightLayout::RawVideoParse() const {
  std::string strides_text, offsets_text;
  for (guint p = 0; p < strides.size(); ++p) {
    strides_text += (p ? "," : "") + std::to_string(strides[p]);
    offsets_text += (p ? "," : "") + std::to_string(Offset(p));
  }
  std::string format_name = gst_video_format_to_string(format);
  for (char& c : format_name) c = char(g_ascii_tolower(c));
  return "rawvideoparse format=" + format_name + " width=" + std::to_string(width) +
         " height=" + std::to_string(height) + " plane-strides=\"<" + strides_text + ">\" plane-offsets=\"<" +
         offsets_text + ">\" frame-size=" + std::to_string(Size()) + " framerate=25/1";
}

namespace {

void AddTightMeta(const TightLayout& layout, GstBuffer* buffer) {
  gsize offsets[GST_VIDEO_MAX_PLANES] = {};
  gint strides[GST_VIDEO_MAX_PLANES] = {};
  for (guint p = 0; p < layout.strides.size(); ++p) {
    offsets[p] = layout.Offset(p);
    strides[p] = layout.strides[p];
  }
  gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, layout.format, layout.width, layout.height,
                                 guint(layout.strides.size()), offsets, strides);
}

}  // namespace

GstBuffer* TightCopy(const TightLayout& layout, GstBuffer* plain) {
  GstVideoInfo info = layout.Info();
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, plain, GST_MAP_READ)) return nullptr;
  GstBuffer* tight = gst_buffer_new_allocate(nullptr, layout.Size(), nullptr);
  GstMapInfo out;
  gst_buffer_map(tight, &out, GST_MAP_WRITE);
  for (guint p = 0; p < layout.strides.size(); ++p) {
    for (guint r = 0; r < layout.rows[p]; ++r) {
      std::memcpy(out.data + layout.Offset(p) + gsize(r) * layout.strides[p],
                  static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p)) +
                      gsize(r) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p),
                  gsize(layout.strides[p]));
    }
  }
  gst_buffer_unmap(tight, &out);
  gst_video_frame_unmap(&frame);
  AddTightMeta(layout, tight);
  return tight;
}

GstBuffer* RandomTightFrame(const TightLayout& layout, uint64_t seed, GstBuffer** plain) {
  std::mt19937_64 rng(seed);
  *plain = RandomFrame(layout.Info(), rng);
  return TightCopy(layout, *plain);
}

GstBuffer* TightFrame(const TightLayout& layout, const uint8_t* bytes) {
  GstBuffer* tight = gst_buffer_new_memdup(bytes, layout.Size());
  AddTightMeta(layout, tight);
  return tight;
}

GstBuffer* TightCudaCopy(GstCudaContext* context, const TightLayout& layout, GstBuffer* tight, std::string* why) {
  // Device memory of at least the layout's size (one RGBA row that holds it:
  // gst-cuda's allocator takes only the formats its producers offer, not
  // GRAY8), then cut to exactly that size.
  GstVideoInfo row;
  gst_video_info_set_format(&row, GST_VIDEO_FORMAT_RGBA, guint((layout.Size() + 3) / 4), 1);
  gst_cuda_memory_init_once();  // registers gst-cuda's allocator, which alloc needs by name
  GstAllocator* allocator = gst_allocator_find(GST_CUDA_MEMORY_TYPE_NAME);
  if (allocator == nullptr) {
    *why = "no " GST_CUDA_MEMORY_TYPE_NAME " allocator";
    return nullptr;
  }
#if GST_CHECK_VERSION(1, 24, 0)
  GstMemory* mem = gst_cuda_allocator_alloc(GST_CUDA_ALLOCATOR(allocator), context, nullptr, &row);
#else
  GstMemory* mem = gst_cuda_allocator_alloc(GST_CUDA_ALLOCATOR(allocator), context, &row);
#endif
  gst_object_unref(allocator);
  if (mem == nullptr) {
    *why = "gst_cuda_allocator_alloc failed";
    return nullptr;
  }
  GstMapInfo device, host;
  gst_memory_map(mem, &device, GstMapFlags(GST_MAP_WRITE | GST_MAP_CUDA));
  gst_buffer_map(tight, &host, GST_MAP_READ);
  const bool pushed = gst_cuda_context_push(context);
  const bool copied = pushed && cudaMemcpy(device.data, host.data, layout.Size(), cudaMemcpyHostToDevice) == cudaSuccess;
  if (pushed) gst_cuda_context_pop(nullptr);
  gst_buffer_unmap(tight, &host);
  gst_memory_unmap(mem, &device);
  if (!copied) {
    gst_memory_unref(mem);
    *why = "could not copy the frame into CUDA memory";
    return nullptr;
  }
  gst_memory_resize(mem, 0, layout.Size());
  GstBuffer* buffer = gst_buffer_new();
  gst_buffer_append_memory(buffer, mem);
  AddTightMeta(layout, buffer);
  return buffer;
}

}  // namespace element_test
