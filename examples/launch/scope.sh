#!/usr/bin/env bash
# A video and its scope side by side: the file is decoded (NVDEC through
# nvh264dec & co. where they can), uploaded to the GPU, drawn by
# cudavideoscope, and shown with the picture next to it (compositor).
#   examples/launch/scope.sh FILE [STYLE] [cudavideoscope properties, e.g. scale=linear gain=4]
#   STYLE: waveform (default), parade, histogram, vectorscope
# Environment:
#   SCOPE_OUT=FILE.avi  write the side-by-side video to FILE (Motion JPEG in AVI) instead of a
#                       window: for a machine without a display (the GPU host)
#   SCOPE_FRAMES=N      stop the input after N frames
#   SCOPE_CPU=1         keep frames in system memory: the element's CPU path (taken anyway when
#                       GStreamer offers no cudaupload, i.e. no usable CUDA device)
#   SCOPE_HEIGHT=H      height of the scope and of the picture (default 512)
set -euo pipefail
# shellcheck source=examples/launch/env.sh
source "$(dirname "$0")/env.sh"
usage="usage: $0 FILE [waveform|parade|histogram|vectorscope] [cudavideoscope properties...]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
[ -r "$1" ] || { echo "$0: cannot read '$1'" >&2; exit 1; }
file="$1"; shift
style="${1:-waveform}"; [ $# -ge 1 ] && shift
case "$style" in
  waveform|parade|histogram|vectorscope) ;;
  *) echo "$0: unknown style '$style'" >&2; echo "$usage" >&2; exit 2 ;;
esac
height="${SCOPE_HEIGHT:-512}"
[[ "$height" =~ ^[1-9][0-9]*$ ]] || { echo "$0: SCOPE_HEIGHT must be a positive number, got '$height'" >&2; exit 2; }
[ "$style" = vectorscope ] && width="$height" || width=$((2 * height))

if [ -z "${SCOPE_CPU:-}" ] && gst-inspect-1.0 cudaupload >/dev/null 2>&1; then
  memory="video/x-raw(memory:CUDAMemory)"; upload=(cudaupload !); download=(cudadownload !)
  echo "$(basename "$0"): drawing on the GPU" >&2
else
  memory="video/x-raw"; upload=(); download=()
  echo "$(basename "$0"): drawing on the CPU (SCOPE_CPU set, or no cudaupload: no usable CUDA device)" >&2
fi
limit=()
if [ -n "${SCOPE_FRAMES:-}" ]; then
  [[ "$SCOPE_FRAMES" =~ ^[1-9][0-9]*$ ]] || { echo "$0: SCOPE_FRAMES must be a positive number" >&2; exit 2; }
  limit=(identity eos-after="$SCOPE_FRAMES" !)
fi
if [ -n "${SCOPE_OUT:-}" ]; then
  sink=(jpegenc ! avimux ! filesink location="$SCOPE_OUT")
else
  sink=(autovideosink)
fi

# The scope on the left (its width is known), the picture scaled to the same height on its right.
exec gst-launch-1.0 -e filesrc location="$file" ! decodebin ! "${limit[@]}" "${upload[@]}" "$memory" ! tee name=t \
  t. ! queue ! cudavideoscope style="$style" "$@" ! "$memory,width=$width,height=$height" ! "${download[@]}" \
       videoconvert ! comp.sink_0 \
  t. ! queue ! "${download[@]}" videoconvert ! videoscale ! "video/x-raw,height=$height,pixel-aspect-ratio=1/1" \
       ! comp.sink_1 \
  compositor name=comp sink_1::xpos="$width" ! videoconvert ! "${sink[@]}"
