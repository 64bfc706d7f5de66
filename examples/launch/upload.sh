#!/usr/bin/env bash
# videotestsrc uploaded to the GPU: the CUDA path without a decoder.
#   examples/launch/upload.sh [num-buffers] [element properties...]
set -euo pipefail
# shellcheck source=examples/launch/env.sh
source "$(dirname "$0")/env.sh"
frames="${1:-10}"; [ $# -ge 1 ] && shift
exec gst-launch-1.0 -m videotestsrc num-buffers="$frames" pattern=smpte ! video/x-raw,format=NV12 \
  ! cudaupload ! "video/x-raw(memory:CUDAMemory)" ! cudahistogram "$@" ! fakesink
