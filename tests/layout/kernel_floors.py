#!/usr/bin/env python3
"""The floors of kernels/: every #include "MODULE/..." of a file in kernels/
names a module on the includer's floor or below, never one above and never a
sibling on the same floor, so that no include runs back up and no two modules
include each other.

    kernel_floors.py KERNELS_DIR

Floors, from the ground up (docs/architecture.md):
  include/cudahist (the public API, as "cudahist/...")
  launch           host side of every launch
  device           device helpers the modules share
  histogram
  signalstats, scopes   (siblings: neither includes the other)
  render, regions  (siblings: regions counts with signalstats' walk too)
  cpu              the CPU mirror of every module; nothing outside it includes it
Host headers (.h) include no device code (.cuh). Prints every include that
breaks these rules and exits 1; exits 0 when none does.
"""
import os
import re
import sys
import tempfile

FLOORS = {"cudahist": 0, "launch": 1, "device": 2, "histogram": 3, "signalstats": 4, "scopes": 4,
          "render": 5, "regions": 5, "cpu": 6}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE = (".h", ".cuh", ".cc", ".cu")


def module_of_file(kernels, path):
    parts = os.path.relpath(path, kernels).split(os.sep)
    return "cudahist" if parts[0] == "include" else parts[0]


def breaks(kernels):
    found = []
    for folder, _, names in os.walk(kernels):
        for name in sorted(n for n in names if n.endswith(SOURCE)):
            path = os.path.join(folder, name)
            here = module_of_file(kernels, path)
            if here not in FLOORS:
                found.append(f"{path}: in no module folder ({', '.join(FLOORS)})")
                continue
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if m and name.endswith(".h") and m.group(1).endswith(".cuh"):
                        found.append(f"{path}:{number}: the host header includes device code, {m.group(1)}")
                    if not m or "/" not in m.group(1):
                        continue
                    there = m.group(1).split("/")[0]
                    if there == here or there not in FLOORS:
                        continue
                    if FLOORS[there] > FLOORS[here]:
                        found.append(f"{path}:{number}: {here} includes {m.group(1)}, a floor above it")
                    elif FLOORS[there] == FLOORS[here]:
                        found.append(f"{path}:{number}: {here} includes its sibling {m.group(1)}")
    return found


def check_the_check():
    """The check itself finds each kind of break, and nothing else."""
    files = {
        "launch/plan.h": '#include "cudahist/status.h"\n#include "scopes/scopes_launch.h"\n',
        "device/walk.h": '#include "device/plan_walk.cuh"\n',
        "scopes/walk.cuh": '#include "device/plan_walk.cuh"\n#include "signalstats/tables.h"\n',
        "cpu/backend.cc": '#include "render/pixels.cuh"\n#include "cpu/sample_access.h"\n',
    }
    with tempfile.TemporaryDirectory() as kernels:
        for name, text in files.items():
            os.makedirs(os.path.join(kernels, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(kernels, name), "w", encoding="utf-8") as f:
                f.write(text)
        found = breaks(kernels)
    wanted = ["device/walk.h:1: the host header includes device code, device/plan_walk.cuh",
              "launch/plan.h:2: launch includes scopes/scopes_launch.h, a floor above it",
              "scopes/walk.cuh:2: scopes includes its sibling signalstats/tables.h"]
    got = sorted(line[len(kernels) + 1:] for line in found)
    if got != wanted:
        sys.exit(f"the floor check itself is broken: found {got}, wanted {wanted}")


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit(__doc__)
    check_the_check()
    found = breaks(sys.argv[1])
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} include(s) break the floors of {sys.argv[1]}")
        return 1
    print(f"the includes of {sys.argv[1]} keep its floors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
