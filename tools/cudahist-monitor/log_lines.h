// What the monitor writes on stderr: its own lines (g_printerr) and GLib's
// warnings, each line stamped with the UTC time, and every URI in it
// redacted (redact.h), whatever wrote it.
#pragma once

#include <string>

namespace monitor {

// Routes g_printerr and GLib's log through the stamp and the redaction. Call once, first.
void StampStderrLines();

// "2026-11-25T00:08:38.910Z": now, in UTC, to the millisecond.
std::string UtcTimestamp();

}  // namespace monitor
