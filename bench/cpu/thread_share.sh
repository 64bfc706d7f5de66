#!/usr/bin/env bash
# The CPU time of one thread against another's in the same process, from
# perf's samples: for an element behind a queue, its streaming thread (the
# queue's, e.g. queue0:src) against the decoder's (e.g. matroskademux0:,
# where avdec_* runs with max-threads=1). Pinned to one CPU, so the two
# share it as they do when every core is busy. Unlike the wall time of the
# whole process, the share does not move when the machine's speed drifts
# between runs.
#
#   bench/cpu/thread_share.sh THREAD_A THREAD_B RUNS COMMAND...
#
# Prints each run's samples of A over those of B. THREAD_*: the thread's
# name as perf shows it (perf report --sort comm). Needs perf.
set -euo pipefail
(($# >= 4)) || { echo "usage: $0 THREAD_A THREAD_B RUNS COMMAND..." >&2; exit 2; }
a=$1 b=$2 runs=$3
shift 3
data=$(mktemp "${TMPDIR:-/tmp}/thread_share.XXXXXX")
trap 'rm -f "$data"' EXIT
for ((run = 1; run <= runs; run++)); do
  perf record -q -F 4000 -o "$data" -- taskset -c "${CPU:-1}" "$@" > /dev/null 2>&1
  perf report -i "$data" --no-children --sort comm -g none 2>/dev/null |
    awk -v a="$a" -v b="$b" '$2 == a { sa = $1 } $2 == b { sb = $1 }
      END { if (sb + 0 == 0) exit 1; printf "%.4f ", sa / sb }' ||
    { echo "$0: no samples of thread $b (perf report --sort comm names a run's threads)" >&2; exit 1; }
done
echo
