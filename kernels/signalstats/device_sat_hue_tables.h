// cudahist: the sat/hue tables (sat_hue_tables.h) in device memory, for the
// kernels that read them: every depth's table and depth 8's packed one
// (PackSatHue), uploaded once when a counter is created.
#pragma once

#include <cstdint>

#include "cudahist/signalstats.h"
#include "cudahist/status.h"

namespace cudahist::detail {

class DeviceSatHueTables {
 public:
  DeviceSatHueTables() = default;
  ~DeviceSatHueTables();
  DeviceSatHueTables(const DeviceSatHueTables&) = delete;
  DeviceSatHueTables& operator=(const DeviceSatHueTables&) = delete;

  // In the context current on the calling thread.
  Status Upload();
  // Depth 8 to 10.
  const uint32_t* table(uint32_t depth) const { return tables_[depth - kSignalStatsMinDepth]; }
  // Depth 8's packed table (16 bits an entry).
  const uint16_t* packed() const { return packed_; }

 private:
  uint32_t* tables_[kSignalStatsMaxDepth - kSignalStatsMinDepth + 1] = {};
  uint16_t* packed_ = nullptr;
};

}  // namespace cudahist::detail
