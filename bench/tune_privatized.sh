#!/usr/bin/env bash
# bench/tune_privatized.sh OUTDIR NAME=FLAGS...
# Builds one histbench per variant of the privatized kernel's tuning constants
# (every CUDAHIST_* macro of kernels/tuning.h: threads, loads, copies budget,
# bank swizzle, programmatic launch, batch chunks and walk), for sm_90,
# into OUTDIR/histbench-NAME, so that one run on the GPU host times them side
# by side (bench/compare_variants.py prints their JSON together). Example:
#   bench/tune_privatized.sh .gpuhost/bin base= loads4="-DCUDAHIST_PRIVATIZED_LOADS=4"
set -euo pipefail
out=${1:?usage: tune_privatized.sh OUTDIR NAME=FLAGS...}; shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$out"
for variant in "$@"; do
  name=${variant%%=*}
  flags=${variant#*=}
  dir=/tmp/cudahist-tune-$name
  rm -rf "$dir"
  meson setup "$dir" "$root" -Dcuda-arch=90 -Dplugin=disabled -Dtests=disabled -Dexamples=disabled \
    "-Dcuda_args=$flags" "-Dcpp_args=$flags" > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
  ninja -C "$dir" bench/histbench >> "$dir.log" 2>&1 || { tail -30 "$dir.log"; exit 1; }
  cp "$dir/bench/histbench" "$out/histbench-$name"
  echo "built histbench-$name ($flags)"
done
