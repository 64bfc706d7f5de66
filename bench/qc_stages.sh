#!/usr/bin/env bash
# Where cudahist-qc's time goes on one clip, stage by stage, each the median
# of REPEATS (default 3) whole runs in frames/s:
#   decode        filesrc ! decodebin ! fakevideosink (the decoder alone, as qc_speed.sh)
#   + upload      ... ! queue ! cudaupload ! fakesink (GPU only: GStreamer's own copy, for comparison)
#   + analysis    ... ! queue ! cudahistogram upload=true (QC figures) ! fakevideosink, as cudahist-qc
#                 runs it (GPU; NVDEC's CUDA frames pass, system memory is copied by the element);
#                 with --cpu ... ! queue ! video/x-raw ! cudahistogram ! fakevideosink
#   cudahist-qc   the command, report written
#   first frame   seconds cudahist-qc takes for the clip's first frame alone
#                 (process start, CUDA context, pipeline; cut with ffmpeg -c copy)
#
#   bench/qc_stages.sh [--cpu] [--build DIR | --qc EXE] CLIP
#     --cpu   CPU decoders and the element's CPU backend (no upload stage)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/qc_common.sh"
qc_parse_args "$@"
((${#clips[@]} == 1)) || { echo "usage: $0 [--cpu] [--build DIR | --qc EXE] CLIP" >&2; exit 2; }
clip=${clips[0]}
repeats=${REPEATS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/qc_stages.XXXXXX")
trap 'rm -rf "$work"' EXIT

qc_learn "$clip" "$work" || { echo "qc_stages: cudahist-qc failed on $clip" >&2; exit 1; }
properties="signalstats=true cropdetect=true field-psnr=true"

quiet() { "$@" >/dev/null 2>&1; }
median() {  # median COMMAND...: the median seconds of $repeats runs
  local runs=()
  for _ in $(seq "$repeats"); do runs+=("$(qc_seconds quiet "$@")"); done
  qc_median "${runs[@]}"
}
launch() { qc_decode "$clip" "$decoder" "$@"; }
row() { awk -v n="$frames" -v s="$2" -v what="$1" 'BEGIN { printf "| %s | %.3f | %.1f |\n", what, s, n / s }'; }

echo "$(basename "$clip"): $frames frames, $decoder, median of $repeats runs"
echo "| stage | seconds | frames/s |"
echo "|---|---|---|"
row "decode" "$(median launch "${qc_sink[@]}")"
if [ ${#cpu[@]} -eq 0 ]; then
  row "+ upload" "$(median launch queue ! cudaupload ! fakesink sync=false)"
  row "+ analysis" "$(median launch queue ! cudahistogram $properties upload=true ! "${qc_sink[@]}")"
else
  row "+ analysis" "$(median launch queue ! video/x-raw ! cudahistogram $properties ! "${qc_sink[@]}")"
fi
total=$(median "$qc" "${cpu[@]}" --force -o "$work" "$clip")
row "cudahist-qc" "$total"
if command -v ffmpeg >/dev/null; then
  ffmpeg -nostdin -v error -y -i "$clip" -map 0:v:0 -frames:v 1 -c copy "$work/first-frame.${clip##*.}"
  start=$(median "$qc" "${cpu[@]}" --force -o "$work" "$work/first-frame.${clip##*.}")
  echo "| cudahist-qc, first frame only | $start | |"
fi
