#include "common/video_planes.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace cudahistogram {
namespace {

bool SameNames(const HistogramLayout& a, const HistogramLayout& b) {
  for (int i = 0; i < a.n_components; ++i) {
    if (g_strcmp0(a.names[i], b.names[i]) != 0 || a.depths[i] != b.depths[i]) return false;
  }
  return true;
}

// Bytes of the little-endian word that holds a sample of `shift + depth` bits.
guint SampleSize(guint shift, guint depth) {
  const guint bits = shift + depth;
  return bits <= 8 ? 1 : bits <= 16 ? 2 : 4;
}

std::string FormatName(const GstVideoInfo& info) {
  return GST_VIDEO_INFO_NAME(&info) ? GST_VIDEO_INFO_NAME(&info) : "unknown";
}

std::string ComponentList(const GstVideoFormatInfo* finfo) {
  std::string list;
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS(finfo); ++c) {
    if (!list.empty()) list += ",";
    list += ComponentName(finfo, c);
  }
  return list;
}

std::vector<std::string> SplitNames(const std::string& text) {
  std::vector<std::string> names;
  gchar** parts = g_strsplit(text.c_str(), ",", -1);
  for (gchar** p = parts; *p; ++p) names.emplace_back(g_strstrip(*p));
  g_strfreev(parts);
  return names;
}

bool BinsFit(guint bins, guint depth) { return guint64(bins) <= (guint64(1) << depth); }

std::string BinsTooManyError(guint bins, const GstVideoInfo& info, guint component) {
  const GstVideoFormatInfo* finfo = info.finfo;
  std::ostringstream out;
  out << "bins " << bins << " exceeds the " << (guint64(1) << finfo->depth[component])
      << " code values of the " << finfo->depth[component] << "-bit component "
      << ComponentName(finfo, component) << " of " << FormatName(info)
      << "; set bins to at most " << (guint64(1) << finfo->depth[component]);
  return out.str();
}

// Which components to count, in GstVideoFormatInfo order. "all" takes every
// component with at least `bins` code values (so the 2-bit alpha of
// RGB10A2_LE is left out at 256 bins); a list names them and must fit.
bool SelectComponents(const GstVideoInfo& info, const CountRequest& request,
                      std::vector<guint>* selected, std::string* error) {
  const GstVideoFormatInfo* finfo = info.finfo;
  const guint n = GST_VIDEO_FORMAT_INFO_N_COMPONENTS(finfo);
  selected->clear();
  if (g_ascii_strcasecmp(request.components.c_str(), kAllComponents) == 0) {
    guint deepest = 0;
    for (guint c = 0; c < n; ++c) {
      if (BinsFit(request.bins, finfo->depth[c])) selected->push_back(c);
      if (finfo->depth[c] > finfo->depth[deepest]) deepest = c;
    }
    if (selected->empty()) *error = BinsTooManyError(request.bins, info, deepest);
    return !selected->empty();
  }
  std::vector<bool> wanted(n, false);
  for (const std::string& name : SplitNames(request.components)) {
    guint c = 0;
    while (c < n && g_ascii_strcasecmp(name.c_str(), ComponentName(finfo, c)) != 0) ++c;
    if (c == n || wanted[c]) {
      *error = "components \"" + request.components + "\": " +
               (c == n ? "\"" + name + "\" is not a component of " : "\"" + name +
                                                                      "\" is named twice for ") +
               FormatName(info) + " (it has " + ComponentList(finfo) + ", or use \"all\")";
      return false;
    }
    if (!BinsFit(request.bins, finfo->depth[c])) {
      *error = BinsTooManyError(request.bins, info, c);
      return false;
    }
    wanted[c] = true;
  }
  for (guint c = 0; c < n; ++c) {
    if (wanted[c]) selected->push_back(c);
  }
  return true;
}

bool ClipRoi(const GstVideoInfo& info, const FrameRegion& r, HistogramLayout* layout,
             std::string* error) {
  const guint width = GST_VIDEO_INFO_WIDTH(&info);
  const guint height = GST_VIDEO_INFO_HEIGHT(&info);
  if (r.x >= width || r.y >= height) {
    std::ostringstream out;
    out << "roi-x " << r.x << ", roi-y " << r.y << " lies outside the " << width << "x"
        << height << " frame: the region would hold no pixel";
    *error = out.str();
    return false;
  }
  layout->roi_x = r.x;
  layout->roi_y = r.y;
  layout->roi_width = r.width == 0 ? width - r.x : std::min(r.width, width - r.x);
  layout->roi_height = r.height == 0 ? height - r.y : std::min(r.height, height - r.y);
  return true;
}

// Where GStreamer 1.22's GstVideoFormatInfo does not say where a component's
// bits are: the 10:10:10:2 formats are flagged "use the unpack function" and
// give every component shift 0; P010/P016 give V a poffset of 1 where it sits
// 2 bytes into the UV pair. Absolute values, so a GStreamer that describes
// them right gets the same result.
struct LayoutFix {
  GstVideoFormat format;
  guint component;
  guint offset;
  guint shift;
};
constexpr LayoutFix kLayoutFixes[] = {
    {GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_COMP_V, 2, 6},
    {GST_VIDEO_FORMAT_P016_LE, GST_VIDEO_COMP_V, 2, 0},
    // 32-bit little-endian words, A2:B10:G10:R10 from the most significant bit.
    {GST_VIDEO_FORMAT_RGB10A2_LE, GST_VIDEO_COMP_R, 0, 0},
    {GST_VIDEO_FORMAT_RGB10A2_LE, GST_VIDEO_COMP_G, 0, 10},
    {GST_VIDEO_FORMAT_RGB10A2_LE, GST_VIDEO_COMP_B, 0, 20},
    {GST_VIDEO_FORMAT_RGB10A2_LE, GST_VIDEO_COMP_A, 0, 30},
    // A2:R10:G10:B10.
    {GST_VIDEO_FORMAT_BGR10A2_LE, GST_VIDEO_COMP_B, 0, 0},
    {GST_VIDEO_FORMAT_BGR10A2_LE, GST_VIDEO_COMP_G, 0, 10},
    {GST_VIDEO_FORMAT_BGR10A2_LE, GST_VIDEO_COMP_R, 0, 20},
    {GST_VIDEO_FORMAT_BGR10A2_LE, GST_VIDEO_COMP_A, 0, 30},
};

void ApplyLayoutFix(GstVideoFormat format, guint component, cudahist::PlaneView* v) {
  for (const LayoutFix& fix : kLayoutFixes) {
    if (fix.format == format && fix.component == component) {
      v->offset = fix.offset;
      v->shift = fix.shift;
    }
  }
}

bool DescribeComponent(const GstVideoInfo& info, guint c, CountPlan* plan, int slot,
                       std::string* error) {
  const GstVideoFormatInfo* finfo = info.finfo;
  cudahist::PlaneView& v = plan->views[slot];
  const HistogramLayout& l = plan->layout;
  v.width = GST_VIDEO_INFO_COMP_WIDTH(&info, c);
  v.height = GST_VIDEO_INFO_COMP_HEIGHT(&info, c);
  v.pixel_stride = GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, c);
  v.offset = GST_VIDEO_FORMAT_INFO_POFFSET(finfo, c);
  v.shift = GST_VIDEO_FORMAT_INFO_SHIFT(finfo, c);
  v.depth = GST_VIDEO_FORMAT_INFO_DEPTH(finfo, c);
  ApplyLayoutFix(GST_VIDEO_INFO_FORMAT(&info), c, &v);
  v.sample_size = SampleSize(v.shift, v.depth);
  if (v.sample_size > 1 && !GST_VIDEO_FORMAT_INFO_IS_LE(finfo)) {
    *error = FormatName(info) + " stores multi-byte samples big-endian; only little-endian is read";
    return false;
  }
  const bool whole_frame = l.roi_x == 0 && l.roi_y == 0 && l.roi_width == l.width &&
                           l.roi_height == l.height;
  plan->log2_hsub[slot] = GST_VIDEO_FORMAT_INFO_W_SUB(finfo, c);
  plan->log2_vsub[slot] = GST_VIDEO_FORMAT_INFO_H_SUB(finfo, c);
  v.has_roi = !whole_frame;
  // Every sample that any pixel of the ROI uses.
  if (v.has_roi) {
    v.roi = cudahist::RegionOnPlane(cudahist::Roi{l.roi_x, l.roi_y, l.roi_width, l.roi_height},
                                    plan->log2_hsub[slot], plan->log2_vsub[slot]);
  }
  plan->planes[slot] = GST_VIDEO_FORMAT_INFO_PLANE(finfo, c);
  plan->layout.names[slot] = ComponentName(finfo, c);
  plan->layout.depths[slot] = v.depth;
  return true;
}

}  // namespace

bool HistogramLayout::operator==(const HistogramLayout& o) const {
  return format == o.format && width == o.width && height == o.height && roi_x == o.roi_x &&
         roi_y == o.roi_y && roi_width == o.roi_width && roi_height == o.roi_height &&
         bins == o.bins && n_components == o.n_components && SameNames(*this, o);
}

const char* ComponentName(const GstVideoFormatInfo* finfo, guint component) {
  static const char* const kYuv[] = {"Y", "U", "V", "A"};
  static const char* const kRgb[] = {"R", "G", "B", "A"};
  if (component >= G_N_ELEMENTS(kYuv)) return "?";
  return GST_VIDEO_FORMAT_INFO_IS_RGB(finfo) ? kRgb[component] : kYuv[component];
}

bool MakeCountPlan(const GstVideoInfo& info, const CountRequest& request, CountPlan* plan,
                   std::string* error) {
  *plan = CountPlan();
  HistogramLayout& l = plan->layout;
  l.format = GST_VIDEO_INFO_FORMAT(&info);
  l.width = GST_VIDEO_INFO_WIDTH(&info);
  l.height = GST_VIDEO_INFO_HEIGHT(&info);
  l.bins = request.bins;
  std::vector<guint> components;
  if (!SelectComponents(info, request, &components, error)) return false;
  if (!ClipRoi(info, request.region, &l, error)) return false;
  l.n_components = int(components.size());
  for (int slot = 0; slot < l.n_components; ++slot) {
    if (!DescribeComponent(info, components[slot], plan, slot, error)) return false;
  }
  return true;
}

void FramePlaneViews(const CountPlan& plan, const GstVideoFrame& frame,
                     cudahist::PlaneView views[kMaxComponents]) {
  for (int slot = 0; slot < plan.layout.n_components; ++slot) {
    views[slot] = plan.views[slot];
    views[slot].data = GST_VIDEO_FRAME_PLANE_DATA(&frame, plan.planes[slot]);
    views[slot].pitch = size_t(GST_VIDEO_FRAME_PLANE_STRIDE(&frame, plan.planes[slot]));
  }
}

cudahist::RegionFrame FrameRegionViews(const CountPlan& plan, const GstVideoFrame& frame) {
  cudahist::RegionFrame f;
  FramePlaneViews(plan, frame, f.planes);
  f.num_planes = plan.layout.n_components;
  for (int slot = 0; slot < f.num_planes; ++slot) {
    f.planes[slot].has_roi = false;
    f.log2_hsub[slot] = plan.log2_hsub[slot];
    f.log2_vsub[slot] = plan.log2_vsub[slot];
  }
  return f;
}

}  // namespace cudahistogram
