#!/usr/bin/python3
"""docs/gpu-host.md's table of steps names every GPU-host step, and only those.

    gpuhost_steps.py SOURCE_DIR

The steps are what `scripts/gpuhost-run.sh --list` prints (the step_NAME
functions of scripts/gpuhost/*.sh); the table is the one whose first column
is headed "step", each of its rows naming steps in backticks. Exits 1 with
one line per step that is in one list and not in the other.
"""
import os
import re
import subprocess
import sys


def dispatcher_steps(root):
    listed = subprocess.run(["bash", os.path.join(root, "scripts", "gpuhost-run.sh"), "--list"],
                            capture_output=True, text=True, check=True).stdout
    return {line.split()[0] for line in listed.splitlines() if line.strip()}


def documented_steps(root):
    steps, in_table = set(), False
    with open(os.path.join(root, "docs", "gpu-host.md"), encoding="utf-8") as page:
        for line in page:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|"):
                in_table = False
            elif cells[0] == "step":
                in_table = True
            elif in_table:
                steps |= set(re.findall(r"`([A-Za-z0-9_]+)`", cells[0]))
    return steps


def main():
    root = sys.argv[1]
    steps, documented = dispatcher_steps(root), documented_steps(root)
    if not steps:
        print("gpuhost-run.sh --list printed no step")
        return 1
    problems = ["step %s: no row in docs/gpu-host.md's table" % s for s in sorted(steps - documented)]
    problems += ["docs/gpu-host.md names %s: gpuhost-run.sh has no such step" % s for s in sorted(documented - steps)]
    print("\n".join(problems) if problems else "%d steps, each in docs/gpu-host.md's table" % len(steps))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
