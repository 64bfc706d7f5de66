# The benchmarks of bench/run_all.sh: histbench, signalstats_bench,
# element_bench and cpubench, their logs and JSON in bench/.

# bench/run_all.sh: the kernel, signalstats, element and CPU benchmarks.
step_bench() {
  use_gst 122
  TAIL_LINES=60 step bench bash "$here/scripts/run_all.sh" "$bin" "$logs/bench"
}
