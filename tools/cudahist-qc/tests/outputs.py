#!/usr/bin/env python3
"""Where cudahist-qc's words go, and an interrupted run.

JSON lines go to stdout whenever stdout is not a terminal, whatever stderr
is (terminal_progress.py: bars on a terminal stderr and JSON on a piped
stdout at once), and with --json also to a terminal; with stdout on a
terminal and no --json, stdout stays clear and the lines in words go to
stderr. SIGINT and SIGTERM mid-run: the summary still comes, saying
"interrupted" and how many files were not finished, no unfinished report is
left, and the exit status is 130. An input named by a URI with a password
fails without the password in any output.

Usage: outputs.py CUDAHIST_QC
Exit status: 0 as expected, 1 not, 77 skipped (no ffmpeg to make the clips).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from checks import check, ffmpeg, program_with_ffmpeg, run_on_terminal, verdict

CLIP = ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25", "-frames:v", "600",
        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]


def json_lines(text):
    return [json.loads(line) for line in text.replace("\r", "").splitlines() if line.startswith("{")]


def interrupted_run(qc, clips, out, sig):
    """A run of four files one at a time, stopped by `sig` while the first is decoding."""
    proc = subprocess.Popen([qc, "--cpu", "-j", "1", "-f", "-o", out] + clips, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=60)
    return stdout, stderr, proc.returncode


def main():
    qc, status = program_with_ffmpeg(__doc__)
    if not qc:
        return status
    work = tempfile.mkdtemp(prefix="qc outputs ")
    try:
        clip = os.path.join(work, "clip 1.mp4")
        ffmpeg(*CLIP, clip)
        clips = [clip]
        for n in (2, 3, 4):
            clips.append(os.path.join(work, "clip %d.mp4" % n))
            shutil.copy(clip, clips[-1])
        out = os.path.join(work, "reports")

        screen, stderr, status = run_on_terminal([qc, "--cpu", "-o", out, clip], terminal="stdout")
        check(status == 0 and not json_lines(screen), "stdout a terminal, no --json: no JSON lines there")
        check("wrote " in stderr and "1 written, 0 skipped, 0 failed" in stderr,
              "... and the lines in words on stderr (%r)" % stderr.strip().splitlines()[-1:])
        screen, stderr, status = run_on_terminal([qc, "--cpu", "--json", "-o", out, clip], terminal="stdout")
        lines = json_lines(screen)
        check(status == 0 and len(lines) == 2 and lines[0]["status"] == "skipped" and lines[-1].get("summary"),
              "stdout a terminal with --json: a JSON line per file and the summary there")

        for sig in (signal.SIGINT, signal.SIGTERM):
            stdout, stderr, status = interrupted_run(qc, clips, out, sig)
            lines = json_lines(stdout)
            summary = lines[-1] if lines else {}
            name = signal.Signals(sig).name
            print("%s: exit %d, %s" % (name, status, json.dumps(summary)))
            check(status == 130, "%s: exit status 130" % name)
            check(summary.get("summary") and summary.get("interrupted") is True and summary.get("unfinished", 0) >= 3,
                  "%s: the summary comes, saying interrupted and how many files were not finished" % name)
            check("interrupted; " in stderr and "not finished" in stderr, "%s: and says so on stderr" % name)
            left = [f for f in os.listdir(out) if not f.startswith("clip 1.mp4.qctools")]
            check(left == [], "%s: no unfinished report left (%s)" % (name, left))

        uri = "http://viewer:S3cret%40pw@127.0.0.1:9/clip.mp4?token=T0ken"
        p = subprocess.run([qc, "--cpu", "-o", out, uri], capture_output=True, text=True)
        lines = json_lines(p.stdout)
        print(p.stdout.strip())
        check(p.returncode == 1 and lines and lines[0]["status"] == "failed" and
              lines[0]["input"] == "http://REDACTED@127.0.0.1:9/clip.mp4?token=REDACTED",
              "a URI input with a password fails, named without it")
        check(not any(s in p.stdout + p.stderr for s in ("S3cret", "viewer", "T0ken")),
              "no part of its secrets in any output")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
