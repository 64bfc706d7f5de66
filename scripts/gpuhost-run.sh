#!/usr/bin/env bash
# Runs on the GPU host, from the copy of the repository there, after
# scripts/gpuhost-pack.sh filled .gpuhost/ here and the device tool carried it:
#   bash .gpuhost/gpuhost-run.sh OUTDIR [STEP ...]
# Steps against GStreamer 1.22 (default: tests decode examples bench):
#   tests decode examples bench sanitize oddwidth nv21 signalstats signalstats_ffmpeg qc cudahist_qc cudahist_monitor
#   scopes videoscope histogram_variants signalstats_variants scope_variants baseline
#   qc_stages qc_cpu qc_timeline qc_start_trace qc_end_trace qc_element_time qc_batch (where cudahist-qc's time goes; see each function)
# and, when the pack holds gst126.tar.xz, the same against GStreamer 1.26:
#   tests126 decode126 examples126 bench126 oddwidth126 nv21126 convert126 cudahist_qc126
# oddwidth / nv21: the upstream limits docs/versions.md lists, shown again.
# signalstats_ffmpeg: FFmpeg's signalstats figures against the
# element's on CUDA frames, and the speed table against ffmpeg (needs
# ffmpeg.tar.xz from the pack).
# qc: the QC counts' kernel (TOUT, VREP, cropdetect's line sums, field pairs)
# against the reference, under memcheck and racecheck, then QCTools' whole
# graph (ffprobe's JSON saved at pack time, media/qc/CLIP.qc.json) against the
# element with signalstats, cropdetect and field-psnr on CUDA frames.
# histogram_variants: every histbench-NAME the pack carries
# (kernel_variants.tar.xz: bench/tuning/tune_privatized.sh, here before packing) on
# the frames/ cases (HIST_FILTER=... for others), two rounds, one table.
# signalstats_variants: every signalstats_bench-NAME the pack carries
# (kernel_variants.tar.xz: bench/tuning/tune_signalstats.sh build, here before
# packing), two rounds, each checked against the reference first; one table, fastest first;
# then Nsight Compute on one launch of the default build's kernel
# (signalstats_variants/ncu-default.log).
# scope_variants: the scopebench variants of the scope kernels that the pack
# carries (kernel_variants.tar.xz, bench/tuning/tune_scopes.sh build), each
# checked against the CPU path and timed side by side, then Nsight Compute on
# the base variant's kernels (bench/tuning/tune_scopes.sh profile). SCOPE_ROUNDS=N:
# rounds of the uniform runs (default 2; peaked runs once).
# baseline: histbench, scopebench and signalstats_bench of an earlier build
# (gpuhost-pack.sh --baseline) and of this one, in turn, BASELINE_ROUNDS
# rounds (default 3); a table of medians and after/before ratios
# (bench/tuning/compare_builds.py).
# race126 runs the stream-ordering tests against the plugin of commit 983ba61
# (before the ordering; packed as gst126/gst-plugin-unchanged). Each step's full
# log goes to a folder that ends up as OUTDIR/logs.tar.gz; a summary (device,
# date, host C library, each step's exit status and last lines) is printed
# and saved as OUTDIR/summary.txt.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:?usage: gpuhost-run.sh OUTDIR [STEP ...]}; shift
steps=${*:-tests decode examples bench}
logs=$(mktemp -d)/logs; mkdir -p "$logs"

unpack() {  # unpack ARCHIVE: xz tarball of .gpuhost, by tar or, without xz, by Python
  [ -f "$here/$1" ] || return 0
  tar -C "$here" -xJf "$here/$1" 2>/dev/null ||
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$here/$1" "$here"
}
unpack gst122.tar.xz
unpack gst126.tar.xz
unpack ffmpeg.tar.xz
unpack kernel_variants.tar.xz
unpack baseline.tar.xz
# gst126's executables start through trixie's loader at this fixed path.
[ -d "$here/gst126" ] && ln -sfn "$here/gst126" /tmp/cudahist-gst126

# The environment of one GStreamer runtime: use_gst 122 | 126. Sets $bin.
base_path=$PATH
base_ld=${LD_LIBRARY_PATH:-}
use_gst() {
  unset GST_PLUGIN_SYSTEM_PATH_1_0 GST_PLUGIN_SCANNER_1_0 GST_REGISTRY_1_0
  export PATH=$base_path LD_LIBRARY_PATH=$base_ld
  if [ "$1" = 126 ]; then
    source "$here/gst126/env.sh"
    export GST_PLUGIN_PATH="$here/gst126/gst-plugin"
    export BUILD_DIR="$here/gst126"  # the launch recipes look for $BUILD_DIR/gst-plugin
    bin=$here/gst126/bin
  else
    source "$here/gst/env.sh"
    export GST_PLUGIN_PATH="$here/gst-plugin"
    export BUILD_DIR="$here"
    export LD_LIBRARY_PATH="$here/lib:$LD_LIBRARY_PATH"
    bin=$here/bin
  fi
}

# The carried FFmpeg's gst-libav (built for GStreamer 1.22) on the plugin and
# library paths, until the next use_gst.
use_carried_libav() {
  export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$here/ffmpeg/lib" GST_PLUGIN_PATH="$GST_PLUGIN_PATH:$here/ffmpeg/gst-plugins"
}

{
  date -u '+date: %Y-%m-%d %H:%M UTC'
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv
  echo "host C library: $(ldd --version 2>&1 | head -n 1)"
  [ -d "$here/gst126" ] && echo "trixie C library (carried): $("$here/gst126/glibc/ld-linux-x86-64.so.2" --version 2>&1 | head -n 1)"
} > "$logs/device.txt" 2>&1

summary=$logs/summary.txt
cat "$logs/device.txt" > "$summary"

# Only two files come back from the device tool's OUTDIR whatever the steps
# (it returns at most 8): the summary and every log and JSON in logs.tar.gz.
# Also when stopped: `timeout -s TERM N gpuhost-run.sh ...` (timeout signals
# the whole process group) keeps what the finished steps wrote.
finish() {
  cp "$summary" "$out/summary.txt"
  tar -C "$(dirname "$logs")" -czf "$out/logs.tar.gz" logs
  cat "$summary"
}
trap 'echo "=== stopped by a signal" >> "$summary"; finish; exit 124' TERM INT
step() {  # step NAME COMMAND...: runs it with a log; records exit code and tail
  local name=$1; shift
  local t0=$SECONDS
  "$@" > "$logs/$name.log" 2>&1
  local rc=$?
  { echo "=== $name: exit $rc, $((SECONDS - t0)) s"; tail -n "${TAIL_LINES:-6}" "$logs/$name.log"; } >> "$summary"
}

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
# The examples' own tests: on a GPU host their GPU comparisons run instead of
# skipping (GPU output must equal the CPU path's). example_checks SUFFIX, with
# the runtime chosen by use_gst.
example_checks() {
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
# Packed 4:2:2 through cudaupload ! cudadownload, odd and even widths: are the
# bytes that come back the bytes that went in?
odd_width_round_trip() {
  local dir; dir=$(mktemp -d)
  for format in YUY2 UYVY; do
    for width in 333 334; do
      gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=snow ! \
        "video/x-raw,format=$format,width=$width,height=4" ! tee name=t ! queue ! \
        filesink location="$dir/in.raw" t. ! queue ! cudaupload ! "video/x-raw(memory:CUDAMemory)" ! \
        cudadownload ! video/x-raw ! filesink location="$dir/out.raw" || { echo "$format $width: pipeline failed"; continue; }
      python3 - "$dir/in.raw" "$dir/out.raw" "$format" "$width" <<'PY'
import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
fmt, width = sys.argv[3], int(sys.argv[4])
stride = (((width + 1) // 2 * 4) + 3) // 4 * 4
row = (width + 1) // 2 * 4
diff = [i for i in range(min(len(a), len(b))) if i % stride < row and a[i] != b[i]]
cols = sorted({i % stride for i in diff})
v_byte = row - 1 if fmt == "YUY2" else row - 2
print(f"{fmt} width {width}: {len(a)} bytes in, {len(b)} out, {len(diff)} differ"
      + (f" at row offsets {cols} (the last V sample is byte {v_byte})" if diff else ": identical"))
PY
    done
  done
  rm -rf "$dir"
}

# A program of the pack with avdec_*: the bundle's FFmpeg libraries AFTER the
# GStreamer bundle's lib/, so that its real GLib & co. win over the stubs of
# the same names; only there (python3 and the rest keep the plain
# environment). write_with_carried_libav PATH PROGRAM
write_with_carried_libav() {
  cat > "$1" <<WRAP
#!/bin/sh
LD_LIBRARY_PATH="\$LD_LIBRARY_PATH:$here/ffmpeg/lib" GST_PLUGIN_PATH="\$GST_PLUGIN_PATH:$here/ffmpeg/gst-plugins" exec "$bin/$2" "\$@"
WRAP
  chmod +x "$1"
}

# The QC counts on the GPU: the kernel against the reference, then the
# element's figures against what ffprobe printed for QCTools' graph at pack
# time (the H.264 clip decoded by nvh264dec, the others by avdec_* and
# uploaded with cudaupload).
qc_checks() {
  use_gst 122
  step qc_tests "$bin/kernel_tests" --gtest_filter='QcGpu.*'
  step qc_memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$bin/kernel_tests" \
    --gtest_filter='QcGpu.BackToBack*:QcGpu.BadInput*'
  step qc_racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$bin/kernel_tests" \
    --gtest_filter='QcGpu.BackToBack*'
  local media=$here/media/qc compare=$here/scripts/compare_ffmpeg.py
  if [ ! -d "$media" ] || [ ! -d "$here/ffmpeg" ]; then
    echo "qc: no QC clips or ffmpeg bundle in the pack (gpuhost-pack.sh needs Debian's ffmpeg and gstreamer1.0-libav)" >> "$summary"
    return 0
  fi
  local work; work=$(mktemp -d)
  write_with_carried_libav "$work/monitor" monitor
  local clip name
  for clip in "$media"/*.mp4 "$media"/*.mkv; do
    name=$(basename "$clip"); name=qc_gpu_${name%.*}
    if [ "${clip##*.}" = mp4 ]; then
      GST_PLUGIN_FEATURE_RANK=nvh264dec:MAX step "$name" python3 "$compare" --monitor "$work/monitor" --qc \
        --expected "$clip.qc.json" --require-gpu --require-decoder nvh264dec "$clip"
    else
      step "$name" python3 "$compare" --monitor "$work/monitor" --qc --expected "$clip.qc.json" --require-gpu "$clip"
    fi
  done
  rm -rf "$work"
}

links_to() {  # links_to CLIP N: makes CLIP-1 .. CLIP-N (before CLIP's extension) as links to it, prints their paths
  local i link
  for ((i = 1; i <= $2; i++)); do
    link="${1%.*}-$i.${1##*.}"
    ln -s "$1" "$link" && echo "$link"
  done
}
make_prores_clip() {  # make_prores_clip FILE [FRAMES]: FRAMES (default 600) of 1080p 10-bit 4:2:2 ProRes 422 HQ
  "$here/ffmpeg/ffmpeg" -nostdin -v error -f lavfi -i testsrc2=size=1920x1080:rate=25 -frames:v "${2:-600}" \
    -c:v prores_ks -profile:v 3 -pix_fmt yuv422p10le "$1"
}
make_h264_clip() {  # make_h264_clip FILE: 1200 frames of 1080p H.264 at 8 Mbit/s (x264enc of the GStreamer bundle)
  gst-launch-1.0 -q videotestsrc num-buffers=1200 pattern=smpte horizontal-speed=4 ! \
    video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
    x264enc speed-preset=superfast key-int-max=60 bitrate=8000 ! video/x-h264,profile=high ! h264parse ! \
    mp4mux ! filesink location="$1"
}
make_qc_speed_clips() {  # make_qc_speed_clips DIR
  local work=$1
  # Clips long enough that a process's start (CUDA context, plugin loading)
  # is a small part of its time: 1200 frames of 1080p H.264 at 8 Mbit/s
  # (x264enc of the GStreamer bundle: the FFmpeg bundle has no x264), 600 of
  # ProRes; FFV1 decodes at tens of frames/s, 300 frames are ten seconds.
  make_h264_clip "$work/h264-1080p-8M-1200.mp4"
  "$here/ffmpeg/ffmpeg" -nostdin -v error -f lavfi -i testsrc2=size=1920x1080:rate=25 -frames:v 300 \
    -c:v ffv1 -pix_fmt yuv422p10le "$work/ffv1-1080p-422p10.mkv"
  make_prores_clip "$work/prores-1080p-422p10.mov"
}

# Where cudahist-qc's time goes (bench/qc_stages.sh) on the three speed clips.
qc_stages_checks() {
  use_gst 122
  local work; work=$(mktemp -d)
  make_qc_speed_clips "$work"
  (
    use_carried_libav
    for clip in ${QC_STAGES_CLIPS:-h264-1080p-8M-1200.mp4 ffv1-1080p-422p10.mkv prores-1080p-422p10.mov}; do
      PATH="$here/ffmpeg:$PATH" TAIL_LINES=9 step "qc_stages_${clip%%-*}" \
        bash "$here/scripts/qc_stages.sh" --qc "$bin/cudahist-qc" "$work/$clip"
    done
  )
  rm -rf "$work"
}

# cuda_start_probe beside decoding: PROBE run five times while eight ProRes
# decoders keep the cores busy (CLIP..., decoded alone in one process as
# qc_timeline.sh times it: qc_common.sh's qc_decode_together), the first run
# started with them, as cudahist-qc -j 8 makes its context while its decoders
# start. Decoding is stopped after the fifth.
cuda_start_beside_decoding() {  # cuda_start_beside_decoding PROBE CLIP...
  local probe=$1 decoding i
  shift
  (source "$here/scripts/qc_common.sh" && qc_decode_together avdec_prores "$@") &
  decoding=$!
  for i in 1 2 3 4 5; do "$probe"; done
  echo "load $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
  pkill -TERM -P "$decoding"  # gst-launch-1.0, the subshell's child; the subshell then ends
  wait "$decoding" 2>/dev/null
  return 0
}

make_concatenated_clip() {  # make_concatenated_clip OUT CLIP N: CLIP N times over, without re-encoding
  local list i; list=$(mktemp)
  for ((i = 0; i < $3; i++)); do echo "file '$2'" >> "$list"; done
  "$here/ffmpeg/ffmpeg" -nostdin -v error -f concat -safe 0 -i "$list" -c copy "$1"
  rm -f "$list"
}

# Where cudahist-qc's time over decoding alone goes (bench/qc/qc_timeline.sh,
# GStreamer's latency tracer): first CUDA's start and end in five fresh
# processes (bench/probes/cuda_start_probe.cu), alone and beside eight
# decoding ProRes streams, then the runs QC_TIMELINE_RUNS names (default all
# but prores_8_long and prores_12000): 1080p ProRes, one file of 600 frames
# (prores_600), one of 3,000 (prores_3000), one of 12,000 (prores_12000),
# eight of 600 (prores_8), eight of 3,000 (prores_8_long); H.264 on NVDEC,
# one 1,200-frame file (h264_1) and eight (h264_8). QC_TIMELINE_REPEATS: runs
# of each (default 5); QC_B: a second cudahist-qc timed in the same rounds
# (qc_timeline.sh).
qc_timeline_checks() {
  use_gst 122
  local runs=" ${QC_TIMELINE_RUNS:-prores_600 prores_3000 prores_8 h264_1 h264_8} "
  local work; work=$(mktemp -d)
  make_qc_speed_clips "$work"
  make_prores_clip "$work/prores-3000.mov" 3000
  local prores prores_long h264
  mapfile -t prores < <(links_to "$work/prores-1080p-422p10.mov" 8)
  mapfile -t prores_long < <(links_to "$work/prores-3000.mov" 8)
  mapfile -t h264 < <(links_to "$work/h264-1080p-8M-1200.mp4" 8)
  [[ $runs == *" prores_12000 "* ]] && make_concatenated_clip "$work/prores-12000.mov" "$work/prores-3000.mov" 4
  TAIL_LINES=6 step qc_timeline_cuda_start bash -c 'for i in 1 2 3 4 5; do "$0"; done' "$here/probes/cuda_start_probe"
  use_carried_libav
  TAIL_LINES=6 step qc_timeline_cuda_start_beside_decoding \
    cuda_start_beside_decoding "$here/probes/cuda_start_probe" "${prores_long[@]}"
  export REPEATS=${QC_TIMELINE_REPEATS:-5}
  local timeline=(bash "$here/scripts/qc_timeline.sh" --qc "$bin/cudahist-qc") run
  for run in $runs; do
    case $run in
      prores_600) TAIL_LINES=6 step qc_timeline_$run "${timeline[@]}" "$work/prores-1080p-422p10.mov" ;;
      prores_3000) TAIL_LINES=6 step qc_timeline_$run "${timeline[@]}" "$work/prores-3000.mov" ;;
      prores_12000) TAIL_LINES=6 step qc_timeline_$run "${timeline[@]}" "$work/prores-12000.mov" ;;
      prores_8) TAIL_LINES=6 step qc_timeline_$run "${timeline[@]}" "${prores[@]}" ;;
      prores_8_long) TAIL_LINES=6 step qc_timeline_$run "${timeline[@]}" "${prores_long[@]}" ;;
      h264_1) TAIL_LINES=6 step qc_timeline_$run "${timeline[@]}" "$work/h264-1080p-8M-1200.mp4" ;;
      h264_8) TAIL_LINES=6 step qc_timeline_$run "${timeline[@]}" "${h264[@]}" ;;
      *) echo "gpuhost-run: QC_TIMELINE_RUNS: no run named $run" >&2 ;;
    esac
  done
  rm -rf "$work"
}

# One run each of cudahist-qc (and of QC_B, when given) over one and over
# eight 600-frame ProRes files with GStreamer's debug log of the start: the
# states, the CUDA contexts asked for and made, the caps, the decoders'
# first frames. The logs go to qc_start_trace/ (gzip).
qc_start_trace_checks() {
  use_gst 122
  use_carried_libav
  local work dir=$logs/qc_start_trace i files exe name
  work=$(mktemp -d); mkdir -p "$dir"
  make_prores_clip "$work/prores.mov"
  mapfile -t files < <(links_to "$work/prores.mov" 8)
  for exe in "$bin/cudahist-qc" ${QC_B:+"$QC_B"}; do
    name=$([ "$exe" = "$bin/cudahist-qc" ] && echo qc || echo qc_b)
    for i in 1 8; do
      step "qc_start_trace_${name}_$i" env GST_DEBUG_FILE="$dir/${name}_$i.log" GST_DEBUG_NO_COLOR=1 \
        GST_DEBUG="cuda*:5,GST_CONTEXT:5,GST_STATES:4,basetransform:4,videodecoder:4,GST_EVENT:4" \
        "$exe" --force -j "$i" -o "$work/out" "${files[@]:0:$i}"
    done
  done
  gzip -f "$dir"/*.log
  rm -rf "$work"
}

# How long each element of cudahist-qc's pipeline holds a frame, over one
# and over eight ProRes files of QC_ELEMENT_FRAMES (default 600) frames
# (GStreamer's latency tracer, bench/qc/tracer_timeline.py --elements): where a
# lone CPU decoder waits on the element's streaming thread, the element holds
# each frame about as long as the decoder takes to make one. The logs go to
# qc_element_time/ (gzip).
qc_element_time_checks() {
  use_gst 122
  use_carried_libav
  local work dir=$logs/qc_element_time i files
  work=$(mktemp -d); mkdir -p "$dir"
  make_prores_clip "$work/prores.mov" "${QC_ELEMENT_FRAMES:-600}"
  mapfile -t files < <(links_to "$work/prores.mov" 8)
  for i in 1 8; do
    GST_TRACERS="latency(flags=element)" GST_DEBUG=GST_TRACER:7 GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE="$dir/qc_$i.log" \
      "$bin/cudahist-qc" --force -j "$i" -o "$work/out" "${files[@]:0:$i}" > /dev/null
    TAIL_LINES=10 step "qc_element_time_$i" bash -c 'python3 "$0" --elements "$1" && echo "decoder: first, span, records: $(python3 "$0" "$1" avdec)"' \
      "$here/scripts/tracer_timeline.py" "$dir/qc_$i.log"
  done
  gzip -f "$dir"/*.log
  rm -rf "$work"
}

# The end of a run on NVDEC: three runs each of cudahist-qc and of decoding
# alone with the decoder cudahist-qc chose, over the pack's 90-frame 1080p
# H.264 clip (QC_END_LONG=1: a 1,200-frame one made here), with GStreamer's
# log of the states and events (timestamps from gst_init) and each run's wall
# time (wall.txt: NAME RUN SECONDS), in qc_end_trace/.
qc_end_trace_checks() {
  use_gst 122
  source "$here/scripts/qc_common.sh"
  local dir=$logs/qc_end_trace clip=$here/media/clip-1080p.mp4 work run seconds decoder
  local trace=(GST_DEBUG_NO_COLOR=1 GST_DEBUG="GST_STATES:4,GST_EVENT:5,videodecoder:4")
  work=$(mktemp -d); mkdir -p "$dir"
  if [ -n "${QC_END_LONG:-}" ]; then clip=$work/h264-1200.mp4; make_h264_clip "$clip"; fi
  for run in 1 2 3; do
    seconds=$(qc_seconds sh -c 'exec "$@" > "$0"' "$dir/qc_$run.json" env "${trace[@]}" \
      GST_DEBUG_FILE="$dir/qc_$run.log" "$bin/cudahist-qc" --force -o "$work/out" "$clip")
    echo "qc $run $seconds" >> "$dir/wall.txt"
    decoder=$(sed -nE 's/.*"decoder":"([^"]*)".*/\1/p' "$dir/qc_$run.json" | head -n 1)
    seconds=$(export "${trace[@]}" GST_DEBUG_FILE="$dir/decode_$run.log"; qc_seconds qc_decode "$clip" "$decoder" \
      fakesink sync=false)
    echo "decode($decoder) $run $seconds" >> "$dir/wall.txt"
  done
  step qc_end_trace cat "$dir/wall.txt"
  gzip -f "$dir"/*.log
  rm -rf "$work"
}

# A folder's run as a batch: QC_BATCH_FILES (default 16) links to one
# 1,200-frame 1080p H.264 clip (NVDEC), cudahist-qc -j QC_BATCH_JOBS (default
# 4), and QC_B's cudahist-qc in the same rounds, taking turns going first;
# QC_BATCH_ROUNDS (default 3) rounds of wall seconds.
qc_batch_checks() {
  use_gst 122
  source "$here/scripts/qc_common.sh"
  local work files round jobs=${QC_BATCH_JOBS:-4} exes name seconds
  work=$(mktemp -d)
  make_h264_clip "$work/h264.mp4"
  mapfile -t files < <(links_to "$work/h264.mp4" "${QC_BATCH_FILES:-16}")
  for ((round = 1; round <= ${QC_BATCH_ROUNDS:-3}; round++)); do
    exes=("$bin/cudahist-qc" ${QC_B:+"$QC_B"})
    ((round % 2 == 0)) && [ -n "${QC_B:-}" ] && exes=("$QC_B" "$bin/cudahist-qc")
    for exe in "${exes[@]}"; do
      name=$([ "$exe" = "$bin/cudahist-qc" ] && echo qc || echo qc_b)
      seconds=$(qc_seconds sh -c '"$0" "$@" > /dev/null' "$exe" --force -j "$jobs" -o "$work/out" "${files[@]}") ||
        seconds="$seconds (failed: exit status $?)"
      echo "round $round $name $seconds" >> "$logs/qc_batch.txt"
    done
  done
  step qc_batch cat "$logs/qc_batch.txt"
  rm -rf "$work"
}

one_process() {  # one_process TAIL FILE...: one gst-launch, a decodebin branch per FILE ending in TAIL
  local tail=$1; shift
  local branches=() f
  for f in "$@"; do branches+=(filesrc location="$f" ! decodebin caps="video/x-raw(ANY)" ! $tail); done
  gst-launch-1.0 -q "${branches[@]}"
}

# Eight ProRes files at once, with how busy the 16 cores were
# (bench/cpu_busy.sh), twice: decoding alone in 8 processes and in one;
# cudaupload, then the element after it, added in one process; the element
# uploading itself (upload=true, what cudahist-qc runs); cudahist-qc -j 8.
# Then one file 5 times as long: decoding alone, cudaupload added, the
# element uploading, cudahist-qc. Last, nvcodec's plugin init under
# GST_DEBUG's clock (nvcodec_load_debug.log in the logs): where its 1.8 s go.
qc_cpu_checks() {
  use_gst 122
  local work; work=$(mktemp -d)
  make_prores_clip "$work/prores.mov"
  for i in 1 2 3 4 5 6 7 8; do ln -s "$work/prores.mov" "$work/$i.mov"; done
  use_carried_libav
  gst-inspect-1.0 cudaupload > /dev/null 2>&1  # the registry, built before anything is timed
  export -f one_process
  local upload="queue max-size-buffers=4 ! cudaupload"
  local element="cudahistogram signalstats=true cropdetect=true field-psnr=true"
  local uploading="queue max-size-buffers=4 ! $element upload=true"
  local round
  for round in 1 2; do
    step qc_cpu_decode_8proc_$round bash "$here/scripts/cpu_busy.sh" bash -c 'for f in "$@"; do gst-launch-1.0 -q filesrc location="$f" ! \
      decodebin caps="video/x-raw(ANY)" ! fakesink sync=false & done; wait' _ "$work"/[1-8].mov
    step qc_cpu_decode_1proc_$round bash "$here/scripts/cpu_busy.sh" bash -c 'one_process "fakesink sync=false" "$@"' _ "$work"/[1-8].mov
    step qc_cpu_upload_1proc_$round bash "$here/scripts/cpu_busy.sh" bash -c 'one_process "$0 ! fakesink sync=false" "$@"' "$upload" "$work"/[1-8].mov
    step qc_cpu_element_1proc_$round bash "$here/scripts/cpu_busy.sh" bash -c 'one_process "$0 ! fakesink sync=false" "$@"' "$upload ! $element" "$work"/[1-8].mov
    step qc_cpu_uploading_1proc_$round bash "$here/scripts/cpu_busy.sh" bash -c 'one_process "$0 ! fakesink sync=false" "$@"' "$uploading" "$work"/[1-8].mov
    step qc_cpu_report_$round bash "$here/scripts/cpu_busy.sh" "$bin/cudahist-qc" --force -j 8 -o "$work/reports" \
      "$work"/[1-8].mov
  done
  make_prores_clip "$work/long.mov" 3000
  step qc_cpu_long_decode bash "$here/scripts/cpu_busy.sh" bash -c 'one_process "fakesink sync=false" "$@"' _ "$work/long.mov"
  step qc_cpu_long_upload bash "$here/scripts/cpu_busy.sh" bash -c 'one_process "$0 ! fakesink sync=false" "$@"' "$upload" "$work/long.mov"
  step qc_cpu_long_uploading bash "$here/scripts/cpu_busy.sh" bash -c 'one_process "$0 ! fakesink sync=false" "$@"' "$uploading" "$work/long.mov"
  step qc_cpu_long_report bash "$here/scripts/cpu_busy.sh" "$bin/cudahist-qc" --force -j 1 -o "$work/reports" "$work/long.mov"
  GST_DEBUG='*:4,GST_PLUGIN_LOADING:5' GST_DEBUG_NO_COLOR=1 gst-inspect-1.0 cudaupload > "$logs/nvcodec_load_debug.log" 2>&1
  rm -rf "$work"
}

# cudahist-qc on the GPU: its reports of the comparison's clips (NVDEC for the
# H.264 ones, avdec_* and cudaupload for the rest) against the carried
# ffprobe running QCTools' graph, then the speed table (bench/qc/qc_speed.sh):
# 1080p H.264 (NVDEC) and 10-bit 4:2:2 FFV1 and ProRes (made here by the
# carried ffmpeg, decoded on the CPU), 1 and 8 files, against ffprobe's graph
# and decoding alone. QC_SPEED_CLIPS: some of the three only;
# QC_SPEED_REPEATS: rounds of each (qc_speed.sh).
cudahist_qc_checks() {
  use_gst 122
  local media=$here/media/cudahist-qc
  if [ ! -d "$media" ] || [ ! -x "$here/ffmpeg/ffprobe" ]; then
    echo "cudahist_qc: no clips or ffprobe in the pack (gpuhost-pack.sh needs Debian's ffmpeg)" >> "$summary"
    return 0
  fi
  local work; work=$(mktemp -d)
  write_with_carried_libav "$work/cudahist-qc" cudahist-qc
  PATH="$here/ffmpeg:$PATH" step cudahist_qc_compare python3 "$here/scripts/compare_qcli.py" "$work/cudahist-qc" \
    --gpu --clips "$media/clips with spaces"
  make_qc_speed_clips "$work"
  (
    use_carried_libav
    PATH="$here/ffmpeg:$PATH" TAIL_LINES=12 step cudahist_qc_speed \
      bash "$here/scripts/qc_speed.sh" --qc "$bin/cudahist-qc" \
      $(printf "$work/%s " ${QC_SPEED_CLIPS:-h264-1080p-8M-1200.mp4 ffv1-1080p-422p10.mkv prores-1080p-422p10.mov})
  )
  rm -rf "$work"
}

# cudahist-qc's report against qcli's document on GStreamer 1.26, CUDA
# frames: the comparison's clips that need no CPU decoder (the gst126 pack
# carries no gst-libav): H.264 and HEVC on NVDEC, and v210, whose frames the
# element copies into CUDA memory itself (upload=true).
cudahist_qc126_checks() {
  use_gst 126
  local clips="$here/media/cudahist-qc/clips with spaces"
  if [ ! -d "$clips" ] || [ ! -x "$here/ffmpeg/ffprobe" ]; then
    echo "cudahist_qc126: no clips or ffprobe in the pack (gpuhost-pack.sh needs Debian's ffmpeg)" >> "$summary"
    return 0
  fi
  PATH="$here/ffmpeg:$PATH" TAIL_LINES=8 step cudahist_qc_compare126 python3 "$here/scripts/compare_qcli.py" \
    "$bin/cudahist-qc" --gpu --clips "$clips" --only "h264 420.mkv" --only "h264 420.mp4" \
    --only "hevc 420.mp4" --only "v210.mov"
}

# cudahist-monitor on the GPU, the parts MONITOR_STEPS names (default
# "fault scale soak status"): its CUDA-error test (cuda_fault_test.py), bench/monitor/monitor_scale.sh on the pack's 1080p30
# 6 Mbit/s H.264 clip (NVDEC, the GPU element, a scope each; MONITOR_STREAMS, default
# 16 32 48 64 80 96, then NVDEC alone), then bench/monitor/monitor_soak.sh with 64
# streams for MONITOR_SOAK_MINUTES (default 20); their tables (scale.tsv,
# decode.tsv, soak.tsv) and the status page of a 16-stream run (its HTML,
# status.json and each stream's scope PNG) go to the logs; back home,
# tools/cudahist-monitor/tests/replay_status_page.py FOLDER OUT.png serves
# them to headless Chromium for a screenshot.
cudahist_monitor_checks() {
  use_gst 122
  local clip=$here/media/live-1080p30-6M.mp4 dir=$logs/cudahist_monitor
  mkdir -p "$dir"
  local parts=" ${MONITOR_STEPS:-fault scale soak status} "
  [[ $parts == *" fault "* ]] && PYTHONPATH="$here/scripts/python" TAIL_LINES=12 step cudahist_monitor_cuda_fault \
    python3 "$here/scripts/cuda_fault_test.py" "$bin/cudahist-monitor"
  [[ $parts == *" scale "* ]] && CLIP=$clip CLIP_FRAMES=300 TAIL_LINES=16 step cudahist_monitor_scale \
    bash "$here/scripts/monitor_scale.sh" "$bin/cudahist-monitor" "$dir/scale" ${MONITOR_STREAMS:-16 32 48 64 80 96}
  [[ $parts == *" soak "* ]] && CLIP=$clip TAIL_LINES=4 step cudahist_monitor_soak bash "$here/scripts/monitor_soak.sh" \
    "$bin/cudahist-monitor" "$dir/soak" 64 "${MONITOR_SOAK_MINUTES:-20}"
  [[ $parts == *" status "* ]] || return 0
  step cudahist_monitor_status bash -c '
    bin=$1 clip=$2 dir=$3/status port=$((20000 + RANDOM % 20000))
    mkdir -p "$dir"
    { printf "[monitor]\nlisten=127.0.0.1:%d\n" "$port"
      for i in $(seq -w 1 16); do printf "[stream channel-%s]\nuri=file://%s\nloop=true\n" "$i" "$clip"; done
    } > "$dir/status.conf"
    "$bin/cudahist-monitor" --config "$dir/status.conf" 2> "$dir/monitor.log" &
    pid=$!
    sleep 15
    python3 - "$port" "$dir" <<PY
import json, sys, urllib.parse, urllib.request
port, folder = sys.argv[1], sys.argv[2]
get = lambda path: urllib.request.urlopen("http://127.0.0.1:%s%s" % (port, path)).read()
status = get("/status.json")
open(folder + "/status.json", "wb").write(status)
open(folder + "/index.html", "wb").write(get("/"))
for s in json.loads(status):
    print(s["name"], s["state"], round(s["fps"], 1), s["alarms"], s["figures"].get("y-avg"))
    if s["scope"]:
        open("%s/%s.png" % (folder, s["name"]), "wb").write(get("/scope?stream=" + urllib.parse.quote(s["name"])))
PY
    kill -TERM $pid; wait $pid' status "$bin" "$clip" "$dir"
}

# The element's signalstats figures against FFmpeg's, frames in CUDA
# memory, then the speed table. The carried ffmpeg (scripts/ffmpeg_bundle.py)
# must first print here what the real one printed at pack time; the
# comparison then uses those figures. nvh264dec decodes the 8-bit 4:2:0 H.264
# clip (ranked first, and required); avdec_* (GStreamer's libav plugin,
# carried) the others, which cudaupload puts in CUDA memory.
# NV21 through cudaupload ! cudadownload alone, odd and even sizes: the bytes
# that come back against those that went in (GStreamer 1.26 fails odd ones).
nv21_round_trip() {
  local dir size; dir=$(mktemp -d)
  for size in 7x3 333x77 8x4 334x78; do
    gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=snow ! \
      "video/x-raw,format=NV21,width=${size%x*},height=${size#*x}" ! tee name=t ! queue ! \
      filesink location="$dir/in.raw" t. ! queue ! cudaupload ! "video/x-raw(memory:CUDAMemory)" ! \
      cudadownload ! video/x-raw ! filesink location="$dir/out.raw" > "$dir/log" 2>&1
    local rc=$?
    if [ $rc -ne 0 ]; then
      echo "NV21 $size: pipeline failed (exit $rc): $(grep -m1 -iE 'error|fail' "$dir/log")"
    elif cmp -s "$dir/in.raw" "$dir/out.raw"; then
      echo "NV21 $size: identical ($(stat -c %s "$dir/in.raw") bytes)"
    else
      echo "NV21 $size: DIFFERENT ($(cmp "$dir/in.raw" "$dir/out.raw" | head -n 1))"
    fi
  done
  rm -rf "$dir"
}

signalstats_checks() {
  local media=$here/media/signalstats ffmpeg=$here/ffmpeg/ffmpeg compare=$here/scripts/compare_ffmpeg.py
  if [ ! -x "$ffmpeg" ] || [ ! -d "$media" ]; then
    echo "signalstats: no ffmpeg bundle or clips in the pack (gpuhost-pack.sh needs Debian's ffmpeg and gstreamer1.0-libav)" >> "$summary"
    return 0
  fi
  use_gst 122
  local work; work=$(mktemp -d)
  write_with_carried_libav "$work/monitor" monitor
  step ffmpeg_version "$ffmpeg" -version
  step ffmpeg_bundle_matches bash -c 'status=0
    for c in "$1"/*.mp4 "$1"/*.mkv; do
      "$2" -nostdin -v error -i "$c" -map 0:v:0 -vf "signalstats=stat=brng,metadata=mode=print:file=$3/here.txt" -f null - &&
        cmp "$c.signalstats.txt" "$3/here.txt" && echo "$(basename "$c"): the carried ffmpeg prints what the real one printed" ||
        { echo "$(basename "$c"): DIFFERENT (or failed)"; status=1; }
    done; exit $status' - "$media" "$ffmpeg" "$(mktemp -d)"
  local clip name
  for clip in "$media"/*.mp4 "$media"/*.mkv; do
    name=$(basename "$clip"); name=ss_gpu_${name%.*}
    if [ "$(basename "$clip")" = h264-420-640x360.mp4 ]; then
      GST_PLUGIN_FEATURE_RANK=nvh264dec:MAX step "$name" python3 "$compare" --monitor "$work/monitor" \
        --expected "$clip.signalstats.txt" --require-gpu --require-decoder nvh264dec "$clip"
    else
      step "$name" python3 "$compare" --monitor "$work/monitor" --expected "$clip.signalstats.txt" --require-gpu "$clip"
    fi
  done
  # Speed: a 1080p H.264 clip of 2400 frames (80 s at 30 fps), made here (x264enc is in the
  # GStreamer bundle): long enough that start-up noise stays near 1% of the steady rate.
  local speed_clip=$work/speed-1080p.mp4 frames=2400
  step speed_clip gst-launch-1.0 -q videotestsrc num-buffers=$frames pattern=smpte horizontal-speed=4 ! \
    video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
    x264enc speed-preset=superfast key-int-max=60 bitrate=8000 ! video/x-h264,profile=high ! h264parse ! \
    mp4mux ! filesink location="$speed_clip"
  if [ ! -s "$speed_clip" ]; then
    speed_clip=$here/media/clip-1080p.mp4 frames=90
    echo "signalstats: no speed clip; timing the pack's 90-frame clip-1080p.mp4" >> "$summary"
  fi
  # The speed clip's figures too: 1080p (NVDEC's 1088 rows cropped), every frame.
  GST_PLUGIN_FEATURE_RANK=nvh264dec:MAX step ss_gpu_speed_clip python3 "$compare" --monitor "$work/monitor" \
    --ffmpeg "$ffmpeg" --require-gpu --require-decoder nvh264dec "$speed_clip"
  TAIL_LINES=14 step signalstats_speed python3 "$here/scripts/signalstats_speed.py" --clip "$speed_clip" \
    --frames $frames --ffmpeg "$ffmpeg" --runs "${SPEED_RUNS:-3}" \
    --streams "${SPEED_STREAMS:-1}" --out "$logs/signalstats"
  rm -rf "$work"
}

# Steps of one subject each live in scripts/gpuhost/SUBJECT.sh (packed as
# .gpuhost/steps/), as functions named step_NAME, run by `gpuhost-run.sh OUT NAME`.
for f in "$here"/steps/*.sh; do [ -e "$f" ] && source "$f"; done

for s in $steps; do
  case $s in
    tests) use_gst 122; gpu_tests "" ;;
    qc_start_trace) qc_start_trace_checks ;;
    qc_end_trace) qc_end_trace_checks ;;
    qc_element_time) qc_element_time_checks ;;
    qc_batch) qc_batch_checks ;;
    tests126) use_gst 126; gpu_tests 126 ;;
    decode) use_gst 122; decode_checks "" ;;
    decode126) use_gst 126; decode_checks 126 ;;
    oddwidth) use_gst 122; step oddwidth odd_width_round_trip ;;
    oddwidth126) use_gst 126; step oddwidth126 odd_width_round_trip ;;
    nv21) use_gst 122; step nv21 nv21_round_trip ;;
    nv21126) use_gst 126; step nv21126 nv21_round_trip ;;
    convert126)
      # Does 1.26's cudaconvert register here (1.22's does not: its NVRTC check
      # asks for compute_30)? gst-cuda opens "libnvrtc.so"; the host's CUDA
      # toolkit has one that is not on the loader's path, so it is named.
      use_gst 126
      nvrtc=$(ls /usr/local/cuda/lib64/libnvrtc.so 2>/dev/null | head -n 1)
      step nvrtc126_default bash -c 'GST_REGISTRY_1_0=$(mktemp -u) GST_DEBUG=cudanvrtc:6 gst-inspect-1.0 cudaconvert 2>&1 | grep -Ev "^\s*$" | tail -n 30'
      export GST_CUDA_NVRTC_LIBNAME=$nvrtc GST_REGISTRY_1_0=$(mktemp -u)
      step nvrtc126_toolkit bash -c 'echo "GST_CUDA_NVRTC_LIBNAME=$GST_CUDA_NVRTC_LIBNAME"; GST_DEBUG=cudanvrtc:6 gst-inspect-1.0 cudaconvert 2>&1 | tail -n 30'
      if gst-inspect-1.0 --exists cudaconvert; then
        step convert126 python3 "$here/scripts/compare_cuda_branches.py" cudaconvert \
          I420 Y42B Y444 I420_10LE I422_10LE Y444_16LE P010_10LE P016_LE RGBA BGRx RGB BGR10A2_LE GBR GBRA
      fi
      unset GST_CUDA_NVRTC_LIBNAME ;;
    race126)
      # The stream-ordering tests against the plugin from before the ordering:
      # they must fail there (they pass with the current plugin: tests126).
      use_gst 126
      GST_PLUGIN_PATH="$here/gst126/gst-plugin-unchanged" step race126_unchanged \
        "$bin/cuda_input_tests" --gtest_filter='StreamOrder.CountsWait*'
      step race126_current "$bin/cuda_input_tests" --gtest_filter='StreamOrder.CountsWait*' ;;
    examples) use_gst 122; example_checks "" ;;
    examples126) use_gst 126; example_checks 126 ;;
    sanitize)
      # memcheck over the coverage frames (every layout, offset and ROI), racecheck
      # over a sample of them: the ticket, the copies' merge and grid.sync.
      use_gst 122
      step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$bin/kernel_tests" \
        --gtest_filter='Coverage/*:GpuReuse*:GpuBadInput*:GpuBatch*'
      step racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$bin/kernel_tests" \
        --gtest_filter='Coverage/GpuCoverageTest.*/1*' ;;
    signalstats_ffmpeg) signalstats_checks ;;
    qc) qc_checks ;;
    cudahist_qc) cudahist_qc_checks ;;
    cudahist_qc126) cudahist_qc126_checks ;;
    qc_stages) qc_stages_checks ;;
    qc_timeline) qc_timeline_checks ;;
    qc_cpu) qc_cpu_checks ;;
    bounds)
      # What bounds a short file and many CPU-decoded ones: a process's CUDA
      # start (cuInit and a context, bare, through the driver API), and
      # cudaupload's copies of 10-bit 4:2:2 1080p frames from pageable memory,
      # 1 and 8 streams in one process.
      use_gst 122
      step cuda_start bash -c 'for i in 1 2 3; do python3 -c "
import ctypes, time
t0 = time.perf_counter()
cuda = ctypes.CDLL(\"libcuda.so.1\")
assert cuda.cuInit(0) == 0
device, context = ctypes.c_int(), ctypes.c_void_p()
assert cuda.cuDeviceGet(ctypes.byref(device), 0) == 0
t1 = time.perf_counter()
assert cuda.cuCtxCreate_v2(ctypes.byref(context), 0, device) == 0
t2 = time.perf_counter()
print(\"cuInit %.3f s, cuCtxCreate %.3f s\" % (t1 - t0, t2 - t1))"; done'
      # Loading nvcodec (its plugin init probes the GPU's decoders and encoders).
      step nvcodec_load bash -c 'for i in 1 2 3; do t0=$(date +%s.%N); gst-inspect-1.0 cudaupload > /dev/null
        t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" "BEGIN { printf \"gst-inspect-1.0 cudaupload: %.3f s\\n\", b - a }"
        t0=$(date +%s.%N); gst-inspect-1.0 videotestsrc > /dev/null
        t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" "BEGIN { printf \"gst-inspect-1.0 videotestsrc: %.3f s\\n\", b - a }"; done'
      TAIL_LINES=5 step upload_bound bash -c 'for n in 1 8; do for upload in "" "queue ! cudaupload !"; do
        branches=(); for i in $(seq "$n"); do branches+=(videotestsrc num-buffers=600 pattern=black !
          video/x-raw,format=I422_10LE,width=1920,height=1080 ! $upload fakesink sync=false); done
        t0=$(date +%s.%N); gst-launch-1.0 -q "${branches[@]}"; t1=$(date +%s.%N)
        awk -v n="$n" -v u="${upload:-(source alone)}" -v a="$t0" -v b="$t1" "BEGIN { f = n * 600 / (b - a); printf \"%d streams %s: %.0f frames/s, %.2f GB/s (with the process start)\\n\", n, u, f, f * 1920 * 1080 * 4 / 1e9 }"
      done; done' ;;
    cudahist_monitor) cudahist_monitor_checks ;;
    videoscope)
      # cudavideoscope on the GPU: drawings and pictures equal to the
      # CPU's, the element's speed (1080p NV12 to a 1024x512 waveform, target
      # 20,000 frames/s, the drawing's share), scope.sh to a file and
      # monitor --scope-png of the 1080p clip.
      use_gst 122
      step scope_render "$bin/scope_render_tests"
      step scope_element "$bin/scope_element_tests"
      TAIL_LINES=14 step scope_bench "$bin/scope_bench" --json "$logs/scope_bench.json"
      SCOPE_OUT="$logs/scope_recipe.avi" SCOPE_FRAMES=30 step scope_recipe \
        bash "$here/scripts/launch/scope.sh" "$here/media/clip-1080p.mp4" parade
      step scope_recipe_frames bash -c 'd=$(mktemp -d); gst-launch-1.0 -q filesrc location="$1" ! avidemux ! \
          jpegdec ! videoconvert ! pngenc ! multifilesink location="$d/f%03d.png" &&
          echo "$(ls "$d" | wc -l) frames of (width, height) $(python3 -c "import struct, sys; \
          print(struct.unpack(\">II\", open(sys.argv[1], \"rb\").read(24)[16:24]))" "$d/f000.png")"; \
          cp "$d/f010.png" "$2"' _ \
        "$logs/scope_recipe.avi" "$logs/scope_recipe_frame10.png"
      step scope_png "$bin/monitor" --quiet --scope waveform --scope-png "$logs/scope_waveform_frame30.png" \
        --frame 30 "$here/media/clip-1080p.mp4" ;;
    bench)
      use_gst 122
      TAIL_LINES=60 step bench bash "$here/scripts/run_all.sh" "$bin" "$logs/bench" ;;
    signalstats)
      # signalstats' library target on its own: the GPU tests of signalstats
      # (== the reference), then the timing against the histograms.
      use_gst 122
      step signalstats_tests "$bin/kernel_tests" --gtest_filter='SignalStats*'
      TAIL_LINES=12 step signalstats_bench "$bin/signalstats_bench" --json "$logs/signalstats_bench.json"
      step signalstats_memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$bin/kernel_tests" \
        --gtest_filter='SignalStatsGpu.BackToBack*:SignalStatsGpu.BadInput*'
      step signalstats_racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$bin/kernel_tests" \
        --gtest_filter='SignalStatsGpu.BackToBack*' ;;
    histogram_variants)
      TAIL_LINES=40 step histogram_variants bash "$here/scripts/tune_privatized.sh" run "$here/kernel-variants" \
        "$logs/histogram_variants" 2 "${HIST_FILTER:-frames/}" ;;
    signalstats_variants)
      use_gst 122
      TAIL_LINES=16 step signalstats_variants bash "$here/scripts/tune_signalstats.sh" run "$here/kernel-variants" \
        "$logs/signalstats_variants" 2
      TAIL_LINES=40 step signalstats_profile bash "$here/scripts/tune_signalstats.sh" profile \
        "$bin/signalstats_bench" "$logs/signalstats_variants" ;;
    scopes)
      # The scope counts: the kernels against the CPU reference, the
      # same under memcheck, then the benchmark (the two-phase per-column baseline, CUB, roofline) in one run.
      use_gst 122
      scope_tests='Cases/GpuColumnMatrix.*:Cases/GpuJointMatrix.*:GpuArticle*:GpuColumnLarge*:GpuScopes*'
      TAIL_LINES=8 step scope_tests "$bin/kernel_tests" --gtest_filter="$scope_tests"
      TAIL_LINES=8 step scope_memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$bin/kernel_tests" \
        --gtest_filter='Cases/GpuColumnMatrix.*:Cases/GpuJointMatrix.*:GpuArticle*:GpuScopes*'
      TAIL_LINES=40 step scopebench "$bin/scopebench" --json "$logs/scopebench.json"
      # The same on peaked samples (a bell around mid-range, like real video):
      # fewer distinct counters a block, which is what the joint kernel's merge costs.
      TAIL_LINES=24 step scopebench_peaked "$bin/scopebench" --distribution peaked \
        --json "$logs/scopebench_peaked.json" ;;
    scope_variants)
      # The scope kernels' variants side by side (one table per
      # distribution: us / fraction of the read+write roofline), then ncu.
      if ls "$here"/kernel-variants/scopebench-* > /dev/null 2>&1; then
        TAIL_LINES=45 step scope_variants bash "$here/scripts/tune_scopes.sh" run "$here/kernel-variants" \
          "$logs/scope_variants" "${SCOPE_ROUNDS:-2}"
        profiled=$here/kernel-variants/scopebench-base
        [ -x "$profiled" ] || profiled=$(ls "$here"/kernel-variants/scopebench-* | head -n 1)
        TAIL_LINES=12 step scope_profile bash "$here/scripts/tune_scopes.sh" profile "$profiled" \
          "$logs/scope_profile"
      else
        echo "=== scope_variants: no scopebench variants in the pack (bench/tuning/tune_scopes.sh build)" >> "$summary"
      fi ;;
    baseline)
      if [ -d "$here/baseline" ]; then
        use_gst 122
        TAIL_LINES=60 step baseline python3 "$here/scripts/compare_builds.py" run "$here/baseline/bin" "$bin" \
          "$logs/baseline" "${BASELINE_ROUNDS:-3}"
      else
        echo "=== baseline: no baseline.tar.xz in the pack (gpuhost-pack.sh --baseline BUILD_BEFORE)" >> "$summary"
      fi ;;
    bench126)
      # The element on both runtimes in one call: 1.22's plain path and 1.26's
      # (its plain pool and a pool whose frames carry a producer stream).
      # BENCH_ROUNDS=N (default 1) alternates the two N times, BENCH_SECONDS
      # each configuration (default 6), so that drift over the call hits both
      # runtimes alike; ordering_rounds.py prints each round's ratios and
      # their medians.
      for round in $(seq 1 "${BENCH_ROUNDS:-1}"); do
        use_gst 122
        TAIL_LINES=12 step element_bench122_$round "$bin/element_bench" --seconds "${BENCH_SECONDS:-6}" \
          --json "$logs/element_bench122.$round.json"
        use_gst 126
        TAIL_LINES=12 step element_bench126_$round "$bin/element_bench" --seconds "${BENCH_SECONDS:-6}" \
          --json "$logs/element_bench126.$round.json"
      done
      TAIL_LINES=16 step ordering_rounds python3 "$here/scripts/ordering_rounds.py" "$logs" ;;
    *)
      if declare -F "step_$s" > /dev/null; then "step_$s"
      else echo "=== $s: no such step" >> "$summary"; fi ;;
  esac
done

finish
