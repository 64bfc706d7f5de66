// bench/common/bench_report.h: the rows the kernel benchmark measures, printed as a
// table and written as JSON.
#pragma once

#include <string>
#include <vector>

namespace bench {

struct Row {
  std::string case_name;
  std::string method;        // "roofline", "cub", "npp", or a cudahist algorithm
  std::string status = "ok";  // ok | n/a | skipped | MISMATCH | ERROR
  std::string note;
  double microseconds = 0;   // median per call (1 GiB cases) or per frame (per-frame cases)
  int repeats = 0;
  double bytes = 0;          // bytes of samples read per call / frame
  // Filled by Derive(): 0 where the baseline is missing.
  double gigabytes_per_second = 0;
  double roofline_fraction = 0;  // roofline time / this time
  double speedup_vs_cub = 0;     // CUB time / this time (> 1: faster than CUB)
  double speedup_vs_npp = 0;     // NPP time / this time
};

// Fills the derived columns of every row from the same case's roofline, cub and npp rows.
void Derive(std::vector<Row>* rows);

void PrintTable(const std::vector<Row>& rows);

// `header` holds ready-made JSON members ("\"device\": {...}"), written before "rows".
bool WriteJson(const std::string& path, const std::vector<std::string>& header,
               const std::vector<Row>& rows);
std::string JsonString(const std::string& s);

}  // namespace bench
