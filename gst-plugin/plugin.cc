#include <gst/gst.h>

#include "gstcudahistogram.h"

static gboolean plugin_init(GstPlugin* plugin) {
  return GST_ELEMENT_REGISTER(cudahistogram, plugin);
}

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, cudahistogram,
                  "Per-frame colour histograms of video frames, computed where they live (CUDA "
                  "or system memory)",
                  plugin_init, VERSION, "LGPL", "cudahistogram",
                  "Unknown package origin")
