# Tuning variants of the kernels, timed side by side in one call: the
# benchmarks that bench/tuning/tune_*.sh built here (kernel_variants.tar.xz,
# bench/tuning/kernel_variants.sh), each checked against the reference
# before it is timed.

# Every histbench-NAME the pack carries (bench/tuning/tune_privatized.sh), two rounds, one table; HIST_FILTER picks cases (default frames/).
step_histogram_variants() {
  TAIL_LINES=40 step histogram_variants bash "$here/scripts/tune_privatized.sh" run "$here/kernel-variants" \
    "$logs/histogram_variants" 2 "${HIST_FILTER:-frames/}"
}

# Every signalstats_bench-NAME the pack carries (bench/tuning/tune_signalstats.sh), two rounds, fastest first; then Nsight Compute on one launch of the default build's kernel.
step_signalstats_variants() {
  use_gst 122
  TAIL_LINES=16 step signalstats_variants bash "$here/scripts/tune_signalstats.sh" run "$here/kernel-variants" \
    "$logs/signalstats_variants" 2
  TAIL_LINES=40 step signalstats_profile bash "$here/scripts/tune_signalstats.sh" profile \
    "$bin/signalstats_bench" "$logs/signalstats_variants"
}

# Every scopebench-NAME the pack carries (bench/tuning/tune_scopes.sh), one table per distribution (us / fraction of the read+write roofline; SCOPE_ROUNDS uniform rounds, default 2), then Nsight Compute on the base variant.
step_scope_variants() {
  if ! ls "$here"/kernel-variants/scopebench-* > /dev/null 2>&1; then
    echo "=== scope_variants: no scopebench variants in the pack (bench/tuning/tune_scopes.sh build)" >> "$summary"
    return 0
  fi
  TAIL_LINES=45 step scope_variants bash "$here/scripts/tune_scopes.sh" run "$here/kernel-variants" \
    "$logs/scope_variants" "${SCOPE_ROUNDS:-2}"
  local profiled=$here/kernel-variants/scopebench-base
  [ -x "$profiled" ] || profiled=$(ls "$here"/kernel-variants/scopebench-* | head -n 1)
  TAIL_LINES=12 step scope_profile bash "$here/scripts/tune_scopes.sh" profile "$profiled" "$logs/scope_profile"
}

# Every analytics_bench-NAME the pack carries (bench/tuning/tune_segmented.sh): the segmented kernel's variants on 1080p NV12 at 16, 100 and 1000 boxes, REGION_ROUNDS rounds (default 2) in turn, on REGION_FRAMES (mixed, the default, or flat: every sample of a frame one value), each checked against the reference first; tables of us a frame against default and the whole frame, the device's time alone and the host's a call. About a minute on an H200 for the standard set.
step_region_variants() {
  if ! ls "$here"/kernel-variants/analytics_bench-* > /dev/null 2>&1; then
    echo "=== region_variants: no analytics_bench variants in the pack (bench/tuning/tune_segmented.sh build)" >> "$summary"
    return 0
  fi
  TAIL_LINES=66 step region_variants bash "$here/scripts/tune_segmented.sh" run "$here/kernel-variants" \
    "$logs/region_variants" "${REGION_ROUNDS:-2}" "${REGION_FRAMES:-mixed}"
}
