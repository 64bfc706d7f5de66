#!/usr/bin/env bash
# cudahist-qc's speed on this machine, in frames/s, against the two things it
# is measured by: FFmpeg running qcli's graph (ffprobe, the way QCTools' reports
# are made today) and decoding alone with the decoder cudahist-qc used
# (gst-launch-1.0 ... ! fakevideosink: the ceiling, qc_common.sh's qc_sink).
# Each for 1 file, and for 8 at once: cudahist-qc -j 8 and decoding alone
# each in one process (eight decoding processes would each pay the start of
# GStreamer, nvcodec and CUDA, which cudahist-qc pays once), and 8 ffprobe
# processes.
#
#   bench/qc/qc_speed.sh [--cpu] [--build DIR | --qc EXE] CLIP...
#     --cpu        cudahist-qc --cpu (CPU decoders, the element's CPU backend)
#     --build DIR  the meson build folder (default: build; sets GST_PLUGIN_PATH)
#     --qc EXE     cudahist-qc to run, with GST_PLUGIN_PATH already set (the GPU host's pack)
#
# QC_SPEED_REPEATS=N (default 1): N rounds of the three, one after the other;
# each figure is the median of its N.
#
# Prints one table row per clip and mode:
#   clip | frames | decoder | files | decode fps | cudahist-qc fps | ffprobe graph fps | qc/decode | qc/ffprobe
# Every run writes its reports into a temporary folder (--force), never beside the clips.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/qc_common.sh"
qc_parse_args "$@"
((${#clips[@]})) || { echo "usage: $0 [--cpu] [--build DIR | --qc EXE] CLIP..." >&2; exit 2; }
graph='signalstats=stat=tout+vrep+brng,cropdetect=reset=1,split[a][b];[a]field=top[a1];[b]field=bottom[b1],[a1][b1]psnr'
work=$(mktemp -d "${TMPDIR:-/tmp}/qc_speed.XXXXXX")
trap 'rm -rf "$work"' EXIT
copies=8

repeats=${QC_SPEED_REPEATS:-1}

rate() { awk -v f="$1" -v s="$2" 'BEGIN { printf "%.1f", f / s }'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { printf "%.2f", (y > 0 ? x / y : 0) }'; }

# movie=PATH for ffprobe's graph: PATH escaped as an option value, then within the graph.
movie() { printf 'movie=%s' "$(printf '%s' "$1" | sed -e 's/[\\:'"'"']/\\&/g' -e 's/[\\'"'"'\[\],; ]/\\&/g')"; }

# The three things timed, each over FILE...
decode_alone() { qc_decode_together "$decoder" "$@" >/dev/null; }  # NVDEC's output stays on the GPU
report() { "$qc" "${cpu[@]}" --force -j $# -o "$work/reports" "$@" >/dev/null; }
ffprobe_graph() {
  local f
  for f in "$@"; do
    ffprobe -v error -f lavfi "$(movie "$f"),$graph" -show_frames -show_versions -of xml=x=1:q=1 -noprivate \
      >/dev/null &
  done
  wait
}

printf '| clip | frames | decoder | files | decode fps | cudahist-qc fps | ffprobe graph fps | qc/decode | qc/ffprobe |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for clip in "${clips[@]}"; do
  name=$(basename "$clip")
  qc_learn "$clip" "$work/warm" || { echo "qc_speed: cudahist-qc failed on $clip" >&2; continue; }
  mkdir -p "$work/links"
  links=()
  for i in $(seq 1 $copies); do ln -sf "$clip" "$work/links/$i-$name"; links+=("$work/links/$i-$name"); done

  for files in 1 $copies; do
    set -- "${links[@]:0:$files}"
    decode_s=() report_s=() graph_s=()
    for _ in $(seq 1 "$repeats"); do
      decode_s+=("$(qc_seconds decode_alone "$@")")
      report_s+=("$(qc_seconds report "$@")")
      graph_s+=("$(qc_seconds ffprobe_graph "$@")")
    done
    total=$((frames * files))
    d=$(rate "$total" "$(qc_median "${decode_s[@]}")")
    q=$(rate "$total" "$(qc_median "${report_s[@]}")")
    g=$(rate "$total" "$(qc_median "${graph_s[@]}")")
    printf '| %s | %d | %s | %d | %s | %s | %s | %s | %s |\n' "$name" "$frames" "$decoder" "$files" "$d" "$q" "$g" \
      "$(ratio "$q" "$d")" "$(ratio "$q" "$g")"
  done
done
echo "(median of $repeats; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at the end; $(date -u +%Y-%m-%dT%H:%MZ); cudahist-qc ${cpu[*]:-(GPU where usable)})"
