#!/usr/bin/python3
"""Per-frame statistics read from GstCudaHistogramMeta in a pad probe.

    probe_meta.py [--cpu] [--frames N] [--pattern NAME] [--bins N] [FILE]

Runs FILE (or videotestsrc) through cudahistogram and, in a probe on the
element's source pad, reads the meta that the element attached to every
buffer, through GObject introspection (the GstCudaHistogram-1.0 typelib).
Prints one line per frame: its timestamp, format and size, and per component
the mean and the 5th, 50th and 95th percentiles, in code values. The bus
messages are turned off: the meta is on the buffer, the same frame, at no
message's cost.

Uses the GPU (cudaupload) when GStreamer's nvcodec plugin offers it, the
element's CPU backend otherwise or with --cpu. Needs Debian's python3-gi and
python3-gst-1.0, GST_PLUGIN_PATH naming the folder of libgstcudahistogram.so
and GI_TYPELIB_PATH the folder of GstCudaHistogram-1.0.typelib when they are
not installed in the system's folders.
"""
import argparse
import ctypes
import functools
import itertools
import sys
import threading

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import Gst, GstVideo  # noqa: E402

import video_input  # noqa: E402 (beside this file)

PERCENTILES = (5, 50, 95)


def import_meta_bindings():
    try:
        gi.require_version("GstCudaHistogram", "1.0")
    except ValueError:
        sys.exit("probe_meta: the GstCudaHistogram-1.0 typelib was not found: set GI_TYPELIB_PATH to "
                 "<builddir>/gst-plugin/meta or <prefix>/<libdir>/girepository-1.0")
    from gi.repository import GstCudaHistogram
    return GstCudaHistogram


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    video_input.add_arguments(parser, frames=30, pattern="smpte")
    parser.add_argument("--bins", type=int, default=256, help="bins per component (default %(default)s)")
    args = parser.parse_args(argv)
    video_input.check_arguments(parser, args)
    if args.bins < 1:
        parser.error("--bins wants a count of at least 1")
    return args


def describe_pipeline(args, gpu):
    return "%s ! cudahistogram name=histogram bins=%d post-messages=false ! fakesink sync=false" % (
        video_input.describe(args, gpu, 640, 360), args.bins)


@functools.lru_cache(maxsize=None)
def bin_values(bins, depth):
    """The code value each bin stands for: the middle of its values (cudahist::BinCentre)."""
    lowest = [((b << depth) + bins - 1) // bins for b in range(bins + 1)]
    return [(lowest[b] + lowest[b + 1] - 1) / 2 for b in range(bins)]


def summarize(counts, values):
    """Mean and PERCENTILES of one component's counts; None when it counted no sample."""
    total = sum(counts)
    if total == 0:
        return None
    mean = sum(c * v for c, v in zip(counts, values)) / total
    cumulative = list(itertools.accumulate(counts))
    percentiles = []
    for p in PERCENTILES:
        rank = max(1, -(-total * p // 100))  # the smallest sample with p% of all at or below it
        percentiles.append(values[next(b for b, c in enumerate(cumulative) if c >= rank)])
    return mean, percentiles


def describe_frame(number, pts, meta):
    """One line: the frame, then per component its mean and percentiles."""
    time = "%8.3fs" % (pts / Gst.SECOND) if pts != Gst.CLOCK_TIME_NONE else "       ?"
    parts = ["frame %4d  t=%s  %s %ux%u  %u bins" % (
        number, time, GstVideo.VideoFormat.to_string(meta.format), meta.width, meta.height, meta.bins)]
    for index, name in enumerate(meta.get_component_names()):
        stats = summarize(meta.get_counts(index), bin_values(meta.bins, meta.get_component_depth(index)))
        if stats is None:
            parts.append("%s (no samples)" % name)
            continue
        mean, percentiles = stats
        parts.append("%s mean %6.1f %s" % (name, mean, " ".join(
            "p%d %5g" % (p, v) for p, v in zip(PERCENTILES, percentiles))))
    return "  |  ".join(parts)


_thread_state = threading.local()


def keep_thread_state():
    """Keeps the calling thread's Python thread state from one callback to the next.

    PyGObject enters Python from GStreamer's streaming threads with
    PyGILState_Ensure, which makes and then destroys a thread state on every
    call when the thread has none of its own: most of a pad probe's cost (about
    60 us a buffer on the machine bench/RESULTS.md names). One Ensure left
    outstanding keeps the state for the thread's life (the pattern CPython's
    C-API documentation gives for threads it did not create); after the first
    call this costs nothing. CPython only (ctypes.pythonapi)."""
    if not getattr(_thread_state, "kept", False) and hasattr(ctypes, "pythonapi"):
        ctypes.pythonapi.PyGILState_Ensure()
        _thread_state.kept = True


class MetaPrinter:
    """The pad probe: a line per buffer, from its meta."""

    def __init__(self, bindings):
        self.bindings = bindings
        self.frames = 0
        self.without_meta = 0

    def __call__(self, pad, info):
        keep_thread_state()
        buffer = info.get_buffer()
        meta = self.bindings.buffer_get_cuda_histogram_meta(buffer)
        if meta is None:
            self.without_meta += 1
            print("frame %4d  no GstCudaHistogramMeta on this buffer" % self.frames)
        else:
            print(describe_frame(self.frames, buffer.pts, meta))
        self.frames += 1
        return Gst.PadProbeReturn.OK


def run(description, printer):
    pipeline = Gst.parse_launch(description)
    pipeline.get_by_name("histogram").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, printer)
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    message = bus.timed_pop_filtered(Gst.CLOCK_TIME_NONE, Gst.MessageType.ERROR | Gst.MessageType.EOS)
    error = None
    if message.type == Gst.MessageType.ERROR:
        err, debug = message.parse_error()
        error = "%s: %s (%s)" % (message.src.get_name(), err.message, debug)
    pipeline.set_state(Gst.State.NULL)
    return error


def main(argv):
    args = parse_arguments(argv)
    Gst.init(None)
    bindings = import_meta_bindings()
    gpu = video_input.uses_gpu(args, "probe_meta")
    printer = MetaPrinter(bindings)
    error = run(describe_pipeline(args, gpu), printer)
    sys.stdout.flush()
    if error:
        sys.exit("probe_meta: " + error)
    print("probe_meta: %d frames, %d without a meta" % (printer.frames, printer.without_meta), file=sys.stderr)
    if printer.frames == 0 or printer.without_meta:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
