#!/usr/bin/env bash
# cudahist-qc's speed on this machine, in frames/s, against the two things it
# is measured by: FFmpeg running qcli's graph (ffprobe, the way QCTools' reports
# are made today) and decoding alone with the decoder cudahist-qc used
# (gst-launch-1.0 ... ! fakesink: the ceiling). Each for 1 file, and for 8 at
# once (cudahist-qc -j 8 in one process; 8 ffprobe and 8 gst-launch processes).
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
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build
qc=""
cpu=()
clips=()
while (($#)); do
  case $1 in
    --cpu) cpu=(--cpu); shift ;;
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --qc) qc=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) clips+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"); shift ;;
  esac
done
((${#clips[@]})) || { echo "usage: $0 [--cpu] [--build DIR | --qc EXE] CLIP..." >&2; exit 2; }
if [ -z "$qc" ]; then
  qc=$build/tools/cudahist-qc/cudahist-qc
  export GST_PLUGIN_PATH=$build/gst-plugin
fi
[ -x "$qc" ] || { echo "qc_speed: $qc is not built (ninja -C $build tools/cudahist-qc/cudahist-qc)" >&2; exit 2; }
graph='signalstats=stat=tout+vrep+brng,cropdetect=reset=1,split[a][b];[a]field=top[a1];[b]field=bottom[b1],[a1][b1]psnr'
work=$(mktemp -d "${TMPDIR:-/tmp}/qc_speed.XXXXXX")
trap 'rm -rf "$work"' EXIT
copies=8

now() { date +%s.%N; }
rate() { awk -v f="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", f / (b - a) }'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { printf "%.2f", (y > 0 ? x / y : 0) }'; }

# movie=PATH for ffprobe's graph: PATH escaped as an option value, then within the graph.
movie() { printf 'movie=%s' "$(printf '%s' "$1" | sed -e 's/[\\:'"'"']/\\&/g' -e 's/[\\'"'"'\[\],; ]/\\&/g')"; }

# Decoding alone: cudahist-qc's source (filesrc ! decodebin, as uridecodebin
# makes it, video only) with the decoder it chose ranked first, into fakesink
# (NVDEC's output stays on the GPU).
decode_only() {  # decode_only CLIP DECODER
  GST_PLUGIN_FEATURE_RANK="$2:MAX" gst-launch-1.0 -q filesrc location="$1" ! \
    decodebin caps='video/x-raw(ANY)' expose-all-streams=false ! fakesink sync=false >/dev/null
}

printf '| clip | frames | decoder | files | decode fps | cudahist-qc fps | ffprobe graph fps | qc/decode | qc/ffprobe |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for clip in "${clips[@]}"; do
  name=$(basename "$clip")
  # One untimed run learns the frame count and the decoder (and warms the page cache).
  line=$("$qc" "${cpu[@]}" --force -o "$work/warm" "$clip" | grep '"status":"written"') ||
    { echo "qc_speed: cudahist-qc failed on $clip" >&2; continue; }
  frames=$(sed -E 's/.*"frames":([0-9]+).*/\1/' <<<"$line")
  decoder=$(sed -E 's/.*"decoder":"([^"]*)".*/\1/' <<<"$line")
  mkdir -p "$work/links"
  links=()
  for i in $(seq 1 $copies); do ln -sf "$clip" "$work/links/$i-$name"; links+=("$work/links/$i-$name"); done

  for files in 1 $copies; do
    set -- "${links[@]:0:$files}"
    t0=$(now)
    for f in "$@"; do decode_only "$f" "$decoder" & done
    wait
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
