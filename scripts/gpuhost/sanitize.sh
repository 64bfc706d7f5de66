# Sanitizers over the elements as well as the kernels, and the refusal stress
# test on CUDA frames. Each compute-sanitizer step fails (exit 1 in the
# summary) on any error or hazard the tool reports; the summary's tail shows
# its "ERROR SUMMARY".

# sanitize_tests TOOL: compute-sanitizer TOOL over a filter of each test
# binary: small frames of every path (the kernels' layouts, offsets and ROIs;
# CUDA memory from cudaupload; the element's own upload; signalstats; the
# scopes and the picture; a few state cycles; the refusals on CUDA frames), so that the whole
# step stays within minutes.
sanitize_tests() {
  local tool=$1
  local kernel_tests='Coverage/GpuCoverageTest.*/1*:GpuReuse*:GpuBadInput*:SignalStatsGpu.BackToBack*:SignalStatsGpu.BadInput*:QcGpu.BackToBack*:GpuScopesBackToBack.*:GpuScopesBadInput.*'
  local element_tests='Gpu/CudaFormats.*:Gpu/CudaSignalStats.*/NV12:Gpu/UploadSignalStats.*/P010_10LE:Gpu/TightCudaLayouts.*/NV12:GpuUpload.HistogramsOfOtherFormatsEqualTheReference:Gpu.OddWidthPacked422InCudaMemoryIsWarnedOnce:Gpu.StateCyclesWithCudaMemory'
  local scope_tests='Gpu/GpuScope.*/NV12_*:GpuPicture/GpuScope.*/NV12_*:GpuPicture/GpuScope.*/YUY2_*:GpuTightScope.*:GpuScopeErrors.StateCyclesWithCudaMemory'
  local stress_tests='Cuda/*:Flow.RenegotiationToARefusedFormatAndBack'
  sanitize_one "$tool" kernel_tests "$kernel_tests"
  # The tight layouts are made by ffmpeg: the carried one, where the pack has it.
  PATH="$PATH:$here/ffmpeg" sanitize_one "$tool" element_tests "$element_tests"
  sanitize_one "$tool" scope_render_tests 'ScopeGpu.*:PictureGpu.*'
  sanitize_one "$tool" scope_element_tests "$scope_tests"
  sanitize_one "$tool" refusal_stress "$stress_tests"
}

# sanitize_one TOOL BINARY FILTER: compute-sanitizer TOOL over BINARY's
# tests that FILTER names, unless SANITIZE_BINARIES leaves BINARY out.
sanitize_one() {
  local tool=$1 binary=$2 filter=$3
  case " ${SANITIZE_BINARIES:-$binary} " in *" $binary "*) ;; *) return 0 ;; esac
  TAIL_LINES=3 step "${tool}_$binary" compute-sanitizer --tool "$tool" --error-exitcode 1 \
    "$bin/$binary" --gtest_filter="$filter"
}

# compute-sanitizer memcheck, racecheck and synccheck (SANITIZE_TOOLS, SANITIZE_BINARIES: some of them) over the kernel tests and the element tests' CUDA paths (both elements through cudaupload and upload=true, signalstats, the scopes, state cycles, the refusals on CUDA frames): a few minutes.
step_sanitize_all() {
  use_gst 122
  # Fewer repetitions under the tools, which slow every launch down: the
  # state cycles (200 by default) and the stress runs (50) once the paths
  # are covered.
  export CUDAHISTOGRAM_STATE_CYCLES=3 CUDAHISTOGRAM_STRESS_RUNS=2 CUDAHISTOGRAM_STRESS_LAUNCH_RUNS=1
  local tool
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do sanitize_tests "$tool"; done
  unset CUDAHISTOGRAM_STATE_CYCLES CUDAHISTOGRAM_STRESS_RUNS CUDAHISTOGRAM_STRESS_LAUNCH_RUNS
}

# refusal_stress's CUDA instances: every refusal marked cuda in tests/stress/refusals.txt on CUDA frames (cudaupload), 50 runs each in process (CUDAHISTOGRAM_STRESS_RUNS) and through gst-launch-1.0 (CUDAHISTOGRAM_STRESS_LAUNCH_RUNS, default 50: each process takes about 2 s to load nvcodec), and each pipeline's CUDA context ending with it, on GStreamer 1.22 and 1.26 (CI runs the system-memory instances); the GPU's memory in use, once a second, beside each (refusal_gpu_memory*.csv: a context held per run shows as a climb).
step_refusal_stress_cuda() {
  local filter='RefusalList.*:Cuda/*'
  use_gst 122
  TAIL_LINES=4 with_gpu_memory refusal_gpu_memory.csv step refusal_stress_cuda "$bin/refusal_stress" --gtest_filter="$filter"
  if [ -d "$here/gst126" ]; then
    use_gst 126
    TAIL_LINES=4 with_gpu_memory refusal_gpu_memory126.csv step refusal_stress_cuda126 "$bin/refusal_stress" \
      --gtest_filter="$filter"
  fi
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
