#!/usr/bin/env bash
# cudahist-qc's speed on this machine, in frames/s, against the two things it
# is measured by: FFmpeg running qcli's graph (ffprobe, the way QCTools' reports
# are made today) and decoding alone with the decoder cudahist-qc used
# (gst-launch-1.0 ... ! fakesink: the ceiling). Each for 1 file, and for 8 at
# once: cudahist-qc -j 8 and decoding alone each in one process (eight
# decoding processes would each pay the start of GStreamer, nvcodec and CUDA,
# which cudahist-qc pays once), and 8 ffprobe processes.
#
#   bench/qc_speed.sh [--cpu] [--build DIR | --qc EXE] CLIP...
#     --cpu        cudahist-qc --cpu (CPU decoders, the element's CPU backend)
#     --build DIR  the meson build folder (default: build; sets GST_PLUGIN_PATH)
#     --qc EXE     cudahist-qc to run, with GST_PLUGIN_PATH already set (the GPU host's pack)
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

now() { date +%s.%N; }
rate() { awk -v f="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", f / (b - a) }'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { printf "%.2f", (y > 0 ? x / y : 0) }'; }

# movie=PATH for ffprobe's graph: PATH escaped as an option value, then within the graph.
movie() { printf 'movie=%s' "$(printf '%s' "$1" | sed -e 's/[\\:'"'"']/\\&/g' -e 's/[\\'"'"'\[\],; ]/\\&/g')"; }

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
    t0=$(now)
    # Decoding alone: NVDEC's output stays on the GPU.
    qc_decode_together "$decoder" "$@" >/dev/null
    t1=$(now)
    "$qc" "${cpu[@]}" --force -j "$files" -o "$work/reports" "$@" >/dev/null
    t2=$(now)
    for f in "$@"; do
      ffprobe -v error -f lavfi "$(movie "$f"),$graph" -show_frames -show_versions -of xml=x=1:q=1 -noprivate \
        >/dev/null &
    done
    wait
    t3=$(now)
    total=$((frames * files))
    d=$(rate "$total" "$t0" "$t1"); q=$(rate "$total" "$t1" "$t2"); g=$(rate "$total" "$t2" "$t3")
    printf '| %s | %d | %s | %d | %s | %s | %s | %s | %s |\n' "$name" "$frames" "$decoder" "$files" "$d" "$q" "$g" \
      "$(ratio "$q" "$d")" "$(ratio "$q" "$g")"
  done
done
echo "($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at the end; $(date -u +%Y-%m-%dT%H:%MZ); cudahist-qc ${cpu[*]:-(GPU where usable)})"
