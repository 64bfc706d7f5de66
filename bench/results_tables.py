#!/usr/bin/env python3
"""Markdown tables from a histbench JSON (bench/RESULTS.md is written from these,
so no figure is copied by hand).

    bench/results_tables.py bench/results/<run>/histbench.json
"""
import json
import sys

ALGORITHMS = ["auto", "privatized", "privatized-shared", "privatized-packed", "two-phase"]


def fmt(v, digits=2):
    return "-" if v is None or v == 0 else f"{v:.{digits}f}"


def main(path):
    data = json.load(open(path))
    rows = data["rows"]
    cases = []
    for r in rows:
        if r["case"] not in cases:
            cases.append(r["case"])
    by = {(r["case"], r["method"]): r for r in rows}
    print(f"Device: {data['device']}; NPP: {data.get('npp')}\n")
    print("| case | roofline GB/s | auto us | auto GB/s | fraction of roofline | xCUB | xNPP | chose |")
    print("|---|---|---|---|---|---|---|---|")
    for c in cases:
        roof, auto = by.get((c, "roofline")), by.get((c, "auto"))
        if not auto or auto["status"] != "ok":
            continue
        chose = auto.get("note", "").replace("chose ", "")
        print(f"| {c} | {fmt(roof['gb_per_s'], 0)} | {fmt(auto['median_us'])} | {fmt(auto['gb_per_s'], 0)} | "
              f"{fmt(auto['roofline_fraction'])} | {fmt(auto.get('speedup_vs_cub'))} | "
              f"{fmt(auto.get('speedup_vs_npp'))} | {chose} |")
    print("\nEvery algorithm, as a fraction of the read roofline (n/a: not supported for that case):\n")
    print("| case | cub | npp | " + " | ".join(ALGORITHMS) + " |")
    print("|---|---|---|" + "---|" * len(ALGORITHMS))
    for c in cases:
        cells = []
        for m in ["cub", "npp"] + ALGORITHMS:
            r = by.get((c, m))
            cells.append(fmt(r["roofline_fraction"]) if r and r["status"] == "ok" else "n/a")
        print(f"| {c} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
