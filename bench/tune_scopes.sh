#!/usr/bin/env bash
# bench/tune_scopes.sh: variants of the scope kernels (kernels/scopes_tuning.h,
# its CUDAHIST_* macros) built here and timed side by side in one run on the
# GPU host.
#
#   bench/tune_scopes.sh build OUTDIR NAME=FLAGS...
#       one scopebench per variant, for sm_90, as OUTDIR/scopebench-NAME
#       (NAME: letters, digits, _). The flags reach only the three scope
#       kernel files (meson option scope-tuning); the rest of the library
#       comes from ccache. With no NAME=FLAGS, the standard set below.
#   bench/tune_scopes.sh run BINDIR OUTDIR [ROUNDS]
#       every BINDIR/scopebench-*, ROUNDS times (default 2) in alternation so
#       that drift hits all alike on uniform samples, then once on peaked
#       samples (roofline and cudahist rows only, a few seconds a run); each run
#       checks its counts against the CPU path before timing (scopebench
#       exits 1 on a mismatch: its row then says MISMATCH and the variant is
#       not comparable). JSON and logs under OUTDIR/{uniform,peaked}/, then
#       one table per distribution (bench/compare_variants.py): "us / fraction
#       of the read+write roofline" per variant and round.
#   bench/tune_scopes.sh profile BINARY OUTDIR
#       Nsight Compute (where the host has ncu) on one launch of the cudahist
#       kernel of each case (a) to (d): duration, DRAM and L2 throughput,
#       shared-memory wavefronts and bank conflicts, warp stall reasons,
#       occupancy; OUTDIR/ncu-CASE.log. Then seed 004's two kernels on (a)
#       (ncu-seed004.log): the count kernel's own time, without the memset of
#       its partials and the reduction that scopebench's seed004 row includes.
#       Clocks as the card runs them (--clock-control none), so durations
#       compare with scopebench's; ncu's replays still serialise the launches.
#
# scripts/gpuhost-pack.sh packs .gpuhost/scope-variants (when present) and
# scripts/gpuhost-run.sh's step scope_variants runs them:
#   bench/tune_scopes.sh build .gpuhost/scope-variants && scripts/gpuhost-pack.sh build
#   (on the host) bash .gpuhost/gpuhost-run.sh $OUT scope_variants
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The standard set, second round (the first round's set, its figures and
# the defaults it chose: kernels/scopes_tuning.h; NOTES.md of
# bench/results/2026-11-23-scope-variants). base: the defaults. Predictions
# (H100, uniform samples; base measured as "combo" less js4: (a) 133, (b) 6.9,
# (c) 11.9, (d) 15.1 us):
#   th1024  1024 threads at V = 1 with 8 flush warps, on the new default:
#           64 registers, one block an SM, bands of 16 / 32 columns (120
#           blocks); first round: no gain over fw8 on (b), +0.7 us on (c):
#           (b) 7.0, (c) 12.5
#   th1024mb2  1024 threads, two blocks an SM (32 registers: ptxas spills
#           60 to 90 bytes), 16 rows in flight: 240 bands of 8 / 16 columns
#           as now, half the rows a lane loads and counts: (b) 6.3, (c) 11.0
#   rl32    bands of 32 columns at V = 1 (60 / 120 blocks: half the zeroing
#           and flush chains, fewer SMs): (b) 8, (c) 12
#   joint (d), round 3: the sliced kernel (CUDAHIST_JOINT_SLICED,
#   scopes_tuning.h): a block per (part of the b range, slice of rows), no
#   grid sync; round 2's jparts2 / jvec / jwarp / jcombo did not gain
#   (17.4 / 14.9 / 22.4 / 16.9 us against 15.3). Predictions, uniform (peaked):
#   jsl8    8 parts x 33 slices (264 blocks of 512, 32 KB counters): 6-7 (6-7)
#   jsl8b1  8 parts x 17 slices (136 blocks): half the reductions, twice the
#           rows a block: 6.5-7.5 (6.5-7.5)
#   jsl4    4 parts x 66 slices (64 KB counters): half the L2 reading, some
#           1.5x the reductions: 7-8 (6.5-7.5)
#   jsl16   16 parts x 17 slices (16 KB counters): half the reductions, twice
#           the L2 reading: 6-7.5 (6-7.5)
#   jglob   jsl8 with no shared counters: one L2 reduction per sample (518K):
#           7-10 (peaked: 9-14, the reductions pile onto the grey bins)
#   jsl8d   jsl8, counts in device memory added to directly (blocks zero
#           their share of the counts first; CUDAHIST_JOINT_DIRECT): no fence,
#           ticket or move at the end: 5-6 (5-6)
#   jsl16d  jsl16 direct: 5-6.5 (5-6.5)
#   jsl8seq jsl8 launched without programmatic serialisation (also (b), (c)
#           as pdl0 would): jsl8 + 1-2
standard_variants=(
  "base="
  "th1024=-DCUDAHIST_COLUMN_THREADS_NARROW=1024 -DCUDAHIST_COLUMN_MIN_BLOCKS_NARROW=1"
  "th1024mb2=-DCUDAHIST_COLUMN_THREADS_NARROW=1024 -DCUDAHIST_COLUMN_MIN_BLOCKS_NARROW=2 -DCUDAHIST_COLUMN_ROWS_IN_FLIGHT_NARROW=16"
  "rl32=-DCUDAHIST_COLUMN_MIN_ROW_LANES=32"
  "jsl8=-DCUDAHIST_JOINT_SLICED=1"
  "jsl8b1=-DCUDAHIST_JOINT_SLICED=1 -DCUDAHIST_JOINT_BLOCKS_PER_SM=1"
  "jsl4=-DCUDAHIST_JOINT_SLICED=1 -DCUDAHIST_JOINT_PARTS=4"
  "jsl16=-DCUDAHIST_JOINT_SLICED=1 -DCUDAHIST_JOINT_PARTS=16 -DCUDAHIST_JOINT_BLOCKS_PER_SM=1"
  "jglob=-DCUDAHIST_JOINT_SLICED=1 -DCUDAHIST_JOINT_GLOBAL_ATOMICS=1"
  "jsl8d=-DCUDAHIST_JOINT_SLICED=1 -DCUDAHIST_JOINT_DIRECT=1"
  "jsl16d=-DCUDAHIST_JOINT_SLICED=1 -DCUDAHIST_JOINT_PARTS=16 -DCUDAHIST_JOINT_BLOCKS_PER_SM=1 -DCUDAHIST_JOINT_DIRECT=1"
  "jsl8seq=-DCUDAHIST_JOINT_SLICED=1 -DCUDAHIST_SCOPES_PROGRAMMATIC_LAUNCH=0"
)

build() {
  local out=$1; shift
  [ $# -gt 0 ] || set -- "${standard_variants[@]}"
  export PATH="/usr/local/cuda/bin:$PATH" CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}
  mkdir -p "$out"
  rm -f "$out"/scopebench-*
  for variant in "$@"; do
    local name=${variant%%=*} flags=${variant#*=}
    [[ $name =~ ^[A-Za-z0-9_]+$ ]] || { echo "tune_scopes: variant name '$name': letters, digits and _ only" >&2; exit 2; }
    local dir=/tmp/cudahist-scopes-$name
    rm -rf "$dir"
    meson setup "$dir" "$root" -Dcuda-arch=90 -Dplugin=disabled -Dtests=disabled -Dexamples=disabled \
      "-Dscope-tuning=$flags" > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
    ninja -C "$dir" bench/scopebench >> "$dir.log" 2>&1 || { tail -30 "$dir.log"; exit 1; }
    strip -o "$out/scopebench-$name" "$dir/bench/scopebench"
    echo "$name $flags" >> "$out/variants.txt.new"
    echo "built scopebench-$name (${flags:-defaults})"
  done
  mv "$out/variants.txt.new" "$out/variants.txt"
}

run() {
  local bin=$1 out=$2 rounds=${3:-2}
  local compare=$root/bench/compare_variants.py
  [ -f "$compare" ] || compare=$(dirname "${BASH_SOURCE[0]}")/compare_variants.py  # the packed scripts/ folder
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
  [ -f "$bin/variants.txt" ] && { echo; echo "variants (name, flags):"; cat "$bin/variants.txt"; }
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
      --section LaunchStats -k regex:'ColumnHistogramKernel|JointHistogramKernel' -c 1 \
      "$binary" --cases "$c" --methods cudahist --repeats 1 > "$out/ncu-$c.log" 2>&1 || rc=$?
    echo "ncu ($c): exit $rc"
    grep -E "gpu__time_duration|dram__throughput|dram__bytes|lts__t_sectors|wavefronts_mem_shared|bank_conflicts|smsp__inst_executed|warps_active|sm__cycles_active|gpc__cycles_elapsed|Stall|Grid Size|Block Size|Registers|Achieved Occupancy" \
      "$out/ncu-$c.log" | sed 's/^ */  /' | head -n 40
  done
  local rc=0
  timeout 120 "$ncu" --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    -k regex:'histogram_optimized_kernel|histogram_reduce_kernel' -c 2 \
    "$binary" --cases a --methods seed004 --repeats 1 > "$out/ncu-seed004.log" 2>&1 || rc=$?
  echo "ncu (seed004 on a): exit $rc"
  grep -E "histogram_(optimized|reduce)_kernel|gpu__time_duration|dram__bytes" "$out/ncu-seed004.log" | sed 's/^ */  /'
}

case ${1:-} in
  build) shift; build "${1:?usage: tune_scopes.sh build OUTDIR [NAME=FLAGS...]}" "${@:2}" ;;
  run) shift; run "${1:?usage: tune_scopes.sh run BINDIR OUTDIR [ROUNDS]}" "${2:?OUTDIR}" "${3:-2}" ;;
  profile) shift; profile "${1:?usage: tune_scopes.sh profile BINARY OUTDIR}" "${2:?OUTDIR}" ;;
  *) sed -n '2,32p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
