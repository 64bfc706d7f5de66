// The kinds of input the monitor watches. A stream's URI scheme picks its
// kind, and the kind says what the stream does: whether it is a file (it
// ends, or loops with loop=true) or live (an end is a failure), whether its
// host name is looked up before its pipeline starts, whether it binds a local
// port (`reuse` applies), and how its source element is set up once
// uridecodebin has made it. A new kind of input is one row of kSourceTypes.
// No GStreamer here: the config reader checks `loop` and `reuse` against the
// kind; source_elements.h has what needs the registry.
#pragma once

#include <glib-object.h>

#include <string>
#include <vector>

namespace monitor {

struct StreamConfig;

struct SourceType {
  const char* kind;                  // "file", "udp", ...: in /status.json and the docs
  std::vector<std::string> schemes;  // empty: every scheme no other row names
  bool is_file;                      // it has an end: EOS ends the stream, or starts it again with loop=true
  bool resolves_host;                // a host name in the URI is looked up first (sources say little when it fails)
  bool binds_port;                   // it listens on a local port of its own: `reuse` says whether others may share it
};

// The type of `uri`, by its scheme (the last row for schemes no row names).
const SourceType& SourceTypeOf(const std::string& uri);

// Every row, for the docs' table and the tests.
const std::vector<SourceType>& SourceTypes();

// The host name `uri` names, "" for files, IP addresses and URIs without a host
// (udp://@:5000), or when the type looks nothing up.
std::string HostToResolve(const std::string& uri);

// Sets up the source element uridecodebin made for `stream` (its
// "source-setup" signal): a port of its own unless reuse=true, on the
// source and on every element inside it that binds one.
void SetUpSource(GObject* source, const StreamConfig& stream);

}  // namespace monitor
