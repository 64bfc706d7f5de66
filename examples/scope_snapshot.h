// One picture of a scope out of a running pipeline (the monitor's
// --scope-png): frame N of the stream reaches the pipeline's cudavideoscope
// "scope", every other frame is dropped before it (nothing drawn, nothing
// encoded), and the PNG that "scope_png" (pngenc) makes of it is written to a file.
#pragma once

#include <gst/gst.h>

#include <string>

namespace examples {

class ScopeSnapshot {
 public:
  ScopeSnapshot(std::string path, unsigned long frame) : path_(std::move(path)), frame_(frame) {}

  // Adds the pad probes; false with `problem` when the elements are missing.
  bool Attach(GstElement* pipeline, std::string* problem);

  bool written() const { return written_; }
  // "" when the picture was written, else why not.
  std::string Outcome() const;

 private:
  static GstPadProbeReturn OnFrame(GstPad*, GstPadProbeInfo* info, gpointer self);
  static GstPadProbeReturn OnPng(GstPad*, GstPadProbeInfo* info, gpointer self);

  std::string path_;
  unsigned long frame_;
  unsigned long seen_ = 0;
  bool written_ = false;
  std::string write_error_;
};

}  // namespace examples
