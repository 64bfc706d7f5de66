#!/bin/bash
OUT=${1:?outdir}
cd "$(dirname "$0")"
mkdir -p "$OUT"
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
for n in 1 2; do for v in base fc2 fc4; do run $v $n frames/ --repeats 15; done; done
echo done >> "$OUT/summary.txt"
