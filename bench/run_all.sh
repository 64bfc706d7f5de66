#!/bin/sh
# bench/run_all.sh BINDIR OUTDIR: every benchmark, logs and JSON in OUTDIR.
#
#   BINDIR   the build's bench/ folder (each benchmark in its subject's folder), or
#            a folder holding them side by side (the GPU host pack's bin/)
#   OUTDIR   created if missing; receives *.log, *.json and the photo inputs
# The caller sets GST_PLUGIN_PATH to the folder of libgstcudahistogram.so
# (the build's gst-plugin/) for element_bench and cpubench's element row.
# Time: histbench < ~4 min on an H100, signalstats_bench ~20 s, element_bench ~25 s, cpubench ~25 s;
# each is stopped by `timeout` if it runs past its bound.
# Exit status: 0 when every benchmark passed its checks (77 = skipped counts as passed).
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 BINDIR OUTDIR" >&2
  exit 2
fi
BIN=$1
OUT=$2
mkdir -p "$OUT"
status=0

# Real photographs from scikit-image's bundled samples: camera (grayscale) and
# astronaut (RGB, alpha 255 added), raw bytes, size in the name.
PHOTO_ARGS=""
if python3 -c "
import numpy as np, skimage.data as d
g = np.ascontiguousarray(d.camera(), dtype=np.uint8)
open('$OUT/camera_%dx%dx1.raw' % (g.shape[1], g.shape[0]), 'wb').write(g.tobytes())
a = np.ascontiguousarray(d.astronaut(), dtype=np.uint8)
rgba = np.dstack([a, np.full(a.shape[:2], 255, np.uint8)])
open('$OUT/astronaut_%dx%dx4.raw' % (a.shape[1], a.shape[0]), 'wb').write(rgba.tobytes())
" 2> "$OUT/photos.log"; then
  PHOTO_ARGS="--photo $(ls "$OUT"/camera_*x1.raw) --photo-rgba $(ls "$OUT"/astronaut_*x4.raw)"
else
  echo "photos: scikit-image not usable, photo cases will be skipped (see $OUT/photos.log)" | tee -a "$OUT/photos.log"
fi

run() {  # run NAME LIMIT_SECONDS COMMAND...
  name=$1
  limit=$2
  shift 2
  echo "=== $name: $*" > "$OUT/$name.log"
  timeout "$limit" "$@" >> "$OUT/$name.log" 2>&1
  rc=$?
  tail -n 60 "$OUT/$name.log"
  echo "=== $name: exit $rc" | tee -a "$OUT/$name.log"
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then status=1; fi
}

exe() {  # exe NAME: the benchmark NAME in BINDIR or in one of its subject folders
  for candidate in "$BIN/$1" "$BIN"/*/"$1"; do
    [ -x "$candidate" ] && { echo "$candidate"; return; }
  done
  echo "$BIN/$1"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.limit --format=csv > "$OUT/gpu.txt" 2>&1 || true
# shellcheck disable=SC2086  # PHOTO_ARGS is a list of words
run histbench 300 "$(exe histbench)" --json "$OUT/histbench.json" $PHOTO_ARGS
run signalstats_bench 120 "$(exe signalstats_bench)" --json "$OUT/signalstats_bench.json"
run element_bench 90 "$(exe element_bench)" --json "$OUT/element_bench.json"
run cpubench 90 "$(exe cpubench)" --json "$OUT/cpubench.json"
echo "run_all: $( [ $status -eq 0 ] && echo OK || echo FAILURES ), logs in $OUT"
exit $status
