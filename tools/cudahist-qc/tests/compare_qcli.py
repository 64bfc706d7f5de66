#!/usr/bin/env python3
"""cudahist-qc's reports against qcli's document, made by Debian's ffprobe.

Makes short clips with ffmpeg (8-bit 4:2:0 H.264 in Matroska, MP4 and
MPEG-TS, HEVC in MP4, 10-bit 4:2:2 FFV1, fields that differ, a moving
letterbox/pillarbox, out-of-range and saturated values, an odd size), runs
cudahist-qc on their folder, and compares each report with
  ffprobe -f lavfi movie=CLIP,<qcli's graph> -show_frames -show_versions -of xml=x=1:q=1 -noprivate
frame by frame and tag by tag (keys, order and values as printed), and the
frame attributes QCTools reads with plain `ffprobe -show_frames CLIP` (the
graph's output frame is the top field, so its height, pkt_size, key_frame and
pict_type are not the file's).

Usage: compare_qcli.py CUDAHIST_QC [--gpu] [--clips DIR] [--keep DIR]
       compare_qcli.py --make-clips DIR
  --gpu         the GPU path (NVDEC, or the element's upload: CUDA frames) instead of --cpu;
                skips (77) where cudahist-qc finds no usable GPU
  --make-clips  only make the clips, in DIR (for a machine whose ffmpeg cannot
                encode H.264: the GPU host's bundle)
  --clips DIR   compare on the clips made earlier in DIR
Exit status: 0 equal, 1 different, 77 skipped (no ffmpeg/ffprobe).
"""
import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

GRAPH = ("signalstats=stat=tout+vrep+brng,cropdetect=reset=1,split[a][b];"
         "[a]field=top[a1];[b]field=bottom[b1],[a1][b1]psnr")

# QCTools' reader uses key_frame, pkt_pts_time|pkt_dts_time, pkt_duration_time,
# pkt_pos, pkt_size, width, height, pix_fmt and pict_type. Timestamps are
# compared with the graph's document (its frames carry the pts as pkt_dts too),
# the packet's and the picture's attributes with plain ffprobe's (the graph's
# output frame is the top field, a lavfi packet that is always a key frame).
GRAPH_ATTRIBUTES = ["media_type", "stream_index", "pts", "pts_time", "pkt_dts", "pkt_dts_time",
                    "best_effort_timestamp", "best_effort_timestamp_time", "pkt_pos"]
PLAIN_ATTRIBUTES = ["key_frame", "pkt_duration", "pkt_duration_time", "pkt_pos", "pkt_size", "width", "height",
                    "pix_fmt", "sample_aspect_ratio", "pict_type", "interlaced_frame", "top_field_first",
                    "repeat_pict"]
# What GStreamer does not tell, so the report leaves out (as ffprobe leaves out
# what it does not know) or marks unknown; docs/qc.md says why.
#   pkt_pos: known where the demuxer reads each packet on its own (MP4/MOV).
#   integer pts/pkt_dts/best_effort_timestamp/pkt_duration: need the stream's
#     time base, known for Matroska (1/1000) only.
MAY_BE_ABSENT = {"pkt_pos", "pts", "pkt_dts", "best_effort_timestamp", "pkt_duration"}
# MPEG-TS: GStreamer's tsdemux counts times from the first PCR, ffprobe prints
# the PTS as coded (docs/qc.md), so a TS clip's timestamps are not compared;
# its tags, key_frame and pict_type are.
TIME_ATTRIBUTES = {"pts", "pts_time", "pkt_dts", "pkt_dts_time", "best_effort_timestamp",
                   "best_effort_timestamp_time"}

# What cudahist-qc must say of a clip beside its report, per GStreamer 1.x:
# (name, minor) -> warning. None of the set's clips has one: the field
# order of H.264 is read from the bitstream, as FFmpeg reads it, where
# 1.22's matroskademux and NVDEC's flags would not give it right.
EXPECTED_WARNINGS = {}


def gstreamer_minor():
    out = subprocess.run(["gst-launch-1.0", "--version"], stdout=subprocess.PIPE, text=True).stdout
    return int(out.split("GStreamer 1.")[1].split(".")[0])

W, H = 320, 240
SRC = f"testsrc2=size={W}x{H}:rate=25"


def clips():
    """name -> ffmpeg arguments after -y (inputs, filters, codec), 10 frames each."""
    n = ["-frames:v", "10"]
    h264 = ["-c:v", "libx264", "-bf", "2", "-g", "6", "-pix_fmt", "yuv420p"]
    hevc = ["-c:v", "libx265", "-x265-params", "log-level=none:bframes=2:keyint=6", "-pix_fmt", "yuv420p"]
    ffv1 = ["-c:v", "ffv1", "-g", "4"]
    return {
        "h264 420.mkv": ["-f", "lavfi", "-i", SRC] + n + h264,
        "h264 420.mp4": ["-f", "lavfi", "-i", SRC, "-f", "lavfi", "-i", "sine=duration=1"] + n + h264 +
                        ["-c:a", "aac", "-shortest"],
        "hevc 420.mp4": ["-f", "lavfi", "-i", SRC] + n + hevc,
        # 10-bit HEVC: NVDEC's P010 frames, which the programs take since the
        # decoding matrix showed them equal to FFmpeg's.
        "hevc 420p10.mkv": ["-f", "lavfi", "-i", SRC] + n + hevc + ["-pix_fmt", "yuv420p10le"],
        "h264 420.ts": ["-f", "lavfi", "-i", SRC] + n + h264,

        "ffv1 422p10.mkv": ["-f", "lavfi", "-i", SRC] + n + ffv1 + ["-pix_fmt", "yuv422p10le"],
        "ffv1 444p10.mkv": ["-f", "lavfi", "-i", SRC] + n + ffv1 + ["-pix_fmt", "yuv444p10le"],
        # Uncompressed 10-bit 4:2:2, the archives' other master format.
        "v210.mov": ["-f", "lavfi", "-i", SRC] + n + ["-c:v", "v210"],
        # Each frame's two fields come from two different pictures.
        "fields differ.mkv": ["-f", "lavfi", "-i", f"testsrc2=size={W}x{H}:rate=50",
                              "-vf", "tinterlace=mode=interleave_top,setfield=prog"] + n + ffv1 +
                             ["-pix_fmt", "yuv420p"],
        # A picture smaller than the frame moving over black: borders on all four sides that move.
        "borders move.mkv": ["-f", "lavfi", "-i", f"color=black:size={W}x{H}:rate=25", "-f", "lavfi", "-i",
                             "testsrc2=size=200x150:rate=25", "-filter_complex",
                             "[0][1]overlay=x='10+9*n':y='5+7*n':shortest=1"] + n + ffv1 + ["-pix_fmt", "yuv420p"],
        "out of range.mkv": ["-f", "lavfi", "-i", SRC, "-vf",
                             "lutyuv=y='clip(val*1.6-50,0,255)':u='clip((val-128)*4+128,0,255)':"
                             "v='clip((val-128)*4+128,0,255)'"] + n + ffv1 + ["-pix_fmt", "yuv420p"],
        "odd size ünï.mkv": ["-f", "lavfi", "-i", "testsrc2=size=333x77:rate=25"] + n + ffv1 + ["-pix_fmt", "yuv420p"],
        # Interlaced, as broadcast and tape archives are: x264's MBAFF with
        # B-frames (the stream GPU decoders differ on, docs/versions.md), and
        # MPEG-2 of both field orders in transport streams, the 1080i one with
        # the GOP header's time code.
        "h264 mbaff tff.mp4": ["-f", "lavfi", "-i", f"testsrc2=size={W}x{H}:rate=30000/1001"] + n + h264 +
                              ["-flags", "+ildct+ilme", "-top", "1", "-x264-params", "b-pyramid=normal", "-bf", "3"],
        "h264 mbaff bff.mkv": ["-f", "lavfi", "-i", f"testsrc2=size={W}x{H}:rate=25"] + n + h264 +
                              ["-flags", "+ildct+ilme", "-top", "0", "-field_order", "bb"],
        # Field-coded HEVC (x265's interlace mode, the field SEI): each field a
        # picture of half the height, as FFmpeg decodes it.
        "hevc fields.mkv": ["-f", "lavfi", "-i", f"testsrc2=size={W}x{H}:rate=25", "-vf", "separatefields",
                            "-frames:v", "20", "-c:v", "libx265", "-x265-params",
                            "log-level=none:keyint=8:bframes=2:interlace=tff", "-pix_fmt", "yuv420p"],
        "mpeg2 1080i tff.ts": ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25"] + n +
                              ["-c:v", "mpeg2video", "-g", "4", "-flags", "+ildct+ilme", "-top", "1", "-b:v", "20M",
                               "-timecode", "10:00:00:00"],
        # Interlaced 4:2:0 of 242 lines: an odd number of chroma rows in each
        # field, which GStreamer and FFmpeg lay out differently
        # (docs/versions.md); the report reads them where the decoder wrote
        # them. (A 486-line MPEG-2 clip gives every figure but the field
        # PSNR's chroma, where FFmpeg reads the decoder's padding past the
        # plane: docs/qc-figures.md.)
        "ffv1 242i.mkv": ["-f", "lavfi", "-i", f"testsrc2=size={W}x242:rate=50", "-vf",
                          "tinterlace=mode=interleave_top,format=yuv420p"] + n + ffv1,
        "mpeg2 480i bff.ts": ["-f", "lavfi", "-i", "testsrc2=size=720x480:rate=30000/1001"] + n +
                             ["-c:v", "mpeg2video", "-g", "4", "-bf", "2", "-flags", "+ildct+ilme", "-top", "0", "-b:v", "6M"],
    }


def run(args, **kw):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def movie_source(path):
    """movie=PATH in a filter graph: PATH escaped as an option value, then as part of the graph."""
    value = "".join("\\" + c if c in "\\:'" else c for c in path)
    return "movie=" + "".join("\\" + c if c in "\\'[],; " else c for c in value)


def ffprobe_frames(args):
    out = run(["ffprobe", "-v", "error"] + args + ["-show_frames", "-show_versions", "-of", "xml=x=1:q=1",
                                                    "-noprivate"]).stdout
    root = ET.fromstring(out)
    version = root.find("program_version").get("version", "")
    return as_ffprobe_5_1(root) if version[:1].isdigit() and int(version.split(".")[0]) >= 6 else root


def as_ffprobe_5_1(root):
    """A newer ffprobe's document in the form 5.1 gives it, which the report
    follows and QCTools reads (qc-figures.md and qc.md list the differences):
    the tags directly in <frame> (7.x puts them in <tags>), without 7.x's
    constant lavfi.cropdetect.limit, lavfi.psnr.mse_avg in 5.1's place (7.x
    lists it first), and pkt_duration(_time) for 7.x's duration(_time)."""
    for frame in root.iter("frame"):
        for group in frame.findall("tags"):
            frame.remove(group)
            frame.extend(group.findall("tag"))
        tags = frame.findall("tag")
        for tag in tags:
            frame.remove(tag)
        tags = [t for t in tags if t.get("key") != "lavfi.cropdetect.limit"]
        mse_avg = [t for t in tags if t.get("key") == "lavfi.psnr.mse_avg"]
        tags = [t for t in tags if t.get("key") != "lavfi.psnr.mse_avg"]
        at = next((i for i, t in enumerate(tags) if t.get("key") == "lavfi.psnr.psnr_avg"), len(tags))
        frame.extend(tags[:at] + mse_avg + tags[at:])
        for new, old in (("duration", "pkt_duration"), ("duration_time", "pkt_duration_time")):
            if new in frame.attrib:
                frame.set(old, frame.attrib.pop(new))
    return root


def video_frames(root):
    return [f for f in root.iter("frame") if f.get("media_type") == "video"]


def tags(frame):
    return [(t.get("key"), t.get("value")) for t in frame.findall("tag")]


def compare(name, ours_root, graph_root, plain_root):
    """Returns the differences, in words."""
    skipped = TIME_ATTRIBUTES if name.endswith(".ts") else set()
    diffs = []
    if ours_root.find("program_version") is None or ours_root.find("library_versions") is None:
        diffs.append(f"{name}: no program_version / library_versions element")
    ours, graph, plain = video_frames(ours_root), video_frames(graph_root), video_frames(plain_root)
    if not (len(ours) == len(graph) == len(plain)):
        diffs.append(f"{name}: {len(ours)} frames, ffprobe's graph {len(graph)}, ffprobe {len(plain)}")
    for i, (o, g, p) in enumerate(zip(ours, graph, plain)):
        expected = tags(g)
        got = tags(o)
        if got != expected:
            diffs.append(f"{name} frame {i}: tags differ\n  ours:    {got}\n  ffprobe: {expected}")
        for reference, attributes, source in ((g, GRAPH_ATTRIBUTES, "the graph's"), (p, PLAIN_ATTRIBUTES, "ffprobe")):
            for a in attributes:
                ov, rv = o.get(a), reference.get(a)
                if (ov is None and a in MAY_BE_ABSENT) or a in skipped:
                    continue
                if ov != rv:
                    diffs.append(f"{name} frame {i}: {a}={ov!r}, {source} {rv!r}")
    return diffs


def make_clips(clip_dir):
    os.makedirs(clip_dir, exist_ok=True)
    for name, ffargs in clips().items():
        run(["ffmpeg", "-v", "error", "-y"] + ffargs + [os.path.join(clip_dir, name)])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cudahist_qc", nargs="?")
    parser.add_argument("--make-clips")
    parser.add_argument("--clips")
    parser.add_argument("--gpu", action="store_true")
    parser.add_argument("--keep")
    parser.add_argument("--only", action="append", metavar="CLIP",
                        help="compare this clip of the set only (repeatable); the others are not read")
    args = parser.parse_args()
    if not shutil.which("ffmpeg") or not shutil.which("ffprobe"):
        print("SKIP: ffmpeg/ffprobe not installed")
        return 77
    if args.make_clips:
        make_clips(args.make_clips)
        return 0
    if not args.cudahist_qc:
        parser.error("name cudahist-qc")
    names = sorted(clips())
    if args.only:
        unknown = [n for n in args.only if n not in names]
        if unknown:
            parser.error(f"--only: no clip named {', '.join(unknown)} in the set")
        names = sorted(args.only)
    work = args.keep or tempfile.mkdtemp(prefix="qc compare ")
    clip_dir = args.clips or os.path.join(work, "clips with spaces")
    report_dir = os.path.join(work, "reports")
    try:
        if not args.clips:
            make_clips(clip_dir)
        backend = [] if args.gpu else ["--cpu"]
        inputs = [os.path.join(clip_dir, n) for n in names] if args.only else [clip_dir]
        qc = subprocess.run([args.cudahist_qc] + backend + ["-j", "2", "-o", report_dir] + inputs,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        print(qc.stdout, qc.stderr, sep="")
        if qc.returncode != 0:
            print(f"FAIL: cudahist-qc exited {qc.returncode}")
            return 1
        written = [json.loads(line) for line in qc.stdout.splitlines() if line.strip()]
        backends = {r.get("backend") for r in written if r.get("status") == "written"}
        print("backends:", ", ".join(sorted(b for b in backends if b)))
        if args.gpu and not all(b and b.startswith("gpu") for b in backends):
            print("SKIP: --gpu, but cudahist-qc found no usable GPU (it used the CPU backend)")
            return 77
        # A clip's warning is the one it must carry, and no other.
        minor = gstreamer_minor()
        expected = {name: EXPECTED_WARNINGS.get((name, minor), "") for name in names}
        all_diffs = [f"{os.path.basename(r['input'])}: warning {r.get('warning', '')!r}, expected "
                     f"{expected.get(os.path.basename(r['input']), '')!r}"
                     for r in written if "input" in r
                     if r.get("warning", "") != expected.get(os.path.basename(r["input"]), "")]
        for name in names:
            path = os.path.join(clip_dir, name)
            if not os.path.exists(path):
                all_diffs.append(f"{name}: no such clip in {clip_dir}")
                continue
            with gzip.open(os.path.join(report_dir, name + ".qctools.xml.gz")) as f:
                ours = ET.parse(f).getroot()
            graph = ffprobe_frames(["-f", "lavfi", movie_source(path) + "," + GRAPH])
            plain = ffprobe_frames(["-select_streams", "v:0", path])
            diffs = compare(name, ours, graph, plain)
            n = len(video_frames(ours))
            print(f"{name}: {n} frames, {sum(len(tags(f)) for f in video_frames(ours))} tags, "
                  f"{len(diffs)} differences")
            all_diffs += diffs
        for d in all_diffs[:40]:
            print("DIFF", d)
        if all_diffs:
            print(f"FAIL: {len(all_diffs)} differences")
            return 1
        print("PASS: every frame's tags and attributes as ffprobe prints them")
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
