#include "cudahistogram/signalstats_message.h"

namespace cudahistogram {
namespace {

// One figure in the library's struct and in the meta's; the meta library
// names it in the message (gst_cuda_signal_stats_to_structure).
template <typename Figures, typename Meta, typename Value>
struct Field {
  Value Figures::*figure;
  Value Meta::*meta;
};

using Figures = cudahist::SignalStatsFigures;
using Meta = GstCudaSignalStats;
using IntField = Field<Figures, Meta, int>;
using DoubleField = Field<Figures, Meta, double>;

constexpr IntField kIntFields[] = {
    {&Figures::y_min, &Meta::y_min},       {&Figures::y_low, &Meta::y_low},
    {&Figures::y_high, &Meta::y_high},     {&Figures::y_max, &Meta::y_max},
    {&Figures::u_min, &Meta::u_min},       {&Figures::u_low, &Meta::u_low},
    {&Figures::u_high, &Meta::u_high},     {&Figures::u_max, &Meta::u_max},
    {&Figures::v_min, &Meta::v_min},       {&Figures::v_low, &Meta::v_low},
    {&Figures::v_high, &Meta::v_high},     {&Figures::v_max, &Meta::v_max},
    {&Figures::sat_min, &Meta::sat_min},   {&Figures::sat_low, &Meta::sat_low},
    {&Figures::sat_high, &Meta::sat_high}, {&Figures::sat_max, &Meta::sat_max},
    {&Figures::hue_med, &Meta::hue_med},   {&Figures::y_bitdepth, &Meta::y_bitdepth},
    {&Figures::u_bitdepth, &Meta::u_bitdepth}, {&Figures::v_bitdepth, &Meta::v_bitdepth},
};

constexpr DoubleField kDoubleFields[] = {
    {&Figures::y_avg, &Meta::y_avg},     {&Figures::u_avg, &Meta::u_avg},     {&Figures::v_avg, &Meta::v_avg},
    {&Figures::sat_avg, &Meta::sat_avg}, {&Figures::hue_avg, &Meta::hue_avg}, {&Figures::y_dif, &Meta::y_dif},
    {&Figures::u_dif, &Meta::u_dif},     {&Figures::v_dif, &Meta::v_dif},     {&Figures::brng, &Meta::brng},
};

}  // namespace

GstCudaSignalStats MetaSignalStats(const Figures& figures) {
  GstCudaSignalStats meta{};
  for (const IntField& f : kIntFields) meta.*f.meta = figures.*f.figure;
  for (const DoubleField& f : kDoubleFields) meta.*f.meta = figures.*f.figure;
  return meta;
}

void SetSignalStatsFields(const Figures& figures, GstStructure* s) {
  const GstCudaSignalStats meta = MetaSignalStats(figures);
  gst_cuda_signal_stats_to_structure(&meta, s);
}

namespace {

using Qc = cudahist::QcFigures;
using Crop = cudahist::CropFigures;
using QcMeta = GstCudaQcFigures;
using CropField = Field<Crop, QcMeta, int>;
using QcDoubleField = Field<Qc, QcMeta, double>;

constexpr QcDoubleField kToutVrepFields[] = {
    {&Qc::tout, &QcMeta::tout},
    {&Qc::vrep, &QcMeta::vrep},
};

constexpr CropField kCropFields[] = {
    {&Crop::x1, &QcMeta::crop_x1}, {&Crop::x2, &QcMeta::crop_x2}, {&Crop::y1, &QcMeta::crop_y1},
    {&Crop::y2, &QcMeta::crop_y2}, {&Crop::w, &QcMeta::crop_w},   {&Crop::h, &QcMeta::crop_h},
    {&Crop::x, &QcMeta::crop_x},   {&Crop::y, &QcMeta::crop_y},
};

constexpr QcDoubleField kPsnrFields[] = {
    {&Qc::mse_y, &QcMeta::psnr_mse_y}, {&Qc::mse_u, &QcMeta::psnr_mse_u}, {&Qc::mse_v, &QcMeta::psnr_mse_v},
    {&Qc::mse_avg, &QcMeta::psnr_mse_avg}, {&Qc::psnr_y, &QcMeta::psnr_y}, {&Qc::psnr_u, &QcMeta::psnr_u},
    {&Qc::psnr_v, &QcMeta::psnr_v},   {&Qc::psnr_avg, &QcMeta::psnr_avg},
};

}  // namespace

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

void SetQcFields(const QcFields& qc, GstStructure* s) {
  const GstCudaQcFigures meta = MetaQcFigures(qc);
  gst_cuda_qc_figures_to_structure(&meta, s);
}

}  // namespace cudahistogram
