#!/usr/bin/python3
"""The stream-ordering performance bar, read off element_bench runs that alternated
GStreamer 1.22 and 1.26 in one call (gpuhost-run.sh bench126 with
BENCH_ROUNDS=N): for each round, the frame rate of 1.26 with every frame on a
producer stream (event recorded and waited on) against 1.22's plain path
(the bar: at least 1.0) and against 1.26's own plain path (what the ordering
itself costs), then the medians over the rounds and the added latency.

    ordering_rounds.py LOGDIR     (reads element_bench122.R.json and element_bench126.R.json)
"""
import glob
import json
import os
import statistics
import sys

PLAIN = "cudahistogram meta, no messages"
ORDERED = "cudahistogram meta, producer stream"


def runs_of(path):
    with open(path) as f:
        return {r["run"]: r for r in json.load(f)["runs"]}


def main():
    logdir = sys.argv[1]
    rounds = sorted({p.rsplit(".", 2)[-2] for p in glob.glob(os.path.join(logdir, "element_bench12[26].*.json"))}, key=int)
    rows, bar, cost, added_median, added_p99 = [], [], [], [], []
    for r in rounds:
        try:
            old = runs_of(os.path.join(logdir, "element_bench122.%s.json" % r))
            new = runs_of(os.path.join(logdir, "element_bench126.%s.json" % r))
            fps22, fps26 = old[PLAIN]["frames_per_second"], new[PLAIN]["frames_per_second"]
            ordered = new[ORDERED]
        except (OSError, KeyError, ValueError) as e:
            print("round %s: incomplete (%s)" % (r, e))
            continue
        fps_ordered = ordered["frames_per_second"]
        bar.append(fps_ordered / fps22)
        cost.append(fps_ordered / fps26)
        added_median.append(ordered["median_latency_us"] - new[PLAIN]["median_latency_us"])
        added_p99.append(ordered["p99_latency_us"] - new[PLAIN]["p99_latency_us"])
        rows.append("| %s | %.0f | %.0f | %.0f | %.3f | %.3f | %+.2f | %+.2f |" % (
            r, fps22, fps26, fps_ordered, bar[-1], cost[-1], added_median[-1], added_p99[-1]))
    if not rows:
        print("ordering_rounds: no complete round in %s" % logdir)
        return 1
    print("| round | 1.22 plain fps | 1.26 plain fps | 1.26 producer stream fps | ordered / 1.22 plain (bar >= 1.0) "
          "| ordered / 1.26 plain | added median us | added p99 us |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print("| median | | | | %.3f | %.3f | %+.2f | %+.2f |" % (statistics.median(bar), statistics.median(cost),
                                                          statistics.median(added_median), statistics.median(added_p99)))
    print("added: the producer-stream run's latency quantile minus 1.26's plain run's, same call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
