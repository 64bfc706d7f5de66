// bench/common/bench_report.cc
#include "bench_report.h"

#include <cstdio>

namespace bench {
namespace {

const Row* FindOk(const std::vector<Row>& rows, const std::string& case_name, const std::string& method) {
  for (const Row& r : rows) {
    if (r.case_name == case_name && r.method == method && r.status == "ok" && r.microseconds > 0) return &r;
  }
  return nullptr;
}

std::string Ratio(double v) {
  if (v <= 0) return "-";
  char s[32];
  std::snprintf(s, sizeof s, "%.2f", v);
  return s;
}

}  // namespace

void Derive(std::vector<Row>* rows) {
  for (Row& r : *rows) {
    if (r.status != "ok" || r.microseconds <= 0) continue;
    r.gigabytes_per_second = r.bytes / (r.microseconds * 1e3);
    // Batched rows (several frames a launch) against the roofline read of the same batches.
    const bool batched = r.method.size() > 6 && r.method.compare(r.method.size() - 6, 6, "+batch") == 0;
    if (const Row* roof = FindOk(*rows, r.case_name, batched ? "roofline+batch" : "roofline")) {
      r.roofline_fraction = roof->microseconds / r.microseconds;
    }
    if (const Row* cub = FindOk(*rows, r.case_name, "cub")) r.speedup_vs_cub = cub->microseconds / r.microseconds;
    if (const Row* npp = FindOk(*rows, r.case_name, "npp")) r.speedup_vs_npp = npp->microseconds / r.microseconds;
  }
}

void PrintTable(const std::vector<Row>& rows) {
  std::printf("\n%-28s %-24s %12s %9s %8s %7s %7s  %s\n", "case", "method", "us", "GB/s", "roofline",
              "xCUB", "xNPP", "status / note");
  std::string last_case;
  for (const Row& r : rows) {
    if (r.case_name != last_case && !last_case.empty()) std::printf("\n");
    last_case = r.case_name;
    if (r.status == "ok") {
      std::printf("%-28s %-24s %12.2f %9.1f %8s %7s %7s  %s\n", r.case_name.c_str(), r.method.c_str(),
                  r.microseconds, r.gigabytes_per_second, Ratio(r.roofline_fraction).c_str(),
                  Ratio(r.speedup_vs_cub).c_str(), Ratio(r.speedup_vs_npp).c_str(), r.note.c_str());
    } else {
      std::printf("%-28s %-24s %12s %9s %8s %7s %7s  %s: %s\n", r.case_name.c_str(), r.method.c_str(), "-",
                  "-", "-", "-", "-", r.status.c_str(), r.note.c_str());
    }
  }
  std::printf("\nus: median per call (1 GiB cases) or per frame (\"frames\" cases, back to back over a rotation\n"
              "larger than L2); roofline: read-roofline time / this time; xCUB, xNPP: their time / this time.\n");
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", c);
      out += esc;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

bool WriteJson(const std::string& path, const std::vector<std::string>& header, const std::vector<Row>& rows) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::fprintf(f, "{\n");
  for (const std::string& member : header) std::fprintf(f, "  %s,\n", member.c_str());
  std::fprintf(f, "  \"rows\": [\n");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::fprintf(f,
                 "    {\"case\": %s, \"method\": %s, \"status\": %s, \"note\": %s, \"median_us\": %.4f, "
                 "\"repeats\": %d, \"bytes\": %.0f, \"gb_per_s\": %.3f, \"roofline_fraction\": %.4f, "
                 "\"speedup_vs_cub\": %.4f, \"speedup_vs_npp\": %.4f}%s\n",
                 JsonString(r.case_name).c_str(), JsonString(r.method).c_str(), JsonString(r.status).c_str(),
                 JsonString(r.note).c_str(), r.microseconds, r.repeats, r.bytes, r.gigabytes_per_second,
                 r.roofline_fraction, r.speedup_vs_cub, r.speedup_vs_npp, i + 1 < rows.size() ? "," : "");
  }
  std::fprintf(f, "  ]\n}\n");
  return std::fclose(f) == 0;
}

}  // namespace bench
