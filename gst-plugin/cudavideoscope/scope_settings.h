// cudavideoscope's property values. Like cudahistogram's Settings they live
// under the object lock; the streaming thread works on a copy taken at the
// start of each frame.
#pragma once

#include <glib-object.h>

#include <string>

#include "common/video_planes.h"
#include "cudahist/scope_render.h"

namespace cudahistogram {

enum class ScopeStyle { kHistogram = 0, kWaveform = 1, kParade = 2, kVectorscope = 3, kPicture = 4 };
enum class ScopeGraticule { kNone = 0, kLegal = 1 };

constexpr guint kDefaultScopeGain = 1;
constexpr guint kMaxScopeGain = 65535;

struct ScopeSettings {
  ScopeStyle style = ScopeStyle::kWaveform;
  std::string components = kAllComponents;  // "all" or names such as "Y", "R,G,B", "U,V"
  cudahist::ScopeScale scale = cudahist::ScopeScale::kLogarithmic;
  ScopeGraticule graticule = ScopeGraticule::kLegal;
  guint gain = kDefaultScopeGain;

  bool operator==(const ScopeSettings& other) const;
  bool operator!=(const ScopeSettings& other) const { return !(*this == other); }
};

// The output size a style gets when downstream leaves it open: 1024 x 512
// for the level-up styles, 512 x 512 for the vectorscope (a square U-V plane).
// The picture's is the frame's own (scope_caps.cc), this only where no frame
// is known yet.
void DefaultScopeSize(ScopeStyle style, gint* width, gint* height);

const char* ScopeStyleName(ScopeStyle style);

// GEnums of the style, scale and graticule properties.
GType ScopeStyleEnumType();
GType ScopeScaleEnumType();
GType ScopeGraticuleEnumType();

// Installs the element's properties on `klass`, each bound to its
// ScopeSettings field (common/element_parts.h); a new style reconfigures the
// src pad (its default size may differ).
void InstallScopeSettingsProperties(GObjectClass* klass);

}  // namespace cudahistogram
