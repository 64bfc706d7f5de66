#!/usr/bin/env bash
# A live camera: frames from v4l2src, uploaded to the GPU, one histogram
# message a second (interval in nanoseconds accumulates the frames between).
#   examples/launch/camera.sh [/dev/video0] [element properties...]
set -euo pipefail
# shellcheck source=examples/launch/env.sh
source "$(dirname "$0")/env.sh"
device="${1:-/dev/video0}"; [ $# -ge 1 ] && shift
[ -e "$device" ] || { echo "$0: no camera at $device" >&2; exit 1; }
exec gst-launch-1.0 -m v4l2src device="$device" ! videoconvert ! video/x-raw,format=NV12 \
  ! cudaupload ! "video/x-raw(memory:CUDAMemory)" ! cudahistogram interval=1000000000 "$@" ! fakesink
