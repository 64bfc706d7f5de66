// The command line of the programs in tools/: their GOption entries and
// GStreamer's own options (--gst-*), parsed in one place.
#pragma once

#include <glib.h>

#include <string>

namespace cudahist_tools {

// Parses `argv` against `entries` and GStreamer's option group. --help shows
// `parameters` after the program's name, `summary` above the options and
// `description` below them (either may be null). On a bad command line:
// false, with the reason and a pointer to --help in *error.
bool ParseCommandLine(const char* parameters, const char* summary, const char* description,
                      const GOptionEntry* entries, int* argc, char*** argv, std::string* error);

}  // namespace cudahist_tools
