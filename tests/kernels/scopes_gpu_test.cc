// The scope kernels (ColumnHistogrammer, JointHistogrammer) against the CPU
// reference, bit for bit, over the shared case matrix (scope_cases.h), into
// device and pinned memory; the tall [length, 512] shape; back-to-back
// launches on one stream; bad input. Each test skips (with CheckCudaDevice's
// message) when there is no CUDA device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cudahist/cudahist.h>
#include <cudahist/scopes.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cuda_test.h"
#include "frames.h"
#include "scope_cases.h"
#include "seeded_rng.h"
#include "test_planes.h"

namespace cudahist_test {
namespace {

using cudahist::ColumnHistogramSpec;
using cudahist::ColumnHistogrammer;
using cudahist::JointHistogramSpec;
using cudahist::JointHistogrammer;
using cudahist::PlaneView;
using cudahist::Status;
using cudahist::StatusCode;

std::vector<uint32_t> ColumnReference(const ColumnHistogramSpec& spec, const PlaneView& plane) {
  std::vector<uint32_t> counts(cudahist::ColumnCountsLength(spec));
  const Status s = cudahist::ReferenceColumnHistogram(spec, plane, counts.data());
  EXPECT_TRUE(s.ok()) << s.message();
  return counts;
}

std::vector<uint32_t> JointReference(const JointHistogramSpec& spec, const PlaneView& a, const PlaneView& b) {
  std::vector<uint32_t> counts(cudahist::JointCountsLength(spec));
  const Status s = cudahist::ReferenceJointHistogram(spec, a, b, counts.data());
  EXPECT_TRUE(s.ok()) << s.message();
  return counts;
}

// The frame's per-column counts, into device and into pinned memory, equal
// the reference. With `counts_offset`, the counts start that many words into
// the poisoned buffer, and the words before them must stay poisoned.
void ExpectColumnMatches(const ColumnHistogramSpec& spec, const Frame& frame, uint32_t counts_offset = 0) {
  const std::vector<uint32_t> expected = ColumnReference(spec, frame.views[0]);
  DeviceFrame device;
  ASSERT_EQ(device.Upload(frame), cudaSuccess);
  std::unique_ptr<ColumnHistogrammer> h;
  const Status created = ColumnHistogrammer::Create(&h);
  ASSERT_TRUE(created.ok()) << created.message();
  PoisonedCounts out(counts_offset + expected.size());
  ASSERT_TRUE(out.ok());
  for (bool pinned : {false, true}) {
    SCOPED_TRACE(pinned ? "pinned counts" : "device counts");
    const Status s = h->Compute(spec, device.views()[0], out.stream(), out.Poisoned(pinned) + counts_offset);
    ASSERT_TRUE(s.ok()) << s.message();
    const std::vector<uint32_t> got = out.Read(pinned);
    EXPECT_EQ(std::vector<uint32_t>(got.begin(), got.begin() + counts_offset),
              std::vector<uint32_t>(counts_offset, kPoison));
    EXPECT_EQ(std::vector<uint32_t>(got.begin() + counts_offset, got.end()), expected);
  }
}

class GpuColumnMatrix : public ::testing::TestWithParam<ColumnCase> {};

TEST_P(GpuColumnMatrix, EqualsReference) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  ExpectColumnMatches(ColumnSpecOf(GetParam()), MakeColumnFrame(GetParam(), rng));
}

INSTANTIATE_TEST_SUITE_P(Cases, GpuColumnMatrix, ::testing::ValuesIn(ColumnCases()));

class GpuJointMatrix : public ::testing::TestWithParam<JointCase> {};

TEST_P(GpuJointMatrix, EqualsReference) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  const Frame frame = MakeJointFrame(GetParam(), rng);
  const JointHistogramSpec spec = JointSpecOf(GetParam());
  const std::vector<uint32_t> expected = JointReference(spec, frame.views[0], frame.views[1]);
  DeviceFrame device;
  ASSERT_EQ(device.Upload(frame), cudaSuccess);
  std::unique_ptr<JointHistogrammer> h;
  const Status created = JointHistogrammer::Create(&h);
  ASSERT_TRUE(created.ok()) << created.message();
  PoisonedCounts out(expected.size());
  ASSERT_TRUE(out.ok());
  // Twice each: the second launch finds the accumulator the first left zero.
  for (bool pinned : {false, true, false}) {
    SCOPED_TRACE(pinned ? "pinned counts" : "device counts");
    const Status s = h->Compute(spec, device.views()[0], device.views()[1], out.stream(), out.Poisoned(pinned));
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(out.Read(pinned), expected);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, GpuJointMatrix, ::testing::ValuesIn(JointCases()));

// The two-phase per-column workload as its article states it: [length, 512] 8-bit rows, one
// 256-bin histogram per channel: width 512, pitch 512, stride 1, 512 groups.
// 300 rows take the 32-column bands; 5000 the 128-column bands with 32-bit
// loads, row slices and the second phase.
TEST(GpuArticleShape, LengthBy512ChannelsEqualsReference) {
  SKIP_WITHOUT_CUDA_DEVICE();
  for (uint32_t length : {300u, 5000u}) {
    SCOPED_TRACE("length " + std::to_string(length));
    SeededRng rng;
    ColumnCase c;
    c.layout.width = 512;
    c.layout.height = length;
    c.groups = 512;
    c.bins = 256;
    ExpectColumnMatches(ColumnSpecOf(c), MakeColumnFrame(c, rng));
  }
}

// Full-size frames: 1080p luma per column (1920 and 1024 groups), 4K luma,
// and a frame wide enough for 32-column bands of whole groups.
TEST(GpuColumnLarge, VideoFramesEqualReference) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  for (const auto& [width, height, groups] :
       std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>{{1920, 1080, 1920}, {1920, 1080, 1024}, {3840, 2160, 3840}, {4300, 20, 4300}, {4300, 20, 2150}}) {
    SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " groups " + std::to_string(groups));
    ColumnCase c;
    c.layout.width = width;
    c.layout.height = height;
    c.layout.pitch_padding = 128;
    c.distribution = Distribution::kPeaked;
    c.groups = groups;
    ExpectColumnMatches(ColumnSpecOf(c), MakeColumnFrame(c, rng));
  }
}

// Counts 4 bytes past a 16-byte boundary (a caller's buffer may start
// there): the column kernel's 16-byte count stores (the shuffle flush,
// scopes_tuning.h) must fall back to 4-byte ones, and nothing before the
// counts is written, into device and into pinned memory. Video frames (bands
// of 8 and 16 columns) and a narrow one.
TEST(GpuColumnCountsOffset, FourByteAlignedCountsEqualReference) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  for (const auto& [width, height] : std::vector<std::pair<uint32_t, uint32_t>>{{1920, 1080}, {3840, 2160}, {333, 77}}) {
    SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height));
    ColumnCase c;
    c.layout.width = width;
    c.layout.height = height;
    c.groups = width;
    ExpectColumnMatches(ColumnSpecOf(c), MakeColumnFrame(c, rng), 1);
  }
}

// Frames of different shapes and plans (direct, two-phase; joint, with the
// joint plans that change from launch to launch: JointShapeChanges) enqueued
// back to back on one stream with no wait between them into poisoned counts:
// each equals its reference (partials reused launch after launch, the joint
// accumulator zero again after each, each direct joint launch waiting on
// its own arrival counter whatever the plan, every count written).
TEST(GpuScopesBackToBack, QueuedLaunchesEachEqualTheirReference) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  const std::vector<ColumnCase> columns = ColumnCases();
  const std::vector<JointCase> joint_cases = JointCases();
  std::vector<JointCase> joints;
  for (size_t i = 0; i < joint_cases.size(); i += 4) joints.push_back(joint_cases[i]);
  for (const JointCase& c : JointShapeChanges()) joints.push_back(c);
  std::vector<Frame> frames;
  std::vector<std::unique_ptr<DeviceFrame>> device;
  std::vector<std::vector<uint32_t>> expected;
  std::vector<std::unique_ptr<PoisonedCounts>> outs;
  std::unique_ptr<ColumnHistogrammer> column;
  std::unique_ptr<JointHistogrammer> joint;
  ASSERT_TRUE(ColumnHistogrammer::Create(&column).ok());
  ASSERT_TRUE(JointHistogrammer::Create(&joint).ok());
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  const size_t rounds = 3;
  for (size_t r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < columns.size(); i += 3) {
      frames.push_back(MakeColumnFrame(columns[i], rng));
      expected.push_back(ColumnReference(ColumnSpecOf(columns[i]), frames.back().views[0]));
      device.push_back(std::make_unique<DeviceFrame>());
      ASSERT_EQ(device.back()->Upload(frames.back()), cudaSuccess);
      outs.push_back(std::make_unique<PoisonedCounts>(expected.back().size()));
      const Status s = column->Compute(ColumnSpecOf(columns[i]), device.back()->views()[0], stream,
                                       outs.back()->Poisoned(false));
      ASSERT_TRUE(s.ok()) << s.message();
    }
    for (size_t i = 0; i < joints.size(); ++i) {
      frames.push_back(MakeJointFrame(joints[i], rng));
      expected.push_back(JointReference(JointSpecOf(joints[i]), frames.back().views[0], frames.back().views[1]));
      device.push_back(std::make_unique<DeviceFrame>());
      ASSERT_EQ(device.back()->Upload(frames.back()), cudaSuccess);
      outs.push_back(std::make_unique<PoisonedCounts>(expected.back().size()));
      const Status s = joint->Compute(JointSpecOf(joints[i]), device.back()->views()[0], device.back()->views()[1],
                                      stream, outs.back()->Poisoned(false));
      ASSERT_TRUE(s.ok()) << s.message();
    }
  }
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  for (size_t i = 0; i < outs.size(); ++i) EXPECT_EQ(outs[i]->Read(false), expected[i]) << "launch " << i;
  cudaStreamDestroy(stream);
}

// One joint Compute (1080p NV12 U-V, device counts: a direct launch) captured
// into a CUDA graph and the graph launched four times, the counts poisoned
// before each: every launch waits for its own blocks' zeros (its arrival
// counter is counted on the device, not frozen in the graph's arguments).
TEST(GpuJointGraph, LaunchesEachCountTheFrameAgain) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  const JointCase c = JointShapeChanges().front();  // 1080p's chroma
  const Frame frame = MakeJointFrame(c, rng);
  const std::vector<uint32_t> expected = JointReference(JointSpecOf(c), frame.views[0], frame.views[1]);
  DeviceFrame device;
  ASSERT_EQ(device.Upload(frame), cudaSuccess);
  std::unique_ptr<JointHistogrammer> joint;
  ASSERT_TRUE(JointHistogrammer::Create(&joint).ok());
  PoisonedCounts out(expected.size());
  ASSERT_TRUE(out.ok());
  uint32_t* counts = out.Poisoned(false);
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(out.stream(), cudaStreamCaptureModeThreadLocal), cudaSuccess);
  const Status s = joint->Compute(JointSpecOf(c), device.views()[0], device.views()[1], out.stream(), counts);
  ASSERT_EQ(cudaStreamEndCapture(out.stream(), &graph), cudaSuccess) << cudaGetErrorString(cudaGetLastError());
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess) << cudaGetErrorString(cudaGetLastError());
  for (int launch = 0; launch < 4; ++launch) {
    EXPECT_EQ(out.Poisoned(false), counts);  // the stream is idle: Read synchronised it
    ASSERT_EQ(cudaGraphLaunch(exec, out.stream()), cudaSuccess) << cudaGetErrorString(cudaGetLastError());
    EXPECT_EQ(out.Read(false), expected) << "launch " << launch;
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

// Bad requests are refused before anything is launched: the counts stay poisoned.
TEST(GpuScopesBadInput, RefusedWithTheFieldNamedAndCountsUntouched) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SeededRng rng;
  ColumnCase c;
  c.layout.width = 64;
  c.layout.height = 8;
  const Frame frame = MakeColumnFrame(c, rng);
  DeviceFrame device;
  ASSERT_EQ(device.Upload(frame), cudaSuccess);
  std::unique_ptr<ColumnHistogrammer> column;
  std::unique_ptr<JointHistogrammer> joint;
  ASSERT_TRUE(ColumnHistogrammer::Create(&column).ok());
  ASSERT_TRUE(JointHistogrammer::Create(&joint).ok());
  PoisonedCounts out(65 * 256);
  ASSERT_TRUE(out.ok());
  ColumnHistogramSpec spec;
  spec.groups = 65;
  Status s = column->Compute(spec, device.views()[0], out.stream(), out.Poisoned(false));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message().rfind("spec.groups: 65", 0), 0u) << s.message();
  spec.groups = 64;
  EXPECT_EQ(column->Compute(spec, device.views()[0], out.stream(), nullptr).message(), "counts: null");
  PlaneView other = device.views()[0];
  other.width = 63;
  JointHistogramSpec jspec;
  s = joint->Compute(jspec, device.views()[0], other, out.stream(), out.Poisoned(false));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message().rfind("plane[1]: counted region", 0), 0u) << s.message();
  EXPECT_EQ(out.Read(false), std::vector<uint32_t>(65 * 256, kPoison));
  EXPECT_EQ(ColumnHistogrammer::Create(nullptr).message(), "out: null");
}

}  // namespace
}  // namespace cudahist_test
