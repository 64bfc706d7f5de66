# The project's own tests on the GPU: the GoogleTest binaries, NVDEC end to
# end with the launch recipes, and the kernel tests under compute-sanitizer.

gpu_tests() {  # gpu_tests SUFFIX: the test binaries of the current runtime
  step "kernel_tests$1" "$bin/kernel_tests"
  step "cpu_tests$1" "$bin/cpu_tests"
  # The tight-layout tests make their frames with ffmpeg: the carried one, where the pack has it.
  PATH="$PATH:$here/ffmpeg" step "element_tests$1" "$bin/element_tests"
  step "cuda_input_tests$1" "$bin/cuda_input_tests"
  # One tools test decodes FFV1 with gst-libav: the carried one runs on GStreamer 1.22 only.
  (
    if [ -z "$1" ] && [ -d "$here/ffmpeg/gst-plugins" ]; then use_carried_libav; fi
    step "tools_tests$1" "$bin/analysis_pipeline_test"
  )
}

decode_checks() {  # decode_checks SUFFIX: NVDEC end to end, gst-inspect, the launch recipes
  CUDAHIST_TEST_CLIP="$here/media/clip-1080p.mp4" step "decode_match$1" "$bin/decode_match_test"
  step "inspect$1" gst-inspect-1.0 cudahistogram
  step "nvcodec_elements$1" bash -c 'for e in cudaupload cudadownload nvh264dec cudaconvert cudascale; do
      if gst-inspect-1.0 --exists "$e"; then echo "$e: registered"; else echo "$e: NOT registered"; fi; done'
  step "launch_nvdec$1" gst-launch-1.0 -m filesrc location="$here/media/clip-1080p.mp4" ! qtdemux ! \
    h264parse ! nvh264dec ! cudahistogram ! fakesink
  step "launch_upload$1" gst-launch-1.0 -m videotestsrc num-buffers=5 ! video/x-raw,format=RGBA ! \
    cudaupload ! "video/x-raw(memory:CUDAMemory)" ! cudahistogram ! fakesink
  step "recipe_decode_file$1" bash "$here/scripts/launch/decode_file.sh" "$here/media/clip-1080p.mp4"
  step "recipe_upload$1" bash "$here/scripts/launch/upload.sh" 10
}

# The GoogleTest binaries on GStreamer 1.22: kernels, CPU, element, CUDA input, the tools' analysis pipeline.
step_tests() { use_gst 122; gpu_tests ""; }
# The same on GStreamer 1.26.
step_tests126() { use_gst 126; gpu_tests 126; }
# The tools' analysis pipeline tests alone (the GPU path's shared context, its elements ending with the pipeline), on GStreamer 1.22 and 1.26.
step_tools() {
  use_gst 122
  step tools_tests "$bin/analysis_pipeline_test" --gtest_filter='*Gpu*:*LastReference*'
  if [ -d "$here/gst126" ]; then
    use_gst 126
    step tools_tests126 "$bin/analysis_pipeline_test" --gtest_filter='*Gpu*:*LastReference*'
  fi
}
# decode_match (NVDEC end to end), gst-inspect, the launch recipes, on GStreamer 1.22.
step_decode() { use_gst 122; decode_checks ""; }
# The same on GStreamer 1.26.
step_decode126() { use_gst 126; decode_checks 126; }
# compute-sanitizer: memcheck over the coverage frames (every layout, offset and ROI), racecheck over a sample of them (the ticket, the copies' merge, grid.sync).
step_sanitize() {
  use_gst 122
  step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$bin/kernel_tests" \
    --gtest_filter='Coverage/*:GpuReuse*:GpuBadInput*:GpuBatch*'
  step racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$bin/kernel_tests" \
    --gtest_filter='Coverage/GpuCoverageTest.*/1*'
}
