#!/usr/bin/env bash
# Runs on the GPU host, from the copy of the repository there, after
# scripts/gpuhost-pack.sh filled .gpuhost/ here and the device tool carried it:
#   bash .gpuhost/gpuhost-run.sh OUTDIR [STEP ...]
# Steps (default: all): tests decode examples bench; sanitize on demand. Each step's full log
# goes to a folder that ends up as OUTDIR/logs.tar.gz; a summary (device,
# date, each step's exit status and last lines) is printed and saved as
# OUTDIR/summary.txt.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:?usage: gpuhost-run.sh OUTDIR [STEP ...]}; shift
steps=${*:-tests decode examples bench}
logs=$(mktemp -d)/logs; mkdir -p "$logs"

source "$here/gst/env.sh"
export GST_PLUGIN_PATH="$here/gst-plugin"
export BUILD_DIR="$here"   # the launch recipes look for $BUILD_DIR/gst-plugin
export LD_LIBRARY_PATH="$here/lib:$LD_LIBRARY_PATH"
bin=$here/bin
# gpuhost-pack.sh compresses bin/ so that it fits what the device tool carries.
if [ -f "$here/bin.tar.gz" ]; then rm -rf "$bin" && tar -C "$here" -xzf "$here/bin.tar.gz"; fi

{
  date -u '+date: %Y-%m-%d %H:%M UTC'
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv
} > "$logs/device.txt" 2>&1

summary=$logs/summary.txt
cat "$logs/device.txt" > "$summary"
step() {  # step NAME COMMAND...: runs it with a log; records exit code and tail
  local name=$1; shift
  local t0=$SECONDS
  "$@" > "$logs/$name.log" 2>&1
  local rc=$?
  { echo "=== $name: exit $rc, $((SECONDS - t0)) s"; tail -n "${TAIL_LINES:-6}" "$logs/$name.log"; } >> "$summary"
}

for s in $steps; do
  case $s in
    tests)
      step kernel_tests "$bin/kernel_tests"
      step cpu_tests "$bin/cpu_tests"
      step element_tests "$bin/element_tests" ;;
    decode)
      CUDAHIST_TEST_CLIP="$here/media/clip-1080p.mp4" step decode_match "$bin/decode_match_test"
      step inspect gst-inspect-1.0 cudahistogram
      step launch_nvdec gst-launch-1.0 -m filesrc location="$here/media/clip-1080p.mp4" ! qtdemux ! \
        h264parse ! nvh264dec ! cudahistogram ! fakesink
      step launch_upload gst-launch-1.0 -m videotestsrc num-buffers=5 ! video/x-raw,format=RGBA ! \
        cudaupload ! "video/x-raw(memory:CUDAMemory)" ! cudahistogram ! fakesink ;;
    examples)
      # The examples' own tests: on a GPU host their GPU comparisons run
      # instead of skipping (GPU output must equal the CPU path's).
      ex=$here/../examples
      export PYTHONPATH="$ex/tests" PYTHONDONTWRITEBYTECODE=1
      step ex_quickstart python3 "$ex/tests/quickstart_test.py" "$bin/quickstart"
      step ex_monitor python3 "$ex/tests/monitor_test.py" "$bin/monitor"
      step ex_nvdec python3 "$ex/tests/nvdec_histogram_test.py" "$bin/nvdec_histogram" "$bin/monitor"
      step ex_launch python3 "$ex/tests/launch_test.py" "$ex/launch"
      step quickstart "$bin/quickstart" --frames 5
      step monitor_1080p "$bin/monitor" --summary "$here/media/clip-1080p.mp4"
      step nvdec_1080p "$bin/nvdec_histogram" "$here/media/clip-1080p.h264" ;;
    sanitize)
      # memcheck over the coverage frames (every layout, offset and ROI), racecheck
      # over a sample of them: the ticket, the copies' merge and grid.sync.
      step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$bin/kernel_tests" \
        --gtest_filter='Coverage/*:GpuReuse*:GpuBadInput*:GpuBatch*'
      step racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$bin/kernel_tests" \
        --gtest_filter='Coverage/GpuCoverageTest.*/1*' ;;
    bench)
      TAIL_LINES=60 step bench bash "$here/scripts/run_all.sh" "$bin" "$logs/bench" ;;
  esac
done

cp "$summary" "$out/summary.txt"
[ -d "$logs/bench" ] && cp "$logs"/bench/*.json "$out/" 2>/dev/null
tar -C "$(dirname "$logs")" -czf "$out/logs.tar.gz" logs
cat "$summary"
