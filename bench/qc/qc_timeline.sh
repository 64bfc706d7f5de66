#!/usr/bin/env bash
# Where cudahist-qc's time over decoding alone goes, from GStreamer's own
# latency tracer: each run is split into the start (gst_init to the decoder's
# first frame: plugins, CUDA's start, the pipeline), the decoding (the
# decoder's first frame to its last) and the rest (the wall time left: the
# process before gst_init, and after the last frame: the end of the stream,
# the report's last bytes, teardown). Decoding alone and cudahist-qc run in
# turn, REPEATS times (default 5); each cell is the median, in seconds.
#
#   bench/qc/qc_timeline.sh [--cpu] [--build DIR | --qc EXE] CLIP...
#     several CLIPs: decoding alone of all of them in one process against
#     cudahist-qc -j N over all of them
#   QC_B=EXE: a second cudahist-qc (another build of it) timed in the same
#     rounds, the two taking turns going first, with the same plugin
#   QC_UPLOAD=1: also decoding followed by GStreamer's own cudaupload
#     (nvcodec's), with as many frames held before it as cudahist-qc holds:
#     the copy into CUDA memory that any GPU report of CPU-decoded frames
#     makes, without the figures
#
# Needs GStreamer's coretracers plugin (gst-inspect-1.0 latency).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/qc_common.sh"
qc_parse_args "$@"
((${#clips[@]})) || { echo "usage: $0 [--cpu] [--build DIR | --qc EXE] CLIP..." >&2; exit 2; }
here=$(dirname "${BASH_SOURCE[0]}")
repeats=${REPEATS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/qc_timeline.XXXXXX")
trap 'rm -rf "$work"' EXIT

qc_learn "${clips[0]}" "$work" || { echo "qc_timeline: cudahist-qc failed on ${clips[0]}" >&2; exit 1; }

# with_tracer COMMAND...: COMMAND with the latency tracer's log in $work/log
with_tracer() {
  GST_TRACERS="latency(flags=element)" GST_DEBUG=GST_TRACER:7 GST_DEBUG_NO_COLOR=1 "$@" > /dev/null 2> "$work/log"
}

# traced NAME COMMAND...: appends "WALL START DECODING" of one run to $work/NAME
traced() {
  local name=$1 wall
  shift
  if ! wall=$(qc_seconds with_tracer "$@"); then
    echo "qc_timeline: failed: $*" >&2
    grep -v GST_TRACER "$work/log" | tail -n 5 >&2
    exit 1
  fi
  echo "$wall $(python3 "$here/tracer_timeline.py" "$work/log" "$decoder" | cut -d' ' -f1,2)" >> "$work/$name"
}

# upload_together DECODER CLIP...: as qc_decode_together, each branch
# ending in cudaupload; one frame held before it for a lone clip, four for
# several, as cudahist-qc holds them (tools/common/analysis_pipeline.cc).
upload_together() {
  local chosen=$1 ahead=4 branches=() f
  shift
  (($# == 1)) && ahead=1
  for f in "$@"; do
    qc_source "$f"
    branches+=(! queue max-size-buffers=$ahead max-size-bytes=0 max-size-time=0 ! cudaupload ! fakesink sync=false)
  done
  qc_launch "$chosen" "${branches[@]}"
}

run_qc() {  # run_qc NAME EXE
  traced "$1" "$2" "${cpu[@]}" --force -j "${#clips[@]}" -o "$work" "${clips[@]}"
}

# With QC_B the two take turns going first, so that neither always runs
# straight after decoding alone.
for round in $(seq "$repeats"); do
  traced decode qc_decode_together "$decoder" "${clips[@]}"
  if [ -n "${QC_UPLOAD:-}" ]; then traced upload upload_together "$decoder" "${clips[@]}"; fi
  if [ -z "${QC_B:-}" ]; then
    run_qc qc "$qc"
  elif ((round % 2)); then
    run_qc qc "$qc" && run_qc qc_b "$QC_B"
  else
    run_qc qc_b "$QC_B" && run_qc qc "$qc"
  fi
done

column() { qc_median $(awk -v c="$2" '{ print $c }' "$work/$1"); }
rest() { qc_median $(awk '{ print $1 - $2 - $3 }' "$work/$1"); }
every() { awk -v c="$2" '{ printf "%s%s", (NR > 1 ? " " : ""), $c }' "$work/$1"; }
row() {
  printf '| %s | %s | %s | %s | %s | %s |\n' "$2" "$(column "$1" 1)" "$(column "$1" 2)" "$(column "$1" 3)" \
    "$(rest "$1")" "$(every "$1" 3)"
}
echo "$(basename "${clips[0]}") x ${#clips[@]}: $frames frames each, $decoder, median of $repeats runs (s)"
echo "| run | wall | start | decoding | rest | every decoding, in run order |"
echo "|---|---|---|---|---|---|"
row decode "decoding alone"
if [ -n "${QC_UPLOAD:-}" ]; then row upload "decoding ! cudaupload"; fi
row qc "cudahist-qc -j ${#clips[@]}"
if [ -n "${QC_B:-}" ]; then row qc_b "$QC_B -j ${#clips[@]}"; fi
