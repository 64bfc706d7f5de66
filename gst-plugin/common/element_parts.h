// The C++ side of the plugin's elements, written once: an element's property
// values (its Settings, under the object lock) and its streaming state (its
// State, new in start, dropped in stop and finalize). GstCudaFrameFilter
// owns them (ElementParts), so an element writes no finalize and no
// start/stop for them. Each property is declared once, its GParamSpec beside
// the Settings field it sets (SettingsProperties): the GObject set_property
// and get_property are the table's, with no switch per element.
#pragma once

#include <glib-object.h>
#include <gst/gst.h>

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cudahistogram {

// The flags of a property that takes effect on the next frame, in any state.
constexpr GParamFlags kMutablePlaying =
    GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);

// The flags of a property read when the caps are set: changed in READY or
// NULL, it takes effect with the next negotiation.
constexpr GParamFlags kMutableReady =
    GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);

class ElementParts {
 public:
  virtual ~ElementParts() = default;
  // A new State: in start, in stop (what it holds, CUDA objects included, is
  // released there) and on finalize.
  virtual void ResetState() = 0;

  // Counts the properties set, under the object lock: a refusal stands
  // until a property is set (FrameRefusal, gstcudaframefilter.h).
  guint64 settings_serial = 0;
};

template <typename Settings>
class SettingsParts : public ElementParts {
 public:
  Settings settings;  // under the object lock
};

// The ElementParts of a GstCudaFrameFilter (gstcudaframefilter.cc).
ElementParts* PartsOf(GObject* element);

template <typename Settings>
class SettingsProperties;

template <typename Settings, typename State>
class ElementPartsOf final : public SettingsParts<Settings> {
 public:
  ElementPartsOf() : state(std::make_unique<State>()) {}
  void ResetState() override { state = std::make_unique<State>(); }

  // The streaming thread's State of `element` (one with these parts).
  static State* StateOf(gpointer element) {
    return static_cast<ElementPartsOf*>(PartsOf(G_OBJECT(element)))->state.get();
  }
  // A copy of the settings of `element`, taken under its object lock.
  static Settings CopySettings(gpointer element) { return SettingsProperties<Settings>::Copy(G_OBJECT(element)); }

  std::unique_ptr<State> state;  // the streaming thread's
};

// GValue <-> Settings fields, by the field's type. A NULL or empty string
// stands for the property's default ("all" components).
inline void FromValue(const GValue* v, GParamSpec*, guint* f) { *f = g_value_get_uint(v); }
inline void FromValue(const GValue* v, GParamSpec*, gint* f) { *f = g_value_get_int(v); }
inline void FromValue(const GValue* v, GParamSpec*, guint64* f) { *f = g_value_get_uint64(v); }
inline void FromValue(const GValue* v, GParamSpec*, gdouble* f) { *f = g_value_get_double(v); }
inline void FromValue(const GValue* v, GParamSpec*, bool* f) { *f = g_value_get_boolean(v); }
inline void FromValue(const GValue* v, GParamSpec* spec, std::string* f) {
  const gchar* text = g_value_get_string(v);
  *f = text && *text ? text : g_value_get_string(g_param_spec_get_default_value(spec));
}
template <typename E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
void FromValue(const GValue* v, GParamSpec*, E* f) {
  *f = E(g_value_get_enum(v));
}
inline void ToValue(guint f, GValue* v) { g_value_set_uint(v, f); }
inline void ToValue(gint f, GValue* v) { g_value_set_int(v, f); }
inline void ToValue(guint64 f, GValue* v) { g_value_set_uint64(v, f); }
inline void ToValue(gdouble f, GValue* v) { g_value_set_double(v, f); }
inline void ToValue(bool f, GValue* v) { g_value_set_boolean(v, f); }
inline void ToValue(const std::string& f, GValue* v) { g_value_set_string(v, f.c_str()); }
template <typename E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
void ToValue(E f, GValue* v) {
  g_value_set_enum(v, int(f));
}

template <typename Settings>
class SettingsProperties {
 public:
  // Called with no lock held once a property was set: what the element does
  // beyond storing the value (passthrough, a caps reconfiguration).
  using AfterSet = void (*)(GObject* element, const Settings& settings);

  // The table of one element type; filled in its class_init.
  static SettingsProperties& Of() {
    static SettingsProperties table;
    return table;
  }

  // The table, with `klass`'s set_property and get_property made its own.
  static SettingsProperties& For(GObjectClass* klass) {
    klass->set_property = SetProperty;
    klass->get_property = GetProperty;
    return Of();
  }

  // Installs `spec` on `klass`, bound to the field `field(settings)` returns
  // a reference to; `after_set` (optional) runs once it was set.
  template <typename Field>
  void Install(GObjectClass* klass, GParamSpec* spec, Field field, AfterSet after_set = nullptr) {
    bindings_.push_back(
        {[field](Settings& s, const GValue* v, GParamSpec* p) { FromValue(v, p, &field(s)); },
         [field](Settings& s, GValue* v) { ToValue(field(s), v); }, after_set});
    g_object_class_install_property(klass, guint(bindings_.size()), spec);
    // An enum property's type is part of the plugin's documented API.
    if (G_IS_PARAM_SPEC_ENUM(spec)) gst_type_mark_as_plugin_api(G_PARAM_SPEC_VALUE_TYPE(spec), GstPluginAPIFlags(0));
  }

  // A copy of the element's settings, taken under the object lock.
  static Settings Copy(GObject* element) {
    GST_OBJECT_LOCK(element);
    Settings copy = PartsOf(element)->settings;
    GST_OBJECT_UNLOCK(element);
    return copy;
  }

 private:
  struct Binding {
    std::function<void(Settings&, const GValue*, GParamSpec*)> set;
    std::function<void(Settings&, GValue*)> get;
    AfterSet after_set;
  };

  static SettingsParts<Settings>* PartsOf(GObject* element) {
    return static_cast<SettingsParts<Settings>*>(cudahistogram::PartsOf(element));
  }
  const Binding* Find(GObject* object, guint id, GParamSpec* spec) const {
    if (id >= 1 && id <= bindings_.size()) return &bindings_[id - 1];
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    return nullptr;
  }

  static void SetProperty(GObject* object, guint id, const GValue* value, GParamSpec* spec) {
    const Binding* b = Of().Find(object, id, spec);
    if (b == nullptr) return;
    GST_OBJECT_LOCK(object);
    b->set(PartsOf(object)->settings, value, spec);
    PartsOf(object)->settings_serial++;
    const Settings now = PartsOf(object)->settings;
    GST_OBJECT_UNLOCK(object);
    if (b->after_set != nullptr) b->after_set(object, now);
  }
  static void GetProperty(GObject* object, guint id, GValue* value, GParamSpec* spec) {
    const Binding* b = Of().Find(object, id, spec);
    if (b == nullptr) return;
    GST_OBJECT_LOCK(object);
    b->get(PartsOf(object)->settings, value);
    GST_OBJECT_UNLOCK(object);
  }

  std::vector<Binding> bindings_;
};

}  // namespace cudahistogram
