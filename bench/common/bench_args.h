// bench/common/bench_args.h: the command line the element benchmarks share,
//   <tool> [--json PATH] [--seconds S] [<the tool's own flags>]
#pragma once

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

namespace bench {

struct CommonArgs {
  std::string json_path;  // empty: no JSON written
  double seconds = 0;     // timing per run/row
};

// Parses --json PATH and --seconds S (> 0) into `args`; any other flag with
// its value goes to `extra`, which returns false when it does not know it.
// On a bad command line prints the problem and `usage` and returns false.
inline bool ParseCommonArgs(int argc, char** argv, const char* usage, CommonArgs* args,
                            const std::function<bool(const std::string& flag, const char* value)>& extra = nullptr) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "%s: missing value or unknown argument\nusage: %s\n", flag.c_str(), usage);
      return false;
    }
    const char* value = argv[++i];
    bool known = true;
    if (flag == "--json") {
      args->json_path = value;
    } else if (flag == "--seconds") {
      char* end = nullptr;
      args->seconds = std::strtod(value, &end);
      if (end == value || *end != '\0' || !(args->seconds > 0)) {
        std::fprintf(stderr, "--seconds %s: not a positive number\nusage: %s\n", value, usage);
        return false;
      }
    } else {
      known = extra && extra(flag, value);
    }
    if (!known) {
      std::fprintf(stderr, "unknown argument or bad value: %s %s\nusage: %s\n", flag.c_str(), value, usage);
      return false;
    }
  }
  return true;
}

}  // namespace bench
