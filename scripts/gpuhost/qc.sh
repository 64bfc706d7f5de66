# QC on the GPU: the QC counts' kernel and QCTools' graph against the
# element on CUDA frames; cudahist-qc's reports against qcli's document and
# its speed table; where a run's time over decoding alone goes.

# The QC counts' kernel (TOUT, VREP, cropdetect's line sums, field pairs) against the reference, under memcheck and racecheck, then QCTools' whole graph (ffprobe's JSON saved at pack time, media/qc/CLIP.qc.json) against the element with signalstats, cropdetect and field-psnr on CUDA frames.
step_qc() {
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
  # The H.264 clip decoded by nvh264dec, the others by avdec_* and uploaded with cudaupload.
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

# cudahist-qc's reports of the comparison clips from CUDA frames against the carried ffprobe running qcli's graph, then bench/qc/qc_speed.sh: 1080p H.264 (NVDEC), 10-bit 4:2:2 FFV1 and ProRes (CPU decoders), 1 and 8 files, against the graph and decoding alone (QC_SPEED_CLIPS, QC_SPEED_REPEATS).
step_cudahist_qc() {
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

# cudahist-qc's reports against qcli's document on GStreamer 1.26, CUDA frames, for the clips that need no CPU decoder (the 1.26 runtime carries no gst-libav): H.264 and HEVC on NVDEC, and v210, which the element uploads itself.
step_cudahist_qc126() {
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

# Where cudahist-qc's time over decoding alone goes (bench/qc/qc_timeline.sh, GStreamer's latency tracer: start, decoding, rest), after CUDA's start and end in five fresh processes (bench/probes/cuda_start_probe.cu), alone and beside eight decoding ProRes streams. QC_TIMELINE_RUNS (default all but prores_8_long and prores_12000): prores_600, prores_3000, prores_12000 (one file of so many 1080p ProRes frames), prores_8 and prores_8_long (eight of 600 and of 3,000), h264_1 and h264_8 (one and eight of 1,200 H.264 frames, NVDEC); QC_TIMELINE_REPEATS (5); QC_B: a second cudahist-qc in the same rounds; QC_UPLOAD=1 adds cudaupload alone.
step_qc_timeline() {
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
