#!/usr/bin/env bash
# bench/tuning/tune_segmented.sh: variants of the segmented histogram's tuning
# (SegmentedPolicy, kernels/regions/regions_tuning.h, overridden as
# kernels/launch/policy.h says: -DCUDAHIST_TUNE_SEGMENTED=p.field=value;...)
# built here and timed side by side in one run on the GPU host.
#
#   bench/tuning/tune_segmented.sh build [OUTDIR] [NAME=FLAGS | NAME]...
#       one analytics_bench per variant, for sm_90, as OUTDIR/analytics_bench-NAME
#       (default OUTDIR: build-variants/kernel-variants, which gpuhost-pack.sh
#       packs; NAME: letters, digits, _; a NAME alone: that standard variant),
#       built by bench/tuning/kernel_variants.sh: the flags reach the files that
#       read SegmentedPolicy (kernels/regions/meson.build). With none, the
#       standard set below, `default` (no flags) first.
#   bench/tuning/tune_segmented.sh run BINDIR OUTDIR [ROUNDS [FRAMES]]
#       every BINDIR/analytics_bench-*, ROUNDS times (default 2) in alternation
#       so that drift hits all alike, each run on 1080p NV12 with 16, 100 and
#       1000 boxes (analytics_bench --boxes 16,100,1000 --methods
#       regions,regions+graph,regions+alone --repeats 15 --frames FRAMES;
#       FRAMES mixed, the default, or flat, where every sample of a frame is
#       one value, the case of the lane copies): CUDA events, warm-up,
#       medians; every variant's counts checked against the CPU reference
#       before it is timed (analytics_bench exits 1 on a difference: the
#       variant then has no row). JSON and logs in OUTDIR, then the tables of
#       bench/tuning/compare_variants.py: per variant the us a frame at 16, 100
#       and 1000 boxes back to back, its ratio to `default` and to the
#       whole-frame histogram timed in the same process; the device's time
#       alone (a CUDA graph of the rotation; each frame by itself); the host's
#       time a Compute call. The standard set (8 variants, 2 rounds) takes
#       about a minute on an H200.
#
# scripts/gpuhost-pack.sh packs build-variants/kernel-variants and
# scripts/gpuhost-run.sh's step region_variants runs its analytics_bench-*:
#   bench/tuning/tune_segmented.sh build && scripts/gpuhost-pack.sh build
#   (on the host) bash .gpuhost/gpuhost-run.sh $OUT region_variants
set -euo pipefail
# shellcheck source=bench/tuning/kernel_variants.sh
source "$(dirname "${BASH_SOURCE[0]}")/kernel_variants.sh"

# The standard set, from where a tile's time goes in segmented_histogram.cu.
# A block takes a tile (a run of rows of one plane group of one box, about
# TileUnits 16-byte chunks), walks it into lane copies in shared memory, then
# pays a fixed toll whatever the tile's size: a barrier, the merge of every
# copy of the group's counters (8 x 256 for Y, 8 x 512 for UV) with up to
# 256 or 512 global atomics, a fence and the region's ticket (an L2 round
# trip), the zeroing of the copies and two more barriers; the last tile of a
# box moves its 768 totals to the counts. A 10x10 box is two tiles of 5 to 20
# chunks: all toll. The cut gives every block one tile at most while the
# boxes' plane groups are fewer than the resident blocks (region_tiles.h's
# LayOutRegions): at 100 mixed boxes of 1080p NV12 about 520 tiles for 528
# resident blocks (H200, 4 blocks of 256 an SM).
standard_variants=(
  "default="
  # Two blocks an SM of 512 (64 registers), the default before 256: half the
  # tile chains at once, half the merge a thread.
  "th512=-DCUDAHIST_TUNE_SEGMENTED=p.threads=512"
  # One block an SM (1024 x 64 registers): fewer, longer chains; bounds the axis.
  "th1024=-DCUDAHIST_TUNE_SEGMENTED=p.threads=1024"
  # The toll's merge and zeroing scale with the copies: 1, 2 and 4 make them
  # 8, 4 and 2 times smaller, at the price of lanes that share a copy
  # serialising on equal bins (half the bench's frames are peaked; `run ...
  # flat` times the one-value frames where that decides).
  "copies1=-DCUDAHIST_TUNE_SEGMENTED=p.max_copies=1"
  "copies2=-DCUDAHIST_TUNE_SEGMENTED=p.max_copies=2"
  "copies4=-DCUDAHIST_TUNE_SEGMENTED=p.max_copies=4"
  # Where the boxes' plane groups outnumber the resident blocks (1000 boxes),
  # the blocks take several tiles of at most max_tile_units: smaller and
  # larger tiles there (fewer boxes are cut one tile a block whatever it says).
  "tiles_max2048=-DCUDAHIST_TUNE_SEGMENTED=p.max_tile_units=2048"
  "tiles_max16384=-DCUDAHIST_TUNE_SEGMENTED=p.max_tile_units=16384"
)

build() {
  build_standard_variants regions "$@" || return
  local f
  for f in "$kernel_variants_out"/analytics_bench-*; do echo "$(stat -c %s "$f") bytes  ${f##*/}"; done
}

run() {
  local bin=$1 out=$2 rounds=${3:-2} frames=${4:-mixed}
  local compare
  compare=$(dirname "${BASH_SOURCE[0]}")/compare_variants.py  # beside it here and in the pack's scripts/
  local variants=() b
  for b in "$bin"/analytics_bench-*; do
    if [ -f "$b" ] && [ -x "$b" ]; then variants+=("${b##*/analytics_bench-}"); fi
  done
  [ ${#variants[@]} -gt 0 ] || { echo "tune_segmented: no analytics_bench-* in $bin" >&2; return 2; }
  mkdir -p "$out"
  local failed=0 n v rc
  for ((n = 1; n <= rounds; ++n)); do
    for v in "${variants[@]}"; do
      rc=0
      timeout 120 "$bin/analytics_bench-$v" --boxes 16,100,1000 --methods regions,regions+graph,regions+alone \
        --repeats 15 --frames "$frames" --json "$out/$v-$n.json" > "$out/$v-$n.log" 2>&1 || rc=$?
      if [ $rc -eq 0 ]; then
        echo "round $n $v: $(grep -E '^ +regions ' "$out/$v-$n.log" | awk '{printf "%s ", $2}')us (16, 100, 1000 boxes)"
      else
        echo "round $n $v: FAILED (exit $rc): $(tail -n 2 "$out/$v-$n.log" | tr '\n' ' ')"
        rm -f "$out/$v-$n.json"
        failed=$((failed + 1))
      fi
    done
  done
  if [ -f "$bin/variants.txt" ]; then
    echo
    echo "variants (name, flags):"
    grep "^analytics_bench-" "$bin/variants.txt" || true
  fi
  echo
  python3 "$compare" "$out"
  [ "$failed" -eq 0 ] || { echo "$failed run(s) failed (logs in $out)"; return 1; }
}

case ${1:-} in
  build) shift; build "$@" ;;
  run) shift; run "${1:?usage: tune_segmented.sh run BINDIR OUTDIR [ROUNDS [FRAMES]]}" "${2:?OUTDIR}" "${3:-2}" "${4:-mixed}" ;;
  *) sed -n '2,/^set -euo pipefail/{/^set /!p}' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
