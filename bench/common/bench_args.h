// bench/common/bench_args.h: the command lines benchmarks share:
//   the element benchmarks'  <tool> [--json PATH] [--seconds S] [<the tool's own flags>]
//   the kernel benchmarks'   <tool> [--json FILE] [--repeats N] [--quick]
//                            (signalstats_bench; analytics_bench, which adds
//                            --boxes and --methods)
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "bench_stats.h"

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

// The kernel benchmarks' options: --quick is their smoke test (small frames,
// few repeats; meson runs it).
struct KernelBenchArgs {
  std::string json;
  int repeats = kDefaultRepeats;
  bool quick = false;
};

// Parses argv into `o`; a benchmark's own options, each with a value, go to
// `extra` (true when it took the flag and its value; `extra_usage` names
// them). On anything else prints the usage and returns false.
inline bool ParseKernelBenchArgs(int argc, char** argv, KernelBenchArgs* o, const char* extra_usage = "",
                                 const std::function<bool(const std::string&, const char*)>& extra = nullptr) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) {
      o->json = argv[++i];
    } else if (a == "--repeats" && i + 1 < argc) {
      o->repeats = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--quick") {
      o->quick = true;
    } else if (extra && i + 1 < argc && extra(a, argv[i + 1])) {
      ++i;
    } else {
      std::fprintf(stderr, "usage: %s [--json FILE] [--repeats N] [--quick]%s\n", argv[0], extra_usage);
      return false;
    }
  }
  return true;
}

}  // namespace bench
