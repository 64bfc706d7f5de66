// SignalStatsCounter (the GPU path) against ReferenceSignalStats, bit for
// bit, over the same format matrix as the CPU backend, large frames, and
// frames counted back to back on one stream; its QC counts, from the same
// launch, against ReferenceQcCounts the same way. Each test skips (with
// CheckCudaDevice's message) when there is no CUDA device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cudahist/cpu.h"
#include "cudahist/histogrammer.h"
#include "cudahist/signalstats.h"
#include "cuda_test.h"
#include "frames.h"
#include "seeded_rng.h"
#include "test_planes.h"
#include "yuv_frames.h"

namespace cudahist_test {
namespace {

using cudahist::SignalStatsCounter;
using cudahist::SignalStatsCounts;
using cudahist::Status;
using cudahist::StatusCode;
using cudahist::YuvPlanes;

// Device copies of a YuvFrame's allocations, of their exact sizes (DeviceFrame
// with no slack), views rebased.
class DeviceYuvFrame {
 public:
  explicit DeviceYuvFrame(const YuvFrame& host) : view_(host.view) {
    ok_ = device_.Upload(host.planes, {host.view.y, host.view.u, host.view.v}, 0) == cudaSuccess;
    if (ok_) {
      view_.y = device_.views()[0];
      view_.u = device_.views()[1];
      view_.v = device_.views()[2];
    }
  }
  bool ok() const { return ok_; }
  const YuvPlanes& view() const { return view_; }

 private:
  DeviceFrame device_;
  bool ok_ = false;
  YuvPlanes view_;
};

SignalStatsCounts Reference(const YuvPlanes& frame, const YuvPlanes* previous) {
  SignalStatsCounts c;
  const Status s = cudahist::ReferenceSignalStats(frame, previous, &c);
  EXPECT_TRUE(s.ok()) << s.message();
  return c;
}

// Counts of `frame` (and `previous`, may be null) on the GPU, both into pinned
// memory (the accumulator's path) and into device memory (a direct launch),
// each destination poisoned first; "" when both equal the reference.
std::string GpuDifference(SignalStatsCounter& counter, const YuvFrame& frame, const YuvFrame* previous,
                          cudahist::Pinned<cudahist::SignalStatsCounts>& pinned) {
  DeviceYuvFrame d(frame);
  std::unique_ptr<DeviceYuvFrame> dp = previous != nullptr ? std::make_unique<DeviceYuvFrame>(*previous) : nullptr;
  if (!d.ok() || (dp && !dp->ok())) return "device copy failed";
  const SignalStatsCounts want = Reference(frame.view, previous ? &previous->view : nullptr);
  std::memset(pinned.data(), 0xAB, sizeof(SignalStatsCounts));
  Status s = counter.Compute(d.view(), dp ? &dp->view() : nullptr, nullptr, pinned.data());
  if (!s.ok()) return "Compute (pinned): " + s.message();
  if (cudaStreamSynchronize(nullptr) != cudaSuccess) return std::string("sync: ") + cudaGetErrorString(cudaGetLastError());
  const std::string pinned_difference = CountsDifference(*pinned.data(), want);
  if (!pinned_difference.empty()) return "pinned: " + pinned_difference;
  SignalStatsCounts* d_counts = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&d_counts), sizeof(SignalStatsCounts)) != cudaSuccess) return "cudaMalloc";
  SignalStatsCounts got;
  std::memset(&got, 0xAB, sizeof(got));
  std::string error;
  if (CopyToDevice(d_counts, &got, sizeof(got)) != cudaSuccess) {
    error = "poisoning the device counts failed";
  } else if (!(s = counter.Compute(d.view(), dp ? &dp->view() : nullptr, nullptr, d_counts)).ok()) {
    error = "Compute (device): " + s.message();
  } else if (cudaMemcpy(&got, d_counts, sizeof(got), cudaMemcpyDeviceToHost) != cudaSuccess) {
    error = std::string("copy back: ") + cudaGetErrorString(cudaGetLastError());
  } else {
    const std::string device_difference = CountsDifference(got, want);
    if (!device_difference.empty()) error = "device: " + device_difference;
  }
  cudaFree(d_counts);
  return error;
}

// A frame layout of the default format, `width` x `height`.
YuvFrameSpec SpecOfSize(uint32_t width, uint32_t height) {
  YuvFrameSpec spec;
  spec.width = width;
  spec.height = height;
  return spec;
}

// The small odd-sized frame the bad-input tests break a copy of, then count.
YuvFrame SmallOddFrame() {
  std::mt19937_64 rng(7);
  return MakeYuvFrame(SpecOfSize(33, 17), rng);
}

// A CUDA graph and its executable instance, destroyed with it.
struct CapturedGraph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  CapturedGraph() = default;
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;
  ~CapturedGraph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
};

// Captures `compute` (one Compute on `stream`) into `captured` and
// instantiates it.
template <typename Compute>
void CaptureIntoGraph(cudaStream_t stream, Compute compute, CapturedGraph* captured) {
  ASSERT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const Status s = compute();
  ASSERT_CUDA(cudaStreamEndCapture(stream, &captured->graph));
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_CUDA(cudaGraphInstantiate(&captured->exec, captured->graph, 0));
}

struct GpuFixture : ::testing::Test {
  void SetUp() override {
    SKIP_WITHOUT_CUDA_DEVICE();
    const Status s = SignalStatsCounter::Create(&counter);
    ASSERT_TRUE(s.ok()) << s.message();
    const Status p = cudahist::Pinned<cudahist::SignalStatsCounts>::Create(&pinned);
    ASSERT_TRUE(p.ok()) << p.message();
  }
  std::unique_ptr<SignalStatsCounter> counter;
  std::unique_ptr<cudahist::Pinned<cudahist::SignalStatsCounts>> pinned;
};

TEST(SignalStatsGpuNoDevice, CreateSaysWhy) {
  if (cudahist::CheckCudaDevice().ok()) GTEST_SKIP() << "a CUDA device is present";
  std::unique_ptr<SignalStatsCounter> counter;
  const Status s = SignalStatsCounter::Create(&counter);
  EXPECT_EQ(s.code(), StatusCode::kNoDevice);
  EXPECT_EQ(s.message().rfind("no CUDA device: ", 0), 0u) << s.message();
  EXPECT_EQ(counter, nullptr);
}

using SignalStatsGpu = GpuFixture;

TEST_F(SignalStatsGpu, EqualsReferenceOverTheMatrix) {
  SeededRng rng;
  for (const auto& [spec, frame, previous] : SignalStatsMatrixFrames(rng)) {
    SCOPED_TRACE(Describe(spec));
    EXPECT_EQ(GpuDifference(*counter, frame, nullptr, *pinned), "");
    EXPECT_EQ(GpuDifference(*counter, frame, &previous, *pinned), "");
  }
}

// Full HD and 4K: many blocks, the last-block ticket, flat frames on the
// lane copies, 10 bits.
TEST_F(SignalStatsGpu, LargeFrames) {
  SeededRng rng;
  struct Case {
    YuvFormat format;
    uint32_t w, h;
    Distribution d;
    uint32_t one_value;
  };
  const Case cases[] = {{YuvFormat::kNv12, 1920, 1080, Distribution::kUniform, 0},
                        {YuvFormat::kNv12, 1920, 1080, Distribution::kOneValue, 16},
                        {YuvFormat::kNv12, 3840, 2160, Distribution::kPeaked, 0},
                        {YuvFormat::kP010, 1920, 1080, Distribution::kUniform, 0},
                        {YuvFormat::kP010, 1920, 1080, Distribution::kOneValue, 1000},
                        {YuvFormat::kYuy2, 1921, 1081, Distribution::kPeaked, 0},
                        {YuvFormat::kY444, 1920, 1080, Distribution::kUniform, 0}};
  for (const Case& c : cases) {
    YuvFrameSpec spec;
    spec.format = c.format;
    spec.width = c.w;
    spec.height = c.h;
    spec.distribution = c.d;
    spec.one_value = c.one_value;
    spec.pitch_padding = 64;
    SCOPED_TRACE(Describe(spec));
    const YuvFrame frame = MakeYuvFrame(spec, rng);
    spec.distribution = Distribution::kPeaked;
    const YuvFrame previous = MakeYuvFrame(spec, rng);
    EXPECT_EQ(GpuDifference(*counter, frame, &previous, *pinned), "");
  }
}

// Frames counted back to back on one stream, synchronised once, counts into
// device memory: two runs of three frames, each run one layout (NV12, then
// I420 of another width) and each frame of a run the previous of the next,
// as a decoder hands them (the first of a run has none). Every launch leaves
// the scratch zero for the next, whatever the frame, layout or previous.
TEST_F(SignalStatsGpu, BackToBackOnOneStream) {
  SeededRng rng;
  const Distribution dists[] = {Distribution::kUniform, Distribution::kOneValue, Distribution::kPeaked,
                                Distribution::kUniform, Distribution::kOneValue, Distribution::kPeaked};
  constexpr size_t kRun = 3;  // frames of one layout in a row
  std::vector<YuvFrame> frames;
  std::vector<std::unique_ptr<DeviceYuvFrame>> device;
  for (size_t i = 0; i < std::size(dists); ++i) {
    YuvFrameSpec spec;
    spec.format = i < kRun ? YuvFormat::kNv12 : YuvFormat::kI420;
    spec.width = i < kRun ? 640 : 642;
    spec.height = 361;
    spec.distribution = dists[i];
    spec.one_value = uint32_t(10 + 40 * i);
    frames.push_back(MakeYuvFrame(spec, rng));
    device.push_back(std::make_unique<DeviceYuvFrame>(frames.back()));
    ASSERT_TRUE(device.back()->ok());
  }
  auto previous_of = [&](size_t i) { return i % kRun != 0 ? i - 1 : SIZE_MAX; };
  cudaStream_t stream = nullptr;
  ASSERT_CUDA(cudaStreamCreate(&stream));
  SignalStatsCounts* d_counts = nullptr;
  ASSERT_CUDA(cudaMalloc(reinterpret_cast<void**>(&d_counts), sizeof(SignalStatsCounts) * frames.size()));
  for (size_t i = 0; i < frames.size(); ++i) {
    const size_t p = previous_of(i);
    const YuvPlanes* prev = p != SIZE_MAX ? &device[p]->view() : nullptr;
    const Status s = counter->Compute(device[i]->view(), prev, stream, d_counts + i);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  std::vector<SignalStatsCounts> got(frames.size());
  ASSERT_CUDA(cudaMemcpyAsync(got.data(), d_counts, sizeof(SignalStatsCounts) * frames.size(),
                              cudaMemcpyDeviceToHost, stream));
  ASSERT_CUDA(cudaStreamSynchronize(stream));
  for (size_t i = 0; i < frames.size(); ++i) {
    SCOPED_TRACE("frame " + std::to_string(i));
    const size_t p = previous_of(i);
    EXPECT_EQ(got[i].has_previous, p != SIZE_MAX ? 1u : 0u);
    EXPECT_EQ(CountsDifference(got[i], Reference(frames[i].view, p != SIZE_MAX ? &frames[p].view : nullptr)), "");
  }
  cudaFree(d_counts);
  cudaStreamDestroy(stream);
}

// One Compute captured into a CUDA graph and the graph launched four times,
// the counts poisoned before each: every launch counts the frame again, into
// device memory (a direct launch, whose frozen arguments must not tell its
// blocks what the zeros of an earlier launch look like) and into pinned
// memory (the accumulator).
TEST_F(SignalStatsGpu, GraphLaunchesEachCountTheFrameAgain) {
  SeededRng rng;
  const YuvFrameSpec spec = SpecOfSize(1920, 1080);
  const YuvFrame frame = MakeYuvFrame(spec, rng);
  const YuvFrame previous = MakePreviousYuvFrame(spec, rng);
  DeviceYuvFrame d(frame), dp(previous);
  ASSERT_TRUE(d.ok() && dp.ok());
  const SignalStatsCounts want = Reference(frame.view, &previous.view);
  SignalStatsCounts* d_counts = nullptr;
  ASSERT_CUDA(cudaMalloc(reinterpret_cast<void**>(&d_counts), sizeof(SignalStatsCounts)));
  cudaStream_t stream = nullptr;
  ASSERT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (SignalStatsCounts* destination : {d_counts, pinned->data()}) {
    SCOPED_TRACE(destination == d_counts ? "device counts" : "pinned counts");
    CapturedGraph captured;
    const auto compute = [&] { return counter->Compute(d.view(), &dp.view(), stream, destination); };
    ASSERT_NO_FATAL_FAILURE(CaptureIntoGraph(stream, compute, &captured));
    for (int launch = 0; launch < 4; ++launch) {
      SCOPED_TRACE("launch " + std::to_string(launch));
      SignalStatsCounts got;
      std::memset(&got, 0xAB, sizeof(got));  // the stream is idle here
      if (destination == d_counts) {
        ASSERT_CUDA(CopyToDevice(d_counts, &got, sizeof(got)));
      } else {
        std::memcpy(destination, &got, sizeof(got));
      }
      ASSERT_CUDA(cudaGraphLaunch(captured.exec, stream));
      ASSERT_CUDA(cudaMemcpyAsync(&got, destination, sizeof(got), cudaMemcpyDefault, stream));
      ASSERT_CUDA(cudaStreamSynchronize(stream));
      EXPECT_EQ(CountsDifference(got, want), "");
    }
  }
  cudaStreamDestroy(stream);
  cudaFree(d_counts);
}

// Bad input is refused before anything is launched, with the field's name,
// and the next good frame is still counted right.
TEST_F(SignalStatsGpu, BadInputLaunchesNothing) {
  const YuvFrame frame = SmallOddFrame();
  DeviceYuvFrame d(frame);
  ASSERT_TRUE(d.ok());
  YuvPlanes bad = d.view();
  bad.v.width = 3;
  Status s = counter->Compute(bad, nullptr, nullptr, pinned->data());
  EXPECT_EQ(s.message().rfind("v.width: ", 0), 0u) << s.message();
  s = counter->Compute(d.view(), nullptr, nullptr, nullptr);
  EXPECT_EQ(s.message(), "counts: null");
  EXPECT_EQ(GpuDifference(*counter, frame, nullptr, *pinned), "");
}

// --- The QC counts, in the same launch -------------------------------------

using cudahist::QcCounts;

const QcCounts& ReferenceQc(const YuvPlanes& frame) {
  static QcCounts c;  // 64 KB: not on the stack
  const Status s = cudahist::ReferenceQcCounts(frame, &c);
  EXPECT_TRUE(s.ok()) << s.message();
  return c;
}

// Device-memory destinations of both kinds of counts, freed at the end.
struct DeviceCounts {
  DeviceCounts() {
    ok = cudaMalloc(reinterpret_cast<void**>(&counts), sizeof(SignalStatsCounts)) == cudaSuccess &&
         cudaMalloc(reinterpret_cast<void**>(&qc), sizeof(QcCounts)) == cudaSuccess;
  }
  ~DeviceCounts() {
    cudaFree(counts);
    cudaFree(qc);
  }
  bool ok = false;
  SignalStatsCounts* counts = nullptr;
  QcCounts* qc = nullptr;
};

// One Compute of `frame` (and `previous`, may be null) with its QC counts,
// both destinations poisoned first (device or pinned, any mix); "" when both
// equal their references.
std::string CountBoth(SignalStatsCounter& counter, const YuvPlanes& frame, const YuvPlanes* previous,
                      SignalStatsCounts* counts, QcCounts* qc, const SignalStatsCounts& want,
                      const QcCounts& want_qc) {
  static SignalStatsCounts got;
  static QcCounts got_qc;
  std::memset(&got, 0xAB, sizeof(got));
  std::memset(&got_qc, 0xAB, sizeof(got_qc));
  if (cudaMemcpy(counts, &got, sizeof(got), cudaMemcpyDefault) != cudaSuccess ||
      cudaMemcpy(qc, &got_qc, sizeof(got_qc), cudaMemcpyDefault) != cudaSuccess) {
    return "poisoning the counts failed";
  }
  const Status s = counter.Compute(frame, previous, nullptr, counts, qc);
  if (!s.ok()) return "Compute: " + s.message();
  if (cudaStreamSynchronize(nullptr) != cudaSuccess) return std::string("sync: ") + cudaGetErrorString(cudaGetLastError());
  if (cudaMemcpy(&got, counts, sizeof(got), cudaMemcpyDefault) != cudaSuccess ||
      cudaMemcpy(&got_qc, qc, sizeof(got_qc), cudaMemcpyDefault) != cudaSuccess) {
    return std::string("copy back: ") + cudaGetErrorString(cudaGetLastError());
  }
  const std::string difference = CountsDifference(got, want);
  if (!difference.empty()) return "signalstats: " + difference;
  const std::string qc_difference = QcCountsDifference(got_qc, want_qc);
  return qc_difference.empty() ? "" : "QC: " + qc_difference;
}

// The signalstats and QC counts of `frame` from one launch, into pinned
// memory (signalstats' accumulator path, as the element), into device memory
// (its direct launch) and into device signalstats counts with pinned QC
// counts; "" when every one equals the references.
std::string QcGpuDifference(SignalStatsCounter& counter, const YuvFrame& frame, const YuvFrame* previous,
                            cudahist::Pinned<cudahist::SignalStatsCounts>& pinned, cudahist::Pinned<cudahist::QcCounts>& pinned_qc) {
  DeviceYuvFrame d(frame);
  std::unique_ptr<DeviceYuvFrame> dp = previous != nullptr ? std::make_unique<DeviceYuvFrame>(*previous) : nullptr;
  if (!d.ok() || (dp && !dp->ok())) return "device copy failed";
  DeviceCounts device;
  if (!device.ok) return "cudaMalloc";
  const SignalStatsCounts want = Reference(frame.view, previous ? &previous->view : nullptr);
  const QcCounts& want_qc = ReferenceQc(frame.view);
  const YuvPlanes* prev = dp ? &dp->view() : nullptr;
  struct Destinations {
    const char* name;
    SignalStatsCounts* counts;
    QcCounts* qc;
  };
  const Destinations destinations[] = {{"pinned", pinned.data(), pinned_qc.data()},
                                       {"device", device.counts, device.qc},
                                       {"device + pinned QC", device.counts, pinned_qc.data()}};
  for (const Destinations& to : destinations) {
    const std::string difference = CountBoth(counter, d.view(), prev, to.counts, to.qc, want, want_qc);
    if (!difference.empty()) return std::string(to.name) + ": " + difference;
  }
  return "";
}

struct QcGpu : GpuFixture {
  void SetUp() override {
    GpuFixture::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    const Status p = cudahist::Pinned<cudahist::QcCounts>::Create(&pinned_qc);
    ASSERT_TRUE(p.ok()) << p.message();
  }
  std::unique_ptr<cudahist::Pinned<cudahist::QcCounts>> pinned_qc;
};

// Every format of the matrix, random and with QC structure (outliers,
// repeated rows, borders, differing fields), without and with a previous frame.
TEST_F(QcGpu, EqualsReferenceOverTheMatrix) {
  SeededRng rng;
  for (const YuvFrameSpec& spec : SignalStatsMatrix()) {
    SCOPED_TRACE(Describe(spec));
    const YuvFrame frame = MakeYuvFrame(spec, rng);
    const YuvFrame previous = MakePreviousYuvFrame(spec, rng);
    EXPECT_EQ(QcGpuDifference(*counter, frame, nullptr, *pinned, *pinned_qc), "");
    AddQcStructure(frame, rng);
    EXPECT_EQ(QcGpuDifference(*counter, frame, &previous, *pinned, *pinned_qc), "");
  }
}

// Full HD, 4K, 10 bits, packed 4:2:2 of odd size, a frame wider than the
// line sums hold (everything else still counted) and one as tall as they
// hold: more QC blocks than signalstats blocks, a second wave.
TEST_F(QcGpu, LargeFrames) {
  SeededRng rng;
  struct Case {
    YuvFormat format;
    uint32_t w, h;
    bool structured;
  };
  const Case cases[] = {{YuvFormat::kNv12, 1920, 1080, true},  {YuvFormat::kNv12, 1920, 1080, false},
                        {YuvFormat::kI420, 3840, 2160, true},  {YuvFormat::kP010, 1920, 1080, true},
                        {YuvFormat::kI422_10, 1920, 1082, true}, {YuvFormat::kYuy2, 1921, 1081, true},
                        {YuvFormat::kNv12, cudahist::kQcMaxWidth + 2, 34, true},
                        {YuvFormat::kNv12, 64, cudahist::kQcMaxHeight, true}};
  for (const Case& c : cases) {
    YuvFrameSpec spec;
    spec.format = c.format;
    spec.width = c.w;
    spec.height = c.h;
    spec.pitch_padding = 64;
    SCOPED_TRACE(Describe(spec));
    const YuvFrame frame = MakeYuvFrame(spec, rng);
    const YuvFrame previous = MakePreviousYuvFrame(spec, rng);
    if (c.structured) AddQcStructure(frame, rng);
    EXPECT_EQ(QcGpuDifference(*counter, frame, &previous, *pinned, *pinned_qc), "");
  }
}

// Frames of two layouts back to back on one stream, synchronised once, each
// the previous of the next within a layout, QC counts asked for on all but
// one: every launch leaves both scratches zero for the next, with or without
// QC blocks.
TEST_F(QcGpu, BackToBackOnOneStream) {
  SeededRng rng;
  constexpr size_t kFrames = 6, kRun = 3, kWithoutQc = 4;
  std::vector<YuvFrame> frames;
  std::vector<std::unique_ptr<DeviceYuvFrame>> device;
  for (size_t i = 0; i < kFrames; ++i) {
    YuvFrameSpec spec;
    spec.format = i < kRun ? YuvFormat::kNv12 : YuvFormat::kI420_10;
    spec.width = i < kRun ? 640 : 333;
    spec.height = i < kRun ? 360 : 242;
    frames.push_back(MakeYuvFrame(spec, rng));
    AddQcStructure(frames.back(), rng);
    device.push_back(std::make_unique<DeviceYuvFrame>(frames.back()));
    ASSERT_TRUE(device.back()->ok());
  }
  auto previous_of = [&](size_t i) { return i % kRun != 0 ? i - 1 : SIZE_MAX; };
  cudaStream_t stream = nullptr;
  ASSERT_CUDA(cudaStreamCreate(&stream));
  SignalStatsCounts* d_counts = nullptr;
  QcCounts* d_qc = nullptr;
  ASSERT_CUDA(cudaMalloc(reinterpret_cast<void**>(&d_counts), sizeof(SignalStatsCounts) * kFrames));
  ASSERT_CUDA(cudaMalloc(reinterpret_cast<void**>(&d_qc), sizeof(QcCounts) * kFrames));
  for (size_t i = 0; i < kFrames; ++i) {
    const size_t p = previous_of(i);
    const YuvPlanes* prev = p != SIZE_MAX ? &device[p]->view() : nullptr;
    const Status s = counter->Compute(device[i]->view(), prev, stream, d_counts + i, i != kWithoutQc ? d_qc + i : nullptr);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  std::vector<SignalStatsCounts> got(kFrames);
  std::vector<QcCounts> got_qc(kFrames);
  ASSERT_CUDA(cudaMemcpyAsync(got.data(), d_counts, sizeof(SignalStatsCounts) * kFrames, cudaMemcpyDeviceToHost, stream));
  ASSERT_CUDA(cudaMemcpyAsync(got_qc.data(), d_qc, sizeof(QcCounts) * kFrames, cudaMemcpyDeviceToHost, stream));
  ASSERT_CUDA(cudaStreamSynchronize(stream));
  for (size_t i = 0; i < kFrames; ++i) {
    SCOPED_TRACE("frame " + std::to_string(i));
    const size_t p = previous_of(i);
    EXPECT_EQ(CountsDifference(got[i], Reference(frames[i].view, p != SIZE_MAX ? &frames[p].view : nullptr)), "");
    if (i != kWithoutQc) {
      EXPECT_EQ(QcCountsDifference(got_qc[i], ReferenceQc(frames[i].view)), "");
    }
  }
  cudaFree(d_counts);
  cudaFree(d_qc);
  cudaStreamDestroy(stream);
}

// One Compute with QC counts captured into a CUDA graph and the graph
// launched four times, both destinations poisoned before each: every launch
// counts the frame again, into device memory and into pinned memory.
TEST_F(QcGpu, GraphLaunchesEachCountTheFrameAgain) {
  std::mt19937_64 rng(FreshSeed());
  const YuvFrameSpec spec = SpecOfSize(1920, 1080);
  const YuvFrame frame = MakeYuvFrame(spec, rng);
  const YuvFrame previous = MakePreviousYuvFrame(spec, rng);
  AddQcStructure(frame, rng);
  DeviceYuvFrame d(frame), dp(previous);
  ASSERT_TRUE(d.ok() && dp.ok());
  const SignalStatsCounts want = Reference(frame.view, &previous.view);
  const QcCounts& want_qc = ReferenceQc(frame.view);
  DeviceCounts device;
  ASSERT_TRUE(device.ok);
  cudaStream_t stream = nullptr;
  ASSERT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const bool on_device[] = {true, false};
  for (const bool device_memory : on_device) {
    SCOPED_TRACE(device_memory ? "device counts" : "pinned counts");
    SignalStatsCounts* counts = device_memory ? device.counts : pinned->data();
    QcCounts* qc = device_memory ? device.qc : pinned_qc->data();
    CapturedGraph captured;
    const auto compute = [&] { return counter->Compute(d.view(), &dp.view(), stream, counts, qc); };
    ASSERT_NO_FATAL_FAILURE(CaptureIntoGraph(stream, compute, &captured));
    for (int launch = 0; launch < 4; ++launch) {
      SCOPED_TRACE("launch " + std::to_string(launch));
      static SignalStatsCounts got;
      static QcCounts got_qc;
      std::memset(&got, 0xAB, sizeof(got));  // the stream is idle here
      std::memset(&got_qc, 0xAB, sizeof(got_qc));
      ASSERT_CUDA(cudaMemcpy(counts, &got, sizeof(got), cudaMemcpyDefault));
      ASSERT_CUDA(cudaMemcpy(qc, &got_qc, sizeof(got_qc), cudaMemcpyDefault));
      ASSERT_CUDA(cudaGraphLaunch(captured.exec, stream));
      ASSERT_CUDA(cudaMemcpyAsync(&got, counts, sizeof(got), cudaMemcpyDefault, stream));
      ASSERT_CUDA(cudaMemcpyAsync(&got_qc, qc, sizeof(got_qc), cudaMemcpyDefault, stream));
      ASSERT_CUDA(cudaStreamSynchronize(stream));
      EXPECT_EQ(CountsDifference(got, want), "");
      EXPECT_EQ(QcCountsDifference(got_qc, want_qc), "");
    }
  }
  cudaStreamDestroy(stream);
}

// Bad input with QC counts asked for is refused before anything is
// launched, with the field's name, and the next good frame is still counted
// right.
TEST_F(QcGpu, BadInputLaunchesNothing) {
  const YuvFrame frame = SmallOddFrame();
  DeviceYuvFrame d(frame);
  ASSERT_TRUE(d.ok());
  YuvPlanes bad = d.view();
  bad.u.width = 3;
  Status s = counter->Compute(bad, nullptr, nullptr, pinned->data(), pinned_qc->data());
  EXPECT_EQ(s.message().rfind("u.width: ", 0), 0u) << s.message();
  s = counter->Compute(d.view(), nullptr, nullptr, nullptr, pinned_qc->data());
  EXPECT_EQ(s.message(), "counts: null");
  EXPECT_EQ(QcGpuDifference(*counter, frame, nullptr, *pinned, *pinned_qc), "");
}

}  // namespace
}  // namespace cudahist_test
