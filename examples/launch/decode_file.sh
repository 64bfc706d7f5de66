#!/usr/bin/env bash
# Decode an H.264 MP4 on the GPU (NVDEC through nvh264dec: frames stay in CUDA
# memory) and print every cudahistogram message.
#   examples/launch/decode_file.sh clip.mp4 [element properties, e.g. bins=64 interval=1000000000]
set -euo pipefail
# shellcheck source=examples/launch/env.sh
source "$(dirname "$0")/env.sh"
[ $# -ge 1 ] || { echo "usage: $0 FILE.mp4 [cudahistogram properties...]" >&2; exit 2; }
[ -r "$1" ] || { echo "$0: cannot read '$1'" >&2; exit 1; }
file="$1"; shift
exec gst-launch-1.0 -m filesrc location="$file" ! qtdemux ! h264parse ! nvh264dec \
  ! cudahistogram "$@" ! fakesink
