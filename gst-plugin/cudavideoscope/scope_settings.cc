#include "cudavideoscope/scope_settings.h"

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

}  // namespace cudahistogram
