#!/usr/bin/env bash
# bench/monitor/monitor_scale.sh MONITOR OUTDIR [N...]
# How many 1080p30 H.264 live streams one cudahist-monitor keeps up with, all
# figures on, no frame lost: for each N (default 16 32 48 64 80 96), N looped
# copies of a 10 s 1080p30 clip played in real time (a file loops as a live
# source sends: the sink syncs to the clock), measured over WINDOW seconds
# (default 30) after all N are up. Per N, one line of OUTDIR/scale.tsv:
#   streams  fps_min  fps_mean  lost_frames  cpu_cores  gpu_util_%  nvdec_util_%  gpu_mem_MiB  rss_MiB  thumbnails  audio
# fps_* are each stream's counted frames over the window (30 is real time);
# lost_frames = 30 x WINDOW x N - frames counted (frames the decoders skipped
# or the pipelines fell behind by). Then "decoding alone": one process with N
# branches of filesrc ! qtdemux ! h264parse ! DECODER ! fakesink sync=false,
# the decoder's own ceiling in frames/s (NVDEC on a GPU, avdec_h264 otherwise).
#   DECODER=cpu   force the CPU path (--decoder=cpu, avdec_h264)
#   WINDOW=30     seconds measured per N
#   SIZE=1920x1080  the clip's size (smaller for a quick run on a laptop)
#   CLIP=FILE     monitor this 30 fps H.264 MP4 instead of the made-up clip (moving
#                 75% bars compress and decode far more easily than a picture)
#   CLIP_FRAMES=N its frame count, where ffprobe is missing
#   STATUS_DIR=DIR  at the end of each window, save the status page's data and
#                 pictures into DIR/N (replay_status_page.py screenshots them) and
#                 count the streams with a thumbnail and with audio (the last two
#                 columns of scale.tsv; "-" without STATUS_DIR)
#   DECODE_ALONE=no  skip "decoding alone"
# MONITOR is the cudahist-monitor executable; GST_PLUGIN_PATH must find the
# cudahistogram plugin. Needs python3 (it reads /metrics), nvidia-smi on a GPU.
# Example: GST_PLUGIN_PATH=build/gst-plugin \
#   bench/monitor/monitor_scale.sh build/tools/cudahist-monitor/cudahist-monitor /tmp/scale 16 32 64 96
set -uo pipefail
monitor=${1:?usage: monitor_scale.sh MONITOR OUTDIR [N...]}
out=${2:?usage: monitor_scale.sh MONITOR OUTDIR [N...]}
shift 2
counts=${*:-16 32 48 64 80 96}
window=${WINDOW:-30}
size=${SIZE:-1920x1080}
width=${size%x*}
height=${size#*x}
mkdir -p "$out"
decoder_arg=""
[ "${DECODER:-auto}" = cpu ] && decoder_arg="--decoder=cpu"
gpu=no
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && [ -z "$decoder_arg" ] && gpu=yes

clip=${CLIP:-$out/clip-${size}.mp4}
if [ ! -s "$clip" ]; then
  echo "monitor_scale: encoding a 10 s ${size}p30 H.264 clip" >&2
  encoder="x264enc speed-preset=ultrafast key-int-max=30 bitrate=8000"
  gst-inspect-1.0 nvh264enc >/dev/null 2>&1 && encoder="nvh264enc bitrate=8000 gop-size=30"
  gst-launch-1.0 -q videotestsrc num-buffers=300 pattern=smpte75 horizontal-speed=2 \
    ! "video/x-raw,format=I420,width=$width,height=$height,framerate=30/1" ! $encoder ! h264parse \
    ! mp4mux ! filesink location="$clip" || exit 1
fi
clip_frames=${CLIP_FRAMES:-$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets \
  -of csv=p=0 "$clip")}

port=$((20000 + RANDOM % 20000))
metrics() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())' \
  "http://127.0.0.1:$port/metrics" 2>/dev/null; }
metric_sum() {  # metric_sum NAME: the sum of a metric over every stream
  metrics | awk -v m="$1" '$1 ~ "^"m"[{]" {s += $2} END {printf "%.0f", s}'
}
per_stream() {  # per_stream NAME: "stream value" lines
  metrics | awk -v m="$1" '$1 ~ "^"m"[{]" {print $1, $2}'
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# save_status PORT DIR: the page, its data and every stream's pictures into DIR;
# prints "streams_with_a_thumbnail<TAB>streams_with_audio".
save_status() {
  python3 - "$1" "$2" <<'PY'
import json, os, sys, urllib.parse, urllib.request
port, folder = sys.argv[1], sys.argv[2]
os.makedirs(folder, exist_ok=True)
get = lambda path: urllib.request.urlopen("http://127.0.0.1:%s%s" % (port, path), timeout=30).read()
status = get("/status.json")
for name, body in (("status.json", status), ("events.json", get("/events.json")), ("index.html", get("/"))):
    open(os.path.join(folder, name), "wb").write(body)
streams = json.loads(status)
for s in streams:
    for path, extension, present in (("/scope", "png", s["scope"]), ("/thumbnail", "jpg", s["thumbnail"])):
        if present:
            open(os.path.join(folder, "%s.%s" % (s["name"], extension)), "wb").write(
                get("%s?stream=%s" % (path, urllib.parse.quote(s["name"]))))
print("%d\t%d" % (sum(bool(s["thumbnail"]) for s in streams), sum(s["audio"] is not None for s in streams)))
PY
}

printf "streams\tfps_min\tfps_mean\tlost_frames\tcpu_cores\tgpu_util_%%\tnvdec_util_%%\tgpu_mem_MiB\trss_MiB\tthumbnails\taudio\n" > "$out/scale.tsv"
for n in $counts; do
  conf=$out/scale-$n.conf
  printf "[monitor]\nlisten=127.0.0.1:%d\nalerts-log=%s/alerts-%d.jsonl\n" "$port" "$out" "$n" > "$conf"
  for i in $(seq 1 "$n"); do printf "[stream s%03d]\nuri=file://%s\nloop=true\n" "$i" "$(realpath "$clip")" >> "$conf"; done
  "$monitor" --config "$conf" $decoder_arg 2> "$out/monitor-$n.log" &
  pid=$!
  up=0
  for _ in $(seq 1 120); do
    sleep 1
    up=$(metric_sum cudahist_stream_up)
    [ "${up:-0}" -ge "$n" ] && break
  done
  if [ "${up:-0}" -lt "$n" ]; then
    echo "monitor_scale: only ${up:-0} of $n streams up after 120 s (see $out/monitor-$n.log)" >&2
    kill -TERM "$pid"; wait "$pid"; continue
  fi
  sleep 5  # past the start
  per_stream cudahist_frames_total > "$out/frames-$n.start"
  ticks0=$(cpu_ticks "$pid")
  [ $gpu = yes ] && { nvidia-smi --query-gpu=utilization.gpu,utilization.decoder,memory.used \
      --format=csv,noheader,nounits -lms 1000 > "$out/gpu-$n.csv" & smi=$!; }
  sleep "$window"
  per_stream cudahist_frames_total > "$out/frames-$n.end"
  ticks1=$(cpu_ticks "$pid")
  rss=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
  [ $gpu = yes ] && { kill "$smi"; wait "$smi" 2>/dev/null; }
  seen="-\t-"
  [ -n "${STATUS_DIR:-}" ] && seen=$(save_status "$port" "$STATUS_DIR/$n")
  kill -TERM "$pid"; wait "$pid"
  read -r fps_min fps_mean lost < <(join "$out/frames-$n.start" "$out/frames-$n.end" | awk -v w="$window" -v n="$n" '
    { fps = ($3 - $2) / w; sum += fps; if (min == "" || fps < min) min = fps; got += $3 - $2 }
    END { lost = 30 * w * n - got; printf "%.2f %.2f %d\n", min, sum / n, (lost > 0 ? lost : 0) }')
  cores=$(awk -v a="$ticks0" -v b="$ticks1" -v w="$window" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", (b - a) / hz / w}')
  gpu_cols="-\t-\t-"
  [ $gpu = yes ] && gpu_cols=$(awk -F', ' '{g += $1; d += $2; if ($3 > m) m = $3; k++} END {printf "%.0f\t%.0f\t%d", g / k, d / k, m}' "$out/gpu-$n.csv")
  printf "%d\t%s\t%s\t%s\t%s\t%b\t%s\t%b\n" "$n" "$fps_min" "$fps_mean" "$lost" "$cores" "$gpu_cols" "$rss" "$seen" \
    | tee -a "$out/scale.tsv"
done
[ "${DECODE_ALONE:-yes}" = no ] && exit 0

# Decoding alone: the decoder's ceiling, N decoders at once as fast as they go.
# On a GPU, decodebin picks the NVDEC decoder as the monitor's does (with
# GStreamer 1.22, nvh264sldec); without one, avdec_h264.
dec=avdec_h264
[ $gpu = yes ] && dec="decodebin caps=video/x-raw(ANY)"
printf "decoders\tdecoder\tframes_per_s_total\tstreams_of_30fps\n" > "$out/decode.tsv"
for n in $counts; do
  # One process, as the monitor: its N decoders share the pipeline's CUDA context.
  branches=()
  for i in $(seq 1 "$n"); do
    branches+=(filesrc location="$clip" ! qtdemux ! h264parse ! $dec ! fakesink sync=false)
  done
  start=$(date +%s.%N)
  gst-launch-1.0 -q "${branches[@]}" > "$out/decode-$n.log" 2>&1 || echo "monitor_scale: $n decoders failed (see $out/decode-$n.log)" >&2
  end=$(date +%s.%N)
  awk -v n="$n" -v d="${dec%% *}" -v s="$start" -v e="$end" -v c="$clip_frames" 'BEGIN {f = n * c / (e - s); printf "%d\t%s\t%.0f\t%.1f\n", n, d, f, f / 30}' \
    | tee -a "$out/decode.tsv"
done
