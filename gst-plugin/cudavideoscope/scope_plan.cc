#include "cudavideoscope/scope_plan.h"

#include <algorithm>
#include <cmath>

namespace cudahistogram {
namespace {

// Trace colours by component name; overlaid R, G and B add up to white.
cudahist::ScopeRgb TintOf(const char* name) {
  switch (name[0]) {
    case 'R': return {255, 64, 64};
    case 'G': return {64, 255, 64};
    case 'B': return {64, 96, 255};
    case 'U': return {96, 160, 255};
    case 'V': return {255, 112, 112};
    default: return {255, 255, 255};  // Y, A
  }
}

constexpr cudahist::ScopeRgb kVectorscopeTint = {150, 255, 150};
constexpr cudahist::ScopeRgb kGraticule = {200, 150, 0};
constexpr uint32_t kLegalLevels[] = {16, 235};

std::string Size(guint w, guint h) { return std::to_string(w) + "x" + std::to_string(h); }

// "all" as a list of names for the style: luma for a waveform of YUV/GRAY,
// every colour component (never alpha) otherwise, U and V for a vectorscope.
bool ResolveComponents(const GstVideoInfo& in, const ScopeSettings& s, std::string* names, std::string* error) {
  const GstVideoFormatInfo* finfo = in.finfo;
  const bool rgb = GST_VIDEO_FORMAT_INFO_IS_RGB(finfo), gray = GST_VIDEO_FORMAT_INFO_IS_GRAY(finfo);
  const bool all = g_ascii_strcasecmp(s.components.c_str(), kAllComponents) == 0;
  if (s.style == ScopeStyle::kPicture && !all) {
    *error = "style picture draws every colour component of the frame: set components to \"all\", not \"" +
             s.components + "\"";
    return false;
  }
  if (!all) {
    *names = s.components;
    return true;
  }
  const std::string format = GST_VIDEO_INFO_NAME(&in);
  switch (s.style) {
    case ScopeStyle::kVectorscope:
      if (gray) {
        *error = "style vectorscope needs two chroma components: " + format + " has only Y";
        return false;
      }
      if (rgb) {
        *error = "style vectorscope of " + format +
                 " draws two components against each other: set components to two of R,G,B (e.g. \"B,R\")";
        return false;
      }
      *names = "U,V";
      return true;
    case ScopeStyle::kWaveform:
      *names = rgb ? "R,G,B" : "Y";
      return true;
    default:
      *names = rgb ? "R,G,B" : gray ? "Y" : "Y,U,V";
      return true;
  }
}

bool CheckOutputSize(guint w, guint h, std::string* error) {
  if (w >= 1 && h >= 1 && w <= cudahist::kMaxScopeDimension && h <= cudahist::kMaxScopeDimension) return true;
  *error = "output size " + Size(w, h) + " is outside 1x1 to " +
           Size(cudahist::kMaxScopeDimension, cudahist::kMaxScopeDimension) +
           ": ask downstream (a caps filter) for a size in that range";
  return false;
}

uint32_t BinsFor(uint32_t depth, uint32_t extent, uint32_t cap) {
  return uint32_t(std::min<uint64_t>({uint64_t(1) << depth, extent, cap}));
}

bool PlanColumns(ScopePlan* p, std::string* error) {
  const int n = p->traces();
  const bool parade = p->settings.style == ScopeStyle::kParade;
  const bool histogram = p->settings.style == ScopeStyle::kHistogram;
  if (parade && p->out_width < guint(n)) {
    *error = "style parade draws " + std::to_string(n) + " panels side by side: output width " +
             std::to_string(p->out_width) + " is too narrow";
    return false;
  }
  cudahist::ColumnScope& cs = p->column_scope;
  cs = cudahist::ColumnScope();
  cs.style = histogram ? cudahist::ColumnScopeStyle::kHistogram
                       : parade ? cudahist::ColumnScopeStyle::kParade : cudahist::ColumnScopeStyle::kWaveform;
  cs.num_traces = n;
  for (int i = 0; i < n; ++i) {
    const cudahist::PlaneView& v = p->count.views[i];
    // The narrowest panel of a parade (panels differ by one column at most).
    const guint panel = parade ? p->out_width / n : p->out_width;
    cudahist::ColumnHistogramSpec& spec = p->columns[i];
    spec.groups = histogram ? 1 : std::min<guint>(panel, v.width);
    spec.bins = histogram ? BinsFor(v.depth, p->out_width, UINT32_MAX) : BinsFor(v.depth, p->out_height, UINT32_MAX);
    cudahist::ColumnTrace& t = cs.traces[i];
    t.groups = spec.groups;
    t.bins = spec.bins;
    t.counted_width = v.width;
    t.counted_height = v.height;
    t.depth = v.depth;
    t.tint = TintOf(p->count.layout.names[i]);
    p->counts_offset[i] = p->counts_total;
    p->counts_total += cudahist::ColumnCountsLength(spec);
  }
  cs.scale = p->settings.scale;
  cs.gain = p->settings.gain;
  cs.graticule = kGraticule;
  if (p->settings.graticule == ScopeGraticule::kLegal) {
    for (uint32_t level : kLegalLevels) cs.levels[cs.num_levels++] = level;
  }
  return true;
}

// The 75% colour bars' chroma as code values of `depth` bits, from the
// input's matrix (BT.601 when it names none) and range.
void BarChroma(const GstVideoInfo& in, uint32_t depth, int bar, double* cb, double* cr) {
  static const double kBars[6][3] = {{.75, .75, 0}, {0, .75, .75}, {0, .75, 0},
                                     {.75, 0, .75}, {.75, 0, 0},   {0, 0, .75}};
  gdouble kr = 0.299, kb = 0.114;
  if (!gst_video_color_matrix_get_Kr_Kb(in.colorimetry.matrix, &kr, &kb)) {
    kr = 0.299;
    kb = 0.114;
  }
  const double r = kBars[bar][0], g = kBars[bar][1], b = kBars[bar][2];
  const double y = kr * r + (1 - kr - kb) * g + kb * b;
  const double scale = in.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255 ? 255.0 : 224.0;
  const double unit = double(1u << depth) / 256.0;
  *cb = (128.0 + scale * (b - y) / (2 * (1 - kb))) * unit;
  *cr = (128.0 + scale * (r - y) / (2 * (1 - kr))) * unit;
}

// The pixel at the middle of the span of pixels that show the bin of `code`.
uint32_t CentreOfCode(double code, uint32_t depth, uint32_t bins, uint32_t extent) {
  const uint64_t c = uint64_t(std::llround(std::max(0.0, code)));
  const uint32_t bin = uint32_t(std::min<uint64_t>((c * bins) >> depth, bins - 1));
  const uint32_t first = uint32_t((uint64_t(bin) * extent + bins - 1) / bins);
  const uint32_t end = uint32_t((uint64_t(bin + 1) * extent + bins - 1) / bins);
  return (first + end - 1) / 2;
}

bool PlanVectorscope(const GstVideoInfo& in, ScopePlan* p, std::string* error) {
  if (p->traces() != 2) {
    *error = "style vectorscope draws two components against each other: components \"" +
             p->settings.components + "\" names " + std::to_string(p->traces());
    return false;
  }
  const cudahist::PlaneView &a = p->count.views[0], &b = p->count.views[1];
  if (a.width != b.width || a.height != b.height) {
    *error = std::string("style vectorscope needs two components of the same samples: ") +
             p->count.layout.names[0] + " and " + p->count.layout.names[1] + " of " + GST_VIDEO_INFO_NAME(&in) +
             " are sampled differently";
    return false;
  }
  p->joint.bins_a = BinsFor(a.depth, p->out_width, cudahist::kMaxJointBins);
  p->joint.bins_b = BinsFor(b.depth, p->out_height, cudahist::kMaxJointBins);
  p->counts_total = cudahist::JointCountsLength(p->joint);
  cudahist::VectorScope& vs = p->vector_scope;
  vs = cudahist::VectorScope();
  vs.bins_a = p->joint.bins_a;
  vs.bins_b = p->joint.bins_b;
  vs.samples = uint64_t(a.width) * a.height;
  vs.scale = p->settings.scale;
  vs.gain = p->settings.gain;
  vs.tint = kVectorscopeTint;
  vs.graticule = kGraticule;
  const bool chroma_pair = g_str_equal(p->count.layout.names[0], "U") && g_str_equal(p->count.layout.names[1], "V");
  if (p->settings.graticule == ScopeGraticule::kLegal && chroma_pair) {
    for (int bar = 0; bar < 6; ++bar) {
      double cb = 0, cr = 0;
      BarChroma(in, a.depth, bar, &cb, &cr);
      cudahist::ScopeTarget& t = vs.targets[vs.num_targets++];
      t.x = CentreOfCode(cb, a.depth, vs.bins_a, p->out_width);
      t.y = p->out_height - 1 - CentreOfCode(cr, b.depth, vs.bins_b, p->out_height);
    }
    vs.target_half_size = std::max<uint32_t>(3, std::min(p->out_width, p->out_height) / 80);
  }
  return true;
}

// The picture's colours from the frame's colorimetry: its matrix (BT.601
// when it names none, as the vectorscope's bars) and range; gray formats are
// full range unless their caps say otherwise.
void PlanPicture(const GstVideoInfo& in, ScopePlan* p) {
  cudahist::PictureScope& picture = p->picture;
  picture = cudahist::PictureScope();
  const GstVideoFormatInfo* finfo = in.finfo;
  picture.colour = GST_VIDEO_FORMAT_INFO_IS_RGB(finfo)    ? cudahist::PictureColour::kRgb
                   : GST_VIDEO_FORMAT_INFO_IS_GRAY(finfo) ? cudahist::PictureColour::kGray
                                                          : cudahist::PictureColour::kYuv;
  gdouble kr = 0.299, kb = 0.114;
  if (!gst_video_color_matrix_get_Kr_Kb(in.colorimetry.matrix, &kr, &kb)) {
    kr = 0.299;
    kb = 0.114;
  }
  const bool gray = picture.colour == cudahist::PictureColour::kGray;
  const bool full_range = in.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255 ||
                          (gray && in.colorimetry.range != GST_VIDEO_COLOR_RANGE_16_235);
  picture.matrix = cudahist::PictureMatrixOf(kr, kb, full_range);
}

}  // namespace

bool MakeScopePlan(const GstVideoInfo& in, guint out_width, guint out_height, const ScopeSettings& settings,
                   ScopePlan* plan, std::string* error) {
  *plan = ScopePlan();
  plan->settings = settings;
  plan->out_width = out_width;
  plan->out_height = out_height;
  if (!CheckOutputSize(out_width, out_height, error)) return false;
  CountRequest request;  // the whole frame; bins are chosen per component below
  if (!ResolveComponents(in, settings, &request.components, error)) return false;
  if (!MakeCountPlan(in, request, &plan->count, error)) return false;
  if (plan->traces() > cudahist::kMaxScopeTraces) {
    *error = "components \"" + settings.components + "\": at most 4 traces";
    return false;
  }
  if (plan->is_picture()) {
    PlanPicture(in, plan);
    return true;
  }
  return settings.style == ScopeStyle::kVectorscope ? PlanVectorscope(in, plan, error) : PlanColumns(plan, error);
}

void SetScopeCounts(ScopePlan* plan, uint32_t* counts) {
  if (plan->is_vectorscope()) {
    plan->vector_scope.counts = counts;
    return;
  }
  for (int i = 0; i < plan->traces(); ++i) plan->column_scope.traces[i].counts = counts + plan->counts_offset[i];
}

void SetPictureFrame(ScopePlan* plan, const cudahist::PlaneView* views) {
  for (int i = 0; i < plan->traces(); ++i) plan->picture.components[i] = views[i];
}

}  // namespace cudahistogram
