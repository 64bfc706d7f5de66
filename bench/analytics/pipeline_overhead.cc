// pipeline_overhead: what cudahistogram objects=detections adds to an
// analytics pipeline (issue 36's target: at most 10%). A 1080p H.264 clip is
// decoded with NVDEC and each frame gets 100 object detections (boxes of
// mixed sizes, 10x10 to 600x400, attached by a pad probe, as a detector
// would attach them); the pipeline runs as fast as it can (fakesink
// sync=false) in turns:
//   decode      filesrc ! parsebin ! nvh264dec ! detections ! fakesink
//   histograms  ... ! detections ! cudahistogram objects=detections ! fakesink
//   meta-only   the same with post-messages=false (the region Mtds alone)
// Each run's time per frame is printed; then per arm the median over runs
// and the ratio to `decode`. A run's time is from its first frame's detections
// to the end of the stream, over the frames after the first (start-up left out). Before timing, a run of `histograms` checks
// that every frame carried one region Mtd per detection and one for the frame.
//
//   pipeline_overhead CLIP [--detections N] [--runs N] [--json FILE] [--decoder NAME]
// --decoder: another H.264 decoder (avdec_h264: the element's CPU backend on
// system memory, where no GPU is). Exit status: 0, 1 on an error, 77 where
// the decoder or cudahistogram is missing.
#include <gst/analytics/analytics.h>
#include <gst/gst.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {

struct Box {
  gint x, y, w, h;
};

struct Run {
  std::vector<Box> boxes;
  guint frames = 0;
  std::chrono::steady_clock::time_point first;  // the first frame's detections (start-up left out)
  guint region_mtds_short = 0;  // frames whose region Mtds were not detections + 1
  guint messages = 0;
};

GstPadProbeReturn AddDetections(GstPad*, GstPadProbeInfo* info, gpointer data) {
  Run* run = static_cast<Run*>(data);
  GstBuffer* b = gst_buffer_make_writable(GST_PAD_PROBE_INFO_BUFFER(info));
  GstAnalyticsRelationMeta* rmeta = gst_buffer_add_analytics_relation_meta(b);
  static const GQuark labels[] = {g_quark_from_static_string("person"), g_quark_from_static_string("car"),
                                  g_quark_from_static_string("bus")};
  for (size_t i = 0; i < run->boxes.size(); ++i) {
    const Box& box = run->boxes[i];
    GstAnalyticsODMtd od;
    gst_analytics_relation_meta_add_od_mtd(rmeta, labels[i % 3], box.x, box.y, box.w, box.h, 0.9f, &od);
  }
  GST_PAD_PROBE_INFO_DATA(info) = b;
  if (run->frames++ == 0) run->first = std::chrono::steady_clock::now();
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn CountRegionMtds(GstPad*, GstPadProbeInfo* info, gpointer data) {
  Run* run = static_cast<Run*>(data);
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(GST_PAD_PROBE_INFO_BUFFER(info));
  const GstAnalyticsMtdType od_type = gst_analytics_od_mtd_get_mtd_type();
  guint others = 0;
  gpointer state = nullptr;
  GstAnalyticsMtd mtd;
  while (rmeta && gst_analytics_relation_meta_iterate(rmeta, &state, GST_ANALYTICS_MTD_TYPE_ANY, &mtd)) {
    if (gst_analytics_mtd_get_mtd_type(&mtd) != od_type) ++others;
  }
  if (others != run->boxes.size() + 1) ++run->region_mtds_short;
  return GST_PAD_PROBE_OK;
}

// The element messages are read and dropped as they come (an application
// would read them; left on the bus they would pile up).
GstBusSyncReply DropElementMessages(GstBus*, GstMessage* m, gpointer data) {
  if (GST_MESSAGE_TYPE(m) != GST_MESSAGE_ELEMENT) return GST_BUS_PASS;
  ++static_cast<Run*>(data)->messages;
  gst_message_unref(m);  // dropped: the handler owns it
  return GST_BUS_DROP;
}

// Runs one arm once; seconds per frame, or a negative value after printing the error.
double RunOnce(const std::string& clip, const std::string& decoder, const std::string& element, Run* run, bool check) {
  const std::string description = "filesrc location=\"" + clip + "\" ! parsebin ! " + decoder + " ! identity name=detector ! " +
                                  element + (element.empty() ? "" : " ! ") + "fakesink sync=false";
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (pipeline == nullptr || error != nullptr) {
    std::fprintf(stderr, "%s: %s\n", description.c_str(), error ? error->message : "no pipeline");
    g_clear_error(&error);
    return -1;
  }
  GstElement* detector = gst_bin_get_by_name(GST_BIN(pipeline), "detector");
  GstPad* pad = gst_element_get_static_pad(detector, "src");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, AddDetections, run, nullptr);
  gst_object_unref(pad);
  gst_object_unref(detector);
  if (check) {
    GstElement* h = gst_bin_get_by_name(GST_BIN(pipeline), "h");
    GstPad* out = gst_element_get_static_pad(h, "src");
    gst_pad_add_probe(out, GST_PAD_PROBE_TYPE_BUFFER, CountRegionMtds, run, nullptr);
    gst_object_unref(out);
    gst_object_unref(h);
  }
  GstBus* bus = gst_element_get_bus(pipeline);
  gst_bus_set_sync_handler(bus, DropElementMessages, run, nullptr);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstMessage* m = gst_bus_timed_pop_filtered(bus, 600 * GST_SECOND, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  // From the first frame to the end: the time of the frames after it.
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run->first).count();
  double per_frame = run->frames > 1 ? seconds / (run->frames - 1) : -1;
  if (m == nullptr || GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
    gchar* debug = nullptr;
    if (m) gst_message_parse_error(m, &error, &debug);
    std::fprintf(stderr, "%s: %s %s\n", description.c_str(), error ? error->message : "timeout", debug ? debug : "");
    g_clear_error(&error);
    g_free(debug);
    per_frame = -1;
  }
  if (m) gst_message_unref(m);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(pipeline);
  return per_frame;
}

bool Available(const char* factory) {
  GstElementFactory* f = gst_element_factory_find(factory);
  if (f) gst_object_unref(f);
  return f != nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  std::string clip, json, decoder = "nvh264dec";
  guint detections = 100, runs = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--detections" && i + 1 < argc) {
      detections = guint(std::max(0, std::atoi(argv[++i])));
    } else if (a == "--runs" && i + 1 < argc) {
      runs = guint(std::max(1, std::atoi(argv[++i])));
    } else if (a == "--json" && i + 1 < argc) {
      json = argv[++i];
    } else if (a == "--decoder" && i + 1 < argc) {
      decoder = argv[++i];
    } else if (clip.empty() && a[0] != '-') {
      clip = a;
    } else {
      std::fprintf(stderr, "usage: %s CLIP [--detections N] [--runs N] [--json FILE] [--decoder NAME]\n", argv[0]);
      return 2;
    }
  }
  if (clip.empty()) {
    std::fprintf(stderr, "usage: %s CLIP [--detections N] [--runs N] [--json FILE] [--decoder NAME]\n", argv[0]);
    return 2;
  }
  for (const char* f : {decoder.c_str(), "cudahistogram"}) {
    if (!Available(f)) {
      std::printf("pipeline_overhead: skipped (no %s element)\n", f);
      return 77;
    }
  }
  std::vector<Box> boxes;
  std::mt19937_64 rng(36);
  for (guint i = 0; i < detections; ++i) {
    Box b;
    b.w = 10 + gint(rng() % 591);
    b.h = 10 + gint(rng() % 391);
    b.x = gint(rng() % (1920 - b.w + 1));
    b.y = gint(rng() % (1080 - b.h + 1));
    boxes.push_back(b);
  }
  const struct {
    const char* name;
    std::string element;
  } arms[] = {{"decode", ""},
              {"histograms", "cudahistogram name=h objects=detections"},
              {"meta-only", "cudahistogram name=h objects=detections post-messages=false"}};
  Run check;
  check.boxes = boxes;
  if (RunOnce(clip, decoder, arms[1].element, &check, true) < 0) return 1;
  if (check.region_mtds_short != 0 || check.frames == 0) {
    std::fprintf(stderr, "check: %u of %u frames without one region Mtd per detection and one for the frame\n",
                 check.region_mtds_short, check.frames);
    return 1;
  }
  std::printf("check: %u frames, each with %u detections and %u region Mtds; %u messages\n", check.frames, detections,
              detections + 1, check.messages);
  std::vector<double> per_frame[3];
  for (guint r = 0; r < runs; ++r) {
    for (int a = 0; a < 3; ++a) {
      Run run;
      run.boxes = boxes;
      const double s = RunOnce(clip, decoder, arms[a].element, &run, false);
      if (s < 0) return 1;
      per_frame[a].push_back(s);
      std::printf("run %u %-10s %8.3f ms/frame (%u frames)\n", r + 1, arms[a].name, s * 1e3, run.frames);
    }
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double decode = median(per_frame[0]);
  std::string out = "{\"clip\": \"" + clip + "\", \"detections\": " + std::to_string(detections) + ", \"runs\": " +
                    std::to_string(runs);
  for (int a = 0; a < 3; ++a) {
    const double m = median(per_frame[a]);
    std::printf("%-10s median %8.3f ms/frame  %7.1f frames/s  x%.3f of decode\n", arms[a].name, m * 1e3, 1 / m,
                m / decode);
    out += ", \"" + std::string(arms[a].name) + "_ms_per_frame\": " + std::to_string(m * 1e3);
  }
  out += "}";
  std::printf("target: histograms at most x1.10 of decode\n");
  if (!json.empty()) std::ofstream(json) << out << "\n";
  return 0;
}
