// The files a run works on: each FILE argument as given, and in each DIR
// argument every video file below it (GIO's content type from the name:
// video/* and MXF), hidden files and reports left out. A folder that cannot be
// read becomes an entry with its error, so that the run reports it and goes on.
#pragma once

#include <string>
#include <vector>

namespace qc {

struct InputFile {
  std::string path;    // as given, or joined below the DIR given
  std::string report;  // where its report goes
  std::string error;   // non-empty: the entry is this problem, not a file to analyse
};

// Reports go beside each file, or with `output_dir` under it: a FILE's report
// by its base name, a DIR's files' by their path below DIR (so that same
// names in different folders do not collide). Two inputs with the same report
// path: the second is an error.
std::vector<InputFile> CollectInputs(const std::vector<std::string>& arguments, const std::string& output_dir);

}  // namespace qc
