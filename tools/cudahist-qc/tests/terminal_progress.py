#!/usr/bin/env python3
"""cudahist-qc on a terminal: what an operator sees while a folder runs.

Runs cudahist-qc on two clips with its stderr on a pseudo-terminal and checks
the screen: a bar per running file with its frames and rate, an overall bar
with files, frames, rate and the time left, redrawn in place; a line per
written report; the totals last. Its stdout, a pipe, gets the JSON lines all
the same (a JSON object per file and the summary).

Usage: terminal_progress.py CUDAHIST_QC
Exit status: 0 as expected, 1 not, 77 skipped (no ffmpeg to make the clips).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from checks import program_with_ffmpeg, run_on_terminal

# Long enough on the 2-core build VM (4 s or more for the two files) for the
# estimate of the time left, which waits for 2 s of the run.
CLIP = ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25", "-frames:v", "1200",
        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]

FILE_BAR = re.compile(r"^\[[#.]{30}\]\s+\d+%\s+clip [12]\.mp4\s+\d+ frames, [\d.]+/s\s+\((starting|\w+)\)$")
OVERALL_BAR = re.compile(r"^\[[#.]{30}\]\s+\d+%\s+\d of 2 files, \d+ frames, [\d.]+ frames/s")
TIME_LEFT = re.compile(r", about (\d+ s|\d+ min \d\d s) left$")
WROTE = re.compile(r"^wrote .*clip ([12])\.mp4\.qctools\.xml\.gz: 1200 frames, [\d.]+ frames/s, \w+")
TOTALS = re.compile(r"^2 written, 0 skipped, 0 failed; 2400 frames in [\d.]+ s \([\d.]+ frames/s\)$")
ERASE_LINE = "\x1b[1A\x1b[2K"


def main():
    qc, status = program_with_ffmpeg(__doc__)
    if not qc:
        return status
    work = tempfile.mkdtemp(prefix="qc terminal ")
    try:
        clips = os.path.join(work, "clips")
        os.makedirs(clips)
        subprocess.run(["ffmpeg", "-v", "error", "-y"] + CLIP + [os.path.join(clips, "clip 1.mp4")], check=True)
        shutil.copy(os.path.join(clips, "clip 1.mp4"), os.path.join(clips, "clip 2.mp4"))
        screen, stdout, status = run_on_terminal([qc, "--cpu", "-j", "2", "-o",
                                                  os.path.join(work, "reports"), clips])
        # Each redraw erases the bars before it: the lines as they were drawn.
        lines = [line for line in screen.replace(ERASE_LINE, "\n").replace("\r", "").split("\n") if line]
        checks = [
            ("exit status 0", status == 0),
            ("JSON lines on stdout, a pipe, whatever stderr is: one per file and the summary",
             [json.loads(line).get("status", "summary") for line in stdout.splitlines()] ==
             ["written", "written", "summary"]),
            ("bars redrawn in place", screen.count(ERASE_LINE) >= 3),
            ("a bar per file with its frames and rate", any(FILE_BAR.match(line) for line in lines)),
            ("an overall bar with files, frames and rate", any(OVERALL_BAR.match(line) for line in lines)),
            ("the overall bar tells the time left",
             any(OVERALL_BAR.match(line) and TIME_LEFT.search(line) for line in lines)),
            ("a line per written report", {m.group(1) for m in map(WROTE.match, lines) if m} == {"1", "2"}),
            ("the totals last", bool(lines) and TOTALS.match(lines[-1]) is not None),
        ]
        failed = [name for name, ok in checks if not ok]
        for name, ok in checks:
            print(("ok   " if ok else "FAIL ") + name)
        if failed:
            print("the terminal got:")
            print("\n".join(lines[-40:]))
            return 1
        print("PASS")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
