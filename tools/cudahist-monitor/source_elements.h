// What the installed GStreamer elements make of a stream's source (source.h
// has its type): whether any element reads its URI's scheme at all, and what
// a source's error means for an operator.
#pragma once

#include <gst/gst.h>

#include <string>
#include <vector>

#include "config.h"

namespace monitor {

// The URI schemes some installed source element reads, sorted.
std::vector<std::string> ReadableSchemes();

// "" when an installed element reads each stream's URI; else, for the first
// that none reads, an error naming where it was given, the URI (redacted) and
// the schemes that would work. Checked at the start and on every reload.
std::string UnreadableSource(const std::vector<StreamConfig>& streams);

// "" when each stream's video-decoder names an installed video decoder; else
// an error naming where it was given and what is wrong. Checked at the start
// and on every reload.
std::string UnknownVideoDecoder(const std::vector<StreamConfig>& streams);

// Sets up the source element uridecodebin made for `stream` (its
// "source-setup" signal): a port of its own unless reuse=true, on the
// source and on every element inside it that binds one (rtpsrc's udpsrc).
void SetUpSource(GstElement* source, const StreamConfig& stream);

// A sentence to put before a source's error that says what it means for this
// source ("" when there is nothing to add): a UDP port another program holds.
std::string SourceErrorHint(const StreamConfig& stream, GstMessage* error);

}  // namespace monitor
