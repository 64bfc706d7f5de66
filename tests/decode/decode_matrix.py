#!/usr/bin/env python3
"""The decoding matrix: the frames each decoder hands over against FFmpeg's
decode of the same clip, sample for sample.

  decode_matrix.py make DIR
      Makes the clips with Debian's ffmpeg encoders and FFmpeg's decode of
      each (an md5 of every component of every frame) in DIR/expected.json.
  decode_matrix.py check DIR DECODED_FRAMES
      The CPU decoders the programs fall back to (FFmpeg's, through
      gst-libav; libaom for AV1) on every clip: all must equal FFmpeg's.
  decode_matrix.py cpu DECODED_FRAMES
      make and check in a temporary folder: what CI runs on GStreamer 1.22
      and 1.26.
  decode_matrix.py matrix DIR DECODED_FRAMES [--ffmpeg FFMPEG] [--label L] [--out TABLE.md]
      Every decoder of the clip's codec that this GStreamer has (NVDEC's
      nv*dec and nv*sldec, and the CPU one) on every clip: how many frames
      equal FFmpeg's and, where they differ and FFMPEG decodes the clip, the
      largest sample difference and the PSNR between the two decodes. A
      markdown table on stdout (and in TABLE.md).

  decode_matrix.py table MATRIX_1.22.md MATRIX_1.26.md
      One row per clip from two matrix tables: what 1.22's parser-based
      nv*dec, its nv*sldec, its CPU decoder and 1.26's nv*dec did (RESULTS.md's
      table).

DECODED_FRAMES is tests/decode/decoded_frames (the frames a GStreamer
decoder hands over, as md5s of FFmpeg's raw layout). Exit status: 0 when
done (check: every clip equal), 1 otherwise, 2 for a wrong command line.
"""
import argparse
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

# name -> (ffmpeg arguments after the input, the input's size and rate).
# Ten frames each (six at 1080), small enough to carry to the GPU host.
SMALL = "640x360"
N = ["-frames:v", "10"]
N1080 = ["-frames:v", "6"]
X264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "8"]
MBAFF = ["-flags", "+ildct+ilme", "-bf", "3", "-x264-params", "b-pyramid=normal"]
TFF, BFF = ["-top", "1"], ["-top", "0"]
X265 = ["-c:v", "libx265", "-x265-params", "log-level=none:keyint=8:bframes=3"]
MPEG2 = ["-c:v", "mpeg2video", "-g", "6", "-bf", "2", "-flags", "+ildct+ilme"]


def clips():
    return {
        # H.264 (NVDEC: 8-bit 4:2:0 only)
        "h264 progressive b-pyramid.mp4": (SMALL, "25", N + X264 + ["-bf", "3", "-x264-params", "b-pyramid=normal"]),
        "h264 progressive no b-pyramid.mp4": (SMALL, "25", N + X264 + ["-bf", "3", "-x264-params", "b-pyramid=none"]),
        # The stream GStreamer's stateless decoding was seen to decode inexactly: 480i, TFF, B-frames.
        "h264 mbaff 480i tff.mp4": ("720x480", "30000/1001", ["-frames:v", "30"] + X264 + MBAFF + TFF),
        "h264 mbaff 480i bff.mkv": ("720x480", "30000/1001", N + X264 + MBAFF + BFF),
        # The same with more of x264's tools: several references, weighted
        # B prediction, spatial/temporal direct, 29 frames, in a TS.
        "h264 mbaff 480i tff refs.ts": ("720x480", "30000/1001",
                                        ["-frames:v", "29", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "15",
                                         "-flags", "+ildct+ilme", "-top", "1", "-bf", "3", "-refs", "4",
                                         "-x264-params", "b-pyramid=normal:weightb=1:direct=auto:me=umh"]),
        "h264 486.mkv": ("720x486", "30000/1001", N + X264 + ["-bf", "3"]),
        "h264 mbaff 1080i tff.ts": ("1920x1080", "25", N1080 + X264 + MBAFF + TFF),
        "h264 mbaff 1440x1080i tff.mp4": ("1440x1080", "25", N1080 + X264 + MBAFF + TFF),
        "h264 high10.mp4": (SMALL, "25", N + ["-c:v", "libx264", "-pix_fmt", "yuv420p10le", "-bf", "2"]),
        "h264 422 486.mkv": ("720x486", "30000/1001", N + ["-c:v", "libx264", "-pix_fmt", "yuv422p", "-bf", "2"]),
        # HEVC
        "hevc 8-bit.mp4": (SMALL, "25", N + X265 + ["-pix_fmt", "yuv420p"]),
        "hevc 10-bit.mp4": (SMALL, "25", N + X265 + ["-pix_fmt", "yuv420p10le"]),
        "hevc 1440x1080.mp4": ("1440x1080", "25", N1080 + X265 + ["-pix_fmt", "yuv420p"]),
        # Field-coded: each field a picture, the field SEI (pic_struct) saying which.
        "hevc fields 480i.mkv": ("720x480", "30000/1001",
                                 ["-vf", "separatefields", "-frames:v", "20", "-c:v", "libx265", "-x265-params",
                                  "log-level=none:keyint=8:bframes=3:interlace=tff", "-pix_fmt", "yuv420p"]),
        "hevc 422 10-bit 486.mkv": ("720x486", "30000/1001", N + X265 + ["-pix_fmt", "yuv422p10le"]),
        # MPEG-2: 1080i and 480i, both field orders, and 4:2:2
        "mpeg2 1080i tff.ts": ("1920x1080", "25", N1080 + MPEG2 + ["-top", "1", "-b:v", "20M"]),
        "mpeg2 1080i bff.ts": ("1920x1080", "25", N1080 + MPEG2 + ["-top", "0", "-b:v", "20M"]),
        "mpeg2 480i tff.ts": ("720x480", "30000/1001", N + MPEG2 + ["-top", "1", "-b:v", "6M"]),
        "mpeg2 480i bff.ts": ("720x480", "30000/1001", N + MPEG2 + ["-top", "0", "-b:v", "6M"]),
        # 243 lines a field: an odd number of chroma rows in each (docs/versions.md).
        "mpeg2 486i bff.ts": ("720x486", "30000/1001", N + MPEG2 + ["-top", "0", "-b:v", "6M"]),
        "mpeg2 422 486i.ts": ("720x486", "30000/1001", N + MPEG2 + ["-top", "0", "-pix_fmt", "yuv422p",
                                                                     "-b:v", "30M"]),
        # MPEG-4 Part 2
        "mpeg4 480.avi": ("720x480", "30000/1001", N + ["-c:v", "mpeg4", "-bf", "2", "-q:v", "3"]),
        # VP8, VP9, AV1
        "vp8.webm": (SMALL, "25", N + ["-c:v", "libvpx", "-b:v", "1M"]),
        "vp9 8-bit.webm": (SMALL, "25", N + ["-c:v", "libvpx-vp9", "-b:v", "1M", "-pix_fmt", "yuv420p"]),
        "vp9 10-bit.webm": (SMALL, "25", N + ["-c:v", "libvpx-vp9", "-b:v", "1M", "-pix_fmt", "yuv420p10le"]),
        "vp9 1440x1080.webm": ("1440x1080", "25", N1080 + ["-c:v", "libvpx-vp9", "-b:v", "2M",
                                                           "-pix_fmt", "yuv420p"]),
        "av1 8-bit.mkv": (SMALL, "25", N + ["-c:v", "libaom-av1", "-cpu-used", "8", "-b:v", "1M",
                                            "-pix_fmt", "yuv420p"]),
        "av1 10-bit.mkv": (SMALL, "25", N + ["-c:v", "libaom-av1", "-cpu-used", "8", "-b:v", "1M",
                                             "-pix_fmt", "yuv420p10le"]),
    }


# Clips made by GStreamer's own x264enc (its interlaced mode, fed fields in
# order): name -> the gst-launch-1.0 pipeline before the filesink.
GSTREAMER_CLIPS = {
    "h264 mbaff 480i x264enc.mp4":
        "videotestsrc num-buffers=29 pattern=ball motion=sweep ! video/x-raw,format=I420,width=720,height=480,"
        "framerate=30000/1001,interlace-mode=interleaved,field-order=top-field-first ! "
        "x264enc interlaced=true bframes=3 b-pyramid=true key-int-max=15 ! mp4mux",
}

# What no Debian encoder writes, so the matrix cannot hold.
NOT_MADE = {
    "h264 paff": "no Debian encoder writes field pictures (PAFF): x264 codes interlaced video as MBAFF only",
    "h264 mbaff 486i": "x264 refuses interlaced 4:2:0 of a height not divisible by 4",
}

# Per codec: the GPU decoders nvcodec may offer (both generations' names), and
# the CPU decoders the programs fall back to, first found first.
CODECS = {
    "h264": (["nvh264dec", "nvh264sldec"], ["avdec_h264"]),
    "hevc": (["nvh265dec", "nvh265sldec"], ["avdec_h265"]),
    "mpeg2": (["nvmpeg2videodec"], ["avdec_mpeg2video"]),
    "mpeg4": (["nvmpeg4videodec"], ["avdec_mpeg4"]),
    "vp8": (["nvvp8dec", "nvvp8sldec"], ["avdec_vp8"]),
    "vp9": (["nvvp9dec", "nvvp9sldec"], ["avdec_vp9"]),
    "av1": (["nvav1dec"], ["av1dec", "dav1ddec", "avdec_av1"]),
}
# Codecs whose standard leaves the IDCT to a tolerance.
TOLERANCE = {"mpeg2", "mpeg4"}

PLANAR = {  # FFmpeg's planar YUV formats: (horizontal, vertical) chroma shift
    "yuv420p": (1, 1), "yuv422p": (1, 0), "yuv444p": (0, 0),
    "yuv420p10le": (1, 1), "yuv422p10le": (1, 0), "yuv444p10le": (0, 0),
}


def codec_of(name):
    return name.split()[0].split(".")[0]


def ffmpeg_frames(ffmpeg, clip, pix_fmt, width, height):
    """FFmpeg's decode of the clip: a list of frames, each a list of component sample bytes."""
    raw = subprocess.run([ffmpeg, "-v", "error", "-i", clip, "-map", "0:v:0", "-fps_mode", "passthrough",
                          "-f", "rawvideo", "-pix_fmt", pix_fmt, "-"], check=True, stdout=subprocess.PIPE).stdout
    return split_frames(raw, pix_fmt, width, height)


def component_sizes(pix_fmt, width, height):
    hs, vs = PLANAR[pix_fmt]
    bytes_per_sample = 2 if pix_fmt.endswith("le") else 1
    cw, ch = -(-width >> hs), -(-height >> vs)
    return [width * height * bytes_per_sample] + [cw * ch * bytes_per_sample] * 2


def split_frames(raw, pix_fmt, width, height):
    sizes = component_sizes(pix_fmt, width, height)
    frame_size = sum(sizes)
    frames = []
    for at in range(0, len(raw) - frame_size + 1, frame_size):
        parts, offset = [], at
        for size in sizes:
            parts.append(raw[offset:offset + size])
            offset += size
        frames.append(parts)
    return frames


def probe(ffprobe, clip):
    out = subprocess.run([ffprobe, "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=pix_fmt,width,height,field_order", "-of", "json", clip],
                         check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out)["streams"][0]


def make(directory):
    os.makedirs(directory, exist_ok=True)
    expected = {"not made": NOT_MADE, "clips": {}}
    made = {}
    for name, (size, rate, args) in clips().items():
        made[name] = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate={rate}"] + args
    for name, pipeline in GSTREAMER_CLIPS.items():
        made[name] = ["gst-launch-1.0", "-q"] + pipeline.split() + ["!", "filesink", "location=" + name]
    for name, command in made.items():
        path = os.path.join(directory, name)
        if command[0] == "ffmpeg":
            subprocess.run(command + [path], check=True)
        else:
            subprocess.run(command, check=True, cwd=directory)
        stream = probe("ffprobe", path)
        # A field-coded stream decodes to one frame per field: FFmpeg's frames are its fields.
        frames = ffmpeg_frames("ffmpeg", path, stream["pix_fmt"], stream["width"], stream["height"])
        expected["clips"][name] = {
            "pix_fmt": stream["pix_fmt"], "width": stream["width"], "height": stream["height"],
            "field_order": stream.get("field_order", ""),
            "frames": [[hashlib.md5(c).hexdigest() for c in f] for f in frames]}
        print(f"{name}: {stream['width']}x{stream['height']} {stream['pix_fmt']}, {len(frames)} frames")
    with open(os.path.join(directory, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
    return 0


def have_element(name):
    return subprocess.run(["gst-inspect-1.0", "--exists", name]).returncode == 0


def bits_of(pix_fmt):
    return 10 if "p10" in pix_fmt else 8


def decode(decoded_frames, clip, decoder, bits, raw=None):
    """(frames as dicts, error text)."""
    args = [decoded_frames, clip, decoder, "--bits", str(bits)] + (["--raw", raw] if raw else [])
    try:
        result = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    except subprocess.TimeoutExpired as stuck:
        return [json.loads(line) for line in (stuck.stdout or b"").decode().splitlines()
                if line.startswith("{")], "no end after 60 s"
    frames = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    error = " ".join(result.stderr.split())[:300] if result.returncode != 0 else ""
    if result.returncode != 0 and not error:
        error = f"exit {result.returncode}"
    return frames, error


def compare(expected, frames):
    """(equal frames, total, first differing frame or None, words)."""
    want = expected["frames"]
    got = [f["components"] for f in frames]
    equal = sum(1 for a, b in zip(want, got) if a == b)
    first = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), None)
    words = []
    if len(got) != len(want):
        words.append(f"{len(got)} frames, FFmpeg {len(want)}")
    if frames:
        f = frames[0]
        if any(frame.get("low_bits") for frame in frames):
            words.append(f"{f['format']} with bits set below the stream's {bits_of(expected['pix_fmt'])}")
        if (f["width"], f["height"]) != (expected["width"], expected["height"]):
            words.append(f"{f['width']}x{f['height']} ({f['field']}), FFmpeg {expected['width']}x{expected['height']}")
    return equal, len(want), first, words


def sample_differences(raw_path, reference, expected):
    """The largest sample difference and the PSNR (over every sample) between two decodes."""
    import numpy  # the GPU host has it; only differing decodes need it
    with open(raw_path, "rb") as f:
        ours = split_frames(f.read(), expected["pix_fmt"], expected["width"], expected["height"])
    wide = expected["pix_fmt"].endswith("le")
    dtype = "<u2" if wide else "u1"
    peak = (1 << (10 if wide else 8)) - 1
    largest, squares, count = [0, 0, 0], 0.0, 0
    for a_frame, b_frame in zip(ours, reference):
        for c, (a, b) in enumerate(zip(a_frame, b_frame)):
            d = numpy.frombuffer(a, dtype).astype(numpy.int64) - numpy.frombuffer(b, dtype).astype(numpy.int64)
            largest[c] = max(largest[c], int(numpy.abs(d).max(initial=0)))
            squares += float((d * d).sum())
            count += d.size
    mse = squares / count if count else 0
    psnr = math.inf if mse == 0 else 10 * math.log10(peak * peak / mse)
    return largest, psnr


def cpu_decoder(codec):
    return next((d for d in CODECS[codec][1] if have_element(d)), None)


def check(directory, decoded_frames):
    expected = json.load(open(os.path.join(directory, "expected.json")))["clips"]
    failed = 0
    for name, want in expected.items():
        decoder = cpu_decoder(codec_of(name))
        if not decoder:
            print(f"FAIL {name}: none of {', '.join(CODECS[codec_of(name)][1])} is installed")
            failed += 1
            continue
        frames, error = decode(decoded_frames, os.path.join(directory, name), decoder, bits_of(want["pix_fmt"]))
        equal, total, first, words = compare(want, frames)
        ok = not error and equal == total and not words
        print(("ok   " if ok else "FAIL ") + f"{name}: {decoder}: {equal} of {total} frames equal FFmpeg's" +
              (f", first difference at frame {first}" if first is not None else "") +
              "".join(f"; {w}" for w in words) + (f"; {error}" if error else ""))
        failed += not ok
    print("PASS" if not failed else f"FAIL: {failed} clips")
    return 1 if failed else 0


def matrix(directory, decoded_frames, ffmpeg, label, out):
    expected = json.load(open(os.path.join(directory, "expected.json")))
    rows = []
    work = tempfile.mkdtemp(prefix="decode-matrix-")
    try:
        for name, want in expected["clips"].items():
            codec = codec_of(name)
            gpu, cpu = CODECS[codec]
            decoders = [d for d in gpu if have_element(d)] + [d for d in [cpu_decoder(codec)] if d]
            if not decoders:
                rows.append((name, want, "none", "no decoder in this GStreamer", ""))
            reference = None
            for decoder in decoders:
                raw = os.path.join(work, "frames.raw")
                frames, error = decode(decoded_frames, os.path.join(directory, name), decoder,
                                       bits_of(want["pix_fmt"]), raw)
                equal, total, first, words = compare(want, frames)
                if error and not frames:
                    verdict = "refused: " + error
                else:
                    verdict = f"{equal}/{total} equal" + (f" ({frames[0]['format']})" if frames else "") + \
                        "".join(f"; {w}" for w in words)
                    if error:
                        verdict += "; then " + error
                differences = ""
                if frames and equal < total and ffmpeg and not words:
                    try:
                        if reference is None:
                            reference = ffmpeg_frames(ffmpeg, os.path.join(directory, name), want["pix_fmt"],
                                                      want["width"], want["height"])
                        largest, psnr = sample_differences(raw, reference, want)
                        differences = f"largest {max(largest)} (Y {largest[0]}, U {largest[1]}, V {largest[2]}), " \
                                      f"PSNR {psnr:.2f} dB"
                    except (subprocess.CalledProcessError, OSError) as e:
                        differences = f"FFmpeg here cannot decode it ({e.__class__.__name__})"
                if first is not None:
                    differences = f"first at frame {first}" + (f"; {differences}" if differences else "")
                rows.append((name, want, decoder, verdict, differences))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lines = [f"Decoding matrix ({label}): each decoder's frames against FFmpeg's decode of the same clip "
             "(md5 of every component of every frame).", "",
             "| clip | FFmpeg's frames | decoder | frames equal | differences |", "|---|---|---|---|---|"]
    for name, want, decoder, verdict, differences in rows:
        shape = f"{want['width']}x{want['height']} {want['pix_fmt']} {want.get('field_order', '')}".strip()
        kind = " (IDCT tolerance)" if codec_of(name) in TOLERANCE else ""
        lines.append(f"| {name}{kind} | {shape} | {decoder} | {verdict} | {differences} |")
    for name, why in expected.get("not made", {}).items():
        lines.append(f"| {name} | not made | | | {why} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text)
    return 0


def read_matrix(path):
    """{clip: {decoder: (verdict, differences)}} of a matrix table."""
    rows = {}
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("clip", "---") or cells[1] == "not made":
            continue
        clip = cells[0].replace(" (IDCT tolerance)", "")
        verdict = cells[3] if len(cells[3]) < 60 else cells[3].split(":")[0]
        rows.setdefault(clip, {})[cells[2]] = (verdict, cells[4])
    return rows


def table(path_122, path_126):
    old, new = read_matrix(path_122), read_matrix(path_126)

    def cell(decoders, names):
        found = [decoders[n] for n in names if n in decoders]
        if not found:
            return ""
        verdict, differences = found[0]
        return verdict + (f"; {differences}" if differences else "")

    lines = ["| clip | 1.22 parser-based nv\\*dec | 1.22 nv\\*sldec | 1.22 CPU | 1.26 nv\\*dec |",
             "|---|---|---|---|---|"]
    for clip, decoders in old.items():
        gpu, cpu = CODECS[codec_of(clip)]
        parser_based = [d for d in gpu if "sl" not in d]
        stateless = [d for d in gpu if "sl" in d]
        lines.append(f"| {clip} | {cell(decoders, parser_based)} | {cell(decoders, stateless)} | "
                     f"{cell(decoders, cpu)} | {cell(new.get(clip, {}), gpu)} |")
    print("\n".join(lines))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("make").add_argument("dir")
    c = sub.add_parser("check")
    c.add_argument("dir")
    c.add_argument("decoded_frames")
    sub.add_parser("cpu").add_argument("decoded_frames")
    t = sub.add_parser("table")
    t.add_argument("matrix_122")
    t.add_argument("matrix_126")
    m = sub.add_parser("matrix")
    m.add_argument("dir")
    m.add_argument("decoded_frames")
    m.add_argument("--ffmpeg")
    m.add_argument("--label", default="")
    m.add_argument("--out")
    args = parser.parse_args()
    if args.command == "make":
        return make(args.dir)
    if args.command == "check":
        return check(args.dir, args.decoded_frames)
    if args.command == "table":
        return table(args.matrix_122, args.matrix_126)
    if args.command == "cpu":
        work = tempfile.mkdtemp(prefix="decode-matrix-")
        try:
            return make(work) or check(work, args.decoded_frames)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return matrix(args.dir, args.decoded_frames, args.ffmpeg, args.label, args.out)


if __name__ == "__main__":
    sys.exit(main())
