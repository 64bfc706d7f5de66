# Sourced by bench/qc/qc_speed.sh and bench/qc/qc_timeline.sh:
# their command line, the untimed first run, decoding alone, and the timing,
# written once.
#
#   qc_parse_args "$@"   [--cpu] [--build DIR | --qc EXE] CLIP...: sets qc (the
#                        cudahist-qc to run; with --build, or by default build/,
#                        GST_PLUGIN_PATH is exported for it), cpu (an array:
#                        (--cpu) or empty) and clips (absolute paths); -h prints
#                        the calling script's leading comment
#   qc_learn CLIP DIR    one untimed cudahist-qc run, its report into DIR: sets
#                        frames and decoder (and warms the page cache)
#   qc_decode_together DECODER CLIP...
#                        decoding alone of every CLIP in one process, as
#                        cudahist-qc -j N runs them: one gst-launch, a branch
#                        per CLIP into qc_sink
#   qc_sink              the sink of decoding alone, as
#                        cudahist-qc's: fakevideosink, which accepts frames in
#                        the decoder's own layout (GstVideoMeta). Behind
#                        fakesink a gst-libav decoder copies every frame into
#                        the caps' default layout first, and so decodes slower
#                        than it can.
#   qc_seconds COMMAND...
#                        runs COMMAND (its output as the caller sends it) and
#                        prints its wall seconds; the exit status is COMMAND's
#   qc_median VALUE...   the median of the VALUEs (the upper of the two middle
#                        ones for an even count)

qc_sink=(fakevideosink allocation-meta-flags=0 sync=false)

qc_parse_args() {
  local build
  build=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build
  qc=""
  cpu=()
  clips=()
  while (($#)); do
    case $1 in
      --cpu) cpu=(--cpu); shift ;;
      --build) build=$(cd "$2" && pwd); shift 2 ;;
      --qc) qc=$2; shift 2 ;;
      -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
      *) clips+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"); shift ;;
    esac
  done
  if [ -z "$qc" ]; then
    qc=$build/tools/cudahist-qc/cudahist-qc
    export GST_PLUGIN_PATH=$build/gst-plugin
  fi
  [ -x "$qc" ] || { echo "$(basename "$0"): $qc is not built (ninja -C $build tools/cudahist-qc/cudahist-qc)" >&2; exit 2; }
}

qc_learn() {
  local line
  line=$("$qc" "${cpu[@]}" --force -o "$2" "$1" | grep '"status":"written"') || return 1
  frames=$(sed -E 's/.*"frames":([0-9]+).*/\1/' <<<"$line")
  decoder=$(sed -E 's/.*"decoder":"([^"]*)".*/\1/' <<<"$line")
}

# qc_source CLIP: appends cudahist-qc's source for CLIP to the caller's array `branches`.
qc_source() {
  branches+=(filesrc location="$1" ! decodebin caps='video/x-raw(ANY)' expose-all-streams=false)
}

qc_launch() {  # qc_launch DECODER GST-LAUNCH-ARGS...
  local chosen=$1
  shift
  GST_PLUGIN_FEATURE_RANK="$chosen:MAX" gst-launch-1.0 -q "$@"
}

qc_decode_together() {
  local chosen=$1 branches=() f
  shift
  for f in "$@"; do
    qc_source "$f"
    branches+=(! "${qc_sink[@]}")
  done
  qc_launch "$chosen" "${branches[@]}"
}

qc_seconds() {
  local t0 rc
  t0=$(date +%s.%N)
  "$@"
  rc=$?
  awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }'
  return "$rc"
}

qc_median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
