#include "cudahistogram/signalstats_message.h"

namespace cudahistogram {
namespace {

using Figures = cudahist::SignalStatsFigures;
using Meta = GstCudaSignalStats;

// One figure under its three names: the message's, the library's, the meta's.
struct IntField {
  const char* name;
  int Figures::*figure;
  gint Meta::*meta;
};
struct DoubleField {
  const char* name;
  double Figures::*figure;
  gdouble Meta::*meta;
};

constexpr IntField kIntFields[] = {
    {"y-min", &Figures::y_min, &Meta::y_min},       {"y-low", &Figures::y_low, &Meta::y_low},
    {"y-high", &Figures::y_high, &Meta::y_high},    {"y-max", &Figures::y_max, &Meta::y_max},
    {"u-min", &Figures::u_min, &Meta::u_min},       {"u-low", &Figures::u_low, &Meta::u_low},
    {"u-high", &Figures::u_high, &Meta::u_high},    {"u-max", &Figures::u_max, &Meta::u_max},
    {"v-min", &Figures::v_min, &Meta::v_min},       {"v-low", &Figures::v_low, &Meta::v_low},
    {"v-high", &Figures::v_high, &Meta::v_high},    {"v-max", &Figures::v_max, &Meta::v_max},
    {"sat-min", &Figures::sat_min, &Meta::sat_min}, {"sat-low", &Figures::sat_low, &Meta::sat_low},
    {"sat-high", &Figures::sat_high, &Meta::sat_high},
    {"sat-max", &Figures::sat_max, &Meta::sat_max}, {"hue-med", &Figures::hue_med, &Meta::hue_med},
};

constexpr DoubleField kDoubleFields[] = {
    {"y-avg", &Figures::y_avg, &Meta::y_avg},       {"u-avg", &Figures::u_avg, &Meta::u_avg},
    {"v-avg", &Figures::v_avg, &Meta::v_avg},       {"sat-avg", &Figures::sat_avg, &Meta::sat_avg},
    {"hue-avg", &Figures::hue_avg, &Meta::hue_avg}, {"y-dif", &Figures::y_dif, &Meta::y_dif},
    {"u-dif", &Figures::u_dif, &Meta::u_dif},       {"v-dif", &Figures::v_dif, &Meta::v_dif},
    {"brng", &Figures::brng, &Meta::brng},
};

}  // namespace

void SetSignalStatsFields(const Figures& figures, GstStructure* s) {
  for (const IntField& f : kIntFields) {
    gst_structure_set(s, f.name, G_TYPE_INT, figures.*f.figure, nullptr);
  }
  for (const DoubleField& f : kDoubleFields) {
    gst_structure_set(s, f.name, G_TYPE_DOUBLE, figures.*f.figure, nullptr);
  }
}

GstCudaSignalStats MetaSignalStats(const Figures& figures) {
  GstCudaSignalStats meta{};
  for (const IntField& f : kIntFields) meta.*f.meta = figures.*f.figure;
  for (const DoubleField& f : kDoubleFields) meta.*f.meta = figures.*f.figure;
  return meta;
}

}  // namespace cudahistogram
