#!/bin/bash
# Tuning run on the GPU host: kernel tests of the new code, then histbench variants side by side.
OUT=${1:?outdir}
cd "$(dirname "$0")"
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
date -u > "$OUT/date.txt"
timeout 120 ./kernel_tests > "$OUT/kernel_tests.log" 2>&1; echo "kernel_tests exit $?" >> "$OUT/summary.txt"
tail -5 "$OUT/kernel_tests.log" >> "$OUT/summary.txt"
grep -E "FAILED|MISMATCH" "$OUT/kernel_tests.log" | head -20 >> "$OUT/summary.txt"
python3 -c "
import numpy as np, skimage.data as d
g = np.ascontiguousarray(d.camera(), dtype=np.uint8)
open('$OUT/camera_%dx%dx1.raw' % (g.shape[1], g.shape[0]), 'wb').write(g.tobytes())
" 2> "$OUT/photos.log"
PHOTO="--photo $(ls $OUT/camera_*x1.raw)"
run() { # variant round filter args
  local v=$1 n=$2 f=$3; shift 3
  local tag=$(echo "$f" | tr '/' '_')
  timeout 100 ./histbench-$v --filter "$f" --json "$OUT/$v-$tag-$n.json" $PHOTO "$@" > "$OUT/$v-$tag-$n.log" 2>&1
  echo "$v $f $n exit $?" >> "$OUT/summary.txt"
}
for n in 1 2; do for v in base noswz; do run $v $n gray16-1GiB-4096b; done; done
for v in base noswz bc16 bc32 nopdl; do run $v 1 frames/ --repeats 15; done
run base 2 frames/nv12 --repeats 15
echo done >> "$OUT/summary.txt"
