"""What the examples' tests share: running a program, making test clips."""
import os
import subprocess
import sys
import unittest

CLIP_CAPS = "video/x-raw,format=I420,width=320,height=240,framerate=30/1"
FRAME_NS = 1_000_000_000 / 30

# The monitor clip: 20 frames of SMPTE bars, 10 black, 20 of colour bars, so
# the black frames are 20..29 and the cuts fall on frames 20 and 30.
CLIP_SEGMENTS = (("smpte", 20), ("black", 10), ("colors", 20))


def run(command, **kwargs):
    """Runs a command and returns the CompletedProcess (text, both streams captured)."""
    return subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)


def gst_launch(description):
    result = run(["gst-launch-1.0", "-q"] + description.split())
    if result.returncode != 0:
        raise RuntimeError("gst-launch-1.0 %s failed: %s%s" % (description, result.stdout, result.stderr))


def have_elements(*names):
    """The elements among `names` that gst-inspect-1.0 does not find. (Not
    --exists: it also demands a plugin version of at least GStreamer's own.)"""
    return [n for n in names if run(["gst-inspect-1.0", n]).returncode != 0]


def make_segmented_clip(path):
    """An H.264 MP4 of CLIP_SEGMENTS, made with x264enc (the timestamps run on across segments)."""
    sources, offset = [], 0
    for pattern, frames in CLIP_SEGMENTS:
        sources.append("videotestsrc pattern=%s num-buffers=%d timestamp-offset=%d ! %s ! c."
                       % (pattern, frames, round(offset * FRAME_NS), CLIP_CAPS))
        offset += frames
    gst_launch("concat name=c adjust-base=false ! x264enc speed-preset=ultrafast ! mp4mux ! "
               "filesink location=%s %s" % (path, " ".join(sources)))


def make_annexb_stream(path, frames=10):
    """An H.264 Annex B elementary stream, as nvdec_histogram reads it."""
    gst_launch("videotestsrc pattern=smpte num-buffers=%d ! %s ! x264enc speed-preset=ultrafast ! "
               "video/x-h264,stream-format=byte-stream ! filesink location=%s" % (frames, CLIP_CAPS, path))


def read_png(path):
    """A PNG's pixels as an array of 8-bit values, rows x columns x channels."""
    import matplotlib.image  # python3-matplotlib (scripts/install-deps.sh)
    import numpy
    return numpy.rint(matplotlib.image.imread(path) * 255).astype(numpy.uint8)


def gpu_pipelines_available():
    """GStreamer's cudaupload registers only where CUDA works."""
    return not have_elements("cudaupload", "cudadownload")


def require_element_plugin(test):
    """Fails (not skips) the test when the cudahistogram element is missing: it is built by this project."""
    missing = have_elements("cudahistogram")
    test.assertEqual(missing, [], "the cudahistogram element was not found on GST_PLUGIN_PATH=%s"
                     % os.environ.get("GST_PLUGIN_PATH"))


def main():
    """unittest's main, with meson's exit codes: 1 on a failure, 77 (skip)
    when every test that ran was skipped, else 0."""
    result = unittest.main(verbosity=2, exit=False).result
    if not result.wasSuccessful():
        sys.exit(1)
    if result.testsRun and len(result.skipped) == result.testsRun:
        sys.exit(77)
