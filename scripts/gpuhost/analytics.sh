# GPU-host steps of the region counts and analytics pipelines (issue 36),
# run by `gpuhost-run.sh OUT analytics analytics126` (gpuhost-run.sh provides
# use_gst, step, $bin, $here, $logs). About 3 device minutes together.

# GStreamer 1.22's runtime: the segmented kernels against the CPU reference
# (every region case, 1 to 10,000 boxes of 1080p back to back, inline and
# copied tile tables, signalstats per region), the element's fixed regions on
# the GPU path (upload=true), then the speed table (bench/analytics/README.md): 1080p NV12
# with 1, 16, 100 and 1000 boxes against the whole-frame histogram, NPP and
# CUB once per box. Success: both test steps exit 0 with no test skipped for
# want of a device (RegionsOnCudaFrames runs), and analytics_bench exits 0 (every method's counts equal
# the reference) printing its ratios; the targets at 100 boxes are
# regions/whole-frame <= 1.5 and npp-per-box-y/regions-y >= 10.
step_analytics() {
  use_gst 122
  step analytics_kernels "$bin/kernel_tests" --gtest_filter='Region*'
  step analytics_element "$bin/element_tests" --gtest_filter='Regions*:RegionsOnCudaFrames*'
  TAIL_LINES=30 step analytics_bench "$bin/analytics_bench" --json "$logs/analytics_bench.json"
}

# GStreamer 1.26's runtime: objects=detections on CUDA frames (detections
# attached by the test after cudaupload; each object's counts against the
# reference of its box; the overlay check where the runtime carries
# objectdetectionoverlay, said in the log otherwise), the other Objects
# tests, then the element's cost in a 1080p30 H.264 NVDEC pipeline carrying
# 100 detections a frame (bench/analytics/pipeline_overhead.cc; ANALYTICS_RUNS
# rounds, default 5; ANALYTICS_CLIP another 1080p H.264 file). Success: the test steps exit 0 (ObjectsOnCudaFrames not
# skipped) and pipeline_overhead exits 0 printing "histograms ... x1.xx of
# decode" (target: at most x1.10).
step_analytics126() {
  use_gst 126
  step analytics126_kernels "$bin/kernel_tests" --gtest_filter='Region*'
  step analytics126_element "$bin/element_tests" \
    --gtest_filter='Regions*:RegionsOnCudaFrames*:Objects*:ObjectsOnCudaFrames*'
  # The 10 s broadcast-like clip where the pack still has it (a 1.26-only pack
  # drops it to fit the carry: docs/gpu-host.md), else the 3 s test clip.
  local clip=${ANALYTICS_CLIP:-$here/media/live-1080p30-6M.mp4}
  [ -f "$clip" ] || clip=$here/media/clip-1080p.mp4
  TAIL_LINES=8 step analytics126_overhead "$bin/pipeline_overhead" "$clip" \
    --detections 100 --runs "${ANALYTICS_RUNS:-5}" --json "$logs/pipeline_overhead.json"
}
