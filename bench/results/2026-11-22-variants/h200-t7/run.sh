#!/bin/bash
OUT=${1:?outdir}
cd "$(dirname "$0")"
mkdir -p "$OUT"
timeout 120 ./kernel_tests > "$OUT/kernel_tests.log" 2>&1; echo "kernel_tests exit $?" >> "$OUT/summary.txt"; tail -3 "$OUT/kernel_tests.log" >> "$OUT/summary.txt"
python3 -c "
import numpy as np, skimage.data as d
g = np.ascontiguousarray(d.camera(), dtype=np.uint8)
open('$OUT/camera_%dx%dx1.raw' % (g.shape[1], g.shape[0]), 'wb').write(g.tobytes())
a = np.ascontiguousarray(d.astronaut(), dtype=np.uint8)
rgba = np.dstack([a, np.full(a.shape[:2], 255, np.uint8)])
open('$OUT/astronaut_%dx%dx4.raw' % (a.shape[1], a.shape[0]), 'wb').write(rgba.tobytes())
" 2> "$OUT/photos.log"
PHOTO="--photo $(ls $OUT/camera_*x1.raw) --photo-rgba $(ls $OUT/astronaut_*x4.raw)"
run() { # variant round filter args
  local v=$1 n=$2 f=$3; shift 3
  local tag=$(echo "$f" | tr '/' '_')
  timeout 150 ./histbench-$v --filter "$f" --json "$OUT/$v-$tag-$n.json" $PHOTO "$@" > "$OUT/$v-$tag-$n.log" 2>&1
  echo "$v $f $n exit $?" >> "$OUT/summary.txt"
}
for n in 1 2; do for v in base fast; do run $v $n 1GiB; done; done
for v in base fast; do run $v 1 frames/ --repeats 15; done
echo done >> "$OUT/summary.txt"
