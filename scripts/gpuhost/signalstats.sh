# signalstats on the GPU: the library against its reference and its timing
# against the histograms; the element's figures against FFmpeg's on CUDA
# frames, and the pipeline's speed against `ffmpeg -vf signalstats`.

# The GPU tests of signalstats (equal to the reference), under memcheck and racecheck, and signalstats_bench against the histograms.
step_signalstats() {
  use_gst 122
  step signalstats_tests "$bin/kernel_tests" --gtest_filter='SignalStats*'
  TAIL_LINES=12 step signalstats_bench "$bin/signalstats_bench" --json "$logs/signalstats_bench.json"
  step signalstats_memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$bin/kernel_tests" \
    --gtest_filter='SignalStatsGpu.BackToBack*:SignalStatsGpu.BadInput*'
  step signalstats_racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$bin/kernel_tests" \
    --gtest_filter='SignalStatsGpu.BackToBack*'
}

# The element's signalstats figures against FFmpeg's on CUDA frames (the carried ffmpeg must first print what the real one printed at pack time), then the speed table against ffmpeg -vf signalstats (SPEED_RUNS, SPEED_STREAMS).
step_signalstats_ffmpeg() {
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
  # nvh264dec decodes the 8-bit 4:2:0 H.264 clip (ranked first, and required);
  # avdec_* (carried) the others, which cudaupload puts in CUDA memory.
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
  step speed_clip make_h264_clip "$speed_clip" $frames
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
