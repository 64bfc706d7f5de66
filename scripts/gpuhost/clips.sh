# Clips the steps make on the host (no steps here): the carried ffmpeg for
# ProRes, the GStreamer bundle's x264enc for H.264 (the FFmpeg bundle has no
# x264).

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

make_h264_clip() {  # make_h264_clip FILE [FRAMES]: FRAMES (default 1200) of 1080p H.264 at 8 Mbit/s
  gst-launch-1.0 -q videotestsrc num-buffers="${2:-1200}" pattern=smpte horizontal-speed=4 ! \
    video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
    x264enc speed-preset=superfast key-int-max=60 bitrate=8000 ! video/x-h264,profile=high ! h264parse ! \
    mp4mux ! filesink location="$1"
}

make_concatenated_clip() {  # make_concatenated_clip OUT CLIP N: CLIP N times over, without re-encoding
  local list i; list=$(mktemp)
  for ((i = 0; i < $3; i++)); do echo "file '$2'" >> "$list"; done
  "$here/ffmpeg/ffmpeg" -nostdin -v error -f concat -safe 0 -i "$list" -c copy "$1"
  rm -f "$list"
}

# cudahist-qc's speed clips, long enough that a process's start (CUDA
# context, plugin loading) is a small part of its time: 1200 frames of 1080p
# H.264 at 8 Mbit/s, 600 of ProRes; FFV1 decodes at tens of frames/s, 300
# frames are ten seconds. make_qc_speed_clips DIR
make_qc_speed_clips() {
  make_h264_clip "$1/h264-1080p-8M-1200.mp4"
  "$here/ffmpeg/ffmpeg" -nostdin -v error -f lavfi -i testsrc2=size=1920x1080:rate=25 -frames:v 300 \
    -c:v ffv1 -pix_fmt yuv422p10le "$1/ffv1-1080p-422p10.mkv"
  make_prores_clip "$1/prores-1080p-422p10.mov"
}
