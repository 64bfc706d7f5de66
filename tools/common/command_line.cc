#include "command_line.h"

#include <gst/gst.h>

namespace cudahist_tools {

bool ParseCommandLine(const char* parameters, const char* summary, const char* description,
                      const GOptionEntry* entries, int* argc, char*** argv, std::string* error) {
  GOptionContext* context = g_option_context_new(parameters);
  if (summary) g_option_context_set_summary(context, summary);
  if (description) g_option_context_set_description(context, description);
  g_option_context_add_main_entries(context, entries, nullptr);
  g_option_context_add_group(context, gst_init_get_option_group());
  GError* e = nullptr;
  const bool ok = g_option_context_parse(context, argc, argv, &e);
  if (!ok) {
    *error = std::string(e->message) + " (see --help)";
    g_error_free(e);
  }
  g_option_context_free(context);
  return ok;
}

}  // namespace cudahist_tools
