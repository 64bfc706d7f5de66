#!/usr/bin/python3
"""Each detected object's label, mean luma and dominant colour, from its region histograms.

    object_colours.py (--model SSD.onnx --labels LABELS.txt | --detector "ELEMENTS") [--cpu]
                      [--frames N] [--pattern NAME] [FILE]

Runs FILE (or videotestsrc) through an object detector (by default
onnxinference with an SSD model and ssdobjectdetector, GStreamer 1.26) and
then cudahistogram objects=detections signalstats=true, which counts every
detected box's histograms in one launch and relates a GstCudaRegionMtd to
each GstAnalyticsODMtd. A probe after it walks the buffer's relation meta
through GObject introspection (GstAnalytics-1.0, GstCudaHistogram-1.0) and
prints one line per object:

    frame 3  t=0.100s  person 0.90  at 16,8 80x56  luma 112.4  colour red (hue 161, sat 42)

The mean luma comes from the object's Y histogram, the colour from its hue
histogram (signalstats' hue of every chroma sample of the box, a bin per
degree): the most populated 20-degree arc, named after the hue of the
nearest primary or secondary colour; boxes whose mean saturation is low are
black, grey or white by their luma instead. Objects are counted on the GPU
(upload=true: the element copies each frame to CUDA memory) where the nvcodec
plugin is there, on the CPU backend otherwise or with --cpu.

Needs GStreamer 1.24+ (its analytics library) and, for the default detector,
Debian 13's gstreamer1.0-plugins-bad (onnx, tensordecoders);
GST_PLUGIN_PATH naming the folder of libgstcudahistogram.so and GI_TYPELIB_PATH
the folder of GstCudaHistogram-1.0.typelib when they are not installed.
"""
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstAnalytics", "1.0")
from gi.repository import GLib, Gst, GstAnalytics  # noqa: E402

# The hue signalstats gives each colour (FFmpeg's formula on BT.601 YUV:
# 180/pi * atan2(U - 128, V - 128) + 180): e.g. red (255, 0, 0) is U 85, V 255.
COLOUR_HUES = (("red", 161), ("orange", 131), ("yellow", 99), ("green", 38), ("cyan", 341), ("blue", 279),
               ("magenta", 218))
ARC = 20             # degrees summed around each hue for the dominant one
GREY_SATURATION = 12  # mean saturation (8-bit scale) below which a box has no colour


def import_bindings():
    try:
        gi.require_version("GstCudaHistogram", "1.0")
    except ValueError:
        sys.exit("object_colours: the GstCudaHistogram-1.0 typelib was not found: set GI_TYPELIB_PATH to "
                 "<builddir>/gst-plugin/meta or <prefix>/<libdir>/girepository-1.0")
    from gi.repository import GstCudaHistogram
    if not hasattr(GstCudaHistogram, "CudaRegionMtd"):
        sys.exit("object_colours: this GstCudaHistogram-1.0 has no CudaRegionMtd: cudahistogram was built "
                 "against a GStreamer without its analytics library (1.24+)")
    return GstCudaHistogram


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", help="a video file; without it: videotestsrc")
    parser.add_argument("--model", help="an SSD detection model for onnxinference")
    parser.add_argument("--labels", help="its labels, one a line (ssdobjectdetector's label-file)")
    parser.add_argument("--detector", help="the detector's elements instead, in gst-launch syntax (RGB in)")
    parser.add_argument("--cpu", action="store_true", help="count on the CPU backend")
    parser.add_argument("--frames", type=int, default=30, help="videotestsrc frames (default %(default)s)")
    parser.add_argument("--pattern", default="smpte", help="videotestsrc pattern (default %(default)s)")
    parser.add_argument("--width", type=int, default=640, help="videotestsrc width (default %(default)s)")
    parser.add_argument("--height", type=int, default=360, help="videotestsrc height (default %(default)s)")
    args = parser.parse_args(argv)
    if args.detector is None and (args.model is None or args.labels is None):
        parser.error("give --model and --labels, or --detector")
    if args.frames < 1:
        parser.error("--frames wants a count of at least 1")
    return args


def describe_pipeline(args, gpu):
    if args.file:
        source = 'uridecodebin uri="%s" expose-all-streams=false caps=video/x-raw' % Gst.filename_to_uri(args.file)
    else:
        source = "videotestsrc num-buffers=%d pattern=%s ! video/x-raw,width=%d,height=%d" % (
            args.frames, args.pattern, args.width, args.height)
    detector = args.detector or "onnxinference model-file=\"%s\" ! ssdobjectdetector label-file=\"%s\"" % (
        args.model, args.labels)
    return ("%s ! videoconvert ! video/x-raw,format=RGB ! %s ! videoconvert ! video/x-raw,format=NV12 ! "
            "cudahistogram name=histogram objects=detections signalstats=true post-messages=false upload=%s ! "
            "fakesink sync=false" % (source, detector, "true" if gpu else "false"))


def mean_luma(region):
    """The mean of the region's Y samples, from its histogram (bin centres)."""
    y = region.find_component("Y")
    counts = region.get_counts(y)
    depth, bins = region.get_component_depth(y), len(counts)
    total = sum(counts)
    if total == 0:
        return None
    lowest = [((b << depth) + bins - 1) // bins for b in range(bins + 1)]
    return sum(c * (lowest[b] + lowest[b + 1] - 1) / 2 for b, c in enumerate(counts)) / total


def dominant_hue(hue_counts):
    """The hue at the middle of the most populated ARC-degree arc (circular)."""
    n = len(hue_counts)
    best, best_sum = 0, -1
    for h in range(n):
        arc = sum(hue_counts[(h + d) % n] for d in range(-ARC // 2, ARC // 2 + 1))
        if arc > best_sum:
            best, best_sum = h, arc
    return best


def colour_name(hue, saturation, luma, depth):
    """The colour of a box: achromatic by its luma when little saturated, else the nearest named hue."""
    scale = 1 << (depth - 8)
    if saturation < GREY_SATURATION * scale:
        return "black" if luma < 50 * scale else "white" if luma > 190 * scale else "grey"
    return min(COLOUR_HUES, key=lambda c: min(abs(hue - c[1]), 360 - abs(hue - c[1])))[0]


def describe_object(od, region):
    label = GLib.quark_to_string(od.get_obj_type()) or "(no label)"
    _, confidence = od.get_confidence_lvl()
    _, x, y, width, height = region.get_box()
    luma = mean_luma(region)
    stats = region.get_signalstats()
    hue_counts = region.get_hue_counts()
    line = "%s %.2f  at %d,%d %dx%d  luma %s" % (label, confidence, x, y, width, height,
                                               "-" if luma is None else "%.1f" % luma)
    if stats is None or not hue_counts or luma is None:
        return line + "  colour - (no hue: signalstats reads YUV of 8 to 10 bits)"
    hue = dominant_hue(hue_counts)
    depth = region.get_component_depth(region.find_component("Y"))
    return line + "  colour %s (hue %d, sat %.0f)" % (colour_name(hue, stats.sat_avg, luma, depth), hue, stats.sat_avg)


def make_probe(GstCudaHistogram, frames):
    def probe(pad, info):
        buffer = info.get_buffer()
        number = frames[0]
        frames[0] += 1
        rmeta = GstAnalytics.buffer_get_analytics_relation_meta(buffer)
        if rmeta is None:
            return Gst.PadProbeReturn.OK
        stamp = "t=%.3fs" % (buffer.pts / Gst.SECOND) if buffer.pts != Gst.CLOCK_TIME_NONE else "t=-"
        for i in range(GstAnalytics.relation_get_length(rmeta)):
            ok, od = rmeta.get_od_mtd(i)
            if not ok:
                continue
            found, region = GstCudaHistogram.analytics_relation_meta_find_cuda_region_mtd(rmeta, od.id)
            if not found:  # a detection cudahistogram skipped (see its warnings)
                continue
            print("frame %d  %s  %s" % (number, stamp, describe_object(od, region)), flush=True)
        return Gst.PadProbeReturn.OK

    return probe


def main(argv):
    Gst.init(None)
    args = parse_arguments(argv)
    GstCudaHistogram = import_bindings()
    if Gst.ElementFactory.find("cudahistogram") is None:
        sys.exit("object_colours: the cudahistogram element was not found: set GST_PLUGIN_PATH to "
                 "<builddir>/gst-plugin or <prefix>/<libdir>/gstreamer-1.0")
    gpu = not args.cpu and Gst.ElementFactory.find("cudaupload") is not None
    print("object_colours: counting on the %s" % ("GPU" if gpu else "CPU backend"), file=sys.stderr)
    pipeline = Gst.parse_launch(describe_pipeline(args, gpu))
    frames = [0]
    pad = pipeline.get_by_name("histogram").get_static_pad("src")
    pad.add_probe(Gst.PadProbeType.BUFFER, make_probe(GstCudaHistogram, frames))
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    message = bus.timed_pop_filtered(Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if message.type == Gst.MessageType.ERROR:
        error, debug = message.parse_error()
        sys.exit("object_colours: %s (%s)" % (error.message, debug))
    print("object_colours: %d frames" % frames[0], file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
