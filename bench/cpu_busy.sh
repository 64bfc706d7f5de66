#!/usr/bin/env bash
# bench/cpu_busy.sh COMMAND...: runs COMMAND and prints its wall seconds and
# how busy the machine's cores were meanwhile (all of them, from /proc/stat:
# 100% is every core busy), to tell a CPU-bound run from one that waits.
# COMMAND's output is dropped, but for the last lines of its stderr when it
# fails.
set -uo pipefail
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }
read -r b0 t0 < <(busy_ticks)
s0=$(date +%s.%N)
errors=$(mktemp)
"$@" > /dev/null 2> "$errors"
rc=$?
s1=$(date +%s.%N)
read -r b1 t1 < <(busy_ticks)
awk -v s="$s0" -v e="$s1" -v b="$((b1 - b0))" -v t="$((t1 - t0))" -v n="$(nproc)" -v rc="$rc" \
  'BEGIN { printf "%.2f s, cores %.0f%% busy (%.1f of %d), exit %d\n", e - s, 100 * b / t, n * b / t, n, rc }'
((rc == 0)) || tail -n 20 "$errors"
rm -f "$errors"
