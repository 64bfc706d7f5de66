# Decoding: the frames of every GPU decoder GStreamer offers against
# FFmpeg's decode of the same clip (tests/decode/decode_matrix.py), on
# GStreamer 1.22 and 1.26. The clips are made here, where Debian's encoders
# are (the pack's FFmpeg has none), with FFmpeg's md5s of every frame.

prepare_decode() {  # prepare_decode OUT: the matrix's clips and FFmpeg's decode of them, and the bad input
  local clips=$1/decode-matrix bad=$1/decode-bad
  if [ ! -s "$clips/expected.json" ]; then
    rm -rf "$clips"
    python3 tests/decode/decode_matrix.py make "$clips" > /dev/null
  fi
  [ -s "$bad/profile change.ts" ] && return 0
  mkdir -p "$bad"
  local src=(-f lavfi -i testsrc2=size=640x360:rate=25 -frames:v 30)
  # 4:2:0 8-bit, then High 4:2:2 in the same transport stream: NVDEC takes the first part only.
  ffmpeg -v error -y "${src[@]}" -c:v libx264 -pix_fmt yuv420p -g 10 "$bad/a.ts"
  ffmpeg -v error -y "${src[@]}" -c:v libx264 -pix_fmt yuv422p -g 10 -output_ts_offset 1.2 "$bad/b.ts"
  cat "$bad/a.ts" "$bad/b.ts" > "$bad/profile change.ts"
  rm -f "$bad/a.ts" "$bad/b.ts"
  # Corrupt H.264 slices: FFmpeg drops two pictures.
  ffmpeg -v error -y "${src[@]}" -c:v libx264 -pix_fmt yuv420p -bf 2 -g 10 "$bad/good.mkv"
  ffmpeg -v error -y -i "$bad/good.mkv" -c copy -bsf:v noise=amount=200 "$bad/damaged.mkv"
  rm -f "$bad/good.mkv"
}

# decode_matrix: a markdown table per GStreamer version in the logs
# (decode_matrix122.md, decode_matrix126.md). Where a GPU decoder's frames
# differ, the carried FFmpeg gives the largest sample difference and the PSNR.
step_decode_matrix() {
  local clips=$here/decode-matrix matrix=$here/../tests/decode/decode_matrix.py
  if [ ! -s "$clips/expected.json" ]; then
    echo "=== decode_matrix: no clips in the pack (scripts/gpuhost-pack.sh makes them)" >> "$summary"
    return 0
  fi
  local ffmpeg=()
  [ -x "$here/ffmpeg/ffmpeg" ] && ffmpeg=(--ffmpeg "$here/ffmpeg/ffmpeg")
  use_gst 122
  (
    [ -d "$here/ffmpeg/gst-plugins" ] && use_carried_libav
    TAIL_LINES=40 step decode_matrix122 python3 "$matrix" matrix "$clips" "$bin/decoded_frames" "${ffmpeg[@]}" \
      --label "GStreamer 1.22" --out "$logs/decode_matrix122.md"
  )
  if [ -d "$here/gst126" ]; then
    use_gst 126
    TAIL_LINES=40 step decode_matrix126 python3 "$matrix" matrix "$clips" "$bin/decoded_frames" "${ffmpeg[@]}" \
      --label "GStreamer 1.26" --out "$logs/decode_matrix126.md"
  fi
}

# decode_bad_input: cudahist-qc on the GPU (GStreamer 1.22) with a stream
# NVDEC refuses half-way (4:2:0, then 4:2:2) and a damaged one: each must
# fail with a clear error, never be written as good.
step_decode_bad_input() {
  local bad=$here/decode-bad
  [ -d "$bad" ] || { echo "=== decode_bad_input: no clips in the pack" >> "$summary"; return 0; }
  use_gst 122
  local work; work=$(mktemp -d)
  write_with_carried_libav "$work/cudahist-qc" cudahist-qc
  TAIL_LINES=8 step decode_bad_input "$work/cudahist-qc" -o "$work/reports" "$bad/profile change.ts" "$bad/damaged.mkv"
  rm -rf "$work"
}

# decode_reports: cudahist-qc's reports on the GPU (GStreamer 1.22, the
# decoders the choice picks, FFmpeg's through the carried gst-libav where
# NVDEC is passed over) against the carried ffprobe's QCTools graph, for the
# comparison's clips: interlaced H.264 and MPEG-2 among them.
step_decode_reports() {
  local clips="$here/media/cudahist-qc/clips with spaces"
  if [ ! -d "$clips" ] || [ ! -x "$here/ffmpeg/ffprobe" ]; then
    echo "=== decode_reports: no clips or ffprobe in the pack" >> "$summary"
    return 0
  fi
  use_gst 122
  local work; work=$(mktemp -d)
  write_with_carried_libav "$work/cudahist-qc" cudahist-qc
  PATH="$here/ffmpeg:$PATH" TAIL_LINES=24 step decode_reports python3 "$here/scripts/compare_qcli.py" \
    "$work/cudahist-qc" --gpu --clips "$clips"
  rm -rf "$work"
}
