// The registry of figures (cudahist/figures.def) against the meta's public
// C structs: every member of GstCudaSignalStats and GstCudaQcFigures is a
// figure the registry declares (or a has_ flag), of the type it declares,
// and the meta library finds each figure by its name, in both readings.
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cudahist/figures.h"
#include "gstcudahistogrammeta.h"

namespace {

class GstEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { gst_init(nullptr, nullptr); }
};
const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new GstEnvironment);

#define FIGURE_TYPE_MATCHES(Struct, member, type)                 \
  static_assert(std::is_same_v<decltype(Struct::member), type>, \
                #Struct "::" #member " is not the " #type " that cudahist/figures.def declares");
#define SIGNALSTATS_FIGURE(group, member, name, ffmpeg_key, type, unit) \
  FIGURE_TYPE_MATCHES(GstCudaSignalStats, member, type)
#define QC_FIGURE(group, has_flag, member, name, ffmpeg_key, type, unit) \
  FIGURE_TYPE_MATCHES(GstCudaQcFigures, member, type)
#include "cudahist/figures.def"
#undef FIGURE_TYPE_MATCHES

// The members of an aggregate of scalars: the most initialisers it takes.
struct AnyMember {
  template <typename T>
  operator T() const;  // converts to any member's type (declared only: unevaluated)
};
template <typename T, typename... Initialisers>
auto Takes(int) -> decltype(T{std::declval<Initialisers>()...}, std::true_type{});
template <typename T, typename... Initialisers>
std::false_type Takes(...);
template <typename T, typename... Initialisers>
constexpr size_t MemberCount() {
  if constexpr (decltype(Takes<T, Initialisers..., AnyMember>(0))::value) {
    return MemberCount<T, Initialisers..., AnyMember>();
  } else {
    return sizeof...(Initialisers);
  }
}

// The check itself: it counts members, not bytes (an int in a double's padding counts).
struct ThreeMembers {
  gint a;
  gint in_padding;
  gdouble b;
};
static_assert(MemberCount<ThreeMembers>() == 3, "MemberCount counts every member");

// Each registry figure names a member of its struct (offsetof above would
// not compile otherwise), each a different one (the names are distinct), so
// equal counts leave no member the registry does not declare.
constexpr size_t kSignalStatsFigures = 0
#define SIGNALSTATS_FIGURE(group, member, name, ffmpeg_key, type, unit) +1
#include "cudahist/figures.def"
    ;
constexpr size_t kQcFigures = 0
#define QC_FIGURE(group, has_flag, member, name, ffmpeg_key, type, unit) +1
#include "cudahist/figures.def"
    ;
constexpr size_t kQcFlags = 3;  // has_tout_vrep, has_crop, has_field_psnr
static_assert(MemberCount<GstCudaSignalStats>() == kSignalStatsFigures,
              "GstCudaSignalStats has a member that cudahist/figures.def does not declare");
static_assert(MemberCount<GstCudaQcFigures>() == kQcFigures + kQcFlags,
              "GstCudaQcFigures has a member that cudahist/figures.def does not declare");

TEST(FigureRegistry, DeclaresEveryMemberOfTheMetasStructs) {
  EXPECT_EQ(MemberCount<GstCudaSignalStats>(), kSignalStatsFigures);
  EXPECT_EQ(MemberCount<GstCudaQcFigures>(), kQcFigures + kQcFlags);
  EXPECT_EQ(kSignalStatsFigures + kQcFigures, cudahist::kFigureCount);
}

TEST(FigureRegistry, NamesAndKeysAreEachOnce) {
  std::set<std::string> names, keys;
  for (const cudahist::Figure& f : cudahist::kFigures) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_TRUE(keys.insert(f.ffmpeg_key).second) << f.ffmpeg_key;
    EXPECT_TRUE(g_str_has_prefix(f.ffmpeg_key, "lavfi.")) << f.ffmpeg_key;
    EXPECT_STRNE(f.unit, "") << f.name;
  }
}

// The offset of every figure's member, in the registry's order.
std::vector<size_t> SignalStatsOffsets() {
  return {
#define SIGNALSTATS_FIGURE(group, member, name, ffmpeg_key, type, unit) offsetof(GstCudaSignalStats, member),
#include "cudahist/figures.def"
  };
}
std::vector<size_t> QcOffsets() {
  return {
#define QC_FIGURE(group, has_flag, member, name, ffmpeg_key, type, unit) offsetof(GstCudaQcFigures, member),
#include "cudahist/figures.def"
  };
}

// Every figure's member holds a value of its own (the figure's index), so
// that a name that reads another member shows.
TEST(FigureRegistry, TheMetaReadsEveryFigureByItsName) {
  GstCudaSignalStats stats{};
  GstCudaQcFigures qc{};
  qc.has_tout_vrep = qc.has_crop = qc.has_field_psnr = TRUE;
  const std::vector<size_t> stats_at = SignalStatsOffsets(), qc_at = QcOffsets();
  std::vector<double> want;
  size_t stats_index = 0, qc_index = 0;
  for (const cudahist::Figure& f : cudahist::kFigures) {
    const bool in_stats = f.group == cudahist::FigureGroup::kSignalStats || f.group == cudahist::FigureGroup::kBitDepth;
    guint8* at = in_stats ? reinterpret_cast<guint8*>(&stats) + stats_at[stats_index++]
                          : reinterpret_cast<guint8*>(&qc) + qc_at[qc_index++];
    want.push_back(f.integer ? double(want.size()) : double(want.size()) + 0.5);
    if (f.integer) *reinterpret_cast<gint*>(at) = gint(want.back());
    else *reinterpret_cast<gdouble*>(at) = want.back();
  }
  GstStructure* s = gst_structure_new_empty("cudahistogram");
  gst_cuda_signal_stats_to_structure(&stats, s);
  gst_cuda_qc_figures_to_structure(&qc, s);
  EXPECT_EQ(gst_structure_n_fields(s), gint(cudahist::kFigureCount));
  for (size_t i = 0; i < cudahist::kFigureCount; ++i) {
    const cudahist::Figure& f = cudahist::kFigures[i];
    const bool in_stats = f.group == cudahist::FigureGroup::kSignalStats || f.group == cudahist::FigureGroup::kBitDepth;
    double value = -1;
    EXPECT_TRUE(in_stats ? gst_cuda_signal_stats_get_figure(&stats, f.name, &value)
                         : gst_cuda_qc_figures_get_figure(&qc, f.name, &value))
        << f.name;
    EXPECT_EQ(value, want[i]) << f.name;
    const GValue* field = gst_structure_get_value(s, f.name);
    ASSERT_NE(field, nullptr) << f.name << " missing from the message";
    EXPECT_EQ(G_VALUE_TYPE(field), f.integer ? G_TYPE_INT : G_TYPE_DOUBLE) << f.name;
    EXPECT_EQ(f.integer ? double(g_value_get_int(field)) : g_value_get_double(field), want[i]) << f.name;
  }
  gst_structure_free(s);
}

}  // namespace
