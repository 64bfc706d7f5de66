#include <gst/gst.h>

#include "cudahistogram/gstcudahistogram.h"
#include "cudavideoscope/gstcudavideoscope.h"

static gboolean plugin_init(GstPlugin* plugin) {
  gboolean ok = GST_ELEMENT_REGISTER(cudahistogram, plugin);
  ok &= GST_ELEMENT_REGISTER(cudavideoscope, plugin);
  return ok;
}

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, cudahistogram,
                  "Per-frame colour histograms of video frames, computed where they live (CUDA "
                  "or system memory)",
                  plugin_init, VERSION, "LGPL", "cudahistogram",
                  "Unknown package origin")
