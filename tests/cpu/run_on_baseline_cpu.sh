#!/bin/sh
# cpu_tests on an emulated x86-64 CPU without AVX2 (qemu-user's Nehalem), so
# that the CPU backends' loops run their baseline (SSE2) clones, which a
# machine with AVX2 never picks.
#   run_on_baseline_cpu.sh QEMU AVX2_PROBE CPU_TESTS [GTEST ARGS...]
set -eu
qemu=$1 probe=$2 tests=$3
shift 3
seen=$("$qemu" -cpu Nehalem "$probe")
if [ "$seen" != "no avx2" ]; then
  echo "run_on_baseline_cpu: the emulated CPU reports '$seen'; the baseline clones would not run" >&2
  exit 1
fi
exec "$qemu" -cpu Nehalem "$tests" "$@"
