#!/usr/bin/python3
"""Luma histogram over time, from cudahistogram's bus messages, as a PNG.

    plot_histograms.py [--cpu] [--frames N] [--pattern NAME] [-o OUT.png] [FILE]

Runs FILE (or videotestsrc) through cudahistogram, collects the element's
"cudahistogram" messages and draws the luma histogram of every frame as one
column of a heat map (x: time, y: sample value, colour: log share of the
frame's samples), with the mean luma and the clipped fractions (samples at the
lowest / highest code value) overlaid.

Uses the GPU (cudaupload) when GStreamer's nvcodec plugin offers it, the
element's CPU backend otherwise or with --cpu. GST_PLUGIN_PATH must name the
folder holding libgstcudahistogram.so (<builddir>/gst-plugin).
Needs Debian's python3-gi, python3-gst-1.0 and python3-matplotlib.
"""
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import Gst, GstVideo  # noqa: E402

import matplotlib  # noqa: E402

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import video_input  # noqa: E402 (beside this file)

LUMA_NAMES = ("Y", "G")  # luma, or green for RGB formats (most of luma's weight)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    video_input.add_arguments(parser, frames=120, pattern="ball")
    parser.add_argument("-o", "--output", default="histograms.png", help="PNG to write (default %(default)s)")
    args = parser.parse_args(argv)
    video_input.check_arguments(parser, args)
    return args


def describe_pipeline(args, gpu):
    return "%s ! cudahistogram attach-meta=false ! fakesink sync=false" % video_input.describe(args, gpu, 320, 240)


def component_depth(s, component):
    """Bit depth of a component: the message's `depths`, else the format's description."""
    if s.has_field("depths"):
        return s.get_value("depths")[component]
    info = GstVideo.VideoFormat.get_info(GstVideo.VideoFormat.from_string(s.get_value("format")))
    return info.depth[component] or 8


class Collector:
    """Luma rows, means and clipped fractions of every message."""

    def __init__(self):
        self.times, self.rows, self.means, self.low, self.high = [], [], [], [], []
        self.max_value = 255

    def add(self, s):
        names = list(s.get_value("components"))
        luma = next((names.index(n) for n in LUMA_NAMES if n in names), 0)
        counts = np.array(list(s.get_value("histograms")[luma]), dtype=np.float64)
        depth = component_depth(s, luma)
        self.max_value = (1 << depth) - 1
        self.times.append(s.get_value("timestamp") / Gst.SECOND)
        self.rows.append(counts / max(counts.sum(), 1.0))
        self.means.append(s.get_value("mean")[luma])
        self.low.append(s.get_value("clipped-low")[luma])
        self.high.append(s.get_value("clipped-high")[luma])


def run(description, collector):
    pipeline = Gst.parse_launch(description)
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    error = None
    while True:
        message = bus.timed_pop(Gst.CLOCK_TIME_NONE)
        if message.type == Gst.MessageType.ELEMENT and message.get_structure().has_name("cudahistogram"):
            collector.add(message.get_structure())
        elif message.type == Gst.MessageType.ERROR:
            err, debug = message.parse_error()
            error = "%s: %s (%s)" % (message.src.get_name(), err.message, debug)
            break
        elif message.type == Gst.MessageType.EOS:
            break
    pipeline.set_state(Gst.State.NULL)
    return error


def plot(collector, title, output):
    heat = np.log10(np.array(collector.rows).T + 1e-6)  # bins x frames; log shows rare values too
    t0, t1 = collector.times[0], collector.times[-1]
    if t1 <= t0:
        t1 = t0 + 1.0
    fig, value_axis = plt.subplots(figsize=(10, 5), dpi=100)
    image = value_axis.imshow(heat, origin="lower", aspect="auto", cmap="magma",
                              extent=[t0, t1, 0, collector.max_value], vmin=-6, vmax=0)
    value_axis.plot(collector.times, collector.means, color="cyan", linewidth=1.5, label="mean")
    value_axis.set_xlabel("time (s)")
    value_axis.set_ylabel("luma value")
    clip_axis = value_axis.twinx()
    clip_axis.plot(collector.times, collector.low, color="deepskyblue", linestyle="--", label="clipped low")
    clip_axis.plot(collector.times, collector.high, color="red", linestyle="--", label="clipped high")
    clip_axis.set_ylim(0, 1)
    clip_axis.set_ylabel("clipped fraction")
    handles = value_axis.get_legend_handles_labels()[0] + clip_axis.get_legend_handles_labels()[0]
    value_axis.legend(handles=handles, loc="upper left", fontsize="small")
    fig.colorbar(image, ax=clip_axis, pad=0.1, label="log10 share of samples")
    value_axis.set_title(title)
    fig.savefig(output)
    plt.close(fig)


def main(argv):
    args = parse_arguments(argv)
    Gst.init(None)
    gpu = video_input.uses_gpu(args, "plot_histograms")
    collector = Collector()
    error = run(describe_pipeline(args, gpu), collector)
    if error:
        sys.exit("plot_histograms: " + error)
    if not collector.rows:
        sys.exit("plot_histograms: no cudahistogram message arrived (post-messages=false?)")
    title = "luma histogram over time: %s" % (args.file or "videotestsrc pattern=" + args.pattern)
    plot(collector, title, args.output)
    print("plot_histograms: %d frames -> %s" % (len(collector.rows), args.output), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
