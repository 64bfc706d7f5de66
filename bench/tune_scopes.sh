#!/usr/bin/env bash
# bench/tune_scopes.sh: variants of the scope kernels (kernels/scopes_tuning.h,
# its CUDAHIST_* macros) built here and timed side by side in one run on the
# GPU host.
#
#   bench/tune_scopes.sh build OUTDIR [NAME=FLAGS | NAME]...
#       one scopebench per variant, for sm_90, as OUTDIR/scopebench-NAME
#       (NAME: letters, digits, _; a NAME alone: that standard variant). The
#       flags reach only the three scope kernel files (meson option
#       scope-tuning); the rest from ccache. With none, the standard set below.
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

# The standard set, third round for the column kernel (the earlier rounds'
# sets, figures and the defaults they chose: kernels/scopes_tuning.h; NOTES.md
# of bench/results/2026-11-23-scope-variants; round two's column variants
# th1024 (b) 6.74 (c) 12.63, th1024mb2 10.84 / 20.20, rl32 11.63 / 17.65 us,
# none taken). base: the defaults. Predictions (H100, uniform samples; base
# at 03:25 UTC: (a) 131.3, (b) 6.9, (c) 11.95, (d) 15.3 us; targets 0.8 of
# the roofline: (a) <= 114, (b) <= 4.6, (c) <= 7.75):
#   lean    the byte walk without per-row and per-column tests, row addresses
#           by increments (CUDAHIST_COLUMN_LEAN_COUNT): some 16 instructions a
#           4-byte word instead of 42 where (a) issues 2.8 a clock an SM:
#           (a) 110-120, (b) 6.6-6.9, (c) 11.2-11.9
#   words   lean + a 32-bit word of four columns a lane at V = 1
#           (CUDAHIST_COLUMN_WORD_LOADS): 4K in one batch of loads instead of
#           three: (a) as lean, (b) 6.0-6.6, (c) 8.5-10
#   shfl    the flush by every warp through shuffles, 16-byte count stores
#           (CUDAHIST_COLUMN_SHUFFLE_FLUSH; ptxas spills 8 bytes here):
#           (b) 6.0-6.5, (c) 11.0-11.6
#   vlean   lean + shfl + 16-bit counters + items without divisions, counters
#           zeroed 16 bytes a store (CUDAHIST_COLUMN_COUNTERS16, _LEAN_ITEM):
#           (a) 110-120, (b) 5.5-6.2, (c) 10.3-11.2
#   vwords  vlean + words: (a) 110-120, (b) 5.0-5.8, (c) 7.8-9.5
#   native  seed 004's partials stored as the counters lie, by every warp
#           (CUDAHIST_COLUMN_NATIVE_PARTIALS): no 4-warp flush through the
#           stages at the end of (a)'s one-wave grid: (a) 125-129
#   vall    vwords + native (the lean count with native partials alone spills
#           8 bytes; with every flag, none): (a) 104-116, (b) 5.0-5.8,
#           (c) 7.8-9.5
#   vw256   vwords in blocks of 256 threads, 4 an SM by registers (3 by
#           shared memory): a 1080p frame's 240 blocks leave an SM room for a
#           block of the next launch, whose prologue and zeroing then run
#           before the wait (PDL); 8 words a lane at 1080p, but 34 at 4K (two
#           batches): (b) 4.8-5.6, (c) 9-11
#   vleanpf vlean + the next batch's loads in flight at V = 1, batches of 12
#           (CUDAHIST_COLUMN_PREFETCH_NARROW): (b) 5.5-6.2, (c) 10-12 (fewer
#           bytes in flight than vlean's 32-row batches: may lose)
#   joint (d), round 3: the sliced kernel (CUDAHIST_JOINT_SLICED,
#   scopes_tuning.h), a block per (part of the b range, slice of rows).
#   Measured (H100, 2026-11-23 04:50 UTC, 2 rounds, uniform / peaked us;
#   base 16.7 / 14.0): jsl8 16.6 / 14.6, jsl8b1 18.8 / 18.4, jsl4 20.4 / 17.1,
#   jsl16 27.6 / 26.7, jglob 17.4 / 20.0, jsl16d 25.8 / 24.4, jsl8d 12.9 /
#   11.8 (its blocks then waited for one another with no launch guarantee;
#   cooperative since, 04:59 UTC: 13.7 / 11.9, the default now).
#   r2cols  the column kernel as round two left it (round three's defaults off)
#   jsl8    the sliced kernel through the accumulator (no direct adds)
#   jbase   the round-two kernel (cooperative, grid sync), the default before
#   joint (d), round 4 (H100, 2026-11-23 07:08 UTC, 2 rounds, uniform /
#   peaked us; base 13.25 / 11.49): two phases instead of the direct adds
#   (CUDAHIST_JOINT_TWO_PHASE, each block's counters stored whole as partials,
#   then summed over the slices by the whole grid after a grid-wide arrival):
#   32-bit partials 14.16 / 13.58, 16-bit 15.10 / 14.91, 16-bit in 8 x 16
#   blocks of 1024 14.40 / 14.13; jsl8 16.41 / 14.54. All lost; the code is
#   gone (scopes_tuning.h keeps the figures).
standard_variants=(
  "base="
  "lean=-DCUDAHIST_COLUMN_LEAN_COUNT=1"
  "words=-DCUDAHIST_COLUMN_LEAN_COUNT=1 -DCUDAHIST_COLUMN_WORD_LOADS=1"
  "shfl=-DCUDAHIST_COLUMN_SHUFFLE_FLUSH=1"
  "vlean=-DCUDAHIST_COLUMN_LEAN_COUNT=1 -DCUDAHIST_COLUMN_SHUFFLE_FLUSH=1 -DCUDAHIST_COLUMN_COUNTERS16=1 -DCUDAHIST_COLUMN_LEAN_ITEM=1"
  "vwords=-DCUDAHIST_COLUMN_LEAN_COUNT=1 -DCUDAHIST_COLUMN_SHUFFLE_FLUSH=1 -DCUDAHIST_COLUMN_COUNTERS16=1 -DCUDAHIST_COLUMN_LEAN_ITEM=1 -DCUDAHIST_COLUMN_WORD_LOADS=1"
  "native=-DCUDAHIST_COLUMN_NATIVE_PARTIALS=1"
  "vall=-DCUDAHIST_COLUMN_LEAN_COUNT=1 -DCUDAHIST_COLUMN_SHUFFLE_FLUSH=1 -DCUDAHIST_COLUMN_COUNTERS16=1 -DCUDAHIST_COLUMN_LEAN_ITEM=1 -DCUDAHIST_COLUMN_WORD_LOADS=1 -DCUDAHIST_COLUMN_NATIVE_PARTIALS=1"
  "vw256=-DCUDAHIST_COLUMN_LEAN_COUNT=1 -DCUDAHIST_COLUMN_SHUFFLE_FLUSH=1 -DCUDAHIST_COLUMN_COUNTERS16=1 -DCUDAHIST_COLUMN_LEAN_ITEM=1 -DCUDAHIST_COLUMN_WORD_LOADS=1 -DCUDAHIST_COLUMN_THREADS_NARROW=256 -DCUDAHIST_COLUMN_MIN_BLOCKS_NARROW=4"
  "vleanpf=-DCUDAHIST_COLUMN_LEAN_COUNT=1 -DCUDAHIST_COLUMN_SHUFFLE_FLUSH=1 -DCUDAHIST_COLUMN_COUNTERS16=1 -DCUDAHIST_COLUMN_LEAN_ITEM=1 -DCUDAHIST_COLUMN_PREFETCH_NARROW=1 -DCUDAHIST_COLUMN_ROWS_IN_FLIGHT_NARROW=12"
  "r2cols=-DCUDAHIST_COLUMN_ROWS_IN_FLIGHT_NARROW=32 -DCUDAHIST_COLUMN_PREFETCH_NARROW=0 -DCUDAHIST_COLUMN_LEAN_COUNT=0 -DCUDAHIST_COLUMN_SHUFFLE_FLUSH=0 -DCUDAHIST_COLUMN_COUNTERS16=0 -DCUDAHIST_COLUMN_NATIVE_PARTIALS=0 -DCUDAHIST_COLUMN_LEAN_ITEM=0"
  "jsl8=-DCUDAHIST_JOINT_DIRECT=0"
  "jbase=-DCUDAHIST_JOINT_SLICED=0 -DCUDAHIST_JOINT_DIRECT=0"
)

# A standard variant's NAME=FLAGS by its NAME.
standard_variant() {
  local v
  for v in "${standard_variants[@]}"; do [ "${v%%=*}" = "$1" ] && { echo "$v"; return 0; }; done
  echo "tune_scopes: no standard variant '$1'" >&2
  return 2
}

build() {
  local out=$1; shift
  [ $# -gt 0 ] || set -- "${standard_variants[@]}"
  export PATH="/usr/local/cuda/bin:$PATH" CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}
  mkdir -p "$out"
  rm -f "$out"/scopebench-* "$out/variants.txt.new"  # a build that failed part-way left its list
  for variant in "$@"; do
    [[ $variant == *=* ]] || variant=$(standard_variant "$variant")
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
      --section LaunchStats -k regex:'ColumnHistogramKernel|JointHistogramKernel|JointSlicedKernel' -c 1 \
      "$binary" --cases "$c" --methods cudahist --repeats 1 > "$out/ncu-$c.log" 2>&1 || rc=$?
    echo "ncu ($c): exit $rc"
    grep -E "gpu__time_duration|dram__throughput|dram__bytes|lts__t_sectors|wavefronts_mem_shared|bank_conflicts|smsp__inst_executed|warps_active|sm__cycles_active|gpc__cycles_elapsed|Stall|Grid Size|Block Size|Registers|Achieved Occupancy" \
      "$out/ncu-$c.log" | sed 's/^ */  /' | head -n 40 || true  # a log without those lines: nothing to show
  done
  local rc=0
  timeout 120 "$ncu" --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    -k regex:'histogram_optimized_kernel|histogram_reduce_kernel' -c 2 \
    "$binary" --cases a --methods seed004 --repeats 1 > "$out/ncu-seed004.log" 2>&1 || rc=$?
  echo "ncu (seed004 on a): exit $rc"
  grep -E "histogram_(optimized|reduce)_kernel|gpu__time_duration|dram__bytes" "$out/ncu-seed004.log" | sed 's/^ */  /' ||
    true
}

case ${1:-} in
  build) shift; build "${1:?usage: tune_scopes.sh build OUTDIR [NAME=FLAGS...]}" "${@:2}" ;;
  run) shift; run "${1:?usage: tune_scopes.sh run BINDIR OUTDIR [ROUNDS]}" "${2:?OUTDIR}" "${3:-2}" ;;
  profile) shift; profile "${1:?usage: tune_scopes.sh profile BINARY OUTDIR}" "${2:?OUTDIR}" ;;
  *) sed -n '2,32p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
