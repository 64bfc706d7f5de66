// bench/kernels/plane_groups.h: how a baseline library (CUB, NPP) has to be called for
// a set of plane views. Those libraries count the channels interleaved in one
// plane in one call (RGBA: 4 channels, NV12's UV: 2), a planar component
// alone, and know neither shifts nor masks: a view they can count holds the
// whole sample word (shift + depth == 8 * sample_size), and its bins are equal
// ranges of the word, [0, 2^(8 * sample_size)), which for P010 (value << 6)
// gives exactly the library's bin = value * bins >> depth.
#pragma once

#include <cudahist/plane_view.h>

#include <string>
#include <vector>

namespace bench {

struct PlaneGroup {
  int first_plane = 0;   // index of the group's first view (offset 0 in the pixel)
  int channels = 1;      // views interleaved in one plane, at offsets k * sample_size
  uint32_t sample_size = 1;
  long upper_level = 256;  // one past the largest sample word
};

// Splits `planes` into groups; false (and `why`) when some view cannot be
// counted by a library of that kind.
inline bool GroupInterleavedPlanes(const cudahist::PlaneView* planes, int num_planes,
                                   std::vector<PlaneGroup>* groups, std::string* why) {
  groups->clear();
  for (int i = 0; i < num_planes;) {
    const cudahist::PlaneView& first = planes[i];
    if (first.shift + first.depth != 8 * first.sample_size || first.has_roi) {
      *why = "plane " + std::to_string(i) + " is not a whole sample word";
      return false;
    }
    PlaneGroup group;
    group.first_plane = i;
    group.sample_size = first.sample_size;
    group.channels = int(first.pixel_stride / first.sample_size);
    group.upper_level = 1L << (8 * first.sample_size);
    if (first.offset != 0 || group.channels * first.sample_size != first.pixel_stride ||
        i + group.channels > num_planes) {
      *why = "plane " + std::to_string(i) + " does not start a full interleaved group";
      return false;
    }
    for (int k = 1; k < group.channels; ++k) {
      const cudahist::PlaneView& p = planes[i + k];
      if (p.data != first.data || p.pitch != first.pitch || p.pixel_stride != first.pixel_stride ||
          p.offset != k * first.sample_size || p.sample_size != first.sample_size ||
          p.shift != first.shift || p.depth != first.depth) {
        *why = "plane " + std::to_string(i + k) + " is not channel " + std::to_string(k) +
               " of plane " + std::to_string(i);
        return false;
      }
    }
    groups->push_back(group);
    i += group.channels;
  }
  return true;
}

}  // namespace bench
