#include "scope_snapshot.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace examples {
namespace {

bool AddProbe(GstElement* pipeline, const char* element, const char* pad, GstPadProbeCallback callback,
              gpointer data, std::string* problem) {
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), element);
  if (!e) {
    *problem = std::string("the pipeline has no element named ") + element;
    return false;
  }
  GstPad* p = gst_element_get_static_pad(e, pad);
  gst_pad_add_probe(p, GST_PAD_PROBE_TYPE_BUFFER, callback, data, nullptr);
  gst_object_unref(p);
  gst_object_unref(e);
  return true;
}

}  // namespace

bool ScopeSnapshot::Attach(GstElement* pipeline, std::string* problem) {
  return AddProbe(pipeline, "scope", "sink", OnFrame, this, problem) &&
         AddProbe(pipeline, "scope_png", "src", OnPng, this, problem);
}

GstPadProbeReturn ScopeSnapshot::OnFrame(GstPad*, GstPadProbeInfo*, gpointer data) {
  auto* self = static_cast<ScopeSnapshot*>(data);
  return self->seen_++ == self->frame_ ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP;
}

GstPadProbeReturn ScopeSnapshot::OnPng(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* self = static_cast<ScopeSnapshot*>(data);
  GstBuffer* png = GST_PAD_PROBE_INFO_BUFFER(info);
  GstMapInfo map;
  if (self->written_ || !gst_buffer_map(png, &map, GST_MAP_READ)) return GST_PAD_PROBE_OK;
  FILE* out = std::fopen(self->path_.c_str(), "wb");
  const bool ok = out && std::fwrite(map.data, 1, map.size, out) == map.size;
  const int error = errno;
  if (out && std::fclose(out) != 0 && ok) self->write_error_ = std::strerror(errno);
  if (!ok) self->write_error_ = std::strerror(error);
  self->written_ = ok && self->write_error_.empty();
  gst_buffer_unmap(png, &map);
  return GST_PAD_PROBE_OK;
}

std::string ScopeSnapshot::Outcome() const {
  if (written_) return "";
  if (!write_error_.empty()) return "cannot write " + path_ + ": " + write_error_;
  return "the stream ended after " + std::to_string(seen_) + " frames, before frame " + std::to_string(frame_) +
         " (frames count from 0): no picture written";
}

}  // namespace examples
