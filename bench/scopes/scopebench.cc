// bench/scopebench: the benchmark of the scope counts, in one run.
// For each shape: the read + write roofline (the input read once, the counts
// written once, one launch), cudahist's ColumnHistogrammer /
// JointHistogrammer, the two-phase per-column kernel as its article writes it (where it
// applies) and CUB; every result checked against the CPU path
// (CpuColumnHistogram / CpuJointHistogram, itself tested against the
// reference) before it is timed.
//   (a) the article's workload: [length, 512] 8-bit, 256 MiB, 256 bins a channel
//   (b) 1080p luma per column: 1920 groups x 256 bins
//   (c) 4K luma per column: 3840 groups x 256 bins
//   (d) 1080p NV12 U-V joint, 256 x 256
// Planes are dense (pitch = row), as the article's [length, channels] input is.
// Timing: CUDA events around a pass of back-to-back calls over a rotation of
// frames at least kRotationOverL2 times the L2 size (each frame read from
// DRAM), after a warm-up pass; the median over repeats, per call.
//   scopebench [--quick] [--json PATH] [--repeats N] [--distribution uniform|peaked]
//              [--methods roofline,cudahist,article,cub] [--cases abcd]
// --methods times only those (bench/tuning/tune_scopes.sh's variants: roofline and
// cudahist); cudahist is always checked against the CPU path first. --cases
// runs only the shapes (a) to (d) named (a profiler's run of one kernel).
// Exit 1 on any mismatch or error, 77 (a skipped test) without a CUDA device.
#include <cuda_runtime_api.h>
#include <cudahist/cudahist.h>
#include <cudahist/scopes.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench_report.h"
#include "bench_stats.h"
#include "gpu_inputs.h"
#include "scope_baselines.h"
#include "column_article_baseline.h"

namespace bench {
namespace {

constexpr int kDefaultRepeats = 20;
constexpr size_t kRotationOverL2 = 2;
constexpr int kMaxFrames = 128;
// CUB with one call per column takes milliseconds a frame: timed on one frame, this many times.
constexpr int kSlowRepeats = 3;

struct Options {
  bool quick = false;
  std::string json_path;
  int repeats = kDefaultRepeats;
  Distribution distribution = Distribution::kUniform;
  std::string methods = "roofline,cudahist,article,cub";  // comma-separated
  // "cub" stands for every CUB row (cub, cub strided, cub transposed).
  std::string cases = "abcd";
  bool Wants(const std::string& method) const { return ("," + methods + ",").find("," + method + ",") != std::string::npos; }
};

enum class Kind { kColumns, kJoint };

struct Shape {
  std::string name;
  Kind kind;
  uint32_t width, height;  // columns: samples; joint: U-V pairs (the plane is 2 x width bytes wide)
  uint32_t groups;         // columns
};

std::vector<Shape> Shapes(bool quick) {
  if (quick) {
    return {{"(a) article [8192, 512]", Kind::kColumns, 512, 8192, 512},
            {"(b) luma 320x180 columns", Kind::kColumns, 320, 180, 320},
            {"(c) luma 640x360 columns", Kind::kColumns, 640, 360, 640},
            {"(d) nv12 u-v 160x90 joint", Kind::kJoint, 160, 90, 0}};
  }
  return {{"(a) article [524288, 512]", Kind::kColumns, 512, 524288, 512},
          {"(b) 1080p luma 1920 columns", Kind::kColumns, 1920, 1080, 1920},
          {"(c) 4K luma 3840 columns", Kind::kColumns, 3840, 2160, 3840},
          {"(d) 1080p nv12 u-v joint", Kind::kJoint, 960, 540, 0}};
}

std::string CudaText(cudaError_t e) { return e == cudaSuccess ? "" : cudaGetErrorString(e); }

// The frames of one shape in device memory, their host copies' counts.
struct Pool {
  Shape shape;
  size_t pitch = 0, frame_bytes = 0, counts_words = 0;
  std::vector<uint8_t*> frames;
  std::vector<std::vector<uint32_t>> expected;
  ~Pool() {
    for (uint8_t* f : frames) cudaFree(f);
  }
  cudahist::PlaneView View(int f, int component = 0) const {
    cudahist::PlaneView v;
    v.data = frames[size_t(f)];
    v.width = shape.width;
    v.height = shape.height;
    v.pitch = pitch;
    if (shape.kind == Kind::kJoint) {
      v.pixel_stride = 2;
      v.offset = uint32_t(component);
    }
    return v;
  }
  cudahist::ColumnHistogramSpec ColumnSpec() const {
    const cudahist::ColumnHistogramSpec s{/*groups=*/shape.groups, /*bins=*/256};
    return s;
  }
};

std::string MakePool(const Shape& shape, const Options& opt, const cudaDeviceProp& prop, cudaStream_t stream,
                     Pool* pool) {
  pool->shape = shape;
  pool->pitch = shape.kind == Kind::kJoint ? size_t(shape.width) * 2 : shape.width;
  pool->frame_bytes = pool->pitch * shape.height;
  pool->counts_words = shape.kind == Kind::kJoint ? 65536 : size_t(shape.groups) * 256;
  const size_t rotation = kRotationOverL2 * size_t(prop.l2CacheSize);
  const int frames = opt.quick ? 2 : int(std::min<size_t>(kMaxFrames, std::max<size_t>(2, (rotation + pool->frame_bytes - 1) / pool->frame_bytes)));
  std::vector<uint8_t> host(pool->frame_bytes);
  for (int f = 0; f < frames; ++f) {
    uint8_t* d = nullptr;
    const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&d), pool->frame_bytes + 16);
    if (e != cudaSuccess) return "cudaMalloc(frame): " + CudaText(e);
    pool->frames.push_back(d);
    for (int c = 0; c < (shape.kind == Kind::kJoint ? 2 : 1); ++c) {
      FillRecipe recipe;
      recipe.distribution = opt.distribution;
      recipe.seed = uint32_t(f * 2 + c + 1);
      const cudaError_t fill = FillPlane(pool->View(f, c), recipe, stream);
      if (fill != cudaSuccess) return "FillPlane: " + CudaText(fill);
    }
    if (cudaStreamSynchronize(stream) != cudaSuccess ||
        cudaMemcpy(host.data(), d, pool->frame_bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
      return "reading frame back: " + CudaText(cudaGetLastError());
    }
    // The expected counts: the CPU path on the host copy.
    std::vector<uint32_t> counts(pool->counts_words);
    cudahist::PlaneView a = pool->View(f, 0), b = pool->View(f, 1);
    a.data = b.data = host.data();
    const cudahist::Status s =
        shape.kind == Kind::kJoint
            ? cudahist::CpuJointHistogram(cudahist::JointHistogramSpec(), a, b, counts.data())
            : cudahist::CpuColumnHistogram(pool->ColumnSpec(), a, counts.data());
    if (!s.ok()) return "CPU counts: " + s.message();
    pool->expected.push_back(std::move(counts));
  }
  return "";
}

// Runs `call(frame)` over the rotation: a warm-up pass, then `repeats`
// timed passes; the median per call, in microseconds.
using Call = std::function<cudaError_t(int frame)>;

std::string TimePasses(const Call& call, int frames, int repeats, cudaStream_t stream, double* us) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::string err;
  std::vector<double> samples;
  for (int pass = -1; pass < repeats && err.empty(); ++pass) {
    cudaEventRecord(start, stream);
    for (int f = 0; f < frames && err.empty(); ++f) err = CudaText(call(f));
    cudaEventRecord(stop, stream);
    if (cudaEventSynchronize(stop) != cudaSuccess) err = CudaText(cudaGetLastError());
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (pass >= 0) samples.push_back(double(ms) * 1e3 / frames);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  *us = Median(samples);
  return err;
}

// A library call as a Call: its failure printed, reported as a CUDA error.
cudaError_t Reported(const cudahist::Status& s) {
  if (s.ok()) return cudaSuccess;
  std::fprintf(stderr, "cudahist: %s\n", s.message().c_str());
  return cudaErrorUnknown;
}

// Device counts (uint32 or int) against the expected ones.
template <typename T>
std::string Compare(const T* device_counts, const std::vector<uint32_t>& expected, int frame) {
  std::vector<T> got(expected.size());
  if (cudaMemcpy(got.data(), device_counts, got.size() * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess) {
    return "reading counts: " + CudaText(cudaGetLastError());
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (uint32_t(got[i]) != expected[i]) {
      return "frame " + std::to_string(frame) + " count " + std::to_string(i) + ": " + std::to_string(uint32_t(got[i])) +
             " != " + std::to_string(expected[i]);
    }
  }
  return "";
}

class ShapeRunner {
 public:
  ShapeRunner(const Pool& pool, cudaStream_t stream, std::vector<Row>* rows)
      : pool_(pool), stream_(stream), rows_(rows) {}

  // Checks `call` on `check_frames` frames (counts read from `counts`), then
  // times it over `timed_frames` frames.
  template <typename T>
  void Measure(const std::string& method, const std::string& note, const Call& call, const T* counts,
               int check_frames, int timed_frames, int repeats) {
    Row row;
    row.case_name = pool_.shape.name;
    row.method = method;
    row.note = note;
    row.bytes = double(pool_.frame_bytes) + double(pool_.counts_words) * 4;
    for (int f = 0; f < check_frames; ++f) {
      cudaError_t e = call(f);
      if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
      if (e != cudaSuccess) return Add(row, "ERROR", CudaText(e));
      if (counts != nullptr) {
        const std::string mismatch = Compare(counts, pool_.expected[size_t(f)], f);
        if (!mismatch.empty()) return Add(row, "MISMATCH", mismatch);
      }
    }
    const std::string err = TimePasses(call, timed_frames, repeats, stream_, &row.microseconds);
    if (!err.empty()) return Add(row, "ERROR", err);
    row.repeats = repeats;
    Add(row, "ok", note);
  }

 private:
  void Add(Row row, const std::string& status, const std::string& note) {
    row.status = status;
    row.note = note;
    std::printf("  %-28s %-22s %s%s%s\n", row.case_name.c_str(), row.method.c_str(), status.c_str(),
                note.empty() ? "" : ": ", note.c_str());
    std::fflush(stdout);
    rows_->push_back(row);
  }

  const Pool& pool_;
  cudaStream_t stream_;
  std::vector<Row>* rows_;
};

// Device buffers freed at scope exit.
struct DeviceBuffer {
  void* p = nullptr;
  ~DeviceBuffer() { cudaFree(p); }
  cudaError_t Allocate(size_t bytes) { return cudaMalloc(&p, std::max<size_t>(bytes, 1)); }
  template <typename T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

std::string RunShape(const Shape& shape, const Options& opt, const cudaDeviceProp& prop, cudaStream_t stream,
                     std::vector<Row>* rows) {
  Pool pool;
  const std::string made = MakePool(shape, opt, prop, stream, &pool);
  if (!made.empty()) return made;
  const int frames = int(pool.frames.size());
  ShapeRunner run(pool, stream, rows);
  std::printf("%s: %d frames of %.2f MiB, %zu counts\n", shape.name.c_str(), frames, pool.frame_bytes / 1048576.0,
              pool.counts_words);
  DeviceBuffer counts, int_counts;
  if (counts.Allocate(pool.counts_words * 4) != cudaSuccess || int_counts.Allocate(pool.counts_words * 4) != cudaSuccess) {
    return "cudaMalloc(counts)";
  }

  if (opt.Wants("roofline")) {
    run.Measure<uint32_t>("roofline", "reads the frame, writes the counts once", [&](int f) {
      return LaunchReadWriteRoofline(pool.frames[size_t(f)], pool.frame_bytes, counts.as<uint32_t>(),
                                     pool.counts_words, stream);
    }, nullptr, 0, frames, opt.repeats);
  }

  if (shape.kind == Kind::kJoint) {
    std::unique_ptr<cudahist::JointHistogrammer> joint;
    const cudahist::Status created = cudahist::JointHistogrammer::Create(&joint);
    if (!created.ok()) return "JointHistogrammer::Create: " + created.message();
    run.Measure<uint32_t>("cudahist", "JointHistogrammer, one launch", [&](int f) {
      return Reported(joint->Compute(cudahist::JointHistogramSpec(), pool.View(f, 0), pool.View(f, 1), stream,
                                     counts.as<uint32_t>()));
    }, counts.as<uint32_t>(), frames, frames, opt.repeats);
    if (!opt.Wants("cub")) return "";
    size_t temp_bytes = 0;
    CubJointUv(nullptr, &temp_bytes, pool.frames[0], int(shape.width), int(shape.height), pool.pitch,
               int_counts.as<int>(), stream);
    DeviceBuffer temp;
    if (temp.Allocate(temp_bytes) != cudaSuccess) return "cudaMalloc(CUB temp)";
    run.Measure<int>("cub", "HistogramEven over the UV plane as 16-bit words (bin = V * 256 + U), 65536 bins",
                     [&](int f) {
                       return CubJointUv(temp.p, &temp_bytes, pool.frames[size_t(f)], int(shape.width),
                                         int(shape.height), pool.pitch, int_counts.as<int>(), stream);
                     },
                     int_counts.as<int>(), frames, frames, opt.repeats);
    Row article;
    article.case_name = shape.name;
    article.method = "article";
    article.status = "n/a";
    article.note = "the article's kernel counts one histogram per channel; it has no joint histogram";
    rows->push_back(article);
    return "";
  }

  std::unique_ptr<cudahist::ColumnHistogrammer> column;
  const cudahist::Status created = cudahist::ColumnHistogrammer::Create(&column);
  if (!created.ok()) return "ColumnHistogrammer::Create: " + created.message();
  run.Measure<uint32_t>("cudahist", "ColumnHistogrammer, one launch", [&](int f) {
    return Reported(column->Compute(pool.ColumnSpec(), pool.View(f), stream, counts.as<uint32_t>()));
  }, counts.as<uint32_t>(), frames, frames, opt.repeats);

  if (!opt.Wants("article") && !opt.Wants("cub")) return "";
  ArticleShape article_shape;
  std::string why;
  if (!opt.Wants("article")) {
    // no row of the article's kernel
  } else if (ArticleShapeFor(int(shape.height), int(shape.width), &article_shape, &why)) {
    DeviceBuffer partials;
    if (partials.Allocate(ArticlePartialInts(article_shape) * sizeof(int)) != cudaSuccess) return "cudaMalloc(partials)";
    run.Measure<int>("article",
                     "article's kernels, H100 config: memset of the " +
                         std::to_string(ArticlePartialInts(article_shape) * 4 >> 20) +
                         " MiB partials + count (" + std::to_string(article_shape.grid_x) + "x" +
                         std::to_string(article_shape.grid_y) + " blocks) + reduce",
                     [&](int f) {
                       return LaunchArticleColumns(pool.frames[size_t(f)], article_shape, partials.as<int>(),
                                            int_counts.as<int>(), stream);
                     },
                     int_counts.as<int>(), frames, frames, opt.repeats);
  } else {
    Row article;
    article.case_name = shape.name;
    article.method = "article";
    article.status = "n/a";
    article.note = why;
    rows->push_back(article);
  }

  if (!opt.Wants("cub")) return "";
  // CUB: one HistogramEven per column, both ways; one frame, few repeats.
  const int cub_frames = 1;
  {
    size_t temp_bytes = 0;
    CubColumnsStrided(nullptr, &temp_bytes, pool.frames[0], int(shape.width), int(shape.height), pool.pitch,
                      int_counts.as<int>(), stream);
    DeviceBuffer temp;
    if (temp.Allocate(temp_bytes) != cudaSuccess) return "cudaMalloc(CUB temp)";
    run.Measure<int>("cub strided",
                     std::to_string(shape.width) + " HistogramEven calls a frame, each a 2-D region one column wide",
                     [&](int f) {
                       return CubColumnsStrided(temp.p, &temp_bytes, pool.frames[size_t(f)], int(shape.width),
                                                int(shape.height), pool.pitch, int_counts.as<int>(), stream);
                     },
                     int_counts.as<int>(), cub_frames, cub_frames, kSlowRepeats);
  }
  {
    DeviceBuffer transposed;
    if (transposed.Allocate(pool.frame_bytes) != cudaSuccess) return "cudaMalloc(transposed)";
    const cudaError_t t = TransposeBytes(pool.frames[0], int(shape.width), int(shape.height), pool.pitch,
                                         transposed.as<uint8_t>(), stream);
    if (t != cudaSuccess) return "TransposeBytes: " + CudaText(t);
    size_t temp_bytes = 0;
    CubColumnsContiguous(nullptr, &temp_bytes, transposed.as<uint8_t>(), int(shape.width), int(shape.height),
                         int_counts.as<int>(), stream);
    DeviceBuffer temp;
    if (temp.Allocate(temp_bytes) != cudaSuccess) return "cudaMalloc(CUB temp)";
    run.Measure<int>("cub transposed",
                     std::to_string(shape.width) +
                         " 1-D HistogramEven calls a frame on a transposed copy (the transpose not timed; "
                         "the copy stays the same frame, so it may sit in L2)",
                     [&](int) {
                       return CubColumnsContiguous(temp.p, &temp_bytes, transposed.as<uint8_t>(), int(shape.width),
                                                   int(shape.height), int_counts.as<int>(), stream);
                     },
                     int_counts.as<int>(), cub_frames, cub_frames, kSlowRepeats);
  }
  return "";
}

const Row* Find(const std::vector<Row>& rows, const std::string& case_name, const std::string& method) {
  for (const Row& r : rows) {
    if (r.case_name == case_name && r.method == method && r.status == "ok" && r.microseconds > 0) return &r;
  }
  return nullptr;
}

// The targets, from the measured rows: >= 2x the article's kernel on its own
// workload, >= 0.8 of the read + write roofline on every shape.
std::vector<std::string> Targets(const std::vector<Row>& rows, const std::vector<Shape>& shapes) {
  std::vector<std::string> lines;
  char line[256];
  for (const Shape& s : shapes) {
    const Row* ours = Find(rows, s.name, "cudahist");
    if (ours == nullptr) {
      lines.push_back(s.name + ": cudahist did not run");
      continue;
    }
    std::snprintf(line, sizeof line, "%s: cudahist at %.2f of the read+write roofline (target 0.80: %s)",
                  s.name.c_str(), ours->roofline_fraction, ours->roofline_fraction >= 0.8 ? "met" : "MISSED");
    lines.push_back(line);
    if (const Row* article = Find(rows, s.name, "article")) {
      const double x = article->microseconds / ours->microseconds;
      std::snprintf(line, sizeof line, "%s: cudahist %.2fx the article's kernel%s", s.name.c_str(), x,
                    s.name.rfind("(a)", 0) == 0 ? (x >= 2.0 ? " (target 2x: met)" : " (target 2x: MISSED)") : "");
      lines.push_back(line);
    }
  }
  return lines;
}

bool ParseOptions(int argc, char** argv, Options* opt) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      opt->quick = true;
    } else if (a == "--json" && i + 1 < argc) {
      opt->json_path = argv[++i];
    } else if (a == "--repeats" && i + 1 < argc) {
      opt->repeats = std::atoi(argv[++i]);
      if (opt->repeats < 1) return false;
    } else if (a == "--cases" && i + 1 < argc) {
      opt->cases = argv[++i];
    } else if (a == "--methods" && i + 1 < argc) {
      opt->methods = argv[++i];
    } else if (a == "--distribution" && i + 1 < argc) {
      const std::string d = argv[++i];
      if (d == "uniform") {
        opt->distribution = Distribution::kUniform;
      } else if (d == "peaked") {
        opt->distribution = Distribution::kPeaked;
      } else {
        return false;
      }
    } else {
      return false;
    }
  }
  if (opt->quick && opt->repeats == kDefaultRepeats) opt->repeats = 2;
  return true;
}

int Main(int argc, char** argv) {
  Options opt;
  if (!ParseOptions(argc, argv, &opt)) {
    std::fprintf(stderr,
                 "usage: scopebench [--quick] [--json PATH] [--repeats N] [--distribution uniform|peaked] "
                 "[--methods roofline,cudahist,article,cub] [--cases abcd]\n");
    return 2;
  }
  const cudahist::Status device = cudahist::CheckCudaDevice();
  if (!device.ok()) {
    std::printf("scopebench: %s (skipped)\n", device.message().c_str());
    return kExitSkip;
  }
  cudaDeviceProp prop = {};
  int dev = 0;
  cudaGetDevice(&dev);
  cudaGetDeviceProperties(&prop, dev);
  cudaStream_t stream = nullptr;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  char when[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  std::printf("scopebench: %s, %d SMs, L2 %d MiB, %s, %s samples, %d repeats%s\n", prop.name,
              prop.multiProcessorCount, prop.l2CacheSize >> 20, when, DistributionName(opt.distribution), opt.repeats,
              opt.quick ? " (quick)" : "");
  std::vector<Row> rows;
  std::vector<Shape> shapes;
  for (const Shape& s : Shapes(opt.quick)) {
    if (opt.cases.find(s.name[1]) != std::string::npos) shapes.push_back(s);  // names start "(a) "
  }
  bool failed = false;
  for (const Shape& s : shapes) {
    const std::string err = RunShape(s, opt, prop, stream, &rows);
    if (!err.empty()) {
      std::printf("%s: %s\n", s.name.c_str(), err.c_str());
      failed = true;
    }
  }
  Derive(&rows);
  PrintTable(rows);
  std::printf("(here the roofline reads the frame and writes the counts once; bytes = frame + counts)\n\n");
  const std::vector<std::string> targets = Targets(rows, shapes);
  for (const std::string& t : targets) std::printf("%s\n", t.c_str());
  for (const Row& r : rows) failed = failed || r.status == "MISMATCH" || r.status == "ERROR";
  if (!opt.json_path.empty()) {
    std::vector<std::string> header = {
        "\"device\": " + JsonString(prop.name), "\"sms\": " + std::to_string(prop.multiProcessorCount),
        "\"l2_bytes\": " + std::to_string(prop.l2CacheSize), "\"date\": " + JsonString(when),
        "\"distribution\": " + JsonString(DistributionName(opt.distribution)),
        "\"repeats\": " + std::to_string(opt.repeats), "\"quick\": " + std::string(opt.quick ? "true" : "false")};
    std::string t = "\"targets\": [";
    for (size_t i = 0; i < targets.size(); ++i) t += (i ? ", " : "") + JsonString(targets[i]);
    header.push_back(t + "]");
    if (!WriteJson(opt.json_path, header, rows)) {
      std::printf("could not write %s\n", opt.json_path.c_str());
      failed = true;
    }
  }
  cudaStreamDestroy(stream);
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) { return bench::Main(argc, argv); }
