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
for n in 1 2; do for v in base batchrow; do run $v $n frames/ --repeats 15; done; done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" >> "$OUT/summary.txt"
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
if [ -n "$NCU" ]; then
  for f in gray8-1GiB/photo gray8-1GiB/uniform gray16-1GiB-4096b/photo gray16-1GiB-4096b/uniform frames/nv12-1080p; do
    tag=$(echo "$f" | tr '/' '_')
    timeout 60 $NCU --metrics $M -k regex:PrivatizedKernel -c 1 ./histbench-base --filter "$f" --repeats 1 $PHOTO > "$OUT/ncu-$tag.log" 2>&1
    echo "ncu $f exit $?" >> "$OUT/summary.txt"
  done
fi
echo done >> "$OUT/summary.txt"
