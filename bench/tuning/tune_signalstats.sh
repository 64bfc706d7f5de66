#!/usr/bin/env bash
# bench/tuning/tune_signalstats.sh: variants of the signalstats kernel's tuning
# (its policy, kernels/signalstats/signalstats_tuning.h, overridden as
# kernels/launch/policy.h says) timed side by side in one run on the GPU host.
# Not part of CI.
#
#   bench/tuning/tune_signalstats.sh build [OUTDIR]      here, before gpuhost-pack.sh
#       one signalstats_bench per variant below, and `default` (no flags), as
#       OUTDIR/signalstats_bench-NAME (default OUTDIR: build-variants/kernel-variants,
#       which gpuhost-pack.sh packs), built by bench/tuning/kernel_variants.sh: only
#       the signalstats kernel is compiled again per variant.
#   bench/tuning/tune_signalstats.sh run BIN_DIR OUT_DIR [ROUNDS]   on the GPU host
#       runs every signalstats_bench-NAME of BIN_DIR, ROUNDS times (default 2)
#       in turn, so that each variant's spread shows beside the differences;
#       every run first checks the GPU's counts against ReferenceSignalStats
#       and fails the variant on a difference. Logs and JSON go to OUT_DIR;
#       the last thing printed is one table: each variant's median us/frame
#       over its rounds (histogram, signalstats with and without a previous
#       frame, pinned) and the ratio to the histogram (target: at most 1.5).
#       (gpuhost-run.sh step signalstats_variants.)
#   bench/tuning/tune_signalstats.sh profile BENCH OUT_DIR   on the GPU host
#       Nsight Compute (where the host has ncu) on ONE launch of the kernel
#       of BENCH (the default build's signalstats_bench): its second launch,
#       the first 1080p frame counted with a previous frame (Verify's order);
#       --set basic plus warp stall reasons, shared-memory and L1/L2 traffic,
#       clocks as the card runs them; OUT_DIR/ncu-default.log. About 20 s.
#       (gpuhost-run.sh step signalstats_variants, after the table.)
set -euo pipefail

# NAME=FLAGS, one per variant; what each policy field does and why it has
# its value is in kernels/signalstats/signalstats_tuning.h beside it, the
# figures of earlier rounds in docs/tuning.md. timeline
# (kernels/signalstats/signalstats_timeline.h) is the default kernel with a
# mark at each phase of every block's chain: it prints where a launch's time
# goes (its own __syncthreads make it a little slower than the default); the
# accumulator's path (pinned counts) is the benchmark's own `pinned` row.
# run2 and copies64k re-measure the unit's run and the copies' budget
# (launch_tuning.h's, overridden in the signalstats files only).
VARIANTS=(
  "timeline=-DCUDAHIST_SIGNALSTATS_TIMELINE=1"
  "run2=-DCUDAHIST_TUNE_SIGNALSTATS=p.run=2"
  "copies64k=-DCUDAHIST_TUNE_LAUNCH=p.lane_copies_budget_bytes=65536"
)

# shellcheck source=bench/tuning/kernel_variants.sh
source "$(dirname "${BASH_SOURCE[0]}")/kernel_variants.sh"

build_variants() {
  build_kernel_variants signalstats "${1:-$kernel_variants_default_out}" "default=" "${VARIANTS[@]}"
}

run_variants() {
  local bin=${1:?usage: tune_signalstats.sh run BIN_DIR OUT_DIR [ROUNDS]} out=${2:?OUT_DIR} rounds=${3:-2}
  mkdir -p "$out"
  local benches=() b name r failed=0
  for b in "$bin"/signalstats_bench-*; do
    if [ -f "$b" ] && [ -x "$b" ]; then benches+=("$b"); fi
  done
  [ ${#benches[@]} -gt 0 ] || { echo "tune_signalstats: no signalstats_bench-* in $bin" >&2; return 2; }
  for ((r = 1; r <= rounds; ++r)); do
    for b in "${benches[@]}"; do
      name=$(basename "$b"); name=${name#signalstats_bench}; name=${name#-}; name=${name:-default}
      if "$b" --json "$out/$name.$r.json" > "$out/$name.$r.log" 2>&1; then
        echo "round $r $name: $(grep -m1 'signalstats+prev ' "$out/$name.$r.log" | tr -s ' ')"
      else
        echo "round $r $name: FAILED (exit $?): $(tail -n 2 "$out/$name.$r.log" | tr '\n' ' ')"
        rm -f "$out/$name.$r.json"
        failed=$((failed + 1))
      fi
    done
  done
  python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
runs = {}
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    name = os.path.basename(path).rsplit(".", 2)[0]
    with open(path) as f:
        runs.setdefault(name, []).append(json.load(f))
keys = ["histogram_us", "signalstats_prev_us", "signalstats_us", "signalstats_prev_pinned_us"]
rows = []
for name, rs in runs.items():
    med = {k: statistics.median(r[k] for r in rs) for k in keys}
    spread = max(r["signalstats_prev_us"] for r in rs) - min(r["signalstats_prev_us"] for r in rs)
    rows.append((med["signalstats_prev_us"] / med["histogram_us"], name, med, spread, len(rs), rs[0]["variant"]))
rows.sort()
device = next(iter(runs.values()))[0]["device"] if runs else "?"
print(f"\nsignalstats variants on {device}, 1080p NV12, us/frame (median over rounds), fastest first:")
print(f"{'variant':<18} {'hist':>6} {'ss+prev':>8} {'spread':>6} {'ss':>6} {'pinned':>7} {'ratio':>6}  flags")
for ratio, name, m, spread, n, variant in rows:
    flags = variant.split("=", 1)[1] if "=" in variant else "(default build)"
    print(f"{name:<18} {m['histogram_us']:6.2f} {m['signalstats_prev_us']:8.2f} {spread:6.2f} "
          f"{m['signalstats_us']:6.2f} {m['signalstats_prev_pinned_us']:7.2f} {ratio:5.2f}x  {flags}")
print("(ratio: ss+prev over the histogram, target <= 1.5; spread: max - min of ss+prev over the rounds;"
      " variants that failed verification have no row)")
PY
  [ "$failed" -eq 0 ] || { echo "$failed run(s) failed (logs in $out)"; return 1; }
}

profile_default() {
  local bench=${1:?usage: tune_signalstats.sh profile BENCH OUT_DIR} out=${2:?OUT_DIR} ncu rc=0
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1) ||
    true
  [ -n "$ncu" ] || { echo "tune_signalstats: no ncu on this host: no profile"; return 0; }
  mkdir -p "$out"
  local metrics=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,l1tex__t_sector_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum,sm__cycles_active.avg,gpc__cycles_elapsed.max
  timeout 90 "$ncu" --clock-control none --set basic --section WarpStateStats --metrics "$metrics" \
    -k regex:SignalStats --launch-skip 1 --launch-count 1 "$bench" --repeats 1 > "$out/ncu-default.log" 2>&1 || rc=$?
  # Where the warps wait (each stall reason's share of the cycles between two
  # issues) and the L2's atomic traffic: what the timeline build's phases
  # are made of.
  timeout 90 "$ncu" --clock-control none --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,lts__t_requests_op_red.sum,lts__t_requests_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum,smsp__inst_executed_op_shared_atom.sum,smsp__inst_executed_op_global_red.sum" \
    -k regex:SignalStats --launch-skip 1 --launch-count 1 "$bench" --repeats 1 > "$out/ncu-stalls.log" 2>&1 || rc=$?
  # The source view: stall samples per SASS instruction (where the host's ncu prints it).
  timeout 120 "$ncu" --clock-control none --section SourceCounters --section WarpStateStats --import-source no \
    -k regex:SignalStats --launch-skip 1 --launch-count 1 -o "$out/ncu-source" "$bench" --repeats 1 > /dev/null 2>&1 &&
    timeout 60 "$ncu" --import "$out/ncu-source.ncu-rep" --page source --csv --print-source sass > "$out/ncu-source-sass.csv" 2>&1
  rm -f "$out/ncu-source.ncu-rep"
  echo "ncu: exit $rc ($out/ncu-default.log, ncu-stalls.log)"
  grep -E "stalled|requests_op|op_shared_atom|op_global_red" "$out/ncu-stalls.log" | sort -k3 -n -r | head -n 30
  grep -E "gpu__time_duration|Duration|dram__bytes|lts__t_sectors|l1tex__t_sector_hit|wavefronts_mem_shared|bank_conflicts|inst_executed.sum|sm__cycles_active|gpc__cycles_elapsed|Stall|Grid Size|Block Size|Registers|Achieved Occupancy|Memory Throughput" \
    "$out/ncu-default.log" | head -n 40
  return "$rc"
}

case ${1:-} in
  build) shift; build_variants "$@" ;;
  run) shift; run_variants "$@" ;;
  profile) shift; profile_default "$@" ;;
  *) echo "usage: tune_signalstats.sh build [OUTDIR] | run BIN_DIR OUT_DIR [ROUNDS] | profile BENCH OUT_DIR" >&2; exit 2 ;;
esac
