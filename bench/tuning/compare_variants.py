#!/usr/bin/env python3
"""Side-by-side table of histbench (or scopebench) variants run in one GPU-host call.

    bench/tuning/compare_variants.py DIR [METHOD ...]

DIR holds histbench JSON files named VARIANT-FILTER[-ROUND].json, as the
variant runs in bench/results/*-variants/ were written (bench/tuning/tune_privatized.sh
builds the variants; bench/tuning/tune_scopes.sh builds scopebench's and passes the
methods cudahist and roofline). Prints, per (case, method), "us / fraction of
roofline" for every variant and round. METHODs default to auto, auto+batch and
roofline.
"""
import collections
import glob
import json
import os
import sys


def main(directory, methods):
    cells = collections.defaultdict(dict)
    columns = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        name = os.path.basename(path)[:-5]
        variant = name.split("-")[0]
        tail = name.rsplit("-", 1)[1]
        column = f"{variant}.{tail}" if tail.isdigit() else variant
        if column not in columns:
            columns.append(column)
        for r in json.load(open(path))["rows"]:
            if r["status"] == "ok" and r["method"] in methods:
                cells[(r["case"], r["method"])][column] = (r["median_us"], r["roofline_fraction"])
    columns.sort()
    print("| case | method | " + " | ".join(columns) + " |")
    print("|---|---|" + "---|" * len(columns))
    for (case, method), row in sorted(cells.items()):
        values = [f"{row[c][0]:.2f} / {row[c][1]:.2f}" if c in row else "" for c in columns]
        print(f"| {case} | {method} | " + " | ".join(values) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:] or ["auto", "auto+batch", "roofline"])
