# The kernels' benchmarks of an earlier build against this one's, in one
# call, so that a change that should not move the kernels' speed is seen
# not to (scripts/gpuhost-pack.sh --baseline BUILD_BEFORE packs the earlier
# ones as baseline.tar.xz).

# histbench, scopebench and signalstats_bench of the earlier build and of this one in turn, BASELINE_ROUNDS (3) rounds: medians and after/before ratios (bench/tuning/compare_builds.py).
step_baseline() {
  if [ ! -d "$here/baseline" ]; then
    echo "=== baseline: no baseline.tar.xz in the pack (gpuhost-pack.sh --baseline BUILD_BEFORE)" >> "$summary"
    return 0
  fi
  use_gst 122
  TAIL_LINES=60 step baseline python3 "$here/scripts/compare_builds.py" run "$here/baseline/bin" "$bin" \
    "$logs/baseline" "${BASELINE_ROUNDS:-3}"
}
