#include "cudavideoscope/scope_settings.h"

#include <gst/base/gstbasetransform.h>

#include "common/element_parts.h"

namespace cudahistogram {

bool ScopeSettings::operator==(const ScopeSettings& o) const {
  return style == o.style && components == o.components && scale == o.scale && graticule == o.graticule &&
         gain == o.gain;
}

void DefaultScopeSize(ScopeStyle style, gint* width, gint* height) {
  *width = style == ScopeStyle::kVectorscope ? 512 : 1024;
  *height = 512;
}

namespace {

const GEnumValue kStyles[] = {
    {int(ScopeStyle::kHistogram), "Histogram: each component's histogram as bars, level across", "histogram"},
    {int(ScopeStyle::kWaveform), "Waveform: level up, frame column across, components overlaid", "waveform"},
    {int(ScopeStyle::kParade), "Parade: one waveform per component, side by side", "parade"},
    {int(ScopeStyle::kVectorscope), "Vectorscope: U across, V up (or the two named components)",
     "vectorscope"},
    {int(ScopeStyle::kPicture),
     "Picture: the frame itself scaled to the output, each pixel the mean of the box it covers (a waveform "
     "monitor's picture display, or a thumbnail made where the frame is)",
     "picture"},
    {0, nullptr, nullptr},
};

GType RegisterOnce(GType* type, const char* name, const GEnumValue* values) {
  if (g_once_init_enter(type)) g_once_init_leave(type, g_enum_register_static(name, values));
  return *type;
}

}  // namespace

const char* ScopeStyleName(ScopeStyle style) {
  for (const GEnumValue* v = kStyles; v->value_nick; ++v) {
    if (v->value == int(style)) return v->value_nick;
  }
  return "?";
}

GType ScopeStyleEnumType() {
  static GType type = 0;
  return RegisterOnce(&type, "GstCudaVideoScopeStyle", kStyles);
}

GType ScopeScaleEnumType() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {int(cudahist::ScopeScale::kLinear), "Linear: brightness proportional to the count", "linear"},
      {int(cudahist::ScopeScale::kLogarithmic),
       "Logarithmic: brightness proportional to log(1 + count), rare levels stay visible", "logarithmic"},
      {0, nullptr, nullptr},
  };
  return RegisterOnce(&type, "GstCudaVideoScopeScale", values);
}

GType ScopeGraticuleEnumType() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {int(ScopeGraticule::kNone), "No graticule", "none"},
      {int(ScopeGraticule::kLegal), "Legal range: lines at 16 and 235 (8-bit codes, 64 and 940 at 10 bits); "
                                    "boxes on the 75% colour bars' chroma on the vectorscope",
       "legal"},
      {0, nullptr, nullptr},
  };
  return RegisterOnce(&type, "GstCudaVideoScopeGraticule", values);
}

void InstallScopeSettingsProperties(GObjectClass* gobject_class) {
  SettingsProperties<ScopeSettings>& props = SettingsProperties<ScopeSettings>::For(gobject_class);
  props.Install(
      gobject_class,
      g_param_spec_enum("style", "Style",
                        "What to draw. The output size comes from downstream caps; left open it is 1024x512 "
                        "(512x512 for the vectorscope, the frame's display size for the picture, whose height "
                        "follows the frame's display aspect ratio when downstream sets only the width)",
                        ScopeStyleEnumType(), int(ScopeStyle::kWaveform), kMutablePlaying),
      [](ScopeSettings& s) -> ScopeStyle& { return s.style; },
      // A new style may want another default size.
      [](GObject* element, const ScopeSettings&) { gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(element)); });
  props.Install(
      gobject_class,
      g_param_spec_string("components", "Components",
                          "Components to draw, names separated by commas (\"Y\", \"R,G,B\", \"U,V\"), or \"all\": "
                          "Y (R,G,B for RGB formats) for a waveform, every colour component for a histogram or "
                          "parade, U,V for a vectorscope (which draws the first named across, the second up). The "
                          "picture draws every colour component (only \"all\"). A component the format lacks is "
                          "an error at negotiation",
                          kAllComponents, kMutablePlaying),
      [](ScopeSettings& s) -> std::string& { return s.components; });
  props.Install(
      gobject_class,
      g_param_spec_enum("scale", "Scale", "How a count becomes brightness (the README gives the exact mapping)",
                        ScopeScaleEnumType(), int(cudahist::ScopeScale::kLogarithmic), kMutablePlaying),
      [](ScopeSettings& s) -> cudahist::ScopeScale& { return s.scale; });
  props.Install(
      gobject_class,
      g_param_spec_enum("graticule", "Graticule", "Reference marks drawn under the trace",
                        ScopeGraticuleEnumType(), int(ScopeGraticule::kLegal),
                        kMutablePlaying),
      [](ScopeSettings& s) -> ScopeGraticule& { return s.graticule; });
  props.Install(
      gobject_class,
      g_param_spec_uint("gain", "Gain",
                        "Counts are multiplied by this before the scale: brightens sparse traces (waveform, "
                        "parade, vectorscope; histogram bars are scaled to their tallest bin)",
                        1, kMaxScopeGain, kDefaultScopeGain, kMutablePlaying),
      [](ScopeSettings& s) -> guint& { return s.gain; });
}


}  // namespace cudahistogram
