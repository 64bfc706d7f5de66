#!/usr/bin/env bash
# bench/monitor/monitor_soak.sh MONITOR OUTDIR [STREAMS] [MINUTES]
# The long soak of cudahist-monitor: STREAMS (default 16) looped copies of
# CLIP (default: the 1080p30 H.264 clip bench/monitor/monitor_scale.sh makes in
# OUTDIR) for MINUTES (default 240), one line a minute in OUTDIR/soak.tsv:
#   minutes  rss_MiB  gpu_mem_MiB  frames_total  streams_up  reconnects
# and at the end the first and last lines side by side. Memory is flat when
# rss and gpu_mem stop growing after the first minutes; frames_total grows by
# 30 x 60 x STREAMS a minute; streams_up stays STREAMS; reconnects stay 0.
# MONITOR is the cudahist-monitor executable; GST_PLUGIN_PATH must find the plugin.
# Example: GST_PLUGIN_PATH=build/gst-plugin \
#   bench/monitor/monitor_soak.sh build/tools/cudahist-monitor/cudahist-monitor /tmp/soak 64 240
set -uo pipefail
monitor=${1:?usage: monitor_soak.sh MONITOR OUTDIR [STREAMS] [MINUTES]}
out=${2:?usage: monitor_soak.sh MONITOR OUTDIR [STREAMS] [MINUTES]}
streams=${3:-16}
minutes=${4:-240}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
clip=${CLIP:-$out/clip-1920x1080.mp4}
[ -s "$clip" ] || WINDOW=1 bash "$here/monitor_scale.sh" "$monitor" "$out" 1 > /dev/null 2>&1
[ -s "$clip" ] || { echo "monitor_soak: no clip at $clip" >&2; exit 1; }

port=$((20000 + RANDOM % 20000))
conf=$out/soak.conf
printf "[monitor]\nlisten=127.0.0.1:%d\nalerts-log=%s/alerts.jsonl\n" "$port" "$out" > "$conf"
for i in $(seq 1 "$streams"); do printf "[stream s%03d]\nuri=file://%s\nloop=true\n" "$i" "$(realpath "$clip")" >> "$conf"; done
"$monitor" --config "$conf" 2> "$out/monitor.log" &
pid=$!
trap 'kill -TERM $pid; wait $pid' EXIT
metric_sum() {
  python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())' \
    "http://127.0.0.1:$port/metrics" 2>/dev/null | awk -v m="$1" '$1 ~ "^"m"[{]" {s += $2} END {printf "%.0f", s}'
}
gpu_mem() {
  command -v nvidia-smi >/dev/null || { echo -; return; }
  nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits | awk -F', ' -v p="$pid" '$1 == p {print $2}'
}
printf "minutes\trss_MiB\tgpu_mem_MiB\tframes_total\tstreams_up\treconnects\n" > "$out/soak.tsv"
for minute in $(seq 0 "$minutes"); do
  [ "$minute" -gt 0 ] && sleep 60
  kill -0 "$pid" 2>/dev/null || { echo "monitor_soak: the monitor exited (see $out/monitor.log)" >&2; exit 1; }
  printf "%d\t%s\t%s\t%s\t%s\t%s\n" "$minute" "$(awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")" \
    "$(gpu_mem)" "$(metric_sum cudahist_frames_total)" "$(metric_sum cudahist_stream_up)" \
    "$(metric_sum cudahist_reconnects_total)" >> "$out/soak.tsv"
done
echo "minute 1 (past the start) and the last:"
sed -n '1p;3p;$p' "$out/soak.tsv"
