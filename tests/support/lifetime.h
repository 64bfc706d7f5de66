// Whether GObjects end with their last reference, for tests: the weak
// reference is polled for a moment, because GStreamer's own threads (a bin's
// asynchronous state continuation, a task on its way out) may still hold a
// reference just after the test drops its last one; a leak holds it for good.
#pragma once

#include <glib-object.h>

#include <chrono>
#include <thread>

namespace cudahist_test {

// The object `weak` watches if it is still alive after `grace`, as a new
// reference for the caller to drop; nullptr once it has been finalized.
inline GObject* AliveAfter(GWeakRef* weak, std::chrono::milliseconds grace = std::chrono::seconds(5)) {
  const auto end = std::chrono::steady_clock::now() + grace;
  for (;;) {
    GObject* alive = static_cast<GObject*>(g_weak_ref_get(weak));
    if (!alive || std::chrono::steady_clock::now() >= end) return alive;
    g_object_unref(alive);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace cudahist_test
