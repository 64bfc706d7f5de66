#!/usr/bin/env python3
"""Two builds' benchmarks side by side, run in turn in one GPU-host call.

    bench/tuning/compare_builds.py run BIN_A BIN_B OUTDIR [ROUNDS]
    bench/tuning/compare_builds.py table OUTDIR

`run` times histbench, scopebench and signalstats_bench of BIN_A ("before")
and BIN_B ("after") alternately, ROUNDS times (default 3), the order turned
round every round (A B, B A, A B, ...), so that drift in the GPU's clocks and
whatever the first of a pair pays fall on both alike; each run writes
OUTDIR/{before,after}-BENCH-ROUND.json. `table` prints, per case, the median
over the rounds of each build and the ratio after / before, next to the
spread of the "before" rounds (max / min), which is the noise a ratio must
clear to mean anything.
"""
import glob
import json
import os
import statistics
import subprocess
import sys

BENCHES = {  # name: arguments (the quick cases: a full round of all three takes about a minute)
    "histbench": ["--quick"],
    "scopebench": ["--quick"],
    "signalstats_bench": [],
}


def run(bin_a, bin_b, outdir, rounds):
    os.makedirs(outdir, exist_ok=True)
    status = 0
    for r in range(1, rounds + 1):
        pair = (("before", bin_a), ("after", bin_b))
        for label, bindir in pair if r % 2 else pair[::-1]:
            for bench, args in BENCHES.items():
                path = os.path.join(outdir, f"{label}-{bench}-{r}.json")
                cmd = [os.path.join(bindir, bench), *args, "--json", path]
                done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if done.returncode not in (0, 77):
                    print(f"{label} {bench} round {r}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
                    status = 1
    return status


def timings(path):
    """{case: microseconds} of one benchmark's JSON."""
    data = json.load(open(path))
    if "rows" in data:
        return {f'{r["case"]} / {r["method"]}': r["median_us"] for r in data["rows"] if r.get("status") == "ok"}
    return {f'signalstats {k[:-3]}': v for k, v in data.items() if k.endswith("_us")}


def table(outdir):
    cells = {}  # (case, label) -> [us per round]
    for path in sorted(glob.glob(os.path.join(outdir, "*.json"))):
        label = os.path.basename(path).split("-", 1)[0]
        for case, us in timings(path).items():
            cells.setdefault((case, label), []).append(us)
    cases = sorted({c for c, _ in cells})
    print("| case | before us (median) | after us (median) | after / before | before's spread (max / min) |")
    print("|---|---|---|---|---|")
    ratios = []
    for case in cases:
        a, b = cells.get((case, "before")), cells.get((case, "after"))
        if not a or not b or min(a) <= 0:
            continue
        ma, mb = statistics.median(a), statistics.median(b)
        ratios.append(mb / ma)
        print(f"| {case} | {ma:.2f} | {mb:.2f} | {mb / ma:.3f} | {max(a) / min(a):.3f} |")
    if ratios:
        print(f"\n{len(ratios)} cases: after / before median {statistics.median(ratios):.3f}, "
              f"range {min(ratios):.3f} to {max(ratios):.3f}")
    return 0 if ratios else 1


def main(argv):
    if len(argv) >= 4 and argv[0] == "run":
        rounds = int(argv[4]) if len(argv) > 4 else 3
        status = run(argv[1], argv[2], argv[3], rounds)
        return table(argv[3]) or status
    if len(argv) == 2 and argv[0] == "table":
        return table(argv[1])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
