#!/usr/bin/env python3
"""Side-by-side tables of benchmark variants run in one GPU-host call.

    bench/tuning/compare_variants.py DIR [METHOD ...]

DIR holds histbench JSON files named VARIANT-FILTER[-ROUND].json, as the
variant runs in bench/results/*-variants/ were written (bench/tuning/tune_privatized.sh
builds the variants; bench/tuning/tune_scopes.sh builds scopebench's and passes the
methods cudahist and roofline). Prints, per (case, method), "us / fraction of
roofline" for every variant and round. METHODs default to auto, auto+batch and
roofline.

Where DIR holds analytics_bench JSON files instead (VARIANT-ROUND.json,
bench/tuning/tune_segmented.sh), it prints the segmented kernel's tables:
per variant the median over its rounds of the us a frame at each box count,
back to back, with its ratio to the variant `default` and to the whole-frame
histogram of the same runs; the device's time alone (regions+graph,
regions+alone); the host's time a Compute call. METHODs are not used there.
"""
import collections
import glob
import json
import os
import statistics
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


def load_regions_runs(directory):
    """{variant: [run, ...]} of the analytics_bench JSON files of DIR, or {} if it holds none."""
    runs = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        with open(path) as f:
            data = json.load(f)
        if not isinstance(data.get("boxes"), list) or "whole_frame_us" not in data:
            return {}
        name = os.path.basename(path)[:-5]
        variant, _, round_ = name.rpartition("-")
        runs[variant if round_.isdigit() and variant else name].append(data)
    return dict(runs)


def median_of(runs, boxes, key):
    """Median over the runs of key at `boxes` boxes (None where no run has it)."""
    values = []
    for run in runs:
        for entry in run["boxes"]:
            if entry["boxes"] == boxes and entry.get(key) is not None:
                values.append(entry[key])
    return statistics.median(values) if values else None


def spread_of(runs, boxes, key):
    values = [e[key] for r in runs for e in r["boxes"] if e["boxes"] == boxes and e.get(key) is not None]
    return max(values) - min(values) if len(values) > 1 else None


def cell(value, digits=2):
    return "" if value is None else f"{value:.{digits}f}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def regions_tables(runs):
    counts = sorted({e["boxes"] for rs in runs.values() for r in rs for e in r["boxes"]})
    whole = {v: statistics.median(r["whole_frame_us"] for r in rs) for v, rs in runs.items()}
    base = runs.get("default")
    main_count = 100 if 100 in counts else counts[len(counts) // 2]

    def order_key(v):
        us = median_of(runs[v], main_count, "regions_us")
        return (v != "default", us if us is not None else float("inf"), v)

    variants = sorted(runs, key=order_key)
    first = next(iter(runs.values()))[0]
    rounds = max(len(rs) for rs in runs.values())
    all_whole = statistics.median(r["whole_frame_us"] for rs in runs.values() for r in rs)
    print(f"Segmented histogram variants on {first['device']}, {first['frame']}, us a frame, "
          f"median over up to {rounds} rounds; the whole-frame histogram: {all_whole:.2f} us "
          f"(median of every run). Default first, then fastest first at {main_count} boxes.")
    print()
    print("Back to back, a Compute call a frame (`regions`): us, its ratio to `default` and to the whole frame "
          "(target at 100 boxes: <= 1.5), the spread (max - min over the rounds) at "
          f"{main_count} boxes:")
    print()
    print("| variant | " + " | ".join(f"{n} boxes" for n in counts) + " | / default | / whole frame | spread | flags |")
    print("|---|" + "---|" * len(counts) + "---|---|---|---|")
    for v in variants:
        us = [median_of(runs[v], n, "regions_us") for n in counts]
        vs_default = [ratio(u, median_of(base, n, "regions_us")) if base else None for u, n in zip(us, counts)]
        vs_whole = [ratio(u, whole[v]) for u in us]
        flags = runs[v][0].get("variant", "")
        flags = flags.split("=", 1)[1] if "=" in flags else ""
        print(f"| {v} | " + " | ".join(cell(u) for u in us) + " | " + " ".join(cell(r) for r in vs_default) +
              " | " + " ".join(cell(r) for r in vs_whole) + f" | {cell(spread_of(runs[v], main_count, 'regions_us'))}"
              f" | {flags} |")
    print()
    whole_graph = {v: statistics.median(r["whole_frame_graph_us"] for r in rs) if all(
        r.get("whole_frame_graph_us") for r in rs) else None for v, rs in runs.items()}
    print("The device alone: `regions+graph` (the rotation's Computes as one CUDA graph, back to back; "
          "only where the tiles travel in the launch's parameters) and `regions+alone` (each frame by itself, "
          "launch latency included); us, then the ratio of `alone` to `default`'s, the whole frame's "
          f"Computes as one CUDA graph and the ratio of `graph {main_count}` to it:")
    print()
    print("| variant | " + " | ".join(f"graph {n}" for n in counts) + " | " +
          " | ".join(f"alone {n}" for n in counts) + f" | alone / default | whole frame, graph | graph {main_count} / it |")
    print("|---|" + "---|" * (2 * len(counts)) + "---|---|---|")
    for v in variants:
        graph = [median_of(runs[v], n, "regions_graph_us") for n in counts]
        alone = [median_of(runs[v], n, "regions_alone_us") for n in counts]
        vs_default = [ratio(a, median_of(base, n, "regions_alone_us")) if base else None for a, n in zip(alone, counts)]
        vs_whole_graph = ratio(median_of(runs[v], main_count, "regions_graph_us"), whole_graph[v])
        print(f"| {v} | " + " | ".join(cell(g) for g in graph) + " | " + " | ".join(cell(a) for a in alone) + " | " +
              " ".join(cell(r) for r in vs_default) + f" | {cell(whole_graph[v])} | {cell(vs_whole_graph)} |")
    print()
    print("The host's own time in a Compute call (validation, the cut into tiles, the launch; us; each call on a "
          "drained stream): where it is about the time a frame back to back, the host sets the pace. Tiles a frame:")
    print()
    print("| variant | " + " | ".join(f"host {n}" for n in counts) + " | " +
          " | ".join(f"tiles {n}" for n in counts) + " |")
    print("|---|" + "---|" * (2 * len(counts)))
    for v in variants:
        host = [median_of(runs[v], n, "regions_host_us") for n in counts]
        tiles = [median_of(runs[v], n, "regions_tiles") for n in counts]
        print(f"| {v} | " + " | ".join(cell(h) for h in host) + " | " +
              " | ".join(cell(t, 0) for t in tiles) + " |")
    print()
    print("(variants that failed their counts' check have no row)")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if not glob.glob(os.path.join(sys.argv[1], "*.json")):
        sys.exit(f"compare_variants: no JSON in {sys.argv[1]} (every run failed?)")
    regions_runs = load_regions_runs(sys.argv[1])
    if regions_runs:
        regions_tables(regions_runs)
    else:
        main(sys.argv[1], sys.argv[2:] or ["auto", "auto+batch", "roofline"])
