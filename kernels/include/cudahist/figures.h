// cudahist: the per-frame figures of figures.def as a table, for code that
// walks them by name: what a program reads from the element's message or
// meta, what it prints under FFmpeg's keys.
//
//   for (const cudahist::Figure& f : cudahist::kFigures) ... f.name, f.ffmpeg_key ...
#pragma once

#include <cstddef>
#include <type_traits>

namespace cudahist {

// What counts a figure (figures.def's group).
enum class FigureGroup {
  kSignalStats,  // signalstats' levels, differences and BRNG
  kBitDepth,     // signalstats' bits in use (YBITDEPTH ...)
  kToutVrep,     // signalstats' TOUT and VREP (the QC counts)
  kCropDetect,   // cropdetect's borders
  kFieldPsnr,    // psnr between a frame's two fields
};

struct Figure {
  FigureGroup group;
  const char* name;        // the message field, e.g. "y-min"
  const char* ffmpeg_key;  // e.g. "lavfi.signalstats.YMIN"
  bool integer;            // an int (FFmpeg prints %d); else a double
  const char* unit;
};

// Every figure, in ffprobe's order.
inline constexpr Figure kFigures[] = {
#define FIGURE(group, member, name, ffmpeg_key, type, unit) \
  {FigureGroup::k##group, name, ffmpeg_key, std::is_same_v<type, int>, unit},
#include "cudahist/figures.def"
};

inline constexpr size_t kFigureCount = sizeof(kFigures) / sizeof(kFigures[0]);

}  // namespace cudahist
