// Histograms of NVDEC-decoded frames without GStreamer: the embedding path for
// applications that decode themselves.
//
//   nvdec_histogram [--bins N] FILE.h264
//
// FILE is an H.264 Annex B elementary stream (e.g. made with
// `... ! x264enc ! video/x-h264,stream-format=byte-stream ! filesink`). The
// NVIDIA Video Codec SDK's parser and decoder (loaded at run time through
// ffnvcodec's dynlink_loader.h, so nothing here links libcuda or libnvcuvid)
// decode each picture into an NV12 surface in GPU memory; cuvidMapVideoFrame
// hands out its device pointer and pitch, and cudahist::Histogrammer counts Y,
// U and V in place, in one launch. One JSON line per frame on stdout.
//
// CUDA context: the decoder uses the driver API, cudahist the runtime API in
// the context current on the thread. We retain the device's primary context
// (the one the runtime uses) and make it current, so both see the same one.
//
// Exit codes: 0 done, 1 a file or decode error, 2 bad arguments,
// 77 no NVIDIA driver or CUDA device (so that test harnesses report a skip).
#include <cuda_runtime_api.h>
#include <ffnvcodec/dynlink_loader.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "cudahist/cudahist.h"
#include "monitor_analysis.h"

namespace {

constexpr int kExitFailure = 1, kExitUsage = 2, kExitNoGpu = 77;
constexpr char kUsage[] = "usage: nvdec_histogram [--bins N] FILE.h264   (H.264 Annex B elementary stream)\n";
constexpr size_t kPacketBytes = 1 << 20;
constexpr const char* kComponentNames[] = {"Y", "U", "V"};

struct Failure {
  int exit_code;
  std::string message;
};

std::string CuError(CudaFunctions* cu, CUresult result) {
  const char* text = nullptr;
  if (cu->cuGetErrorString(result, &text) == CUDA_SUCCESS && text) return text;
  return "CUDA error " + std::to_string(int(result));
}

// Reads the whole stream and checks that it starts like Annex B H.264.
bool ReadAnnexB(const std::string& path, std::vector<unsigned char>* data, std::string* problem) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *problem = "cannot open '" + path + "'";
    return false;
  }
  data->assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  const bool start_code = (data->size() >= 3 && (*data)[0] == 0 && (*data)[1] == 0 && (*data)[2] == 1) ||
                          (data->size() >= 4 && (*data)[0] == 0 && (*data)[1] == 0 && (*data)[2] == 0 &&
                           (*data)[3] == 1);
  if (data->empty()) *problem = "'" + path + "' is empty";
  else if (!start_code) *problem = "'" + path + "' is not an H.264 Annex B elementary stream (no start code at its beginning)";
  return problem->empty();
}

class NvdecHistogram {
 public:
  NvdecHistogram(CudaFunctions* cu, CuvidFunctions* cuvid, uint32_t bins) : cu_(cu), cuvid_(cuvid), bins_(bins) {}

  ~NvdecHistogram() {
    if (parser_) cuvid_->cuvidDestroyVideoParser(parser_);
    if (decoder_) cuvid_->cuvidDestroyDecoder(decoder_);
    if (stream_) cudaStreamDestroy(stream_);
    histogrammer_.reset();  // frees device memory: the context must still be current
    counts_.reset();
    if (context_) {
      CUcontext popped;
      cu_->cuCtxPopCurrent(&popped);
      cu_->cuDevicePrimaryCtxRelease(device_);
    }
  }

  // Driver, device, primary context, stream, counter. kExitNoGpu when there is no device.
  bool Open(Failure* failure) {
    CUresult r = cu_->cuInit(0);
    int count = 0;
    if (r == CUDA_SUCCESS) r = cu_->cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count == 0) {
      *failure = {kExitNoGpu, "no CUDA device (" + (r != CUDA_SUCCESS ? CuError(cu_, r) : "the driver sees none") + ")"};
      return false;
    }
    char name[256] = "";
    if ((r = cu_->cuDeviceGet(&device_, 0)) != CUDA_SUCCESS ||
        (r = cu_->cuDeviceGetName(name, sizeof name, device_)) != CUDA_SUCCESS ||
        (r = cu_->cuDevicePrimaryCtxRetain(&context_, device_)) != CUDA_SUCCESS) {
      *failure = {kExitNoGpu, "CUDA device 0 is not usable: " + CuError(cu_, r)};
      context_ = nullptr;
      return false;
    }
    if ((r = cu_->cuCtxPushCurrent(context_)) != CUDA_SUCCESS) {
      cu_->cuDevicePrimaryCtxRelease(device_);
      context_ = nullptr;
      return Fail("cuCtxPushCurrent: " + CuError(cu_, r), failure);
    }
    std::fprintf(stderr, "nvdec_histogram: decoding on %s\n", name);

    const cudaError_t e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    if (e != cudaSuccess) return Fail(std::string("cudaStreamCreateWithFlags: ") + cudaGetErrorString(e), failure);
    cudahist::HistogramSpec spec;
    spec.bins = bins_;
    cudahist::Status s = cudahist::Histogrammer::Create(spec, 3, &histogrammer_);
    if (s.ok()) s = cudahist::Pinned<uint32_t>::Create(cudahist::CountsLength(spec, 3), &counts_);
    if (!s.ok()) return Fail("cudahist: " + s.message(), failure);

    CUVIDPARSERPARAMS params = {};
    params.CodecType = cudaVideoCodec_H264;
    params.ulMaxNumDecodeSurfaces = 1;  // raised by the sequence callback's return value
    params.ulMaxDisplayDelay = 0;       // hand out each picture as soon as it may be shown
    params.pUserData = this;
    params.pfnSequenceCallback = [](void* self, CUVIDEOFORMAT* f) {
      return static_cast<NvdecHistogram*>(self)->OnSequence(f);
    };
    params.pfnDecodePicture = [](void* self, CUVIDPICPARAMS* p) {
      return static_cast<NvdecHistogram*>(self)->OnDecode(p);
    };
    params.pfnDisplayPicture = [](void* self, CUVIDPARSERDISPINFO* d) {
      return static_cast<NvdecHistogram*>(self)->OnDisplay(d);
    };
    if ((r = cuvid_->cuvidCreateVideoParser(&parser_, &params)) != CUDA_SUCCESS)
      return Fail("cuvidCreateVideoParser: " + CuError(cu_, r), failure);
    return true;
  }

  bool Decode(const std::vector<unsigned char>& stream, Failure* failure) {
    for (size_t at = 0; at <= stream.size() && error_.empty(); at += kPacketBytes) {
      CUVIDSOURCEDATAPACKET packet = {};
      packet.payload = stream.data() + at;
      packet.payload_size = static_cast<unsigned long>(std::min(kPacketBytes, stream.size() - at));
      if (at + kPacketBytes >= stream.size()) packet.flags = CUVID_PKT_ENDOFSTREAM;  // flushes the display queue
      const CUresult r = cuvid_->cuvidParseVideoData(parser_, &packet);
      if (r != CUDA_SUCCESS && error_.empty()) error_ = "cuvidParseVideoData: " + CuError(cu_, r);
      if (packet.flags == CUVID_PKT_ENDOFSTREAM) break;
    }
    if (!error_.empty()) return Fail(error_, failure);
    if (frames_ == 0) return Fail("the stream held no decodable picture", failure);
    std::fprintf(stderr, "nvdec_histogram: %lu frames\n", frames_);
    return true;
  }

 private:
  bool Fail(const std::string& message, Failure* failure) {
    *failure = {kExitFailure, message};
    return false;
  }

  int OnSequence(CUVIDEOFORMAT* format) {
    if (format->chroma_format != cudaVideoChromaFormat_420 || format->bit_depth_luma_minus8 != 0) {
      error_ = "only 8-bit 4:2:0 H.264 is handled here (NV12 output)";
      return 0;
    }
    // The parser calls back on a format change; an unchanged size keeps the decoder.
    if (decoder_ && format->coded_width == coded_width_ && format->coded_height == coded_height_)
      return int(decode_surfaces_);
    if (decoder_) cuvid_->cuvidDestroyDecoder(decoder_);  // a new size: start over
    decoder_ = nullptr;
    coded_width_ = format->coded_width;
    coded_height_ = format->coded_height;
    width_ = format->display_area.right - format->display_area.left;
    height_ = format->display_area.bottom - format->display_area.top;
    CUVIDDECODECREATEINFO info = {};
    info.CodecType = format->codec;
    info.ChromaFormat = format->chroma_format;
    info.OutputFormat = cudaVideoSurfaceFormat_NV12;
    info.bitDepthMinus8 = 0;
    info.DeinterlaceMode = cudaVideoDeinterlaceMode_Weave;
    info.ulWidth = info.ulMaxWidth = format->coded_width;
    info.ulHeight = info.ulMaxHeight = format->coded_height;
    info.display_area.left = short(format->display_area.left);
    info.display_area.top = short(format->display_area.top);
    info.display_area.right = short(format->display_area.right);
    info.display_area.bottom = short(format->display_area.bottom);
    info.ulTargetWidth = width_;
    info.ulTargetHeight = height_;
    info.ulNumDecodeSurfaces = format->min_num_decode_surfaces + 4;
    info.ulNumOutputSurfaces = 1;
    info.ulCreationFlags = cudaVideoCreate_PreferCUVID;
    const CUresult r = cuvid_->cuvidCreateDecoder(&decoder_, &info);
    if (r != CUDA_SUCCESS) {
      error_ = "cuvidCreateDecoder (" + std::to_string(width_) + "x" + std::to_string(height_) + "): " + CuError(cu_, r);
      decoder_ = nullptr;
      return 0;
    }
    decode_surfaces_ = info.ulNumDecodeSurfaces;
    return int(decode_surfaces_);
  }

  int OnDecode(CUVIDPICPARAMS* picture) {
    const CUresult r = cuvid_->cuvidDecodePicture(decoder_, picture);
    if (r != CUDA_SUCCESS) error_ = "cuvidDecodePicture: " + CuError(cu_, r);
    return r == CUDA_SUCCESS;
  }

  int OnDisplay(CUVIDPARSERDISPINFO* display) {
    if (!display) return 1;  // end of stream
    CUVIDPROCPARAMS proc = {};
    proc.progressive_frame = display->progressive_frame;
    proc.top_field_first = display->top_field_first;
    proc.output_stream = reinterpret_cast<CUstream>(stream_);  // the copy-out is ordered before our count
    CUdeviceptr frame = 0;
    unsigned int pitch = 0;
    CUresult r = cuvid_->cuvidMapVideoFrame(decoder_, display->picture_index, &frame, &pitch, &proc);
    if (r != CUDA_SUCCESS) {
      error_ = "cuvidMapVideoFrame: " + CuError(cu_, r);
      return 0;
    }
    const bool counted = CountFrame(reinterpret_cast<const unsigned char*>(frame), pitch);
    cuvid_->cuvidUnmapVideoFrame(decoder_, frame);
    if (counted) PrintFrame();
    return counted;
  }

  // NV12 surface: the Y plane, then the interleaved UV plane at half size,
  // starting at the even row after the luma (as the SDK's NvDecoder reads it).
  bool CountFrame(const unsigned char* nv12, size_t pitch) {
    cudahist::PlaneView planes[3];
    planes[0].data = nv12;
    planes[0].width = width_;
    planes[0].height = height_;
    planes[0].pitch = pitch;
    for (int c = 1; c <= 2; ++c) {
      planes[c].data = nv12 + pitch * ((height_ + 1) & ~1u);
      planes[c].width = (width_ + 1) / 2;
      planes[c].height = (height_ + 1) / 2;
      planes[c].pitch = pitch;
      planes[c].pixel_stride = 2;
      planes[c].offset = c - 1;
    }
    const cudahist::Status s = histogrammer_->Compute(planes, 3, stream_, counts_->data());
    const cudaError_t e = s.ok() ? cudaStreamSynchronize(stream_) : cudaSuccess;
    if (!s.ok()) error_ = "cudahist: " + s.message();
    else if (e != cudaSuccess) error_ = std::string("cudaStreamSynchronize: ") + cudaGetErrorString(e);
    return error_.empty();
  }

  // Frames come in display order; the raw stream carries no timestamps.
  void PrintFrame() {
    std::printf("{\"frame\":%lu,\"width\":%u,\"height\":%u", frames_++, width_, height_);
    for (int c = 0; c < 3; ++c) {
      const monitor::ComponentSummary s = monitor::Summarize({counts_->data() + size_t(c) * bins_, bins_, 8});
      std::printf(",\"%s\":{\"mean\":%.3f,\"min\":%u,\"max\":%u}", kComponentNames[c], s.mean, s.min, s.max);
    }
    std::printf("}\n");
  }

  CudaFunctions* cu_;
  CuvidFunctions* cuvid_;
  uint32_t bins_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  cudaStream_t stream_ = nullptr;
  CUvideoparser parser_ = nullptr;
  CUvideodecoder decoder_ = nullptr;
  std::unique_ptr<cudahist::Histogrammer> histogrammer_;
  std::unique_ptr<cudahist::Pinned<uint32_t>> counts_;
  unsigned width_ = 0, height_ = 0;  // displayed size
  unsigned coded_width_ = 0, coded_height_ = 0;
  unsigned long decode_surfaces_ = 0;
  unsigned long frames_ = 0;
  std::string error_;  // the first failure inside a parser callback
};

int Run(const std::string& path, uint32_t bins) {
  std::vector<unsigned char> stream;
  std::string problem;
  if (!ReadAnnexB(path, &stream, &problem)) {
    std::fprintf(stderr, "nvdec_histogram: %s\n", problem.c_str());
    return kExitFailure;
  }
  CudaFunctions* cu = nullptr;
  CuvidFunctions* cuvid = nullptr;
  if (cuda_load_functions(&cu, nullptr) < 0 || cuvid_load_functions(&cuvid, nullptr) < 0) {
    std::fprintf(stderr, "nvdec_histogram: no NVIDIA driver (libcuda.so.1 or libnvcuvid.so.1 could not be loaded)\n");
    cuvid_free_functions(&cuvid);
    cuda_free_functions(&cu);
    return kExitNoGpu;
  }
  Failure failure{0, ""};
  {
    NvdecHistogram decoder(cu, cuvid, bins);
    if (decoder.Open(&failure)) decoder.Decode(stream, &failure);
  }
  cuvid_free_functions(&cuvid);
  cuda_free_functions(&cu);
  if (failure.exit_code != 0) std::fprintf(stderr, "nvdec_histogram: %s\n", failure.message.c_str());
  return failure.exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t bins = 256;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--bins" && i + 1 < argc) {
      char* end = nullptr;
      const long value = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || value < 1 || value > 256) {
        std::fprintf(stderr, "nvdec_histogram: --bins wants a count from 1 to 256 (8-bit video), got '%s'\n%s",
                     argv[i], kUsage);
        return kExitUsage;
      }
      bins = uint32_t(value);
    } else if (arg.rfind("--", 0) == 0 || !path.empty()) {
      std::fprintf(stderr, "nvdec_histogram: unexpected argument '%s'\n%s", arg.c_str(), kUsage);
      return kExitUsage;
    } else {
      path = arg;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "nvdec_histogram: no input file\n%s", kUsage);
    return kExitUsage;
  }
  return Run(path, bins);
}
