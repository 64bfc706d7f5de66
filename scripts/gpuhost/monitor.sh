# GPU-host steps of cudahist-monitor's operator features (issue 34): streams
# with thumbnails made on the GPU and audio measured, in real time, measured
# as bench/monitor/monitor_scale.sh measures the 160-stream table (frames/s of the
# slowest stream, frames lost, CPU cores, GPU and NVDEC use, GPU memory, RSS),
# plus the streams that had a thumbnail and audio at the end of the window.
# Sourced by gpuhost-run.sh (README.md beside this file); run as
#   bash .gpuhost/gpuhost-run.sh OUT monitor_av monitor_av126
#
# The pack must carry GStreamer's level and audioconvert (gpuhost-pack.sh's
# extra_plugins) and the carried FFmpeg (ffmpeg.tar.xz: its gst-libav decodes
# the AAC, its ffmpeg muxes a tone into the pack's clip); monitor_av_plugins
# says what is missing.

# The elements the steps need, each "NAME: registered" or "NAME: MISSING".
monitor_av_plugins() {
  local e rc=0
  for e in "$@"; do
    # --exists alone also asks for a plugin version of at least GStreamer's
    # own: the project's plugin (0.x) read as missing.
    if gst-inspect-1.0 --exists --atleast-version=0.0.0 "$e"; then echo "$e: registered"; else echo "$e: MISSING"; rc=1; fi
  done
  return $rc
}

# monitor_av_report DIR N: what the saved status page of N streams shows.
monitor_av_report() {
  python3 - "$1" "$2" <<'PY'
import glob, json, os, struct, sys
folder, n = sys.argv[1], int(sys.argv[2])
streams = json.load(open(os.path.join(folder, "status.json")))

def jpeg_size(path):  # the frame header's height and width (SOF0..SOF3)
    data = open(path, "rb").read()
    i = 2
    while i + 9 < len(data):
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xC3:
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return None

sizes = sorted({jpeg_size(p) for p in glob.glob(os.path.join(folder, "*.jpg"))})
audio = [s["audio"] for s in streams if s["audio"]]
loudness = sorted(a["short_term_lufs"] for a in audio if a["short_term_lufs"] is not None)
alarms = sorted({a["alarm"] for s in streams for a in s["alarms"]})
print("%d streams: %d up, %d with a thumbnail (JPEG sizes %s), %d with audio (short-term loudness %s to %s LUFS), "
      "alarms raised: %s" % (len(streams), sum(s["state"] == "up" for s in streams),
                             sum(s["thumbnail"] for s in streams), sizes, len(audio),
                             loudness[0] if loudness else "-", loudness[-1] if loudness else "-", alarms))
ok = len(streams) == n and all(s["state"] == "up" and s["thumbnail"] for s in streams) and sizes == [(320, 180)]
sys.exit(0 if ok else 1)
PY
}

# 64 (MONITOR_AV_STREAMS) streams of the pack's 1080p30 6 Mbit/s H.264 clip
# with a stereo AAC tone muxed in, looped in real time, on GStreamer 1.22:
# picture thumbnails by cudavideoscope style=picture, scopes, audio level and loudness,
# every figure. Success: monitor_av_scale's line shows fps_min 29.9 or more,
# 0 frames lost, and thumbnails and audio equal to the stream count;
# monitor_av_status says every stream up with a 320x180 thumbnail and audio
# at about -21 LUFS (a 1 kHz tone peaking at -21 dBFS in both channels). A
# file's analysis runs up to 1 s ahead of its clock (the queue before the
# sink), so a 30 s window's count may differ from 900 by up to 30 frames a
# stream either way.
step_monitor_av() {
  local n=${MONITOR_AV_STREAMS:-64} dir=$logs/monitor_av
  mkdir -p "$dir"
  (
    use_gst 122
    use_carried_libav
    step monitor_av_plugins monitor_av_plugins avdec_aac level audioconvert videoconvert jpegenc cudavideoscope
    step monitor_av_clip "$here/ffmpeg/ffmpeg" -nostdin -v error -y -i "$here/media/live-1080p30-6M.mp4" \
      -f lavfi -i "sine=frequency=1000:sample_rate=48000:duration=10" -map 0:v -map 1:a -ac 2 -c:v copy \
      -c:a aac -b:a 128k -t 10 "$dir/live-av.mp4"
    CLIP=$dir/live-av.mp4 CLIP_FRAMES=300 WINDOW=${MONITOR_AV_WINDOW:-30} STATUS_DIR=$dir/status DECODE_ALONE=no \
      TAIL_LINES=3 step monitor_av_scale bash "$here/scripts/monitor_scale.sh" "$bin/cudahist-monitor" "$dir/scale" "$n"
    step monitor_av_status monitor_av_report "$dir/status/$n" "$n"
    step monitor_av_log bash -c 'grep -hE "no thumbnail|no scope|no audio meters|did not drain|down:" "$1"/monitor-*.log |
      sort | uniq -c | head -n 20; echo "(lines above: problems the monitor logged; none is success)"' _ "$dir/scale"
  )
}

# The monitor's pictures on GStreamer 1.26: 16
# streams of the pack's clip (video only: the carried gst-libav is 1.22's), 15 s.
# Success: fps_min 29.9 or more, 0 lost, 16 thumbnails; monitor_av126_status
# says every stream up with a 320x180 thumbnail.
step_monitor_av126() {
  [ -d "$here/gst126" ] || { echo "=== monitor_av126: no gst126 in the pack" >> "$summary"; return 0; }
  local dir=$logs/monitor_av126
  mkdir -p "$dir"
  (
    use_gst 126
    step monitor_av126_plugins monitor_av_plugins videoconvert jpegenc cudavideoscope
    CLIP=$here/media/live-1080p30-6M.mp4 CLIP_FRAMES=300 WINDOW=15 STATUS_DIR=$dir/status DECODE_ALONE=no \
      TAIL_LINES=3 step monitor_av126_scale bash "$here/scripts/monitor_scale.sh" "$bin/cudahist-monitor" "$dir/scale" 16
    step monitor_av126_status monitor_av_report "$dir/status/16" 16
  )
}
