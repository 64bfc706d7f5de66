// Preloaded (LD_PRELOAD) into the ThreadSanitizer runs (scripts/sanitize.sh):
// GLib's GMutex and GCond as ThreadSanitizer sees them. On Linux GLib builds
// them on futexes, not on the pthread calls ThreadSanitizer intercepts
// (GRecMutex and GRWLock are pthread's, and seen), so it sees no order
// between two threads that take the same GMutex and reports races in code
// that is correctly locked:
// ours, and GStreamer's (GLib: https://gitlab.gnome.org/GNOME/glib/-/issues/1672;
// the sanitizer's side: https://github.com/google/sanitizers/issues/490). These
// definitions come first in the process, so every call from outside libglib
// (our code, GStreamer's pads, tasks, buses and object locks) lands here:
// each calls GLib's own and publishes the order, a lock acquiring the lock's
// address and an unlock (or a wait, which unlocks) releasing it. Locks GLib
// takes inside itself, and atomics, stay unseen (tsan.supp).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glib.h>
#include <sanitizer/tsan_interface.h>

// GLib's definition of `name`, found at its first call (GLib's own start
// may lock before any constructor of ours has run).
#define GLIB(name) ((__typeof__(&name))glib_function(#name, &glib_##name))
static void* glib_function(const char* name, void** found) {
  void* f = __atomic_load_n(found, __ATOMIC_ACQUIRE);
  if (!f) {
    f = dlsym(RTLD_NEXT, name);
    __atomic_store_n(found, f, __ATOMIC_RELEASE);
  }
  return f;
}
static void *glib_g_mutex_lock, *glib_g_mutex_trylock, *glib_g_mutex_unlock, *glib_g_cond_wait,
    *glib_g_cond_wait_until;

void g_mutex_lock(GMutex* m) {
  GLIB(g_mutex_lock)(m);
  __tsan_acquire(m);
}

gboolean g_mutex_trylock(GMutex* m) {
  const gboolean locked = GLIB(g_mutex_trylock)(m);
  if (locked) __tsan_acquire(m);
  return locked;
}

void g_mutex_unlock(GMutex* m) {
  __tsan_release(m);
  GLIB(g_mutex_unlock)(m);
}








void g_cond_wait(GCond* c, GMutex* m) {
  __tsan_release(m);
  GLIB(g_cond_wait)(c, m);
  __tsan_acquire(m);
}

gboolean g_cond_wait_until(GCond* c, GMutex* m, gint64 end_time) {
  __tsan_release(m);
  const gboolean signalled = GLIB(g_cond_wait_until)(c, m, end_time);
  __tsan_acquire(m);
  return signalled;
}
