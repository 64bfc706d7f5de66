#include "cudahistogram/signalstats_message.h"

namespace cudahistogram {
namespace {

// One figure under its three names: the message's, the library's, the meta's.
template <typename Figures, typename Meta, typename Value>
struct Field {
  const char* name;
  Value Figures::*figure;
  Value Meta::*meta;
};

using Figures = cudahist::SignalStatsFigures;
using Meta = GstCudaSignalStats;
using IntField = Field<Figures, Meta, int>;
using DoubleField = Field<Figures, Meta, double>;

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
    {"y-bitdepth", &Figures::y_bitdepth, &Meta::y_bitdepth},
    {"u-bitdepth", &Figures::u_bitdepth, &Meta::u_bitdepth},
    {"v-bitdepth", &Figures::v_bitdepth, &Meta::v_bitdepth},
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

namespace {

using Qc = cudahist::QcFigures;
using Crop = cudahist::CropFigures;
using QcMeta = GstCudaQcFigures;
using CropField = Field<Crop, QcMeta, int>;
using QcDoubleField = Field<Qc, QcMeta, double>;

constexpr QcDoubleField kToutVrepFields[] = {
    {"tout", &Qc::tout, &QcMeta::tout},
    {"vrep", &Qc::vrep, &QcMeta::vrep},
};

constexpr CropField kCropFields[] = {
    {"crop-x1", &Crop::x1, &QcMeta::crop_x1}, {"crop-x2", &Crop::x2, &QcMeta::crop_x2},
    {"crop-y1", &Crop::y1, &QcMeta::crop_y1}, {"crop-y2", &Crop::y2, &QcMeta::crop_y2},
    {"crop-w", &Crop::w, &QcMeta::crop_w},    {"crop-h", &Crop::h, &QcMeta::crop_h},
    {"crop-x", &Crop::x, &QcMeta::crop_x},    {"crop-y", &Crop::y, &QcMeta::crop_y},
};

constexpr QcDoubleField kPsnrFields[] = {
    {"psnr-mse-y", &Qc::mse_y, &QcMeta::psnr_mse_y},       {"psnr-mse-u", &Qc::mse_u, &QcMeta::psnr_mse_u},
    {"psnr-mse-v", &Qc::mse_v, &QcMeta::psnr_mse_v},       {"psnr-mse-avg", &Qc::mse_avg, &QcMeta::psnr_mse_avg},
    {"psnr-y", &Qc::psnr_y, &QcMeta::psnr_y},             {"psnr-u", &Qc::psnr_u, &QcMeta::psnr_u},
    {"psnr-v", &Qc::psnr_v, &QcMeta::psnr_v},             {"psnr-avg", &Qc::psnr_avg, &QcMeta::psnr_avg},
};

template <size_t N>
void SetDoubles(const QcDoubleField (&fields)[N], const Qc& figures, GstStructure* s) {
  for (const QcDoubleField& f : fields) gst_structure_set(s, f.name, G_TYPE_DOUBLE, figures.*f.figure, nullptr);
}

}  // namespace

void SetQcFields(const QcFields& qc, GstStructure* s) {
  if (qc.tout_vrep) SetDoubles(kToutVrepFields, qc.figures, s);
  if (qc.crop) {
    for (const CropField& f : kCropFields) gst_structure_set(s, f.name, G_TYPE_INT, qc.figures.crop.*f.figure, nullptr);
  }
  if (qc.field_psnr) SetDoubles(kPsnrFields, qc.figures, s);
}

GstCudaQcFigures MetaQcFigures(const QcFields& qc) {
  GstCudaQcFigures meta{};
  meta.has_tout_vrep = qc.tout_vrep;
  meta.has_crop = qc.crop;
  meta.has_field_psnr = qc.field_psnr;
  if (qc.tout_vrep) {
    for (const QcDoubleField& f : kToutVrepFields) meta.*f.meta = qc.figures.*f.figure;
  }
  if (qc.crop) {
    for (const CropField& f : kCropFields) meta.*f.meta = qc.figures.crop.*f.figure;
  }
  if (qc.field_psnr) {
    for (const QcDoubleField& f : kPsnrFields) meta.*f.meta = qc.figures.*f.figure;
  }
  return meta;
}

}  // namespace cudahistogram
