#!/usr/bin/env bash
# bench/monitor_soak.sh BUILDDIR OUTDIR [STREAMS] [HOURS]
# The long soak of cudahist-monitor: STREAMS (default 16) looped 1080p30 H.264
# clips (bench/monitor_scale.sh makes the clip) for HOURS (default 4), one
# line a minute in OUTDIR/soak.tsv:
#   minutes  rss_MiB  gpu_mem_MiB  frames_total  streams_up  reconnects
# and at the end the first and last lines side by side. Memory is flat when
# rss and gpu_mem stop growing after the first minutes; frames_total grows by
# 30 x 60 x STREAMS a minute; streams_up stays STREAMS; reconnects stay 0.
# Example, on the GPU host: bench/monitor_soak.sh build /tmp/soak 64 4
set -uo pipefail
build=${1:?usage: monitor_soak.sh BUILDDIR OUTDIR [STREAMS] [HOURS]}
out=${2:?usage: monitor_soak.sh BUILDDIR OUTDIR [STREAMS] [HOURS]}
streams=${3:-16}
hours=${4:-4}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GST_PLUGIN_PATH=$build/gst-plugin
mkdir -p "$out"
clip=$out/clip-1920x1080.mp4
[ -s "$clip" ] || WINDOW=1 bash "$root/bench/monitor_scale.sh" "$build" "$out" 1 > /dev/null 2>&1
[ -s "$clip" ] || { echo "monitor_soak: no clip at $clip" >&2; exit 1; }

port=$((20000 + RANDOM % 20000))
conf=$out/soak.conf
printf "[monitor]\nlisten=127.0.0.1:%d\nalerts-log=%s/alerts.jsonl\n" "$port" "$out" > "$conf"
for i in $(seq 1 "$streams"); do printf "[stream s%03d]\nuri=file://%s\nloop=true\n" "$i" "$(realpath "$clip")" >> "$conf"; done
"$build/tools/cudahist-monitor/cudahist-monitor" --config "$conf" 2> "$out/monitor.log" &
pid=$!
trap 'kill -TERM $pid; wait $pid' EXIT
metric_sum() {
  curl -s "http://127.0.0.1:$port/metrics" | awk -v m="$1" '$1 ~ "^"m"[{]" {s += $2} END {printf "%.0f", s}'
}
gpu_mem() {
  command -v nvidia-smi >/dev/null || { echo -; return; }
  nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits | awk -F', ' -v p="$pid" '$1 == p {print $2}'
}
printf "minutes\trss_MiB\tgpu_mem_MiB\tframes_total\tstreams_up\treconnects\n" > "$out/soak.tsv"
for minute in $(seq 0 $((hours * 60))); do
  [ "$minute" -gt 0 ] && sleep 60
  kill -0 "$pid" 2>/dev/null || { echo "monitor_soak: the monitor exited (see $out/monitor.log)" >&2; exit 1; }
  printf "%d\t%s\t%s\t%s\t%s\t%s\n" "$minute" "$(awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")" \
    "$(gpu_mem)" "$(metric_sum cudahist_frames_total)" "$(metric_sum cudahist_stream_up)" \
    "$(metric_sum cudahist_reconnects_total)" >> "$out/soak.tsv"
done
echo "first and last minute:"
sed -n '1p;3p;$p' "$out/soak.tsv" | column -t
