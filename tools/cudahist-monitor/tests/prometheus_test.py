"""A small fleet under a real Prometheus: Debian's prometheus scrapes two
monitors on 127.0.0.1 every second with alerts.rules.yml loaded. The figures
it stores for a looped file equal, field for field, those the cudahistogram
element posts for one of that file's frames (read here from the element
itself); when a UDP source goes black, CudahistBlack fires in Prometheus."""

import os
import re
import socket
import sys
import tempfile
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

from monitor_harness import (Monitor, Prometheus, fail, file_uri, free_port, make_file, raw_video,  # noqa: E402
                             stop_all, udp_sender, wait_for)

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-prometheus-")
processes = []


def element_figures(uri):
    """Every frame's message of the element on `uri`, as {message field: value}:
    on the GPU where nvcodec offers cudaupload (it registers it only where
    CUDA works), on the CPU otherwise. The figures are the same on either
    backend, and H.264 decodes to the same pixels with NVDEC and libavcodec."""
    Gst.init(None)
    memory = ("cudaupload ! video/x-raw(memory:CUDAMemory)" if Gst.ElementFactory.find("cudaupload")
              else "capsfilter caps=video/x-raw")
    pipeline = Gst.parse_launch('uridecodebin uri="%s" caps="video/x-raw(ANY)" expose-all-streams=false ! %s ! '
                                'cudahistogram signalstats=true ! fakesink' % (uri, memory))
    frames = []
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    while True:
        message = bus.timed_pop_filtered(30 * Gst.SECOND, Gst.MessageType.ELEMENT | Gst.MessageType.EOS |
                                         Gst.MessageType.ERROR)
        if message is None or message.type != Gst.MessageType.ELEMENT:
            if message is not None and message.type == Gst.MessageType.ERROR:
                fail("reference pipeline: %s" % message.parse_error()[0].message)
            break
        s = message.get_structure()
        if s.get_name() != "cudahistogram":
            continue
        figures = {}
        for i in range(s.n_fields()):
            field = s.nth_field_name(i)
            value = s.get_value(field)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and field not in (
                    "timestamp", "stream-time", "running-time", "duration", "frames", "width", "height", "bins",
                    "roi-x", "roi-y", "roi-width", "roi-height"):
                figures[field] = float(value)
        frames.append(figures)
    pipeline.set_state(Gst.State.NULL)
    return frames


# The configuration docs/monitor.md gives as the fleet example.
PROMETHEUS_YML = """
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - alerts.rules.yml
scrape_configs:
  - job_name: cudahist
    static_configs:
      - targets: [%s]
"""

try:
    looped = make_file(os.path.join(work, "bars.mp4"), frames=30)
    reference = element_figures(file_uri(looped))
    print("the element's figures for %d frames of the file" % len(reference))

    udp = free_port(socket.SOCK_DGRAM)
    processes.append(udp_sender(udp))
    config = os.path.join(work, "m1.conf")
    with open(config, "w") as f:
        f.write("[stream bars]\nuri=%s\nloop=true\n" % file_uri(looped))
    m1 = Monitor(binary, ["--config", config], name="m1")
    m2 = Monitor(binary, ["udp://127.0.0.1:%d" % udp], name="m2")
    processes += [m1.process, m2.process]
    live = "udp://127.0.0.1:%d" % udp
    prometheus = Prometheus(PROMETHEUS_YML % ", ".join("'127.0.0.1:%d'" % m.port for m in (m1, m2)), work)
    processes.append(prometheus.process)

    wait_for("Prometheus to see both streams up",
             lambda: len([r for r in prometheus.query("cudahist_stream_up == 1")]) == 2, 60)
    print("Prometheus scrapes both monitors:",
          sorted("%s@%s" % (r["metric"]["stream"], r["metric"]["instance"]) for r in prometheus.query("cudahist_stream_up")))

    # Every figure of one scrape equals the element's figure for one frame. A
    # figure's metric says in its help which message field it carries (its
    # name adds the unit: brng is cudahist_brng_ratio).
    field_of = {}
    for name, metadata in (prometheus.api("metadata") or {}).items():
        said = re.search(r"the cudahistogram message's '([a-z-]+)'", metadata[0]["help"])
        if said:
            field_of[name] = said.group(1)
    for attempt in range(3):
        stored = {field_of[r["metric"]["__name__"]]: float(r["value"][1])
                  for r in prometheus.query('{__name__=~"cudahist_.+", stream="bars"}')
                  if r["metric"]["__name__"] in field_of}
        compared = sorted(set(stored) & set(reference[0]))
        matches = [i for i, frame in enumerate(reference) if all(stored[n] == frame[n] for n in compared)]
        if len(compared) < 26:
            fail("only %d figures to compare: %s" % (len(compared), compared))
        if matches:
            break
        time.sleep(1)
    else:
        closest = min(reference, key=lambda frame: sum(stored[n] != frame[n] for n in compared))
        fail("Prometheus's figures match no frame of the file; differing from the closest: %s" %
             {n: (stored[n], closest[n]) for n in compared if stored[n] != closest[n]})
    print("Prometheus's %d figures of 'bars' equal the element's for frame %d (y_avg %.3f, sat_avg %.3f, brng %g)"
          % (len(compared), matches[0], stored["y-avg"], stored["sat-avg"], stored["brng"]))
    # Before the first scrape CudahistMonitorAbsent may be pending (no `up` yet); nothing may fire, nor be
    # pending about a stream.
    early = prometheus.query('ALERTS{alertstate="firing"} or ALERTS{stream!=""}')
    if early:
        fail("alerts before any source goes black: %s" % early)

    # The UDP source goes black: the same port, a black picture from now on.
    stop_all([processes[0]])
    processes[0] = udp_sender(udp, source=raw_video(pattern="black"))
    went_black = time.monotonic()
    wait_for("CudahistBlack to fire in Prometheus",
             lambda: any(a["stream"] == live for a in prometheus.firing("CudahistBlack")), 45)
    print("CudahistBlack fires in Prometheus %.1f s after the source went black (the monitor's hold 2 s, the rule's "
          "for: 15s, scrape and evaluation 1 s)" % (time.monotonic() - went_black))
    if any(a["labels"]["stream"] == "bars" for a in prometheus.api("alerts")["alerts"]):
        fail("an alert fired for bars: %s" % prometheus.api("alerts"))
    if m2.value("cudahist_alarm_active", (live, "black")) != 1:
        fail('the monitor\'s own cudahist_alarm_active{alarm="black"} is not 1')
    print("PASS")
finally:
    stop_all(processes)
