#include "input_files.h"

#include <gio/gio.h>

#include <algorithm>
#include <set>

#include "qctools_report.h"

namespace qc {
namespace {

bool IsVideoName(const std::string& name) {
  if (g_str_has_suffix(name.c_str(), ".qctools.xml.gz") || g_str_has_suffix(name.c_str(), ".qctools.mkv"))
    return false;
  gboolean uncertain = FALSE;
  gchar* type = g_content_type_guess(name.c_str(), nullptr, 0, &uncertain);
  gchar* mime = type ? g_content_type_get_mime_type(type) : nullptr;
  const bool video = mime && (g_str_has_prefix(mime, "video/") || g_strcmp0(mime, "application/mxf") == 0);
  g_free(mime);
  g_free(type);
  return video;
}

std::string Join(const std::string& dir, const std::string& name) {
  gchar* path = g_build_filename(dir.c_str(), name.c_str(), nullptr);
  std::string joined = path;
  g_free(path);
  return joined;
}

// Files below `dir` (sorted, depth first); `relative` is the path below the DIR argument.
void Walk(const std::string& dir, const std::string& relative, const std::string& output_dir,
          std::vector<InputFile>* inputs) {
  GError* error = nullptr;
  GDir* handle = g_dir_open(dir.c_str(), 0, &error);
  if (!handle) {
    inputs->push_back({dir, "", std::string("cannot read the folder: ") + error->message});
    g_clear_error(&error);
    return;
  }
  std::vector<std::string> names;
  while (const gchar* name = g_dir_read_name(handle))
    if (name[0] != '.') names.push_back(name);
  g_dir_close(handle);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string path = Join(dir, name);
    const std::string below = relative.empty() ? name : Join(relative, name);
    if (g_file_test(path.c_str(), G_FILE_TEST_IS_DIR)) {
      Walk(path, below, output_dir, inputs);
    } else if (IsVideoName(name)) {
      const std::string report =
          output_dir.empty() ? ReportPathFor(path, "") : Join(output_dir, below) + ".qctools.xml.gz";
      inputs->push_back({path, report, ""});
    }
  }
}

}  // namespace

std::vector<InputFile> CollectInputs(const std::vector<std::string>& arguments, const std::string& output_dir) {
  std::vector<InputFile> inputs;
  for (const std::string& argument : arguments) {
    if (g_file_test(argument.c_str(), G_FILE_TEST_IS_DIR)) Walk(argument, "", output_dir, &inputs);
    else inputs.push_back({argument, ReportPathFor(argument, output_dir), ""});
  }
  std::set<std::string> reports;
  for (InputFile& input : inputs) {
    if (!input.error.empty()) continue;
    if (!reports.insert(input.report).second)
      input.error = "another input's report has the same name: " + input.report;
  }
  return inputs;
}

}  // namespace qc
