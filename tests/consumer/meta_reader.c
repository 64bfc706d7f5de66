/* The C snippet of docs/applications.md ("The meta in C"), built outside the
 * source tree against an installed prefix: consumer_test.py cuts the snippet
 * out of the page into docs_snippet.inc (its #include lines into
 * docs_includes.inc) and compiles this file with nothing but
 * `pkg-config --cflags --libs gstreamer-cudahistogram-meta-1.0`.
 *
 *   meta_reader PIPELINE
 *
 * Runs PIPELINE (which must hold an element named "histogram"), calls the
 * snippet from a probe on that element's source pad for every buffer, then
 * once on a buffer that carries no meta (the snippet must print nothing).
 * First prints the file of the plugin that was loaded, so the test can tell
 * the prefix's from any other. */
#include "docs_includes.inc"

static void
read_meta (GstBuffer * buffer)
{
#include "docs_snippet.inc"
}

static GstPadProbeReturn
on_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  guint *frames = user_data;

  (void) pad;
  read_meta (GST_PAD_PROBE_INFO_BUFFER (info));
  (*frames)++;
  return GST_PAD_PROBE_OK;
}

static void
print_plugin_file (void)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (), "cudahistogram");

  g_print ("plugin: %s\n", plugin ? gst_plugin_get_filename (plugin) : "(not found)");
  if (plugin)
    gst_object_unref (plugin);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  GstElement *pipeline, *histogram;
  GstPad *pad;
  GstBus *bus;
  GstMessage *message;
  GstBuffer *bare;
  guint frames = 0;
  int status = 0;

  gst_init (&argc, &argv);
  if (argc != 2) {
    g_printerr ("usage: meta_reader PIPELINE\n");
    return 2;
  }
  print_plugin_file ();
  pipeline = gst_parse_launch (argv[1], &error);
  if (pipeline == NULL) {
    g_printerr ("meta_reader: %s\n", error->message);
    return 1;
  }
  histogram = gst_bin_get_by_name (GST_BIN (pipeline), "histogram");
  if (histogram == NULL) {
    g_printerr ("meta_reader: the pipeline has no element named histogram\n");
    return 1;
  }
  pad = gst_element_get_static_pad (histogram, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, &frames, NULL);
  gst_object_unref (pad);
  gst_object_unref (histogram);

  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  message = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gst_object_unref (bus);
  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gst_message_parse_error (message, &err, NULL);
    g_printerr ("meta_reader: %s\n", err->message);
    g_clear_error (&err);
    status = 1;
  }
  gst_message_unref (message);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);

  bare = gst_buffer_new ();
  read_meta (bare);
  gst_buffer_unref (bare);
  g_print ("frames: %u\n", frames);
  return status;
}
