"""Sources by their type. A scheme no installed element reads stops the start
and is refused on reload, naming its line and the schemes that work, while
the running streams go on. A UDP source keeps its port to itself: another
program cannot bind it while the monitor listens (the issue's second
listener that knocked the stream down), a port another program holds is a
clear error for that stream alone, retried, and reuse=true lets others share
the port. loop= on a live source is a config error on its line."""

import os
import socket
import subprocess
import sys
import tempfile
import time

from monitor_harness import Monitor, fail, free_ports, rtp_sender, stop_all, udp_sender, wait_for

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-sources-")
config = os.path.join(work, "monitor.conf")
processes = []


def second_listener(port, reuse):
    """Another program binding the port as a tap would (SO_REUSEADDR when `reuse`); the socket, or the error."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if reuse:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("127.0.0.1", port))
        return s
    except OSError as e:
        s.close()
        return e


def counting(monitor, stream, seconds=3):
    before = monitor.value("cudahist_frames_total", stream)
    time.sleep(seconds)
    after = monitor.value("cudahist_frames_total", stream)
    return after is not None and before is not None and after > before


try:
    own, taken, shared, rtp = free_ports(4, socket.SOCK_DGRAM, rtp=True)
    processes += [udp_sender(own), udp_sender(shared), rtp_sender(rtp)]
    holder = second_listener(taken, reuse=False)  # another program has this port before the monitor starts
    with open(config, "w") as f:
        f.write("[monitor]\nstall-timeout=3\n"
                "[stream own]\nuri=udp://127.0.0.1:%d\n"
                "[stream taken]\nuri=udp://127.0.0.1:%d\n"
                "[stream shared]\nuri=udp://127.0.0.1:%d\nreuse=true\n"
                "[stream rtp]\nuri=rtp://127.0.0.1:%d?encoding-name=MP2T\n" % (own, taken, shared, rtp))
    monitor = Monitor(binary, ["--decoder", "cpu", "--config", config, "--web.enable-lifecycle"])
    processes.append(monitor.process)
    monitor.wait_up("own")
    monitor.wait_up("shared")
    monitor.wait_up("rtp")

    # A port another program holds: a clear error for that stream, retried; the others run.
    wait_for("taken down and retried", lambda: monitor.status()["taken"]["state"] == "down" and
             monitor.status()["taken"]["reconnects"] >= 1, 20)
    error = monitor.status()["taken"]["error"]
    print("taken:", error)
    if "its port cannot be bound (another program may hold it" not in error or "%d" % taken not in error:
        fail("the taken port's error: %s" % error)
    holder.close()
    wait_for("taken bound once the other program let go", lambda: monitor.status()["taken"]["state"] != "down" or
             "cannot be bound" not in monitor.status()["taken"]["error"], 40)

    # The monitor's own port: a second listener cannot take it; with reuse=true it can.
    tap = second_listener(own, reuse=True)
    if not isinstance(tap, OSError):
        fail("a second listener bound the port of 'own' (reuse is off)")
    print("a second listener on own's port:", tap)
    tap = second_listener(rtp, reuse=True)
    if not isinstance(tap, OSError):
        fail("a second listener bound the port of 'rtp' (rtpsrc's udpsrc shares it)")
    if not counting(monitor, "own"):
        fail("own stalled")
    tap = second_listener(shared, reuse=True)
    if isinstance(tap, OSError):
        fail("reuse=true, yet a second listener could not bind: %s" % tap)
    print("reuse=true: a second listener bound the port of 'shared'")
    tap.close()

    # A scheme nobody reads: refused on reload (the streams go on) and at the start.
    with open(config, "a") as f:
        f.write("[stream nobody]\nuri=foo://bar/baz\n")
    code, answer = monitor.post("/-/reload")
    print("reload:", code, answer.strip()[:160], "...")
    if code != 400 or "monitor.conf:13: uri=foo://bar/baz: no installed GStreamer element reads foo://" not in answer \
            or "udp" not in answer.split("these schemes are read here:")[-1]:
        fail("a reload with an unread scheme answered %d %r" % (code, answer))
    if "nobody" in monitor.status() or not counting(monitor, "own") or not counting(monitor, "shared"):
        fail("the refused reload changed the streams")
    start = subprocess.run([binary, "--decoder", "cpu", "--config", config], capture_output=True, text=True, timeout=30)
    if start.returncode != 2 or "monitor.conf:13: uri=foo://bar/baz" not in start.stderr:
        fail("a start with an unread scheme: exit %d %r" % (start.returncode, start.stderr))
    command_line = subprocess.run([binary, "--decoder", "cpu", "nosuchscheme://x/y"], capture_output=True, text=True,
                                  timeout=30)
    if command_line.returncode != 2 or "command line: uri=nosuchscheme://x/y: no installed" not in command_line.stderr:
        fail("an unread scheme on the command line: exit %d %r" % (command_line.returncode, command_line.stderr))
    print("start refused:", start.stderr.strip().splitlines()[-1][:140], "...")

    # loop= belongs to files.
    with open(config, "w") as f:
        f.write("[stream live]\nuri=udp://127.0.0.1:%d\nloop=true\n" % own)
    looped = subprocess.run([binary, "--config", config], capture_output=True, text=True, timeout=30)
    if looped.returncode != 2 or "monitor.conf:3: loop=true: only a file can loop; this is a udp source" not in looped.stderr:
        fail("loop=true on UDP: exit %d %r" % (looped.returncode, looped.stderr))
    print("loop on a live source:", looped.stderr.strip().splitlines()[-1])

    if monitor.process.poll() is not None:
        fail("the monitor exited")
    print("PASS")
finally:
    stop_all(processes)
