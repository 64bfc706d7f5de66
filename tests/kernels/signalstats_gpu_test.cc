// SignalStatsCounter (the GPU path) against ReferenceSignalStats, bit for
// bit, over the same format matrix as the CPU backend, large frames, and
// frames counted back to back on one stream; its QC counts (ComputeQc)
// against ReferenceQcCounts the same way. Each test skips (with
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
                          cudahist::PinnedSignalStats& pinned) {
  DeviceYuvFrame d(frame);
  std::unique_ptr<DeviceYuvFrame> dp = previous != nullptr ? std::make_unique<DeviceYuvFrame>(*previous) : nullptr;
  if (!d.ok() || (dp && !dp->ok())) return "device copy failed";
  const SignalStatsCounts want = Reference(frame.view, previous ? &previous->view : nullptr);
  std::memset(pinned.get(), 0xAB, sizeof(SignalStatsCounts));
  Status s = counter.Compute(d.view(), dp ? &dp->view() : nullptr, nullptr, pinned.get());
  if (!s.ok()) return "Compute (pinned): " + s.message();
  if (cudaStreamSynchronize(nullptr) != cudaSuccess) return std::string("sync: ") + cudaGetErrorString(cudaGetLastError());
  const std::string pinned_difference = CountsDifference(*pinned.get(), want);
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

struct GpuFixture : ::testing::Test {
  void SetUp() override {
    SKIP_WITHOUT_CUDA_DEVICE();
    const Status s = SignalStatsCounter::Create(&counter);
    ASSERT_TRUE(s.ok()) << s.message();
    const Status p = cudahist::PinnedSignalStats::Create(&pinned);
    ASSERT_TRUE(p.ok()) << p.message();
  }
  std::unique_ptr<SignalStatsCounter> counter;
  std::unique_ptr<cudahist::PinnedSignalStats> pinned;
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
  YuvFrameSpec spec;
  spec.width = 1920;
  spec.height = 1080;
  const YuvFrame frame = MakeYuvFrame(spec, rng);
  const YuvFrame previous = MakePreviousYuvFrame(spec, rng);
  DeviceYuvFrame d(frame), dp(previous);
  ASSERT_TRUE(d.ok() && dp.ok());
  const SignalStatsCounts want = Reference(frame.view, &previous.view);
  SignalStatsCounts* d_counts = nullptr;
  ASSERT_CUDA(cudaMalloc(reinterpret_cast<void**>(&d_counts), sizeof(SignalStatsCounts)));
  cudaStream_t stream = nullptr;
  ASSERT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (SignalStatsCounts* destination : {d_counts, pinned->get()}) {
    SCOPED_TRACE(destination == d_counts ? "device counts" : "pinned counts");
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    ASSERT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    const Status s = counter->Compute(d.view(), &dp.view(), stream, destination);
    ASSERT_CUDA(cudaStreamEndCapture(stream, &graph));
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    for (int launch = 0; launch < 4; ++launch) {
      SCOPED_TRACE("launch " + std::to_string(launch));
      SignalStatsCounts got;
      std::memset(&got, 0xAB, sizeof(got));  // the stream is idle here
      if (destination == d_counts) {
        ASSERT_CUDA(CopyToDevice(d_counts, &got, sizeof(got)));
      } else {
        std::memcpy(destination, &got, sizeof(got));
      }
      ASSERT_CUDA(cudaGraphLaunch(exec, stream));
      ASSERT_CUDA(cudaMemcpyAsync(&got, destination, sizeof(got), cudaMemcpyDefault, stream));
      ASSERT_CUDA(cudaStreamSynchronize(stream));
      EXPECT_EQ(CountsDifference(got, want), "");
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  cudaStreamDestroy(stream);
  cudaFree(d_counts);
}

// Bad input is refused before anything is launched, with the field's name,
// and the next good frame is still counted right.
TEST_F(SignalStatsGpu, BadInputLaunchesNothing) {
  std::mt19937_64 rng(7);
  YuvFrameSpec spec;
  spec.width = 33;
  spec.height = 17;
  const YuvFrame frame = MakeYuvFrame(spec, rng);
  DeviceYuvFrame d(frame);
  ASSERT_TRUE(d.ok());
  YuvPlanes bad = d.view();
  bad.v.width = 3;
  Status s = counter->Compute(bad, nullptr, nullptr, pinned->get());
  EXPECT_EQ(s.message().rfind("v.width: ", 0), 0u) << s.message();
  s = counter->Compute(d.view(), nullptr, nullptr, nullptr);
  EXPECT_EQ(s.message(), "counts: null");
  EXPECT_EQ(GpuDifference(*counter, frame, nullptr, *pinned), "");
}

// --- The QC counts (ComputeQc) --------------------------------------------

using cudahist::QcCounts;

const QcCounts& ReferenceQc(const YuvPlanes& frame) {
  static QcCounts c;  // 64 KB: not on the stack
  const Status s = cudahist::ReferenceQcCounts(frame, &c);
  EXPECT_TRUE(s.ok()) << s.message();
  return c;
}

// The QC counts of `frame` on the GPU into pinned and into device memory,
// each poisoned first; "" when both equal the reference.
std::string QcGpuDifference(SignalStatsCounter& counter, const YuvFrame& frame, cudahist::PinnedQcCounts& pinned) {
  DeviceYuvFrame d(frame);
  if (!d.ok()) return "device copy failed";
  const QcCounts& want = ReferenceQc(frame.view);
  std::memset(pinned.get(), 0xAB, sizeof(QcCounts));
  Status s = counter.ComputeQc(d.view(), nullptr, pinned.get());
  if (!s.ok()) return "ComputeQc (pinned): " + s.message();
  if (cudaStreamSynchronize(nullptr) != cudaSuccess) return std::string("sync: ") + cudaGetErrorString(cudaGetLastError());
  const std::string pinned_difference = QcCountsDifference(*pinned.get(), want);
  if (!pinned_difference.empty()) return "pinned: " + pinned_difference;
  QcCounts* d_counts = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&d_counts), sizeof(QcCounts)) != cudaSuccess) return "cudaMalloc";
  static QcCounts got;
  std::memset(&got, 0xAB, sizeof(got));
  std::string error;
  if (CopyToDevice(d_counts, &got, sizeof(got)) != cudaSuccess) {
    error = "poisoning the device counts failed";
  } else if (!(s = counter.ComputeQc(d.view(), nullptr, d_counts)).ok()) {
    error = "ComputeQc (device): " + s.message();
  } else if (cudaMemcpy(&got, d_counts, sizeof(got), cudaMemcpyDeviceToHost) != cudaSuccess) {
    error = std::string("copy back: ") + cudaGetErrorString(cudaGetLastError());
  } else {
    const std::string device_difference = QcCountsDifference(got, want);
    if (!device_difference.empty()) error = "device: " + device_difference;
  }
  cudaFree(d_counts);
  return error;
}

struct QcGpu : GpuFixture {
  void SetUp() override {
    GpuFixture::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    const Status p = cudahist::PinnedQcCounts::Create(&pinned_qc);
    ASSERT_TRUE(p.ok()) << p.message();
  }
  std::unique_ptr<cudahist::PinnedQcCounts> pinned_qc;
};

TEST_F(QcGpu, EqualsReferenceOverTheMatrix) {
  const uint64_t seed = FreshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const YuvFrameSpec& spec : SignalStatsMatrix()) {
    SCOPED_TRACE(Describe(spec));
    const YuvFrame frame = MakeYuvFrame(spec, rng);
    EXPECT_EQ(QcGpuDifference(*counter, frame, *pinned_qc), "");
    AddQcStructure(frame, rng);
    EXPECT_EQ(QcGpuDifference(*counter, frame, *pinned_qc), "");
  }
}

// Full HD, 4K, 10 bits, packed 4:2:2 of odd size, and a frame wider than the
// line sums hold (everything else still counted).
TEST_F(QcGpu, LargeFrames) {
  const uint64_t seed = FreshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  struct Case {
    YuvFormat format;
    uint32_t w, h;
    bool structured;
  };
  const Case cases[] = {{YuvFormat::kNv12, 1920, 1080, true},  {YuvFormat::kNv12, 1920, 1080, false},
                        {YuvFormat::kI420, 3840, 2160, true},  {YuvFormat::kP010, 1920, 1080, true},
                        {YuvFormat::kI422_10, 1920, 1082, true}, {YuvFormat::kYuy2, 1921, 1081, true},
                        {YuvFormat::kNv12, cudahist::kQcMaxWidth + 2, 34, true}};
  for (const Case& c : cases) {
    YuvFrameSpec spec;
    spec.format = c.format;
    spec.width = c.w;
    spec.height = c.h;
    spec.pitch_padding = 64;
    SCOPED_TRACE(Describe(spec));
    const YuvFrame frame = MakeYuvFrame(spec, rng);
    if (c.structured) AddQcStructure(frame, rng);
    EXPECT_EQ(QcGpuDifference(*counter, frame, *pinned_qc), "");
  }
}

// signalstats and the QC counts of frames of two layouts, back to back on one
// stream, synchronised once: the QC scratch is zeroed for each frame in
// stream order.
TEST_F(QcGpu, BackToBackWithSignalStatsOnOneStream) {
  const uint64_t seed = FreshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<YuvFrame> frames;
  std::vector<std::unique_ptr<DeviceYuvFrame>> device;
  for (size_t i = 0; i < 4; ++i) {
    YuvFrameSpec spec;
    spec.format = i < 2 ? YuvFormat::kNv12 : YuvFormat::kI420_10;
    spec.width = i < 2 ? 640 : 333;
    spec.height = i < 2 ? 360 : 242;
    frames.push_back(MakeYuvFrame(spec, rng));
    AddQcStructure(frames.back(), rng);
    device.push_back(std::make_unique<DeviceYuvFrame>(frames.back()));
    ASSERT_TRUE(device.back()->ok());
  }
  cudaStream_t stream = nullptr;
  ASSERT_CUDA(cudaStreamCreate(&stream));
  SignalStatsCounts* d_counts = nullptr;
  QcCounts* d_qc = nullptr;
  ASSERT_CUDA(cudaMalloc(reinterpret_cast<void**>(&d_counts), sizeof(SignalStatsCounts) * frames.size()));
  ASSERT_CUDA(cudaMalloc(reinterpret_cast<void**>(&d_qc), sizeof(QcCounts) * frames.size()));
  for (size_t i = 0; i < frames.size(); ++i) {
    Status s = counter->Compute(device[i]->view(), nullptr, stream, d_counts + i);
    ASSERT_TRUE(s.ok()) << s.message();
    s = counter->ComputeQc(device[i]->view(), stream, d_qc + i);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  std::vector<SignalStatsCounts> got(frames.size());
  std::vector<QcCounts> got_qc(frames.size());
  ASSERT_CUDA(cudaMemcpyAsync(got.data(), d_counts, sizeof(SignalStatsCounts) * frames.size(),
                              cudaMemcpyDeviceToHost, stream));
  ASSERT_CUDA(cudaMemcpyAsync(got_qc.data(), d_qc, sizeof(QcCounts) * frames.size(), cudaMemcpyDeviceToHost, stream));
  ASSERT_CUDA(cudaStreamSynchronize(stream));
  for (size_t i = 0; i < frames.size(); ++i) {
    SCOPED_TRACE("frame " + std::to_string(i));
    EXPECT_EQ(CountsDifference(got[i], Reference(frames[i].view, nullptr)), "");
    EXPECT_EQ(QcCountsDifference(got_qc[i], ReferenceQc(frames[i].view)), "");
  }
  cudaFree(d_counts);
  cudaFree(d_qc);
  cudaStreamDestroy(stream);
}

// ComputeQc captured into a CUDA graph: every launch counts the frame again.
TEST_F(QcGpu, GraphLaunchesEachCountTheFrameAgain) {
  std::mt19937_64 rng(FreshSeed());
  YuvFrameSpec spec;
  spec.width = 1280;
  spec.height = 720;
  const YuvFrame frame = MakeYuvFrame(spec, rng);
  AddQcStructure(frame, rng);
  DeviceYuvFrame d(frame);
  ASSERT_TRUE(d.ok());
  const QcCounts& want = ReferenceQc(frame.view);
  cudaStream_t stream = nullptr;
  ASSERT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ASSERT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const Status s = counter->ComputeQc(d.view(), stream, pinned_qc->get());
  ASSERT_CUDA(cudaStreamEndCapture(stream, &graph));
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 3; ++launch) {
    SCOPED_TRACE("launch " + std::to_string(launch));
    std::memset(pinned_qc->get(), 0xAB, sizeof(QcCounts));
    ASSERT_CUDA(cudaGraphLaunch(exec, stream));
    ASSERT_CUDA(cudaStreamSynchronize(stream));
    EXPECT_EQ(QcCountsDifference(*pinned_qc->get(), want), "");
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

TEST_F(QcGpu, BadInputLaunchesNothing) {
  std::mt19937_64 rng(7);
  YuvFrameSpec spec;
  spec.width = 33;
  spec.height = 17;
  const YuvFrame frame = MakeYuvFrame(spec, rng);
  DeviceYuvFrame d(frame);
  ASSERT_TRUE(d.ok());
  YuvPlanes bad = d.view();
  bad.u.width = 3;
  Status s = counter->ComputeQc(bad, nullptr, pinned_qc->get());
  EXPECT_EQ(s.message().rfind("u.width: ", 0), 0u) << s.message();
  s = counter->ComputeQc(d.view(), nullptr, nullptr);
  EXPECT_EQ(s.message(), "counts: null");
  EXPECT_EQ(QcGpuDifference(*counter, frame, *pinned_qc), "");
}

}  // namespace
}  // namespace cudahist_test
