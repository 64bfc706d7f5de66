// The meta library's C API on its own (no plugin, no pipeline): what an
// application gets for a buffer without the meta, a component the frame
// lacks and an index out of range, and the accessors that bindings use.
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "gstcudahistogrammeta.h"

namespace {

class GstEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { gst_init(nullptr, nullptr); }
};
const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new GstEnvironment);

constexpr guint kBins = 4;

// A buffer whose meta says what cudahistogram would say of a 16x8 NV12 frame:
// component c's bin b holds 100 * c + b.
GstBuffer* BufferWithNv12Meta() {
  GstBuffer* buffer = gst_buffer_new();
  GstCudaHistogramMeta* m = gst_buffer_add_cuda_histogram_meta(buffer, kBins, 3);
  m->format = GST_VIDEO_FORMAT_NV12;
  m->width = 16;
  m->height = 8;
  m->roi_width = 16;
  m->roi_height = 8;
  const gchar* names[] = {"Y", "U", "V"};
  for (guint c = 0; c < 3; ++c) {
    m->component_names[c] = names[c];
    m->component_depth[c] = 8;
    for (guint b = 0; b < kBins; ++b) m->counts[c * kBins + b] = 100 * c + b;
  }
  return buffer;
}

TEST(Meta, BufferWithoutTheMetaGivesNull) {
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, 64, nullptr);
  EXPECT_EQ(gst_buffer_get_cuda_histogram_meta(buffer), nullptr);
  gst_buffer_unref(buffer);
}

TEST(Meta, AddRefusesNoBinsAndComponentCountsOutsideOneToFour) {
  GstBuffer* buffer = gst_buffer_new();
  EXPECT_EQ(gst_buffer_add_cuda_histogram_meta(buffer, 0, 3), nullptr);
  EXPECT_EQ(gst_buffer_add_cuda_histogram_meta(buffer, 256, 0), nullptr);
  EXPECT_EQ(gst_buffer_add_cuda_histogram_meta(buffer, 256, GST_CUDA_HISTOGRAM_MAX_COMPONENTS + 1), nullptr);
  EXPECT_EQ(gst_buffer_get_cuda_histogram_meta(buffer), nullptr);
  gst_buffer_unref(buffer);
}

TEST(Meta, ComponentsByNameAndIndex) {
  GstBuffer* buffer = BufferWithNv12Meta();
  const GstCudaHistogramMeta* m = gst_buffer_get_cuda_histogram_meta(buffer);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(gst_cuda_histogram_meta_find_component(m, "V"), 2);
  guint n = 0;
  const gchar* const* names = gst_cuda_histogram_meta_get_component_names(m, &n);
  ASSERT_EQ(n, 3u);
  EXPECT_EQ(std::vector<std::string>(names, names + n), (std::vector<std::string>{"Y", "U", "V"}));
  EXPECT_STREQ(gst_cuda_histogram_meta_get_component_name(m, 1), "U");
  EXPECT_EQ(gst_cuda_histogram_meta_get_component_depth(m, 2), 8);
  const guint32* counts = gst_cuda_histogram_meta_get_component_counts(m, 1, &n);
  ASSERT_EQ(n, kBins);
  EXPECT_EQ(std::vector<guint32>(counts, counts + n), (std::vector<guint32>{100, 101, 102, 103}));
  EXPECT_EQ(counts, gst_cuda_histogram_meta_get_counts(m, 1));
  gst_buffer_unref(buffer);
}

TEST(Meta, ComponentTheFrameLacksIsMinusOne) {
  GstBuffer* buffer = BufferWithNv12Meta();
  const GstCudaHistogramMeta* m = gst_buffer_get_cuda_histogram_meta(buffer);
  EXPECT_EQ(gst_cuda_histogram_meta_find_component(m, "R"), -1);
  EXPECT_EQ(gst_cuda_histogram_meta_find_component(m, "y"), -1);  // names are case-sensitive
  EXPECT_EQ(gst_cuda_histogram_meta_find_component(m, ""), -1);
  EXPECT_EQ(gst_cuda_histogram_meta_find_component(m, nullptr), -1);
  gst_buffer_unref(buffer);
}

TEST(Meta, IndexOutOfRangeIsNullOrMinusOne) {
  GstBuffer* buffer = BufferWithNv12Meta();
  const GstCudaHistogramMeta* m = gst_buffer_get_cuda_histogram_meta(buffer);
  for (guint index : {3u, 4u, 1000u, G_MAXUINT}) {
    SCOPED_TRACE(index);
    EXPECT_EQ(gst_cuda_histogram_meta_get_counts(m, index), nullptr);
    guint n = 77;
    EXPECT_EQ(gst_cuda_histogram_meta_get_component_counts(m, index, &n), nullptr);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(gst_cuda_histogram_meta_get_component_name(m, index), nullptr);
    EXPECT_EQ(gst_cuda_histogram_meta_get_component_depth(m, index), -1);
  }
  // -1 from find_component, passed on as an index, is out of range too.
  EXPECT_EQ(gst_cuda_histogram_meta_get_counts(m, guint(gst_cuda_histogram_meta_find_component(m, "R"))),
            nullptr);
  gst_buffer_unref(buffer);
}

TEST(Meta, BufferCopyCarriesAnEqualMetaWithItsOwnCounts) {
  GstBuffer* buffer = BufferWithNv12Meta();
  GstBuffer* copy = gst_buffer_copy(buffer);
  const GstCudaHistogramMeta* a = gst_buffer_get_cuda_histogram_meta(buffer);
  const GstCudaHistogramMeta* b = gst_buffer_get_cuda_histogram_meta(copy);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a->counts, b->counts);
  EXPECT_EQ(b->format, GST_VIDEO_FORMAT_NV12);
  EXPECT_EQ(b->width, 16u);
  EXPECT_EQ(b->roi_height, 8u);
  EXPECT_STREQ(gst_cuda_histogram_meta_get_component_name(b, 2), "V");
  EXPECT_EQ(std::vector<guint32>(b->counts, b->counts + 3 * kBins),
            std::vector<guint32>(a->counts, a->counts + 3 * kBins));
  gst_buffer_unref(copy);
  gst_buffer_unref(buffer);
}

// Figures as the element stores them: every field a different value, so a
// field copied into another's place shows.
GstCudaSignalStats DistinctFigures() {
  GstCudaSignalStats f;
  f.y_min = 16, f.y_low = 30, f.y_avg = 120.25, f.y_high = 200, f.y_max = 235;
  f.u_min = 17, f.u_low = 31, f.u_avg = 128.5, f.u_high = 201, f.u_max = 236;
  f.v_min = 18, f.v_low = 32, f.v_avg = 127.75, f.v_high = 202, f.v_max = 237;
  f.sat_min = 0, f.sat_low = 3, f.sat_avg = 10.125, f.sat_high = 40, f.sat_max = 90;
  f.hue_med = 181, f.hue_avg = 179.5;
  f.y_dif = 1.5, f.u_dif = 0.25, f.v_dif = 0.75, f.brng = 0.0625;
  return f;
}

bool SameFigures(const GstCudaSignalStats& a, const GstCudaSignalStats& b) {
  return a.y_min == b.y_min && a.y_low == b.y_low && a.y_avg == b.y_avg && a.y_high == b.y_high &&
         a.y_max == b.y_max && a.u_min == b.u_min && a.u_low == b.u_low && a.u_avg == b.u_avg &&
         a.u_high == b.u_high && a.u_max == b.u_max && a.v_min == b.v_min && a.v_low == b.v_low &&
         a.v_avg == b.v_avg && a.v_high == b.v_high && a.v_max == b.v_max &&
         a.sat_min == b.sat_min && a.sat_low == b.sat_low && a.sat_avg == b.sat_avg &&
         a.sat_high == b.sat_high && a.sat_max == b.sat_max && a.hue_med == b.hue_med &&
         a.hue_avg == b.hue_avg && a.y_dif == b.y_dif && a.u_dif == b.u_dif && a.v_dif == b.v_dif &&
         a.brng == b.brng;
}

TEST(Meta, WithoutSignalStatsFiguresIsNull) {
  GstBuffer* buffer = BufferWithNv12Meta();
  GstCudaHistogramMeta* m = gst_buffer_get_cuda_histogram_meta(buffer);
  EXPECT_FALSE(m->has_signalstats);
  EXPECT_EQ(gst_cuda_histogram_meta_get_signalstats(m), nullptr);
  GstBuffer* copy = gst_buffer_copy(buffer);
  EXPECT_EQ(gst_cuda_histogram_meta_get_signalstats(gst_buffer_get_cuda_histogram_meta(copy)), nullptr);
  gst_buffer_unref(copy);
  gst_buffer_unref(buffer);
}

TEST(Meta, SignalStatsFiguresAreStoredCopiedAndCleared) {
  GstBuffer* buffer = BufferWithNv12Meta();
  GstCudaHistogramMeta* m = gst_buffer_get_cuda_histogram_meta(buffer);
  const GstCudaSignalStats want = DistinctFigures();
  gst_cuda_histogram_meta_set_signalstats(m, &want);
  const GstCudaSignalStats* got = gst_cuda_histogram_meta_get_signalstats(m);
  ASSERT_NE(got, nullptr);
  EXPECT_NE(got, &want) << "the meta must keep its own copy";
  EXPECT_TRUE(SameFigures(*got, want));
  // The copy transform carries them.
  GstBuffer* copy = gst_buffer_copy(buffer);
  const GstCudaSignalStats* copied =
      gst_cuda_histogram_meta_get_signalstats(gst_buffer_get_cuda_histogram_meta(copy));
  ASSERT_NE(copied, nullptr);
  EXPECT_TRUE(SameFigures(*copied, want));
  gst_buffer_unref(copy);
  gst_cuda_histogram_meta_set_signalstats(m, nullptr);
  EXPECT_EQ(gst_cuda_histogram_meta_get_signalstats(m), nullptr);
  EXPECT_FALSE(m->has_signalstats);
  gst_buffer_unref(buffer);
}

// The fields that came with signalstats sit after every earlier field, so an
// application built against the earlier struct reads the same offsets.
TEST(Meta, SignalStatsFieldsAreAppended) {
  EXPECT_GT(offsetof(GstCudaHistogramMeta, has_signalstats), offsetof(GstCudaHistogramMeta, counts));
  EXPECT_GT(offsetof(GstCudaHistogramMeta, signalstats), offsetof(GstCudaHistogramMeta, has_signalstats));
}

}  // namespace

namespace {

TEST(MetaFigures, SignalStatsByTheirMessageNames) {
  GstCudaSignalStats stats{};
  stats.y_min = 16;
  stats.y_avg = 126.5;
  stats.hue_med = 180;
  stats.brng = 0.25;
  double value = 0;
  EXPECT_TRUE(gst_cuda_signal_stats_get_figure(&stats, "y-min", &value));
  EXPECT_EQ(value, 16);
  EXPECT_TRUE(gst_cuda_signal_stats_get_figure(&stats, "y-avg", &value));
  EXPECT_EQ(value, 126.5);
  EXPECT_TRUE(gst_cuda_signal_stats_get_figure(&stats, "brng", &value));
  EXPECT_EQ(value, 0.25);
  EXPECT_FALSE(gst_cuda_signal_stats_get_figure(&stats, "y_min", &value)) << "the meta's member name is not a figure's";
  EXPECT_FALSE(gst_cuda_signal_stats_get_figure(&stats, "tout", &value)) << "TOUT is a QC figure";

  GstStructure* s = gst_structure_new_empty("cudahistogram");
  gst_cuda_signal_stats_to_structure(&stats, s);
  int integer = 0;
  double real = 0;
  EXPECT_TRUE(gst_structure_get_int(s, "y-min", &integer));
  EXPECT_EQ(integer, 16);
  EXPECT_TRUE(gst_structure_get_int(s, "hue-med", &integer)) << "the *-min ... hue-med figures are G_TYPE_INT";
  EXPECT_TRUE(gst_structure_get_double(s, "y-avg", &real));
  EXPECT_EQ(real, 126.5);
  EXPECT_EQ(gst_structure_n_fields(s), 29) << "every signalstats figure, bit depths included";
  gst_structure_free(s);
}

// Each group is there only when its has_ flag is set, in both readings.
TEST(MetaFigures, QcFiguresFollowTheirFlags) {
  GstCudaQcFigures qc{};
  qc.tout = 0.5;
  qc.crop_w = 320;
  qc.psnr_y = 40.0;
  double value = 0;
  GstStructure* s = gst_structure_new_empty("cudahistogram");
  gst_cuda_qc_figures_to_structure(&qc, s);
  EXPECT_EQ(gst_structure_n_fields(s), 0) << "no flag set: no figure";
  EXPECT_FALSE(gst_cuda_qc_figures_get_figure(&qc, "tout", &value));

  qc.has_crop = TRUE;
  gst_cuda_qc_figures_to_structure(&qc, s);
  EXPECT_EQ(gst_structure_n_fields(s), 8) << "the eight cropdetect figures";
  int integer = 0;
  EXPECT_TRUE(gst_structure_get_int(s, "crop-w", &integer));
  EXPECT_EQ(integer, 320);
  EXPECT_FALSE(gst_structure_has_field(s, "tout"));
  EXPECT_TRUE(gst_cuda_qc_figures_get_figure(&qc, "crop-w", &value));
  EXPECT_EQ(value, 320);
  EXPECT_FALSE(gst_cuda_qc_figures_get_figure(&qc, "psnr-y", &value));

  qc.has_tout_vrep = TRUE;
  qc.has_field_psnr = TRUE;
  gst_cuda_qc_figures_to_structure(&qc, s);
  EXPECT_EQ(gst_structure_n_fields(s), 18);
  EXPECT_TRUE(gst_cuda_qc_figures_get_figure(&qc, "tout", &value));
  EXPECT_EQ(value, 0.5);
  EXPECT_TRUE(gst_cuda_qc_figures_get_figure(&qc, "psnr-y", &value));
  EXPECT_EQ(value, 40.0);
  gst_structure_free(s);
}

}  // namespace
