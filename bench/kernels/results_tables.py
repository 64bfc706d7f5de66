#!/usr/bin/env python3
"""Markdown tables from a histbench JSON (bench/RESULTS.md is written from these,
so no figure is copied by hand).

    bench/kernels/results_tables.py bench/results/<run>/histbench.json
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

    frames = [c for c in cases if c.startswith("frames/")]
    if frames:
        columns = [("auto", "auto"), ("auto+pinned", "auto, counts into pinned host memory"),
                   ("auto+sync", "auto, pinned, synchronised after each frame"),
                   ("auto+graph", "auto, CUDA graph"), ("auto+batch", "auto, ComputeBatch"),
                   ("roofline", "roofline kernel"), ("roofline+pdl", "roofline kernel, programmatic launch"),
                   ("roofline+batch", "roofline kernel, batched"),
                   ("cub", "CUB, all planes"), ("cub-first-plane", "CUB, first plane"),
                   ("npp", "NPP, all planes"), ("npp-first-plane", "NPP, first plane")]
        print("\nPer frame, back to back (us per frame; batched rows: kMaxFramesPerLaunch frames a launch):\n")
        print("| case | " + " | ".join(title for _, title in columns) + " |")
        print("|---|" + "---|" * len(columns))
        for c in frames:
            cells = []
            for m, _ in columns:
                r = by.get((c, m))
                cells.append(fmt(r["median_us"]) if r and r["status"] == "ok" else "-")
            print(f"| {c} | " + " | ".join(cells) + " |")
        print("\nBatched, as a fraction of the batched read roofline:\n")
        print("| case | auto+batch us | fraction of roofline+batch | xCUB (all planes, a call per frame) |")
        print("|---|---|---|---|")
        for c in frames:
            r = by.get((c, "auto+batch"))
            if r and r["status"] == "ok":
                print(f"| {c} | {fmt(r['median_us'])} | {fmt(r['roofline_fraction'])} | "
                      f"{fmt(r.get('speedup_vs_cub'))} |")


if __name__ == "__main__":
    main(sys.argv[1])
