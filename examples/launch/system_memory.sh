#!/usr/bin/env bash
# The system-memory path: no GPU needed, the element counts with its CPU
# backend. Prints the messages of a few frames of SMPTE bars.
#   examples/launch/system_memory.sh [num-buffers] [element properties...]
set -euo pipefail
# shellcheck source=examples/launch/env.sh
source "$(dirname "$0")/env.sh"
frames="${1:-10}"; [ $# -ge 1 ] && shift
exec gst-launch-1.0 -m videotestsrc num-buffers="$frames" pattern=smpte ! video/x-raw,format=I420 \
  ! cudahistogram "$@" ! fakesink
