"""The input of the Python examples: a video file, or videotestsrc without one,
in CUDA memory (cudaupload) when GStreamer's nvcodec plugin offers it, in
system memory (the element's CPU backend) otherwise or with --cpu.

Installed beside the examples, which import it from their own folder.
"""
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def add_arguments(parser, frames, pattern):
    """FILE, --cpu, --frames and --pattern, with the example's own defaults."""
    parser.add_argument("file", nargs="?", help="a video file; without it: videotestsrc")
    parser.add_argument("--cpu", action="store_true", help="keep frames in system memory (CPU backend)")
    parser.add_argument("--frames", type=int, default=frames, help="videotestsrc frames (default %(default)s)")
    parser.add_argument("--pattern", default=pattern, help="videotestsrc pattern (default %(default)s)")


def check_arguments(parser, args):
    if args.frames < 1:
        parser.error("--frames wants a count of at least 1")


def uses_gpu(args, program):
    """Whether frames go to the element in CUDA memory; says which path on stderr.
    Exits when GStreamer cannot find the cudahistogram element."""
    if Gst.ElementFactory.find("cudahistogram") is None:
        sys.exit("%s: the cudahistogram element was not found: set GST_PLUGIN_PATH to "
                 "<builddir>/gst-plugin or <prefix>/<libdir>/gstreamer-1.0" % program)
    gpu = not args.cpu and Gst.ElementFactory.find("cudaupload") is not None
    print("%s: using the %s" % (program, "GPU (cudaupload)" if gpu else "CPU backend (system memory)"),
          file=sys.stderr)
    return gpu


def describe(args, gpu, width, height):
    """The pipeline up to the element's input, in gst-launch syntax (videotestsrc at width x height NV12)."""
    if args.file:
        source = 'uridecodebin uri="%s" caps="video/x-raw(ANY)" expose-all-streams=false' % (
            Gst.filename_to_uri(args.file))
    else:
        source = "videotestsrc num-buffers=%d pattern=%s ! video/x-raw,format=NV12,width=%d,height=%d" % (
            args.frames, args.pattern, width, height)
    memory = "cudaupload ! video/x-raw(memory:CUDAMemory)" if gpu else "capsfilter caps=video/x-raw"
    return "%s ! %s" % (source, memory)
