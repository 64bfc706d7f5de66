#!/usr/bin/python3
"""The clips on which the element's signalstats figures are compared with FFmpeg's.

Made with FFmpeg's lavfi sources and filters: testsrc2 (moving), temporal
noise (so DIF is never 0 after the first frame and every code value occurs),
then lutyuv stretches luma beyond 16..235 (both ends clip) and chroma beyond
16..240 (saturated, out-of-range chroma: BRNG, SAT and HUE see all of it). Limited range, 30 frames each. Even sizes go through x264
(8-bit 4:2:0, 4:2:2 and 10-bit 4:2:0: High, High 4:2:2, High 10); odd sizes
through FFV1 in Matroska, lossless, which H.264 cannot carry.

    signalstats_clips.py OUTDIR [--ffmpeg PATH] [--frames N] [--size WxH --name NAME --codec h264 --pix-fmt F]
prints the clips' paths, one a line (scripts/gpuhost-pack.sh uses it).
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


def filter_graph(width, height, pix_fmt, frames_rate=30):
    """lavfi source and filters of a clip in `pix_fmt` (8 or 10 bits)."""
    m = 4 if "10" in pix_fmt else 1  # code values scale with the depth
    # (not minval/maxval: lutyuv makes those 16..235 for limited range)
    luma = "clip(val*1.1-10*%d\\,0\\,%d)" % (m, 255 * m)
    chroma = "clip(%d+(val-%d)*1.1\\,0\\,%d)" % (128 * m, 128 * m, 255 * m)
    return ("testsrc2=size=%dx%d:rate=%d,format=yuv444p,noise=alls=6:allf=t,format=%s,"
            "lutyuv=y=%s:u=%s:v=%s" % (width, height, frames_rate, pix_fmt, luma, chroma, chroma))


def codec_args(codec, pix_fmt):
    if codec == "h264":
        return ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "18", "-g", "15", "-bf", "2",
                "-pix_fmt", pix_fmt, "-color_range", "tv"]
    if codec == "ffv1":
        return ["-c:v", "ffv1", "-pix_fmt", pix_fmt, "-color_range", "tv"]
    raise ValueError("unknown codec %s" % codec)


def make_clip(path, width, height, pix_fmt, codec, frames=FRAMES, ffmpeg="ffmpeg"):
    """Writes one clip (MP4 for H.264, Matroska for FFV1); raises RuntimeError naming FFmpeg's words."""
    command = [ffmpeg, "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
               filter_graph(width, height, pix_fmt), "-frames:v", str(frames)] + \
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--ffmpeg", default="ffmpeg")
    parser.add_argument("--frames", type=int, default=FRAMES)
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
        for path in make_clips(args.outdir, args.ffmpeg, args.frames, clips).values():
            print(path)
    except (RuntimeError, OSError) as e:
        sys.exit("signalstats_clips: %s" % e)


if __name__ == "__main__":
    main()
