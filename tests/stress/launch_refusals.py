#!/usr/bin/env python3
"""The refusals of refusals.txt as a user meets them: gst-launch-1.0
processes, many times each (50, or CUDAHISTOGRAM_STRESS_RUNS), two at a time.

Each run must end within 10 seconds, and its output must carry the refusal's
text on exactly one line:
  start    exit status non-zero, the text on one "ERROR: from element" line
           of under_test, no other error (the state change failed: nothing
           else ran);
  warning  exit status 0 (the pipeline ran to EOS), the text on one
           "WARNING: from element" line of under_test, no error.
The `stream` refusals are left to refusal_stress, which runs them in this
process's pipelines: gst-launch-1.0 (1.22, and 1.26 alike) loses an error
posted from a streaming thread before its main loop runs (it quits the loop
from the bus's sync handler; a quit before g_main_loop_run is lost) and then
waits forever, whichever element posts it (`identity error-after=1` does it
too): docs/element.md, "Refusals".

Usage: launch_refusals.py REFUSALS.txt [--cuda]
  --cuda: the cases marked `cuda`, on CUDA frames ({upload} becomes a
  cudaupload into CUDA memory); for a machine with a CUDA device.
Exit: 0 pass, 1 fail.
"""
import concurrent.futures
import ctypes
import os
import shlex
import subprocess
import sys

DEADLINE_S = 10
UPLOAD = "cudaupload ! video/x-raw(memory:CUDAMemory) !"
RUN_TOKENS = {"cpu", "cuda", "no-gpu", "gst<1.24", "gst>=1.24"}


def gst_at_least_1_24():
    out = subprocess.run(["gst-launch-1.0", "--version"], capture_output=True, text=True).stdout
    version = next(line.split()[-1] for line in out.splitlines() if line.startswith("GStreamer "))
    major, minor = (int(x) for x in version.split(".")[:2])
    return (major, minor) >= (1, 24)


def cuda_driver_loads():
    """Whether libcuda loads, as gst-cuda's gst_cuda_load_library tries it."""
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def read_cases(path):
    cases = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) != 5:
                raise SystemExit(f"refusals.txt: not NAME | WHEN | RUNS | PIPELINE | TEXT: {line}")
            name, when, runs, pipeline, text = fields
            runs = {r.strip() for r in runs.split(",")}
            if when not in ("start", "stream", "warning") or not runs <= RUN_TOKENS:
                raise SystemExit(f"refusals.txt: unknown WHEN or RUNS: {line}")
            cases.append(dict(name=name, when=when, runs=runs, pipeline=pipeline, text=text))
    return cases


def chosen(cases, cuda):
    new_gst, driver = gst_at_least_1_24(), cuda_driver_loads()
    for c in cases:
        if c["when"] == "stream":
            continue
        if ("gst<1.24" in c["runs"] and new_gst) or ("gst>=1.24" in c["runs"] and not new_gst):
            continue
        if cuda:
            if "cuda" in c["runs"]:
                yield c
        elif "cpu" in c["runs"] or ("no-gpu" in c["runs"] and not driver):
            yield c


def run_once(case, cuda):
    """One gst-launch-1.0 run of CASE: None when it passed, else what went wrong."""
    pipeline = case["pipeline"].replace("{upload}", UPLOAD if cuda else "")
    quiet = ["-q"] if case["when"] == "start" else []  # -q hides warnings
    try:
        p = subprocess.run(["gst-launch-1.0"] + quiet + shlex.split(pipeline), capture_output=True, text=True,
                           timeout=DEADLINE_S)
    except subprocess.TimeoutExpired:
        return f"did not end within {DEADLINE_S} s"
    out = (p.stdout or "") + (p.stderr or "")
    lines = out.splitlines()
    kind = "ERROR" if case["when"] == "start" else "WARNING"
    mine = [l for l in lines if l.startswith(f"{kind}: from element ") and ":under_test: " in l]
    with_text = [l for l in lines if case["text"] in l]
    errors = [l for l in lines if l.startswith("ERROR: from element ")]
    wrong = []
    if case["when"] == "start" and p.returncode == 0:
        wrong.append("exit status 0")
    if case["when"] == "warning" and p.returncode != 0:
        wrong.append(f"exit status {p.returncode}")
    if len(mine) != 1 or len(with_text) != 1:
        wrong.append(f"{len(mine)} {kind} lines of under_test, {len(with_text)} lines with the text")
    if len(errors) != (1 if case["when"] == "start" else 0):
        wrong.append(f"{len(errors)} error lines")
    return None if not wrong else "; ".join(wrong) + "\n" + out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    cuda = "--cuda" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__)
        return 2
    runs = int(os.environ.get("CUDAHISTOGRAM_STRESS_RUNS", "50"))
    cases = list(chosen(read_cases(args[0]), cuda))
    if not cases:
        print("FAIL no case to run")
        return 1
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for case in cases:
            results = list(pool.map(lambda _: run_once(case, cuda), range(runs)))
            bad = [r for r in results if r]
            hung = sum(1 for r in bad if r.startswith("did not end"))
            status = "ok  " if not bad else "FAIL"
            print(f"{status} {case['name']} ({case['when']}{', CUDA frames' if cuda else ''}): {runs} runs, "
                  f"{hung} hung, {len(bad)} wrong")
            if bad:
                failed += 1
                print("     first wrong run: " + bad[0].replace("\n", "\n     "))
    print(f"{len(cases) - failed} of {len(cases)} refusals ended once each in every run")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
