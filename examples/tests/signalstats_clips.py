#!/usr/bin/python3
"""The clips on which the element's signalstats figures are compared with FFmpeg's.

Made with FFmpeg's lavfi sources and filters: testsrc2 (moving), temporal
noise (so DIF is never 0 after the first frame and every code value occurs),
then lutyuv stretches luma beyond 16..235 (both ends clip) and chroma beyond
16..240 (saturated, out-of-range chroma: BRNG, SAT and HUE see all of it). Limited range, 30 frames each. Even sizes go through x264
(8-bit 4:2:0, 4:2:2 and 10-bit 4:2:0: High, High 4:2:2, High 10); odd sizes
through FFV1 in Matroska, lossless, which H.264 cannot carry.

    signalstats_clips.py OUTDIR [--ffmpeg PATH] [--frames N] [--qc] [--size WxH --name NAME --codec h264 --pix-fmt F]
prints the clips' paths, one a line (scripts/gpuhost-pack.sh uses it); --qc
makes the QC clips (QC_CLIPS) instead.
"""
import argparse
import os
import subprocess
import sys

FRAMES = 30
# (name, width, height, pixel format, codec)
CLIPS = (
    ("h264-420-640x360", 640, 360, "yuv420p", "h264"),
    ("h264-422-640x360", 640, 360, "yuv422p", "h264"),
    ("h264-420p10-640x360", 640, 360, "yuv420p10le", "h264"),
    ("ffv1-420-333x241", 333, 241, "yuv420p", "ffv1"),
    ("ffv1-422-333x241", 333, 241, "yuv422p", "ffv1"),
    ("ffv1-420p10-333x241", 333, 241, "yuv420p10le", "ffv1"),
)
# The clip nvh264dec can decode (NVDEC's H.264 is 8-bit 4:2:0): the GPU-host comparison's own.
NVDEC_CLIPS = ("h264-420-640x360",)

# The clips of QCTools' whole graph (TOUT, VREP, cropdetect, field PSNR):
# the same content, then black bars that move from frame to frame (cropdetect
# moves; rows of the bars repeat, so VREP is not 0) and two frames' fields
# woven into one (tinterlace: the fields differ), or every row doubled (the
# fields are equal: PSNR inf). (name, width, height, pixel format, codec, layout)
QC_FRAMES = 10
QC_CLIPS = (
    ("qc-h264-420-320x240-letterbox", 320, 240, "yuv420p", "h264", "letterbox"),
    ("qc-ffv1-422p10-320x240-pillarbox", 320, 240, "yuv422p10le", "ffv1", "pillarbox"),
    ("qc-ffv1-420-333x240-letterbox", 333, 240, "yuv420p", "ffv1", "letterbox"),
    # Odd height: FFmpeg's graph refuses it (the fields differ in height): compared without psnr.
    ("qc-ffv1-420-333x241-pillarbox", 333, 241, "yuv420p", "ffv1", "pillarbox"),
    # Every row doubled: top and bottom field equal.
    ("qc-ffv1-420-320x240-equal-fields", 320, 240, "yuv420p", "ffv1", "equal-fields"),
    # 4:2:0 of height 2 mod 4: the last chroma row has no partner (FFmpeg reads past the plane).
    ("qc-ffv1-420-320x242-letterbox", 320, 242, "yuv420p", "ffv1", "letterbox"),
)


def filter_graph(width, height, pix_fmt, frames_rate=30):
    """lavfi source and filters of a clip in `pix_fmt` (8 or 10 bits)."""
    m = 4 if "10" in pix_fmt else 1  # code values scale with the depth
    # (not minval/maxval: lutyuv makes those 16..235 for limited range)
    luma = "clip(val*1.1-10*%d\\,0\\,%d)" % (m, 255 * m)
    chroma = "clip(%d+(val-%d)*1.1\\,0\\,%d)" % (128 * m, 128 * m, 255 * m)
    return ("testsrc2=size=%dx%d:rate=%d,format=yuv444p,noise=alls=6:allf=t,format=%s,"
            "lutyuv=y=%s:u=%s:v=%s" % (width, height, frames_rate, pix_fmt, luma, chroma, chroma))


def qc_filter_graph(width, height, pix_fmt, layout):
    """lavfi graph of a QC clip: filter_graph's content with moving bars and woven or doubled fields."""
    rate = 30 if layout == "equal-fields" else 60  # tinterlace weaves two frames into one
    source = filter_graph(width, height, pix_fmt, rate)
    if layout == "letterbox":  # a top bar of 12 to 30 rows and a bottom one of 10 to 18
        bars = ("color=black:size=%dx60:rate=%d[t];color=black:size=%dx60:rate=%d[b];"
                "[v][t]overlay=x=0:y=-48+6*mod(n\\,4):shortest=1[v2];"
                "[v2][b]overlay=x=0:y=H-10-4*mod(n\\,3):shortest=1" % (width, rate, width, rate))
    else:  # pillarbox: bars of 16 to 34 columns left and 9 to 17 right
        bars = ("color=black:size=60x%d:rate=%d[t];color=black:size=60x%d:rate=%d[b];"
                "[v][t]overlay=x=-44+6*mod(n\\,4):y=0:shortest=1[v2];"
                "[v2][b]overlay=x=W-9-4*mod(n\\,3):y=0:shortest=1" % (height, rate, height, rate))
    fields = ("scale=%d:%d,scale=%d:%d:flags=neighbor" % (width, height // 2, width, height)
              if layout == "equal-fields" else "tinterlace=mode=interleave_top")
    # setfield=prog: the woven frames stay flagged progressive. FFmpeg 7.1
    # would flag them top-field-first; GStreamer then lays a 4:2:0 frame of
    # an odd number of chroma rows (121) out as 122 per plane, and avdec_ffv1
    # copies FFmpeg's planes without that row, so V reads one row late: an
    # upstream limit (docs/versions.md), not what these clips test.
    return "%s[v];%s,%s,setfield=prog,format=%s" % (source, bars, fields, pix_fmt)


def codec_args(codec, pix_fmt):
    if codec == "h264":
        return ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "18", "-g", "15", "-bf", "2",
                "-pix_fmt", pix_fmt, "-color_range", "tv"]
    if codec == "ffv1":
        return ["-c:v", "ffv1", "-pix_fmt", pix_fmt, "-color_range", "tv"]
    raise ValueError("unknown codec %s" % codec)


def make_clip(path, width, height, pix_fmt, codec, frames=FRAMES, ffmpeg="ffmpeg", graph=None):
    """Writes one clip (MP4 for H.264, Matroska for FFV1); raises RuntimeError naming FFmpeg's words."""
    command = [ffmpeg, "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
               graph or filter_graph(width, height, pix_fmt), "-frames:v", str(frames)] + \
        codec_args(codec, pix_fmt) + [path]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if result.returncode != 0 or not os.path.getsize(path):
        raise RuntimeError("%s failed: %s" % (" ".join(command), result.stderr.strip()))
    return path


def clip_path(directory, name, codec):
    return os.path.join(directory, name + (".mp4" if codec == "h264" else ".mkv"))


def make_clips(directory, ffmpeg="ffmpeg", frames=FRAMES, clips=CLIPS):
    """Every clip of `clips` in `directory`; returns {name: path}."""
    return {name: make_clip(clip_path(directory, name, codec), w, h, fmt, codec, frames, ffmpeg)
            for name, w, h, fmt, codec in clips}


def make_qc_clips(directory, ffmpeg="ffmpeg", frames=QC_FRAMES, clips=QC_CLIPS):
    """Every QC clip of `clips` in `directory`; returns {name: path}."""
    return {name: make_clip(clip_path(directory, name, codec), w, h, fmt, codec, frames, ffmpeg,
                            qc_filter_graph(w, h, fmt, layout))
            for name, w, h, fmt, codec, layout in clips}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--ffmpeg", default="ffmpeg")
    parser.add_argument("--frames", type=int, help="frames a clip (default %d, with --qc %d)" % (FRAMES, QC_FRAMES))
    parser.add_argument("--qc", action="store_true", help="the clips of QCTools' whole graph (QC_CLIPS)")
    parser.add_argument("--name", help="one clip of this name instead of the set (with --size, --pix-fmt, --codec)")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--pix-fmt", default="yuv420p")
    parser.add_argument("--codec", default="h264", choices=("h264", "ffv1"))
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    if args.name:
        width, height = (int(v) for v in args.size.split("x"))
        clips = ((args.name, width, height, args.pix_fmt, args.codec),)
    else:
        clips = CLIPS
    try:
        made = (make_qc_clips(args.outdir, args.ffmpeg, args.frames or QC_FRAMES) if args.qc
                else make_clips(args.outdir, args.ffmpeg, args.frames or FRAMES, clips))
        for path in made.values():
            print(path)
    except (RuntimeError, OSError) as e:
        sys.exit("signalstats_clips: %s" % e)


if __name__ == "__main__":
    main()
