# Decoding: the frames of every GPU decoder GStreamer offers against
# FFmpeg's decode of the same clip (tests/decode/decode_matrix.py), on
# GStreamer 1.22 and 1.26. The clips are made here, where Debian's encoders
# are (the pack's FFmpeg has none), with FFmpeg's md5s of every frame.

pack_decode() {  # pack_decode OUT: the matrix's clips and FFmpeg's decode of them
  local clips=$1/decode-matrix
  [ -s "$clips/expected.json" ] && return 0
  rm -rf "$clips"
  python3 tests/decode/decode_matrix.py make "$clips" > /dev/null
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
