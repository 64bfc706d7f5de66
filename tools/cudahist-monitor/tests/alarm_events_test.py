"""Alarms as events an incident system can trust: four UDP sources whose
picture goes black and back on a signal (black_sender.py) drive the monitor
through every way an alarm ends, and every id it writes is raised once and
cleared once, for the reason that ended it:
- a picture that recovers (recovered);
- a source killed mid-alarm: its black clears with reason no_signal when
  no_signal is raised, never as "recovered";
- a reload that changes a stream's black-luma mid-alarm: cleared
  (rule_changed), raised again under a new id, the pipeline not restarted;
- a reload that removes a stream mid-alarm (stream_removed), and one that
  gives a stream in no_signal another URI (stream_reconfigured);
- SIGTERM with alarms raised (shutdown).
Raised lines carry the figure, value, comparison, threshold, scale and hold."""

import os
import signal
import socket
import subprocess
import sys
import tempfile
from datetime import datetime

from monitor_harness import HERE, Monitor, fail, free_port, free_ports, stop_all, wait_for

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-events-")
config = os.path.join(work, "events.conf")
NAMES = "abcd"
ports = dict(zip(NAMES, free_ports(len(NAMES), socket.SOCK_DGRAM)))
senders = {}

RAISED_FIELDS = {"time", "id", "stream", "alarm", "severity", "state", "hold"}
FIGURE_FIELDS = {"figure", "value", "comparison", "threshold", "scale"}
CLEARED_FIELDS = {"time", "id", "stream", "alarm", "severity", "state", "reason", "seconds"}


def write_config(streams, black_luma=None, uris=None):
    uris = uris or {}
    with open(config, "w") as f:
        f.write("[monitor]\nstall-timeout=2\nno-signal-hold=1\nno-signal-clear=1\nblack-hold=1\nblack-clear=1\n")
        for n in streams:
            f.write("[stream %s]\nuri=%s\n" % (n, uris.get(n, "udp://127.0.0.1:%d" % ports[n])))
            if black_luma and n in black_luma:
                f.write("black-luma=%d\n" % black_luma[n])


def sender(name):
    return subprocess.Popen([sys.executable, os.path.join(HERE, "black_sender.py"), str(ports[name])],
                            stdout=subprocess.PIPE, text=True)


def picture(name, pattern):
    senders[name].send_signal(signal.SIGUSR1 if pattern == "black" else signal.SIGUSR2)
    said = senders[name].stdout.readline().split()
    if not said or said[0] != pattern:
        fail("sender %s said %r" % (name, said))


def lines(monitor, stream=None, alarm=None, state=None):
    return [x for x in monitor.alarms() if (stream is None or x["stream"] == stream) and
            (alarm is None or x["alarm"] == alarm) and (state is None or x["state"] == state)]


def wait_line(monitor, what, timeout=20, count=1, **match):
    return wait_for(what, lambda: len(lines(monitor, **match)) >= count and lines(monitor, **match), timeout)[count - 1]


try:
    senders = {n: sender(n) for n in NAMES}
    write_config(NAMES)
    monitor = Monitor(binary, ["--config", config, "--web.enable-lifecycle"])
    for n in NAMES:
        monitor.wait_up(n)
    if monitor.alarms():
        fail("alarms before any fault: %s" % monitor.alarms())
    print("a, b, c, d up, no alarm")

    # --- a picture goes black and recovers ------------------------------------------------
    picture("a", "black")
    raised = wait_line(monitor, "a black", stream="a", alarm="black", state="raised")
    missing = (RAISED_FIELDS | FIGURE_FIELDS) - set(raised)
    if missing or raised["figure"] != "y-high" or raised["comparison"] != "<=" or raised["threshold"] != 32 \
            or raised["value"] > 32 or raised["hold"] != 1 or raised["scale"] != "8-bit code value":
        fail("the raised line lacks %s or says %s" % (missing, raised))
    print("raised:", raised)
    picture("a", "bars")
    cleared = wait_line(monitor, "a black cleared", stream="a", alarm="black", state="cleared")
    if set(cleared) != CLEARED_FIELDS or cleared["id"] != raised["id"] or cleared["reason"] != "recovered":
        fail("the cleared line says %s" % cleared)
    print("cleared:", cleared)

    # --- a's source dies mid-alarm ----------------------------------------------------------
    picture("a", "black")
    wait_line(monitor, "a black again", count=2, stream="a", alarm="black", state="raised")
    senders["a"].kill()
    senders["a"].wait()
    no_signal = wait_line(monitor, "a no_signal", stream="a", alarm="no_signal", state="raised")
    if not no_signal.get("detail"):
        fail("no_signal says nothing of why: %s" % no_signal)
    black = wait_line(monitor, "a black cleared by the death", count=2, stream="a", alarm="black", state="cleared")
    if black["reason"] != "no_signal":
        fail("a dead source's black cleared as %s" % black)
    events = monitor.alarms()
    if events.index(black) < events.index(no_signal):
        fail("black cleared before no_signal was raised: %s" % events)
    print("a's source killed mid-alarm: no_signal raised, then black cleared with reason no_signal")

    # --- a threshold change mid-alarm: b ----------------------------------------------------
    picture("b", "black")
    first = wait_line(monitor, "b black", stream="b", alarm="black", state="raised")
    reconnects = monitor.value("cudahist_reconnects_total", "b")
    frames = monitor.value("cudahist_frames_total", "b")
    write_config(NAMES, black_luma={"b": 24})  # the black picture's YHIGH of 16 is still black
    status, text = monitor.post("/-/reload")
    if status != 200:
        fail("reload: %d %s" % (status, text))
    changed = wait_line(monitor, "b black cleared by the reload", stream="b", alarm="black", state="cleared")
    if changed["id"] != first["id"] or changed["reason"] != "rule_changed":
        fail("b's black after the threshold change: %s" % changed)
    again = wait_line(monitor, "b black raised again", count=2, stream="b", alarm="black", state="raised")
    if again["id"] == first["id"] or again["threshold"] != 24:
        fail("b's black raised again as %s" % again)
    if monitor.value("cudahist_reconnects_total", "b") != reconnects or \
            monitor.value("cudahist_frames_total", "b") < frames or "stream b: removed" in monitor.log():
        fail("the threshold change restarted b:\n" + monitor.log())
    print("b's black-luma changed mid-alarm: cleared (rule_changed), raised again under a new id at threshold 24")

    # --- a reload removes c mid-alarm, and gives a (in no_signal) another URI ---------------
    picture("c", "black")
    wait_line(monitor, "c black", stream="c", alarm="black", state="raised")
    write_config("abd", black_luma={"b": 24}, uris={"a": "udp://127.0.0.1:%d" % free_port(socket.SOCK_DGRAM)})
    monitor.process.send_signal(signal.SIGHUP)
    removed = wait_line(monitor, "c black cleared by its removal", stream="c", alarm="black", state="cleared")
    if removed["reason"] != "stream_removed":
        fail("c's black on removal: %s" % removed)
    moved = wait_line(monitor, "a no_signal cleared by the new URI", stream="a", alarm="no_signal", state="cleared")
    if moved["reason"] != "stream_reconfigured":
        fail("a's no_signal on a new URI: %s" % moved)
    print("reload: c removed mid-alarm (stream_removed), a given a new URI (stream_reconfigured)")

    # --- SIGTERM with alarms raised ---------------------------------------------------------
    picture("d", "black")
    wait_line(monitor, "d black", stream="d", alarm="black", state="raised")
    wait_line(monitor, "a no_signal again", count=2, stream="a", alarm="no_signal", state="raised")
    open_before = {x["id"] for x in lines(monitor, state="raised")} - {x["id"] for x in lines(monitor, state="cleared")}
    code = monitor.stop()
    if code != 0:
        fail("SIGTERM: exit %s\n%s" % (code, monitor.log()))
    shutdown = [x for x in lines(monitor, state="cleared") if x["reason"] == "shutdown"]
    if {x["id"] for x in shutdown} != open_before:
        fail("at shutdown %s cleared, %s were open" % (shutdown, open_before))
    print("SIGTERM: %d open alarms cleared (shutdown): %s" % (len(shutdown), sorted((x["stream"], x["alarm"])
                                                                                      for x in shutdown)))

    # --- every id: raised once, cleared once, after it, same stream and alarm -----------------
    raised_by_id, cleared_by_id = {}, {}
    for x in monitor.alarms():
        book = raised_by_id if x["state"] == "raised" else cleared_by_id
        if x["id"] in book:
            fail("id %s %s twice: %s" % (x["id"], x["state"], x))
        book[x["id"]] = x
    if set(raised_by_id) != set(cleared_by_id):
        fail("unpaired ids: raised only %s, cleared only %s" % (set(raised_by_id) - set(cleared_by_id),
                                                                set(cleared_by_id) - set(raised_by_id)))
    for i, r in raised_by_id.items():
        c = cleared_by_id[i]
        if (r["stream"], r["alarm"]) != (c["stream"], c["alarm"]) or \
                datetime.fromisoformat(c["time"]) < datetime.fromisoformat(r["time"]):
            fail("id %s raised as %s, cleared as %s" % (i, r, c))
    reasons = sorted(c["reason"] for c in cleared_by_id.values())
    print("%d ids, each raised once and cleared once; reasons %s" % (len(raised_by_id), reasons))
    for reason in ("recovered", "no_signal", "rule_changed", "stream_removed", "stream_reconfigured", "shutdown"):
        if reason not in reasons:
            fail("no alarm cleared for %s" % reason)
    print("PASS")
finally:
    stop_all(list(senders.values()))
