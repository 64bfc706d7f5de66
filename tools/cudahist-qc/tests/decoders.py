#!/usr/bin/env python3
"""cudahist-qc's decoders on bad input, on the CPU path: each problem is a
clear error naming its file and the reason, and no report of a damaged or
wrongly decoded stream is presented as good.

  - --decoder naming no element, or an element that is no video decoder: exit 2, said why;
  - --decoder naming a decoder that does not take the file's stream: that file fails, naming
    the decoders that do; the same decoder named for a file it takes: written, decoded by it;
  - a damaged stream (FFmpeg's noise filter corrupts H.264 slices, the decoder drops pictures):
    fails, saying how many coded pictures gave no frame and from when;
  - a transport stream recorded from the middle of a GOP (the first pictures cannot be
    decoded, as in any recording of a broadcast): written, not called damaged;
  - a field-coded stream (HEVC, each field a picture) with one field dropped: fails, naming the
    unpaired field; the same stream whole: written.

Usage: decoders.py CUDAHIST_QC.  Exit: 0 pass, 1 fail, 77 skip (no ffmpeg).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from checks import check, ffmpeg, program_with_ffmpeg, verdict


def run_qc(qc, args):
    p = subprocess.run([qc, "--cpu"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    return p, {os.path.basename(line["input"]): line for line in lines if "input" in line}


def main():
    qc, status = program_with_ffmpeg(__doc__)
    if not qc:
        return status
    work = tempfile.mkdtemp(prefix="qc decoders ")
    try:
        src = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "30"]
        h264 = ["-c:v", "libx264", "-bf", "2", "-g", "10", "-pix_fmt", "yuv420p"]
        good = os.path.join(work, "good é.mkv")
        ffmpeg(*src, *h264, good)
        damaged = os.path.join(work, "damaged.mkv")
        ffmpeg("-i", good, "-c", "copy", "-bsf:v", "noise=amount=200", damaged)
        whole = os.path.join(work, "whole.ts")
        ffmpeg(*src[:-1], "60", *h264, "-g", "25", "-bf", "2", whole)
        # A recording that starts where the tuner did: a whole number of
        # 188-byte TS packets, from inside the first GOP.
        with open(whole, "rb") as f:
            data = f.read()
        middle = os.path.join(work, "from the middle.ts")
        with open(middle, "wb") as f:
            f.write(data[(len(data) // 5) // 188 * 188:])
        fields = os.path.join(work, "fields.mkv")
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-vf", "separatefields", "-frames:v", "20",
               "-c:v", "libx265", "-x265-params", "log-level=none:keyint=8:bframes=2:interlace=tff",
               "-pix_fmt", "yuv420p", fields)
        missing_field = os.path.join(work, "a field missing.mkv")
        ffmpeg("-i", fields, "-c", "copy", "-bsf:v", r"noise=drop=eq(n\,7)", missing_field)
        reports = os.path.join(work, "reports")

        p, _ = run_qc(qc, ["--decoder", "nosuchdecoder", good])
        check(p.returncode == 2 and "no GStreamer element named 'nosuchdecoder'" in p.stderr,
              f"--decoder nosuchdecoder: exit 2, said why ({p.returncode}: {p.stderr.strip()})")
        p, _ = run_qc(qc, ["--decoder", "videotestsrc", good])
        check(p.returncode == 2 and "'videotestsrc' is not a video decoder" in p.stderr,
              f"--decoder videotestsrc: exit 2, said why ({p.stderr.strip()})")

        p, lines = run_qc(qc, ["-o", reports, "--decoder", "avdec_h265", good])
        line = lines.get("good é.mkv", {})
        check(p.returncode == 1 and line.get("status") == "failed" and
              line.get("error", "").startswith("the decoder avdec_h265 does not decode this stream (H.264 progressive")
              and "avdec_h264" in line.get("error", ""),
              f"--decoder avdec_h265 on H.264: failed, naming the decoders that do ({line})")
        check(not os.path.exists(os.path.join(reports, "good é.mkv.qctools.xml.gz")), "  and no report left")
        p, lines = run_qc(qc, ["-o", reports, "--decoder", "avdec_h264", good])
        line = lines.get("good é.mkv", {})
        check(p.returncode == 0 and line.get("status") == "written" and line.get("decoder") == "avdec_h264",
              f"--decoder avdec_h264: written, decoded by it ({line})")

        p, lines = run_qc(qc, ["-o", reports, damaged, middle])
        line = lines.get("damaged.mkv", {})
        check(line.get("status") == "failed" and line.get("error", "").startswith("damaged stream: ") and
              "coded picture" in line.get("error", "") and damaged in p.stderr,
              f"a damaged stream: failed, saying so and naming the file ({line}; stderr {p.stderr.strip()})")
        check(not os.path.exists(os.path.join(reports, "damaged.mkv.qctools.xml.gz")), "  and no report left")
        line = lines.get("from the middle.ts", {})
        check(line.get("status") == "written" and line.get("frames", 0) > 0,
              f"a recording from the middle of a GOP: written ({line})")

        p, lines = run_qc(qc, ["-o", reports, fields, missing_field])
        line = lines.get("a field missing.mkv", {})
        # (1.22's gst-libav hands over the fields that remain, 1.26's drops the frame's others too.)
        check(line.get("status") == "failed" and line.get("error", "").startswith("damaged stream: "),
              f"a field-coded stream with a field missing: failed, saying so ({line})")
        line = lines.get("fields.mkv", {})
        check(line.get("status") == "written" and line.get("frames") == 20,
              f"the same stream whole: written, 20 fields ({line})")
        return verdict()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
