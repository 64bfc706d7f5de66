// The kinds of input the monitor watches. A stream's URI scheme picks its
// kind, and the kind says what the stream does: whether it is a file (it
// ends, or loops with loop=true) or live (an end is a failure), whether its
// host name is looked up before its pipeline starts, whether it binds a local
// port (`reuse` applies, source_elements.h sets it on the elements that
// bind). A new kind of input is one row of SourceTypes(). No GStreamer here:
// the config reader checks `loop` and `reuse` against the type;
// source_elements.h has what needs the elements.
#pragma once

#include <string>
#include <vector>

namespace monitor {

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

}  // namespace monitor
