// GstCudaRegionMtd's C API on its own (no plugin): adding one to a relation
// meta, each getter and setter, the lookup from a detection, what a handle of
// another Mtd type and out-of-range arguments give, and the copy of the
// buffer's metas. Built where the analytics library is found (1.24+).
#include <gst/analytics/analytics.h>
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gstcudaregionmtd.h"

namespace {

class GstEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { gst_init(nullptr, nullptr); }
};
const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new GstEnvironment);

// g_return_val_if_fail's criticals, counted instead of aborting the test.
class Criticals {
 public:
  Criticals() {
    id_ = g_log_set_handler(nullptr, GLogLevelFlags(G_LOG_LEVEL_CRITICAL), Count, this);
    old_ = g_log_set_always_fatal(GLogLevelFlags(G_LOG_FATAL_MASK));
  }
  ~Criticals() {
    g_log_remove_handler(nullptr, id_);
    g_log_set_always_fatal(old_);
  }
  int count() const { return count_; }

 private:
  static void Count(const gchar*, GLogLevelFlags, const gchar*, gpointer self) { ++static_cast<Criticals*>(self)->count_; }
  guint id_;
  GLogLevelFlags old_;
  int count_ = 0;
};

const gchar* const kNames[] = {"Y", "U", "V"};
const guint kDepths[] = {8, 8, 8};

struct Frame {
  GstBuffer* buffer = gst_buffer_new();
  GstAnalyticsRelationMeta* rmeta = gst_buffer_add_analytics_relation_meta(buffer);
  ~Frame() { gst_buffer_unref(buffer); }
};

// A region of 4 bins per component, component c's bin b holding 10 * c + b.
GstCudaRegionMtd AddRegion(GstAnalyticsRelationMeta* rmeta, guint hue_bins = 0) {
  GstCudaRegionMtd region;
  EXPECT_TRUE(gst_analytics_relation_meta_add_cuda_region_mtd(rmeta, GST_CUDA_REGION_KIND_OBJECT,
                                                              g_quark_from_string("car"), 3, 4, 20, 10, 64, 48, 4, 3,
                                                              kNames, kDepths, hue_bins, &region));
  for (guint c = 0; c < 3; ++c) {
    const guint32 counts[4] = {10 * c, 10 * c + 1, 10 * c + 2, 10 * c + 3};
    EXPECT_TRUE(gst_cuda_region_mtd_set_counts(&region, c, counts, 4));
  }
  return region;
}

TEST(RegionMtd, GettersGiveWhatWasAdded) {
  Frame f;
  GstCudaRegionMtd region = AddRegion(f.rmeta);
  EXPECT_EQ(gst_cuda_region_mtd_get_kind(&region), GST_CUDA_REGION_KIND_OBJECT);
  EXPECT_STREQ(gst_cuda_region_mtd_get_name(&region), "car");
  gint x, y, w, h;
  ASSERT_TRUE(gst_cuda_region_mtd_get_box(&region, &x, &y, &w, &h));
  EXPECT_EQ(std::vector<gint>({x, y, w, h}), std::vector<gint>({3, 4, 20, 10}));
  guint fw, fh;
  gst_cuda_region_mtd_get_frame_size(&region, &fw, &fh);
  EXPECT_EQ(fw, 64u);
  EXPECT_EQ(fh, 48u);
  EXPECT_EQ(gst_cuda_region_mtd_get_bins(&region), 4u);
  EXPECT_EQ(gst_cuda_region_mtd_get_n_components(&region), 3u);
  EXPECT_STREQ(gst_cuda_region_mtd_get_component_name(&region, 2), "V");
  EXPECT_EQ(gst_cuda_region_mtd_get_component_depth(&region, 1), 8);
  EXPECT_EQ(gst_cuda_region_mtd_find_component(&region, "u"), 1);
  guint n = 0;
  const guint32* v = gst_cuda_region_mtd_get_counts(&region, 2, &n);
  ASSERT_EQ(n, 4u);
  EXPECT_EQ(std::vector<guint32>(v, v + n), std::vector<guint32>({20, 21, 22, 23}));
  // Nothing but the counts was set.
  gfloat confidence = -1;
  guint64 track = 7;
  EXPECT_FALSE(gst_cuda_region_mtd_get_confidence(&region, &confidence));
  EXPECT_FALSE(gst_cuda_region_mtd_get_track_id(&region, &track));
  EXPECT_EQ(gst_cuda_region_mtd_get_tensor_row(&region), -1);
  EXPECT_EQ(gst_cuda_region_mtd_get_signalstats(&region), nullptr);
  EXPECT_EQ(gst_cuda_region_mtd_get_hue_counts(&region, &n), nullptr);
  EXPECT_EQ(n, 0u);
}

TEST(RegionMtd, SettersAndTheHueHistogram) {
  Frame f;
  GstCudaRegionMtd region = AddRegion(f.rmeta, 360);
  ASSERT_TRUE(gst_cuda_region_mtd_set_confidence(&region, 0.75f));
  ASSERT_TRUE(gst_cuda_region_mtd_set_track_id(&region, G_MAXUINT64));
  ASSERT_TRUE(gst_cuda_region_mtd_set_tensor_row(&region, 5));
  GstCudaSignalStats stats = {};
  stats.y_avg = 99.5;
  stats.hue_med = 120;
  ASSERT_TRUE(gst_cuda_region_mtd_set_signalstats(&region, &stats));
  std::vector<guint32> hue(360);
  for (guint h = 0; h < 360; ++h) hue[h] = h * 3;
  ASSERT_TRUE(gst_cuda_region_mtd_set_hue_counts(&region, hue.data(), 360));
  gfloat confidence = 0;
  guint64 track = 0;
  EXPECT_TRUE(gst_cuda_region_mtd_get_confidence(&region, &confidence));
  EXPECT_EQ(confidence, 0.75f);
  EXPECT_TRUE(gst_cuda_region_mtd_get_track_id(&region, &track));
  EXPECT_EQ(track, G_MAXUINT64);
  EXPECT_EQ(gst_cuda_region_mtd_get_tensor_row(&region), 5);
  ASSERT_NE(gst_cuda_region_mtd_get_signalstats(&region), nullptr);
  EXPECT_EQ(gst_cuda_region_mtd_get_signalstats(&region)->hue_med, 120);
  guint n = 0;
  const guint32* got = gst_cuda_region_mtd_get_hue_counts(&region, &n);
  ASSERT_EQ(n, 360u);
  EXPECT_EQ(std::vector<guint32>(got, got + n), hue);
  // The counts were not overwritten by the hue histogram behind them.
  EXPECT_EQ(gst_cuda_region_mtd_get_counts(&region, 2, &n)[3], 23u);
}

TEST(RegionMtd, FoundFromItsDetectionAndCopiedWithTheBuffer) {
  Frame f;
  GstAnalyticsODMtd od;
  ASSERT_TRUE(gst_analytics_relation_meta_add_od_mtd(f.rmeta, g_quark_from_string("car"), 3, 4, 20, 10, 0.9f, &od));
  GstCudaRegionMtd region = AddRegion(f.rmeta);
  GstCudaRegionMtd found;
  EXPECT_FALSE(gst_analytics_relation_meta_find_cuda_region_mtd(f.rmeta, od.id, &found)) << "not related yet";
  ASSERT_TRUE(gst_analytics_relation_meta_set_relation(f.rmeta, GST_ANALYTICS_REL_TYPE_CONTAIN, od.id, region.id));
  ASSERT_TRUE(gst_analytics_relation_meta_find_cuda_region_mtd(f.rmeta, od.id, &found));
  EXPECT_EQ(found.id, region.id);
  GstCudaRegionMtd by_id;
  EXPECT_TRUE(gst_analytics_relation_meta_get_cuda_region_mtd(f.rmeta, region.id, &by_id));
  EXPECT_FALSE(gst_analytics_relation_meta_get_cuda_region_mtd(f.rmeta, od.id, &by_id)) << "a detection is not one";
  GstBuffer* copy = gst_buffer_copy(f.buffer);
  GstAnalyticsRelationMeta* copied = gst_buffer_get_analytics_relation_meta(copy);
  ASSERT_NE(copied, nullptr);
  ASSERT_TRUE(gst_analytics_relation_meta_find_cuda_region_mtd(copied, od.id, &found));
  guint n = 0;
  const guint32* u = gst_cuda_region_mtd_get_counts(&found, 1, &n);
  EXPECT_EQ(std::vector<guint32>(u, u + n), std::vector<guint32>({10, 11, 12, 13}));
  gst_buffer_unref(copy);
}

TEST(RegionMtd, BadArgumentsAreRefused) {
  Frame f;
  GstCudaRegionMtd region = AddRegion(f.rmeta);
  GstAnalyticsODMtd od;
  ASSERT_TRUE(gst_analytics_relation_meta_add_od_mtd(f.rmeta, 0, 0, 0, 1, 1, 0.5f, &od));
  Criticals criticals;
  GstCudaRegionMtd ignored;
  EXPECT_FALSE(gst_analytics_relation_meta_add_cuda_region_mtd(f.rmeta, GST_CUDA_REGION_KIND_FIXED, 0, 0, 0, 1, 1, 1, 1,
                                                               0, 3, kNames, kDepths, 0, &ignored));
  EXPECT_FALSE(gst_analytics_relation_meta_add_cuda_region_mtd(f.rmeta, GST_CUDA_REGION_KIND_FIXED, 0, 0, 0, 1, 1, 1, 1,
                                                               4, 5, kNames, kDepths, 0, &ignored));
  guint n = 7;
  EXPECT_EQ(gst_cuda_region_mtd_get_counts(&region, 3, &n), nullptr);  // out of range: no critical
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(gst_cuda_region_mtd_get_component_name(&region, 3), nullptr);
  EXPECT_EQ(gst_cuda_region_mtd_get_component_depth(&region, 9), -1);
  EXPECT_EQ(gst_cuda_region_mtd_find_component(&region, "R"), -1);
  const guint32 counts[3] = {1, 2, 3};
  EXPECT_FALSE(gst_cuda_region_mtd_set_counts(&region, 0, counts, 3)) << "3 counts for 4 bins";
  EXPECT_FALSE(gst_cuda_region_mtd_set_hue_counts(&region, counts, 3)) << "added without room for a hue histogram";
  EXPECT_FALSE(gst_cuda_region_mtd_set_confidence(&region, std::numeric_limits<gfloat>::quiet_NaN()));
  // A detection's handle is not a region's: every accessor refuses it.
  GstCudaRegionMtd* wrong = reinterpret_cast<GstCudaRegionMtd*>(&od);
  EXPECT_EQ(gst_cuda_region_mtd_get_bins(wrong), 0u);
  EXPECT_EQ(gst_cuda_region_mtd_get_counts(wrong, 0, &n), nullptr);
  EXPECT_EQ(gst_cuda_region_mtd_get_name(wrong), nullptr);
  EXPECT_FALSE(gst_cuda_region_mtd_set_track_id(wrong, 1));
  EXPECT_EQ(criticals.count(), 9);
  // The region itself is unchanged.
  EXPECT_EQ(gst_cuda_region_mtd_get_counts(&region, 0, &n)[0], 0u);
}

}  // namespace
