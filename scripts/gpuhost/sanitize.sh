# Sanitizers over the elements as well as the kernels, and the refusal stress
# test on CUDA frames. Each compute-sanitizer step fails (exit 1 in the
# summary) on any error or hazard the tool reports; the summary's tail shows
# its "ERROR SUMMARY".

# sanitize_tests TOOL: compute-sanitizer TOOL over a filter of each test
# binary: small frames of every path (the kernels' layouts, offsets and ROIs;
# CUDA memory from cudaupload; the element's own upload; signalstats; the
# scopes; a few state cycles; the refusals on CUDA frames), so that the whole
# step stays within minutes.
sanitize_tests() {
  local tool=$1
  local kernel_tests='Coverage/GpuCoverageTest.*/1*:GpuReuse*:GpuBadInput*:SignalStatsGpu.BackToBack*:SignalStatsGpu.BadInput*:QcGpu.BackToBack*:GpuScopesBackToBack.*:GpuScopesBadInput.*'
  local element_tests='Gpu/CudaFormats.*:Gpu/CudaSignalStats.*/NV12:Gpu/UploadSignalStats.*/P010_10LE:Gpu/TightCudaLayouts.*/NV12:GpuUpload.HistogramsOfOtherFormatsEqualTheReference:Gpu.OddWidthPacked422InCudaMemoryIsWarnedOnce:Gpu.StateCyclesWithCudaMemory'
  local scope_tests='Gpu/GpuScope.*/NV12_*:GpuTightScope.*:GpuScopeErrors.StateCyclesWithCudaMemory'
  local stress_tests='Cuda/*:Flow.RenegotiationToARefusedFormatAndBack'
  TAIL_LINES=3 step "${tool}_kernel_tests" compute-sanitizer --tool "$tool" --error-exitcode 1 \
    "$bin/kernel_tests" --gtest_filter="$kernel_tests"
  # The tight layouts are made by ffmpeg: the carried one, where the pack has it.
  PATH="$PATH:$here/ffmpeg" TAIL_LINES=3 step "${tool}_element_tests" compute-sanitizer --tool "$tool" \
    --error-exitcode 1 "$bin/element_tests" --gtest_filter="$element_tests"
  TAIL_LINES=3 step "${tool}_scope_element_tests" compute-sanitizer --tool "$tool" --error-exitcode 1 \
    "$bin/scope_element_tests" --gtest_filter="$scope_tests"
  TAIL_LINES=3 step "${tool}_refusal_stress" compute-sanitizer --tool "$tool" --error-exitcode 1 \
    "$bin/refusal_stress" --gtest_filter="$stress_tests"
}

# compute-sanitizer memcheck, racecheck and synccheck (SANITIZE_TOOLS: some of them) over the kernel tests and the element tests' CUDA paths (both elements through cudaupload and upload=true, signalstats, the scopes, state cycles, the refusals on CUDA frames): a few minutes.
step_sanitize_all() {
  use_gst 122
  # Fewer repetitions under the tools, which slow every launch down: the
  # state cycles (200 by default) and the stress runs (50) once the paths
  # are covered.
  export CUDAHISTOGRAM_STATE_CYCLES=3 CUDAHISTOGRAM_STRESS_RUNS=2
  local tool
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do sanitize_tests "$tool"; done
  unset CUDAHISTOGRAM_STATE_CYCLES CUDAHISTOGRAM_STRESS_RUNS
}

# refusal_stress: every refusal and flow of tests/stress, 50 runs each, on system memory and on CUDA frames (the Cuda instances, which skip in CI), in process and through gst-launch-1.0, on GStreamer 1.22 and 1.26; the GPU's memory in use, once a second, beside each (refusal_gpu_memory*.csv: a CUDA context held per run would show as a climb).
step_refusal_stress_cuda() {
  use_gst 122
  TAIL_LINES=4 with_gpu_memory refusal_gpu_memory.csv step refusal_stress_cuda "$bin/refusal_stress"
  if [ -d "$here/gst126" ]; then
    use_gst 126
    TAIL_LINES=4 with_gpu_memory refusal_gpu_memory126.csv step refusal_stress_cuda126 "$bin/refusal_stress"
  fi
}

# cuda_contexts: whether every CUDA context a pipeline makes ends with it
# (refusal_stress's CudaContextOfPipeline, on 1.22 and 1.26), then one run of
# each case with GStreamer's reference-count log (cuda_contexts_refs*.log):
# who took a reference to a context that outlived its pipeline.
step_cuda_contexts() {
  local version
  for version in 122 126; do
    [ "$version" = 126 ] && [ ! -d "$here/gst126" ] && continue
    use_gst "$version"
    TAIL_LINES=12 step "cuda_contexts$version" "$bin/refusal_stress" --gtest_filter='Cuda/CudaContextOfPipeline.*'
    CUDAHISTOGRAM_STRESS_RUNS=1 GST_DEBUG='GST_REFCOUNTING:9,cudacontext:7,cudautils:7,cudahistogram:6,cudavideoscope:6' \
      GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE="$logs/cuda_contexts_refs$version.log" TAIL_LINES=2 \
      step "cuda_contexts_refs$version" "$bin/refusal_stress" --gtest_filter='Cuda/CudaContextOfPipeline.*'
  done
}

# with_gpu_memory FILE COMMAND...: COMMAND (a step) with nvidia-smi writing
# the time and the GPU's memory in use to $logs/FILE once a second.
with_gpu_memory() {
  local file=$1; shift
  nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader -l 1 > "$logs/$file" 2>&1 &
  local sampler=$!
  "$@"
  kill "$sampler" 2>/dev/null
  wait "$sampler" 2>/dev/null
}
