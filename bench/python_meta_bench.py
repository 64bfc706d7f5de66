#!/usr/bin/python3
"""What it costs Python to read every frame's counts: the meta or the messages.

    python_meta_bench.py [--frames N] [--repeats R] [--pattern NAME] [--json OUT]

Runs one 1080p NV12 pipeline in system memory (the CPU backend; the GPU host
has no PyGObject) in three ways, R times each, interleaved:

  baseline   cudahistogram attach-meta=true post-messages=false: counted, read by
             nobody (with neither output on, the element counts nothing)
  meta       attach-meta=true post-messages=false, and a Python pad probe on the
             element's src pad that reads every component's counts of every
             buffer's GstCudaHistogramMeta (GstCudaHistogram typelib)
  messages   attach-meta=false post-messages=true interval=0, and a Python bus
             watch in a GLib main loop that reads every "cudahistogram"
             message's histograms (the way plot_histograms.py reads them)

Each run goes from PLAYING to the application's handling of EOS (for
`messages`, every message before it has been read). Prints, per way, the
median frames per second and the median CPU time of the whole process per
frame (user + system), and what each way adds per frame to the baseline.
Then, apart from any pipeline, the time Python takes to read one frame's
counts (timeit, best of 5): from a buffer's meta, and from a message.
Needs GST_PLUGIN_PATH and GI_TYPELIB_PATH as probe_meta.py does.
"""
import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
import timeit

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstCudaHistogram", "1.0")
from gi.repository import GLib, Gst, GstCudaHistogram  # noqa: E402

CAPS = "video/x-raw,format=NV12,width=1920,height=1080,framerate=30/1"
WAYS = {
    "baseline": "attach-meta=true post-messages=false",
    "meta": "attach-meta=true post-messages=false",
    "messages": "attach-meta=false post-messages=true interval=0",
}


def cpu_model():
    with open("/proc/cpuinfo") as f:
        return next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), platform.machine())


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Reader:
    """Reads every frame's counts the way `way` offers them; counts what it read."""

    def __init__(self, way):
        self.way = way
        self.frames = 0
        self.samples = 0

    def on_buffer(self, pad, info):
        meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(info.get_buffer())
        if meta is not None:
            self.frames += 1
            self.samples += sum(sum(meta.get_counts(c)) for c in range(meta.n_components))
        return Gst.PadProbeReturn.OK

    def on_message(self, structure):
        if structure.has_name("cudahistogram"):
            self.frames += 1
            self.samples += sum(sum(h) for h in structure.get_value("histograms"))


def run_once(way, frames, pattern):
    pipeline = Gst.parse_launch("videotestsrc num-buffers=%d pattern=%s ! %s ! cudahistogram name=h %s ! "
                                "fakesink sync=false" % (frames, pattern, CAPS, WAYS[way]))
    reader = Reader(way)
    if way == "meta":
        pipeline.get_by_name("h").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, reader.on_buffer)
    loop = GLib.MainLoop()
    failure = []

    def on_bus(bus, message):
        if message.type == Gst.MessageType.ELEMENT:
            reader.on_message(message.get_structure())
        elif message.type == Gst.MessageType.ERROR:
            failure.append(message.parse_error()[0].message)
            loop.quit()
        elif message.type == Gst.MessageType.EOS:
            loop.quit()
        return True

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_bus)
    pipeline.set_state(Gst.State.PAUSED)
    pipeline.get_state(Gst.CLOCK_TIME_NONE)  # preroll (the first frame) outside the timing
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    pipeline.set_state(Gst.State.PLAYING)
    loop.run()
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
    bus.remove_signal_watch()
    pipeline.set_state(Gst.State.NULL)
    if failure:
        sys.exit("python_meta_bench: %s: %s" % (way, failure[0]))
    expected = 0 if way == "baseline" else frames
    if reader.frames != expected or (expected and reader.samples != frames * 1920 * 1080 * 3 // 2):
        sys.exit("python_meta_bench: %s read %d frames, %d samples" % (way, reader.frames, reader.samples))
    return frames / wall, cpu / frames


def read_costs(pattern):
    """Microseconds Python takes to read one 1080p frame's counts: {way: us}."""
    pipeline = Gst.parse_launch("videotestsrc num-buffers=1 pattern=%s ! %s ! cudahistogram interval=0 ! "
                                "appsink name=sink" % (pattern, CAPS))
    pipeline.set_state(Gst.State.PLAYING)
    buffer = pipeline.get_by_name("sink").emit("pull-sample").get_buffer()
    message = pipeline.get_bus().timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.ELEMENT)
    pipeline.set_state(Gst.State.NULL)

    def from_meta():
        meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer)
        return [meta.get_counts(c) for c in range(meta.n_components)]

    def from_message():
        return list(message.get_structure().get_value("histograms"))

    assert from_meta() == [list(h) for h in from_message()]
    calls = 2000
    return {name: 1e6 * min(timeit.repeat(read, number=calls, repeat=5)) / calls
            for name, read in (("meta", from_meta), ("messages", from_message))}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--pattern", default="smpte")
    parser.add_argument("--json", help="write the runs and medians here")
    args = parser.parse_args(argv)
    Gst.init(None)
    if Gst.ElementFactory.find("cudahistogram") is None:
        sys.exit("python_meta_bench: cudahistogram not found: set GST_PLUGIN_PATH")

    run_once("meta", 30, args.pattern)  # warm-up: plugin loading, page faults, caches
    runs = {way: [] for way in WAYS}
    for _ in range(args.repeats):
        for way in WAYS:
            runs[way].append(run_once(way, args.frames, args.pattern))

    medians = {way: (statistics.median(r[0] for r in runs[way]), statistics.median(r[1] for r in runs[way]))
               for way in WAYS}
    base_fps, base_cpu = medians["baseline"]
    print("machine: %s, %d CPUs, load average %.2f %.2f %.2f; Python %s, PyGObject %s, %s" % (
        cpu_model(), os.cpu_count(), *os.getloadavg(), platform.python_version(), gi.__version__,
        Gst.version_string()))
    print("pipeline: videotestsrc num-buffers=%d pattern=%s ! %s ! cudahistogram ... ! fakesink sync=false; "
          "%d runs each, medians" % (args.frames, args.pattern, CAPS, args.repeats))
    print("%-9s %10s %15s %26s %22s" % ("way", "frames/s", "CPU us/frame", "added CPU us/frame (min-max)",
                                          "wall us/frame added"))
    for way in WAYS:
        fps, cpu = medians[way]
        added = [1e6 * (r[1] - base_cpu) for r in runs[way]]
        print("%-9s %10.1f %15.0f %12.0f (%5.0f to %5.0f) %22.0f" % (
            way, fps, 1e6 * cpu, 1e6 * (cpu - base_cpu), min(added), max(added), 1e6 * (1 / fps - 1 / base_fps)))
    reads = read_costs(args.pattern)
    print("Python reading one frame's counts (3 x 256, lists of ints), best of 5 x 2000 calls: "
          "meta %.1f us, message %.1f us" % (reads["meta"], reads["messages"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"frames": args.frames, "pattern": args.pattern, "caps": CAPS, "read_us": reads,
                       "runs": {w: [{"fps": r[0], "cpu_s_per_frame": r[1]} for r in runs[w]] for w in WAYS},
                       "medians": {w: {"fps": m[0], "cpu_s_per_frame": m[1]} for w, m in medians.items()}},
                      f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
