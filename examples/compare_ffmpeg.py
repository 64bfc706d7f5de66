#!/usr/bin/python3
"""Compares cudahistogram's signalstats figures with FFmpeg's, frame by frame.

    compare_ffmpeg.py [--monitor PATH] [--cpu] [--ffmpeg PATH | --expected FILE]
                      [--qc [--ffprobe PATH]] [--require-decoder NAME] [--require-gpu] FILE

Runs `ffmpeg -i FILE -vf signalstats=stat=brng,metadata=mode=print` (or reads
that output, saved earlier, from --expected) and `monitor --signalstats FILE`
(the element with signalstats=true; frames in CUDA memory when a GPU is
usable, system memory with --cpu), then compares every figure of every frame:
integers as integers, the doubles formatted with %g as FFmpeg prints them.
With --qc the reference is QCTools' whole graph through ffprobe (qcli's
signalstats=stat=tout+vrep+brng,cropdetect=reset=1 and the PSNR between the
fields; without the PSNR on odd heights, which that graph refuses) against
`monitor --signalstats --qc`: TOUT and VREP with %g, cropdetect's integers,
psnr's figures with %f; a figure FFmpeg leaves out of a frame (cropdetect's
first two) must be missing from the element's frame too.
Prints the first difference, if any, and a summary; exits 0 when the frame
counts match and nothing differs, 1 otherwise, 2 on bad arguments.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# signalstats' names in its own order; the integers print with %d, the rest with %g.
NAMES = ("YMIN YLOW YAVG YHIGH YMAX UMIN ULOW UAVG UHIGH UMAX VMIN VLOW VAVG VHIGH VMAX "
         "SATMIN SATLOW SATAVG SATHIGH SATMAX HUEMED HUEAVG YDIF UDIF VDIF BRNG").split()
DOUBLES = {"YAVG", "UAVG", "VAVG", "SATAVG", "HUEAVG", "YDIF", "UDIF", "VDIF", "BRNG", "TOUT", "VREP"}
PREFIX = "lavfi.signalstats."
# The rest of QCTools' graph, under the names of its tags without "lavfi."
# and "signalstats." (those of monitor's JSON lines): psnr prints with %f,
# cropdetect with %d.
QC_NAMES = ("TOUT VREP cropdetect.x1 cropdetect.x2 cropdetect.y1 cropdetect.y2 cropdetect.w cropdetect.h "
            "cropdetect.x cropdetect.y psnr.mse.y psnr.psnr.y psnr.mse.u psnr.psnr.u psnr.mse.v psnr.psnr.v "
            "psnr.mse_avg psnr.psnr_avg").split()
PSNR_PREFIX = "psnr."
QC_GRAPH = ("signalstats=stat=tout+vrep+brng,cropdetect=reset=1,split[a][b];"
            "[a]field=top[a1];[b]field=bottom[b1],[a1][b1]psnr")
QC_GRAPH_ODD_HEIGHT = "signalstats=stat=tout+vrep+brng,cropdetect=reset=1"
TIMEOUT = 600


def parse_ffmpeg_metadata(text):
    """FFmpeg's `metadata=mode=print` output: a list of {NAME: text}, one per frame."""
    frames = []
    for line in text.splitlines():
        if line.startswith("frame:"):
            frames.append({})
        elif line.startswith(PREFIX) and "=" in line and frames:
            key, value = line[len(PREFIX):].split("=", 1)
            frames[-1][key] = value.strip()
    return frames


def ffmpeg_signalstats(clip, ffmpeg="ffmpeg"):
    """FFmpeg's figures of every video frame of `clip` (the text metadata=print writes)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "signalstats.txt")
        command = [ffmpeg, "-nostdin", "-v", "error", "-i", clip, "-map", "0:v:0",
                   "-vf", "signalstats=stat=brng,metadata=mode=print:file=" + out, "-f", "null", "-"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
        if result.returncode != 0:
            raise RuntimeError("%s failed (exit %d): %s" % (" ".join(command), result.returncode,
                                                            result.stderr.strip()))
        with open(out) as f:
            return f.read()


def qc_name(tag):
    """An ffprobe tag's name as compare() knows it: lavfi.signalstats.TOUT -> TOUT, lavfi.psnr.mse.y -> psnr.mse.y."""
    for prefix in (PREFIX, "lavfi."):
        if tag.startswith(prefix):
            return tag[len(prefix):]
    return tag


def movie_source(clip):
    """lavfi's movie source of `clip`, the path escaped twice: as the filter's option value, then in the graph."""
    as_option = "".join("\\" + c if c in "\\':" else c for c in clip)
    return "movie=" + "".join("\\" + c if c in "\\'[],;" else c for c in as_option)


def ffprobe_qc_json(clip, ffprobe="ffprobe"):
    """ffprobe's JSON of QCTools' graph over `clip`, as qcli runs the graph (frames and their tags)."""
    probe = subprocess.run([ffprobe, "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=height",
                            "-of", "json", clip], capture_output=True, text=True, timeout=TIMEOUT)
    streams = json.loads(probe.stdout or "{}").get("streams", []) if probe.returncode == 0 else []
    if not streams:
        raise RuntimeError("ffprobe found no video stream in %s: %s" % (clip, probe.stderr.strip()))
    graph = QC_GRAPH if streams[0]["height"] % 2 == 0 else QC_GRAPH_ODD_HEIGHT
    command = [ffprobe, "-v", "error", "-f", "lavfi", "-i", movie_source(clip) + "," + graph,
               "-show_frames", "-show_entries", "frame_tags", "-of", "json"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    if result.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (" ".join(command), result.returncode, result.stderr.strip()))
    return result.stdout


def parse_ffprobe_frames(text):
    """ffprobe's JSON (-show_frames): a list of {name: text} per frame, qc_name's names."""
    return [{qc_name(k): v for k, v in frame.get("tags", {}).items()} for frame in json.loads(text)["frames"]]


def ffprobe_qc_graph(clip, ffprobe="ffprobe"):
    """QCTools' graph over `clip` as qcli runs it: a list of {name: text} per frame (qc_name's names)."""
    return parse_ffprobe_frames(ffprobe_qc_json(clip, ffprobe))


def element_signalstats(clip, monitor, cpu, qc=False):
    """The element's figures (monitor --signalstats JSON lines) and monitor's stderr."""
    command = [monitor, "--signalstats", "--quiet"] + (["--qc"] if qc else []) + (["--cpu"] if cpu else []) + [clip]
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    if result.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (" ".join(command), result.returncode,
                                                        result.stderr.strip()))
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()], result.stderr


def as_ffmpeg_prints(name, value):
    """`value` as FFmpeg prints the figure `name` (%d, %g, or psnr's %f)."""
    if value is None:
        return "(missing)"
    if name.startswith(PSNR_PREFIX):
        return "%f" % value
    return "%g" % value if name in DOUBLES else "%d" % value


def compare(expected, actual, names=NAMES):
    """Differences between FFmpeg's frames ({NAME: text}) and the element's
    ({NAME: number}): a list of (frame, name, ffmpeg's text, element's text, element's value)."""
    differences = []
    for frame, (want, got) in enumerate(zip(expected, actual)):
        for name in names:
            printed = as_ffmpeg_prints(name, got.get(name))
            if want.get(name, "(missing)") != printed:
                differences.append((frame, name, want.get(name, "(missing)"), printed, got.get(name)))
    return differences


def decoders_of(monitor_stderr):
    return sorted({line.split("decoder:", 1)[1].strip() for line in monitor_stderr.splitlines()
                   if "decoder:" in line})


def report(clip, expected, actual, differences, backend, names=NAMES):
    """Prints the first difference and the summary; returns True when all agree."""
    if differences:
        frame, name, want, printed, value = differences[0]
        print("compare_ffmpeg: %s: first difference: frame %d %s: ffmpeg %s, element %s (%r)"
              % (clip, frame, name, want, printed, value))
    if len(expected) != len(actual):
        print("compare_ffmpeg: %s: ffmpeg gave %d frames, the element %d" % (clip, len(expected), len(actual)))
    frames = min(len(expected), len(actual))
    print("compare_ffmpeg: %s: %d frames x %d figures compared, %d differences (%s)"
          % (clip, frames, len(names), len(differences), backend))
    return not differences and len(expected) == len(actual) and frames > 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--monitor", default=os.path.join(os.environ.get("BUILD_DIR", "build"), "examples", "monitor"),
                        help="the monitor example (default $BUILD_DIR/examples/monitor)")
    parser.add_argument("--ffmpeg", default="ffmpeg", help="the FFmpeg that computes the reference")
    parser.add_argument("--expected", help="FFmpeg's metadata=print output for FILE, saved earlier (no FFmpeg run); "
                        "with --qc ffprobe's JSON of QCTools' graph (--save-expected's)")
    parser.add_argument("--save-expected", metavar="OUT",
                        help="with --qc: write ffprobe's JSON of QCTools' graph over FILE to OUT and stop")
    parser.add_argument("--qc", action="store_true",
                        help="QCTools' whole graph (TOUT, VREP, cropdetect, field PSNR) through ffprobe")
    parser.add_argument("--ffprobe", default="ffprobe", help="the ffprobe that runs QCTools' graph (--qc)")
    parser.add_argument("--cpu", action="store_true", help="frames in system memory (the element's CPU backend)")
    parser.add_argument("--require-decoder", help="fail unless the monitor's pipeline decodes with this element")
    parser.add_argument("--require-gpu", action="store_true", help="fail unless the element counts on the GPU")
    args = parser.parse_args()
    if not os.path.isfile(args.file):
        parser.error("no such file: %s" % args.file)
    try:
        if args.save_expected:
            if not args.qc:
                parser.error("--save-expected goes with --qc")
            with open(args.save_expected, "w") as f:
                f.write(ffprobe_qc_json(args.file, args.ffprobe))
            return 0
        if args.qc and args.expected:
            with open(args.expected) as f:
                expected = parse_ffprobe_frames(f.read())
        elif args.qc:
            expected = ffprobe_qc_graph(args.file, args.ffprobe)
        elif args.expected:
            with open(args.expected) as f:
                expected = parse_ffmpeg_metadata(f.read())
        else:
            expected = parse_ffmpeg_metadata(ffmpeg_signalstats(args.file, args.ffmpeg))
        actual, stderr = element_signalstats(args.file, args.monitor, args.cpu, args.qc)
    except (RuntimeError, OSError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
        print("compare_ffmpeg: %s: %s" % (args.file, e))
        return 1
    decoders = decoders_of(stderr)
    backend = "decoder %s; %s" % (", ".join(decoders) or "unknown",
                                  "GPU" if "using the GPU" in stderr else "CPU backend")
    names = NAMES + QC_NAMES if args.qc else NAMES
    ok = report(args.file, expected, actual, compare(expected, actual, names), backend, names)
    if args.require_decoder and args.require_decoder not in decoders:
        print("compare_ffmpeg: %s: decoded by %s, not %s" % (args.file, ", ".join(decoders) or "unknown",
                                                            args.require_decoder))
        ok = False
    if args.require_gpu and "using the GPU" not in stderr:
        print("compare_ffmpeg: %s: the element did not run on the GPU: %s" % (args.file, stderr.strip()[:300]))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
