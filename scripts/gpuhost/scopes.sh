# The scopes on the GPU: the scope kernels against the CPU reference and
# their benchmark; the cudavideoscope element's pictures, speed and recipes.

# The scope kernels against the CPU reference, the same under memcheck, then scopebench (the roofline, the two-phase per-column article's kernel, CUB) on uniform and on peaked samples.
step_scopes() {
  use_gst 122
  local scope_tests='Cases/GpuColumnMatrix.*:Cases/GpuJointMatrix.*:GpuArticle*:GpuColumnLarge*:GpuScopes*'
  TAIL_LINES=8 step scope_tests "$bin/kernel_tests" --gtest_filter="$scope_tests"
  TAIL_LINES=8 step scope_memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$bin/kernel_tests" \
    --gtest_filter='Cases/GpuColumnMatrix.*:Cases/GpuJointMatrix.*:GpuArticle*:GpuScopes*'
  TAIL_LINES=40 step scopebench "$bin/scopebench" --json "$logs/scopebench.json"
  # Peaked samples (a bell around mid-range, like real video): fewer distinct
  # counters a block, which is what the joint kernel's merge costs.
  TAIL_LINES=24 step scopebench_peaked "$bin/scopebench" --distribution peaked \
    --json "$logs/scopebench_peaked.json"
}

# cudavideoscope: its pictures on the GPU equal to the CPU's, videoscope_element_bench (1080p NV12 to a 1024x512 waveform, target 20,000 frames/s, the drawing's share), scope.sh to a file and monitor --scope-png of the 1080p clip.
step_videoscope() {
  use_gst 122
  step scope_render "$bin/scope_render_tests"
  step scope_element "$bin/scope_element_tests"
  TAIL_LINES=14 step videoscope_element_bench "$bin/videoscope_element_bench" \
    --json "$logs/videoscope_element_bench.json"
  SCOPE_OUT="$logs/scope_recipe.avi" SCOPE_FRAMES=30 step scope_recipe \
    bash "$here/scripts/launch/scope.sh" "$here/media/clip-1080p.mp4" parade
  step scope_recipe_frames bash -c 'd=$(mktemp -d); gst-launch-1.0 -q filesrc location="$1" ! avidemux ! \
      jpegdec ! videoconvert ! pngenc ! multifilesink location="$d/f%03d.png" &&
      echo "$(ls "$d" | wc -l) frames of (width, height) $(python3 -c "import struct, sys; \
      print(struct.unpack(\">II\", open(sys.argv[1], \"rb\").read(24)[16:24]))" "$d/f000.png")"; \
      cp "$d/f010.png" "$2"' _ \
    "$logs/scope_recipe.avi" "$logs/scope_recipe_frame10.png"
  step scope_png "$bin/monitor" --quiet --scope waveform --scope-png "$logs/scope_waveform_frame30.png" \
    --frame 30 "$here/media/clip-1080p.mp4"
}
