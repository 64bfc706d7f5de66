"""One monitor, every kind of input at once, good and bad: MPEG-TS over UDP
and RTP, SRT, RTSP, HLS, a looped file, a file played once, a stream that
changes resolution, a black 10-bit file (its black alarm from figures scaled
to 8 bits); a missing file, a file without video, a host name that does not
resolve (a scheme nobody reads stops the start: source_types_test.py).
The good streams run at their source's rate whatever the bad ones do; the bad
ones are down with a clear reason and retried, and nothing crashes."""

import os
import socket
import sys
import tempfile
import time

from monitor_harness import (RATE, Monitor, fail, file_uri, free_ports, hls_origin, make_file, rtp_sender, rtsp_server,
                             srt_sender, stop_all, udp_sender, wait_for)

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-sources-")
processes = []
try:
    # SRT runs over UDP: its port is chosen among the UDP ones, distinct from
    # the UDP and RTP/RTCP ports.
    srt, udp, rtp = free_ports(3, socket.SOCK_DGRAM, rtp=True)
    rtsp, hls = free_ports(2)
    processes += [udp_sender(udp), rtp_sender(rtp), srt_sender(srt), rtsp_server(rtsp)]
    hls_dir = os.path.join(work, "hls")
    os.mkdir(hls_dir)
    processes += list(hls_origin(hls_dir, hls))

    once = make_file(os.path.join(work, "once.mp4"), frames=30)
    looped = make_file(os.path.join(work, "looped.mp4"), frames=30)
    # Two resolutions one after the other in one transport stream, 4 s each:
    # the rate window below holds at most one renegotiation and one loop
    # (each a short pause of the file's own pipeline under load).
    big = make_file(os.path.join(work, "big.ts"), frames=60, mux="mpegtsmux")
    small = make_file(os.path.join(work, "small.ts"), frames=60, width=160, height=90, mux="mpegtsmux")
    resized = os.path.join(work, "resized.ts")
    with open(resized, "wb") as out:
        for part in (big, small):
            out.write(open(part, "rb").read())
    deep = make_file(os.path.join(work, "deep.mp4"), pattern="black", frames=30, fmt="I420_10LE")
    audio = os.path.join(work, "audio.wav")
    os.system("gst-launch-1.0 -q audiotestsrc num-buffers=50 ! wavenc ! filesink location=%s" % audio)

    live = {"udp": "udp://127.0.0.1:%d" % udp, "rtp": "rtp://127.0.0.1:%d?encoding-name=MP2T" % rtp,
            "srt": "srt://127.0.0.1:%d" % srt,
            "rtsp": "rtsp://127.0.0.1:%d/test" % rtsp, "hls": "http://127.0.0.1:%d/playlist.m3u8" % hls}
    bad = {"missing": (file_uri(os.path.join(work, "no-such-file.mp4")), "not found"),
           "no-video": (file_uri(audio), "no video stream"),
           # .invalid never resolves (RFC 2606)
           "unresolvable": ("http://no-such-host.invalid/live.m3u8", "cannot resolve host 'no-such-host.invalid'")}
    config = os.path.join(work, "monitor.conf")
    with open(config, "w") as f:
        f.write("[monitor]\nstall-timeout=4\n")
        for name, uri in live.items():
            f.write("[stream %s]\nuri=%s\n" % (name, uri))
        f.write("[stream looped]\nuri=%s\nloop=true\n" % file_uri(looped))
        f.write("[stream once]\nuri=%s\n" % file_uri(once))
        f.write("[stream resized]\nuri=%s\nloop=true\n" % file_uri(resized))
        f.write("[stream deep]\nuri=%s\nloop=true\n" % file_uri(deep))
        for name, (uri, _) in bad.items():
            f.write("[stream %s]\nuri=%s\n" % (name, uri))
    time.sleep(2)  # the HLS origin writes its first segments

    monitor = Monitor(binary, ["--config", config])
    processes.append(monitor.process)
    for name in list(live) + ["looped", "resized", "deep"]:
        monitor.wait_up(name, timeout=40)
    print("every good stream is up")

    # Frames/s of each good stream over a window in which the bad ones fail and are retried.
    first = monitor.metrics()
    window = 8.0
    time.sleep(window)
    last = monitor.metrics()
    for name in list(live) + ["looped", "resized"]:
        rate = (last[("cudahist_frames_total", name)] - first[("cudahist_frames_total", name)]) / window
        print("%-8s %.1f frames/s" % (name, rate))
        if rate < 0.8 * RATE:
            fail("%s ran at %.1f frames/s, its source sends %d" % (name, rate, RATE))
        if last[("cudahist_stream_up", name)] != 1:
            fail("%s went down" % name)

    status = monitor.status()
    for name, (uri, reason) in bad.items():
        s = status[name]
        print("%-10s %s: %s (reconnects %d)" % (name, s["state"], s["error"][:120], s["reconnects"]))
        if s["state"] != "down" or reason not in s["error"]:
            fail("%s: expected down with '%s', got %s: %s" % (name, reason, s["state"], s["error"]))
        if s["reconnects"] < 1:
            fail("%s was not retried" % name)
        if ("stream %s: down: " % name) not in monitor.log():
            fail("no log line says %s is down" % name)

    if status["once"]["state"] != "ended" or last[("cudahist_frames_total", "once")] != 30:
        fail("the file played once: %s with %s frames, expected ended with its 30" %
             (status["once"]["state"], last[("cudahist_frames_total", "once")]))
    if last[("cudahist_frames_total", "looped")] <= 30:
        fail("the looped file did not loop")

    widths = set()
    wait_for("the resized stream at both sizes",
             lambda: widths.add(monitor.value("cudahist_frame_width_pixels", "resized")) or {160, 320} <= widths, 20, step=0.2)
    if "stream resized: down" in monitor.log():
        fail("the resolution change took the stream down:\n" + monitor.log())
    print("resized stream seen at widths", sorted(widths))

    # 10-bit black: luma at 64 (16 in 8 bits), below the 8-bit black-luma 32 once scaled.
    deep = (last[("cudahist_sample_depth_bits", "deep")], last[("cudahist_alarm_active", ("deep", "black"))])
    if deep != (10, 1):
        fail("the 10-bit black stream: depth %s, black %s" % deep)
    print("10-bit black stream: YHIGH %d, black alarm raised" % last[("cudahist_y_high", "deep")])
    calm = [name for name in list(live) + ["looped"]
            if any(value for (metric, key), value in last.items()
                   if metric == "cudahist_alarm_active" and key[0] == name)]
    if calm:
        fail("alarms on the moving bars of %s" % calm)

    if monitor.process.poll() is not None:
        fail("the monitor exited")
    code = monitor.stop()
    if code != 0 or "stopped" not in monitor.log():
        fail("SIGTERM: exit code %s\n%s" % (code, monitor.log()))
    print("PASS")
finally:
    stop_all(processes)
