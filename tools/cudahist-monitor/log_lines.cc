#include "log_lines.h"

#include <glib.h>

#include <cstdio>
#include <mutex>

#include "redact.h"

namespace monitor {
namespace {

// Lines may come from GStreamer's threads (GLib warnings) as well as the main loop.
std::mutex& StderrLock() {
  static std::mutex lock;
  return lock;
}

// Each line of `text` stamped; a line begun by an earlier call is not stamped again.
void WriteStamped(const std::string& text) {
  static bool at_line_start = true;
  std::lock_guard<std::mutex> hold(StderrLock());
  const std::string shown = cudahist_tools::RedactUrisIn(text);
  std::string out;
  for (char c : shown) {
    if (at_line_start) out += UtcTimestamp() + " ";
    out += c;
    at_line_start = c == '\n';
  }
  fputs(out.c_str(), stderr);
  fflush(stderr);
}

void OnPrinterr(const gchar* text) { WriteStamped(text); }

GLogWriterOutput OnLog(GLogLevelFlags level, const GLogField* fields, gsize n_fields, gpointer) {
  const char* domain = nullptr;
  for (gsize i = 0; i < n_fields; ++i)
    if (g_strcmp0(fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].length < 0)
      domain = static_cast<const char*>(fields[i].value);
  if (!g_log_writer_default_would_drop(level, domain)) {
    gchar* line = g_log_writer_format_fields(level, fields, n_fields, FALSE);
    WriteStamped(std::string(g_strstrip(line)) + "\n");
    g_free(line);
  }
  return G_LOG_WRITER_HANDLED;
}

}  // namespace

std::string UtcTimestamp() {
  GDateTime* now = g_date_time_new_now_utc();
  gchar* text = g_date_time_format(now, "%Y-%m-%dT%H:%M:%S");
  char stamp[48];
  g_snprintf(stamp, sizeof stamp, "%s.%03dZ", text, g_date_time_get_microsecond(now) / 1000);
  g_free(text);
  g_date_time_unref(now);
  return stamp;
}

void StampStderrLines() {
  g_set_printerr_handler(OnPrinterr);
  g_log_set_writer_func(OnLog, nullptr, nullptr);
}

}  // namespace monitor
