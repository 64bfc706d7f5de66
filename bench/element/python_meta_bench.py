#!/usr/bin/python3
"""What it costs Python to read every frame's counts: the meta or the messages.

    python_meta_bench.py [--frames N] [--repeats R] [--pattern NAME] [--size WxH] [--json OUT]

Runs one NV12 pipeline (1920x1080 unless --size) in system memory (the CPU
backend; the GPU host has no PyGObject) in three ways, R times each,
interleaved:

  baseline   cudahistogram attach-meta=true post-messages=false: counted, read by
             nobody (with neither output on, the element counts nothing)
  meta       attach-meta=true post-messages=false, and a Python pad probe on the
             element's src pad that reads every component's counts of every
             buffer's GstCudaHistogramMeta (GstCudaHistogram typelib)
  meta-kept  as `meta`, the probe keeping its thread's Python thread state
             (probe_meta.py's keep_thread_state) instead of PyGObject making
             and destroying one per buffer
  messages   attach-meta=false post-messages=true interval=0, and a Python bus
             watch in a GLib main loop that reads every "cudahistogram"
             message's histograms (the way plot_histograms.py reads them)
  appsink    as `meta`, but the pipeline ends in an appsink instead of the
             fakesink and Python's own thread pulls every sample and reads
             its meta: no Python callback on GStreamer's streaming thread

Each run is a process of its own (GStreamer's thread pool keeps its threads,
and with them a kept thread state, from one pipeline to the next) and goes
from PLAYING to the application's handling of EOS (for `messages`, every
message before it has been read). Prints, per way, the
median frames per second and the median CPU time of the whole process per
frame (user + system), each also from its best run (other processes only
add time), and what each way adds per frame to the baseline.
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
import subprocess
import sys
import time
import timeit

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstApp", "1.0")
gi.require_version("GstCudaHistogram", "1.0")
from gi.repository import GLib, Gst, GstApp, GstCudaHistogram  # noqa: E402,F401 (GstApp: appsink's methods)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
import probe_meta  # noqa: E402 (its keep_thread_state)

CAPS = "video/x-raw,format=NV12,width=%d,height=%d,framerate=30/1"
WAYS = {
    "baseline": "attach-meta=true post-messages=false",
    "meta": "attach-meta=true post-messages=false",
    "meta-kept": "attach-meta=true post-messages=false",
    "messages": "attach-meta=false post-messages=true interval=0",
    "appsink": "attach-meta=true post-messages=false",
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
        self.read_meta(info.get_buffer())
        return Gst.PadProbeReturn.OK

    def on_buffer_keeping_thread_state(self, pad, info):
        probe_meta.keep_thread_state()
        return self.on_buffer(pad, info)

    def read_meta(self, buffer):
        meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer)
        if meta is not None:
            self.frames += 1
            self.samples += sum(sum(meta.get_counts(c)) for c in range(meta.n_components))

    def on_message(self, structure):
        if structure.has_name("cudahistogram"):
            self.frames += 1
            self.samples += sum(sum(h) for h in structure.get_value("histograms"))


def pull_samples(pipeline, reader, failure):
    """The appsink way: Python's main thread pulls every sample until EOS."""
    sink = pipeline.get_by_name("sink")
    while True:
        sample = sink.try_pull_sample(10 * Gst.SECOND)
        if sample is None:
            break
        reader.read_meta(sample.get_buffer())
    message = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    if message is not None or not sink.is_eos():
        failure.append(message.parse_error()[0].message if message else "appsink: no sample for 10 s")


def run_once(way, frames, pattern, size):
    sink = "appsink name=sink sync=false max-buffers=8" if way == "appsink" else "fakesink sync=false"
    pipeline = Gst.parse_launch("videotestsrc num-buffers=%d pattern=%s ! %s ! cudahistogram name=h %s ! %s"
                                % (frames, pattern, CAPS % size, WAYS[way], sink))
    reader = Reader(way)
    if way in ("meta", "meta-kept"):
        probe = reader.on_buffer if way == "meta" else reader.on_buffer_keeping_thread_state
        pipeline.get_by_name("h").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, probe)
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
    if way != "appsink":
        bus.add_signal_watch()
        bus.connect("message", on_bus)
    pipeline.set_state(Gst.State.PAUSED)
    pipeline.get_state(Gst.CLOCK_TIME_NONE)  # preroll (the first frame) outside the timing
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    pipeline.set_state(Gst.State.PLAYING)
    if way == "appsink":
        pull_samples(pipeline, reader, failure)
    else:
        loop.run()
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
    if way != "appsink":
        bus.remove_signal_watch()
    pipeline.set_state(Gst.State.NULL)
    if failure:
        sys.exit("python_meta_bench: %s: %s" % (way, failure[0]))
    expected = 0 if way == "baseline" else frames
    samples = size[0] * size[1] + 2 * ((size[0] + 1) // 2) * ((size[1] + 1) // 2)
    if reader.frames != expected or (expected and reader.samples != frames * samples):
        sys.exit("python_meta_bench: %s read %d frames, %d samples" % (way, reader.frames, reader.samples))
    return frames / wall, cpu / frames


def read_costs(pattern, size):
    """Microseconds Python takes to read one frame's counts: {way: us}."""
    pipeline = Gst.parse_launch("videotestsrc num-buffers=1 pattern=%s ! %s ! cudahistogram interval=0 ! "
                                "appsink name=sink" % (pattern, CAPS % size))
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


def run_in_a_process(way, args):
    """run_once in a fresh process: (frames per second, CPU seconds per frame)."""
    result = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", way, "--frames", str(args.frames),
                             "--pattern", args.pattern, "--size", args.size],
                            capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        sys.exit("python_meta_bench: %s: %s" % (way, result.stderr.strip()))
    return tuple(json.loads(result.stdout))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--pattern", default="smpte")
    parser.add_argument("--size", default="1920x1080", help="frame size, WxH (default %(default)s)")
    parser.add_argument("--json", help="write the runs and medians here")
    parser.add_argument("--one", choices=WAYS, help=argparse.SUPPRESS)  # one run, JSON on stdout
    args = parser.parse_args(argv)
    size = tuple(int(v) for v in args.size.split("x"))
    Gst.init(None)
    if Gst.ElementFactory.find("cudahistogram") is None:
        sys.exit("python_meta_bench: cudahistogram not found: set GST_PLUGIN_PATH")
    if args.one:
        run_once(args.one, 10, args.pattern, size)  # warm-up: plugin loading, page faults, caches
        print(json.dumps(run_once(args.one, args.frames, args.pattern, size)))
        return

    runs = {way: [] for way in WAYS}
    for _ in range(args.repeats):
        for way in WAYS:
            runs[way].append(run_in_a_process(way, args))

    medians = {way: (statistics.median(r[0] for r in runs[way]), statistics.median(r[1] for r in runs[way]))
               for way in WAYS}
    # Other processes only ever add time: the best run of each way is the least disturbed.
    best = {way: (max(r[0] for r in runs[way]), min(r[1] for r in runs[way])) for way in WAYS}
    print("machine: %s, %d CPUs, load average %.2f %.2f %.2f; Python %s, PyGObject %s, %s" % (
        cpu_model(), os.cpu_count(), *os.getloadavg(), platform.python_version(), gi.__version__,
        Gst.version_string()))
    print("pipeline: videotestsrc num-buffers=%d pattern=%s ! %s ! cudahistogram ... ! fakesink sync=false (appsink: appsink); "
          "%d runs each" % (args.frames, args.pattern, CAPS % size, args.repeats))
    print("%-10s %21s %25s %33s" % ("", "frames/s", "CPU us/frame", "CPU us/frame added to baseline"))
    print("%-10s %10s %10s %12s %12s %16s %16s" % ("way", "median", "best", "median", "best", "median", "best"))
    for way in WAYS:
        print("%-10s %10.1f %10.1f %12.0f %12.0f %16.0f %16.0f" % (
            way, medians[way][0], best[way][0], 1e6 * medians[way][1], 1e6 * best[way][1],
            1e6 * (medians[way][1] - medians["baseline"][1]), 1e6 * (best[way][1] - best["baseline"][1])))
    reads = read_costs(args.pattern, size)
    print("Python reading one frame's counts (3 x 256, lists of ints), best of 5 x 2000 calls: "
          "meta %.1f us, message %.1f us" % (reads["meta"], reads["messages"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"frames": args.frames, "pattern": args.pattern, "caps": CAPS % size, "read_us": reads,
                       "runs": {w: [{"fps": r[0], "cpu_s_per_frame": r[1]} for r in runs[w]] for w in WAYS},
                       "medians": {w: {"fps": m[0], "cpu_s_per_frame": m[1]} for w, m in medians.items()},
                       "best": {w: {"fps": m[0], "cpu_s_per_frame": m[1]} for w, m in best.items()}},
                      f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
