# The examples' own tests: on a GPU host their GPU comparisons run instead of
# skipping (GPU output must equal the CPU path's), then the examples on the
# pack's 1080p clips.

example_checks() {  # example_checks SUFFIX, with the runtime chosen by use_gst
  local ex=$here/../examples
  export PYTHONPATH="$ex/tests" PYTHONDONTWRITEBYTECODE=1
  step "ex_quickstart$1" python3 "$ex/tests/quickstart_test.py" "$bin/quickstart"
  step "ex_monitor$1" python3 "$ex/tests/monitor_test.py" "$bin/monitor"
  step "ex_nvdec$1" python3 "$ex/tests/nvdec_histogram_test.py" "$bin/nvdec_histogram" "$bin/monitor"
  step "ex_launch$1" python3 "$ex/tests/launch_test.py" "$ex/launch"
  step "quickstart$1" "$bin/quickstart" --frames 5
  step "monitor_1080p$1" "$bin/monitor" --summary "$here/media/clip-1080p.mp4"
  step "nvdec_1080p$1" "$bin/nvdec_histogram" "$here/media/clip-1080p.h264"
}

# The examples' tests with their GPU comparisons, and the examples on the 1080p clip, on GStreamer 1.22.
step_examples() { use_gst 122; example_checks ""; }
# The same on GStreamer 1.26.
step_examples126() { use_gst 126; example_checks 126; }
