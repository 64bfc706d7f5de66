#!/usr/bin/env bash
# bench/tuning/tune_privatized.sh: variants of the histogram kernels' tuning (the
# policies of kernels/histogram/histogram_tuning.h, kernels/launch/walk_tuning.h
# and kernels/launch/launch_tuning.h: threads, loads, copies budget, chunks a
# thread, the equal-words stride, registers) timed side by side in one run on the GPU
# host. A variant overrides fields of the policies (kernels/launch/policy.h).
#
#   bench/tuning/tune_privatized.sh [OUTDIR] NAME=FLAGS...      here, before gpuhost-pack.sh
#       one histbench per variant, for sm_90, as OUTDIR/histbench-NAME (default
#       OUTDIR: build-variants/kernel-variants, which gpuhost-pack.sh packs), built
#       by bench/tuning/kernel_variants.sh: the histogram kernels and the launch plan
#       compiled again per variant. Example:
#         bench/tuning/tune_privatized.sh base= loads4="-DCUDAHIST_TUNE_WALK=p.loads_per_thread=4"
#   bench/tuning/tune_privatized.sh run BINDIR OUTDIR [ROUNDS] [FILTER]   on the GPU host
#       every BINDIR/histbench-NAME, ROUNDS times (default 2) in alternation,
#       on the cases that FILTER selects (histbench --filter; default frames/),
#       each checking its counts before timing; JSON and logs in OUTDIR, then
#       one table (bench/tuning/compare_variants.py): "us / fraction of the read
#       roofline" per variant and round. (gpuhost-run.sh step histogram_variants.)
set -euo pipefail
here=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=bench/tuning/kernel_variants.sh
source "$here/kernel_variants.sh"

run_variants() {
  local bin=${1:?usage: tune_privatized.sh run BINDIR OUTDIR [ROUNDS] [FILTER]} out=${2:?OUTDIR}
  local rounds=${3:-2} filter=${4:-frames/} b name r failed=0
  local benches=("$bin"/histbench-*)
  [ -x "${benches[0]}" ] || { echo "tune_privatized: no histbench-* in $bin" >&2; return 2; }
  mkdir -p "$out"
  for ((r = 1; r <= rounds; ++r)); do
    for b in "${benches[@]}"; do
      name=${b##*/histbench-}
      if timeout 600 "$b" --filter "$filter" --json "$out/$name-$r.json" > "$out/$name-$r.log" 2>&1; then
        echo "round $r $name: ok"
      else
        echo "round $r $name: FAILED (exit $?): $(tail -n 2 "$out/$name-$r.log" | tr '\n' ' ')"
        rm -f "$out/$name-$r.json"
        failed=$((failed + 1))
      fi
    done
  done
  [ -f "$bin/variants.txt" ] && { echo; echo "variants (name, flags):"; grep "^histbench-" "$bin/variants.txt"; }
  python3 "$here/compare_variants.py" "$out"
  [ "$failed" -eq 0 ] || { echo "$failed run(s) failed (logs in $out)"; return 1; }
}

if [ "${1:-}" = run ]; then
  shift
  run_variants "$@"
  exit
fi
out=$kernel_variants_default_out
if [ $# -gt 0 ] && [[ $1 != *=* ]]; then out=$1; shift; fi
[ $# -gt 0 ] || { sed -n '2,19p' "${BASH_SOURCE[0]}"; exit 2; }
build_kernel_variants histogram "$out" "$@"
