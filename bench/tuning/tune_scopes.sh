#!/usr/bin/env bash
# bench/tuning/tune_scopes.sh: variants of the scope kernels' policy
# (kernels/scopes/scopes_tuning.h, overridden as kernels/launch/policy.h says)
# built here and timed side by side in one run on the GPU host.
#
#   bench/tuning/tune_scopes.sh build [OUTDIR] [NAME=FLAGS | NAME]...
#       one scopebench per variant, for sm_90, as OUTDIR/scopebench-NAME
#       (default OUTDIR: build-variants/kernel-variants; NAME: letters, digits, _;
#       a NAME alone: that standard variant), built by bench/tuning/kernel_variants.sh:
#       the flags reach only the three scope kernel files. With none, the
#       standard set below.
#   bench/tuning/tune_scopes.sh run BINDIR OUTDIR [ROUNDS]
#       every BINDIR/scopebench-*, ROUNDS times (default 2) in alternation so
#       that drift hits all alike on uniform samples, then once on peaked
#       samples (roofline and cudahist rows only, a few seconds a run); each run
#       checks its counts against the CPU path before timing (scopebench
#       exits 1 on a mismatch: its row then says MISMATCH and the variant is
#       not comparable). JSON and logs under OUTDIR/{uniform,peaked}/, then
#       one table per distribution (bench/tuning/compare_variants.py): "us / fraction
#       of the read+write roofline" per variant and round.
#   bench/tuning/tune_scopes.sh profile BINARY OUTDIR
#       Nsight Compute (where the host has ncu) on one launch of the cudahist
#       kernel of each case (a) to (d): duration, DRAM and L2 throughput,
#       shared-memory wavefronts and bank conflicts, warp stall reasons,
#       occupancy; OUTDIR/ncu-CASE.log. Then the article's two kernels on (a)
#       (ncu-article.log): the count kernel's own time, without the memset of
#       its partials and the reduction that scopebench's article row includes.
#       Clocks as the card runs them (--clock-control none), so durations
#       compare with scopebench's; ncu's replays still serialise the launches.
#
# scripts/gpuhost-pack.sh packs build-variants/kernel-variants and
# scripts/gpuhost-run.sh's step scope_variants runs its scopebench-*:
#   bench/tuning/tune_scopes.sh build && scripts/gpuhost-pack.sh build
#   (on the host) bash .gpuhost/gpuhost-run.sh $OUT scope_variants
set -euo pipefail
# shellcheck source=bench/tuning/kernel_variants.sh
source "$(dirname "${BASH_SOURCE[0]}")/kernel_variants.sh"

# The standard set: base (the defaults) and the numbers measured beside them
# before (docs/tuning.md has every round's figures; scopes_tuning.h says what
# each field does): 1024 threads at V = 1 (th1024), 256 (th256; the launch
# bounds' blocks per SM follow the threads, launch_tuning.h), bands of 32
# columns only (rl32), 12 rows in flight against 16 (rows16), the joint
# kernel's b range in 4 and 16 parts (jparts4, jparts16) and one block an SM
# of every thread the SM holds (jblocks1).
standard_variants=(
  "base="
  "th1024=-DCUDAHIST_TUNE_SCOPES=p.column.threads_narrow=1024"
  "th256=-DCUDAHIST_TUNE_SCOPES=p.column.threads_narrow=256"
  "rl32=-DCUDAHIST_TUNE_SCOPES=p.column.min_row_lanes=32"
  "rows16=-DCUDAHIST_TUNE_SCOPES=p.column.rows_in_flight_narrow=16"
  "jparts4=-DCUDAHIST_TUNE_SCOPES=p.joint.parts=4"
  "jparts16=-DCUDAHIST_TUNE_SCOPES=p.joint.parts=16"
  "jblocks1=-DCUDAHIST_TUNE_SCOPES=p.joint.blocks_per_sm=1"
)

build() {
  build_standard_variants scopes "$@"
}

run() {
  local bin=$1 out=$2 rounds=${3:-2}
  local compare
  compare=$(dirname "${BASH_SOURCE[0]}")/compare_variants.py  # beside it here and in the pack's scripts/
  local variants=()
  for b in "$bin"/scopebench-*; do variants+=("${b##*/scopebench-}"); done
  [ ${#variants[@]} -gt 0 ] || { echo "tune_scopes: no scopebench-* in $bin" >&2; exit 2; }
  local failed=0
  for dist in uniform peaked; do
    mkdir -p "$out/$dist"
    local dist_rounds=$rounds
    [ "$dist" = peaked ] && dist_rounds=1  # device time: peaked once
    for n in $(seq 1 "$dist_rounds"); do
      for v in "${variants[@]}"; do
        local rc=0
        timeout 120 "$bin/scopebench-$v" --methods roofline,cudahist --distribution "$dist" \
          --json "$out/$dist/$v-scopes-$n.json" > "$out/$dist/$v-scopes-$n.log" 2>&1 || rc=$?
        echo "$dist $v round $n: exit $rc"
        [ $rc -eq 0 ] || failed=1
      done
    done
  done
  [ -f "$bin/variants.txt" ] && { echo; echo "variants (name, flags):"; grep "^scopebench-" "$bin/variants.txt"; }
  for dist in uniform peaked; do
    echo
    echo "$dist samples: us / fraction of the read+write roofline, variant.round"
    python3 "$compare" "$out/$dist" cudahist roofline
  done
  grep -h "MISMATCH\|ERROR" "$out"/*/*.log && failed=1
  return $failed
}

profile() {
  local binary=$1 out=$2
  local ncu
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1) ||
    true
  [ -n "$ncu" ] || { echo "tune_scopes: no ncu on this host: no profile"; return 0; }
  mkdir -p "$out"
  local metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum,smsp__inst_executed_op_shared_atom.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,gpc__cycles_elapsed.max
  for c in a b c d; do
    local rc=0
    timeout 120 "$ncu" --clock-control none --metrics "$metrics" --section SpeedOfLight --section WarpStateStats --section Occupancy \
      --section LaunchStats -k regex:'ColumnHistogramKernel|JointSlicedKernel' -c 1 \
      "$binary" --cases "$c" --methods cudahist --repeats 1 > "$out/ncu-$c.log" 2>&1 || rc=$?
    echo "ncu ($c): exit $rc"
    grep -E "gpu__time_duration|dram__throughput|dram__bytes|lts__t_sectors|wavefronts_mem_shared|bank_conflicts|smsp__inst_executed|warps_active|sm__cycles_active|gpc__cycles_elapsed|Stall|Grid Size|Block Size|Registers|Achieved Occupancy" \
      "$out/ncu-$c.log" | sed 's/^ */  /' | head -n 40 || true  # a log without those lines: nothing to show
  done
  local rc=0
  timeout 120 "$ncu" --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    -k regex:'histogram_optimized_kernel|histogram_reduce_kernel' -c 2 \
    "$binary" --cases a --methods article --repeats 1 > "$out/ncu-article.log" 2>&1 || rc=$?
  echo "ncu (article on a): exit $rc"
  grep -E "histogram_(optimized|reduce)_kernel|gpu__time_duration|dram__bytes" "$out/ncu-article.log" | sed 's/^ */  /' ||
    true
}

case ${1:-} in
  build) shift; build "$@" ;;
  run) shift; run "${1:?usage: tune_scopes.sh run BINDIR OUTDIR [ROUNDS]}" "${2:?OUTDIR}" "${3:-2}" ;;
  profile) shift; profile "${1:?usage: tune_scopes.sh profile BINARY OUTDIR}" "${2:?OUTDIR}" ;;
  *) sed -n '2,33p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
