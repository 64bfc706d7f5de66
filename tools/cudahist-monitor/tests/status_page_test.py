"""The status page in headless Chromium: 16 streams (15 looped files and a
UDP source) make 16 tiles on a 1366x768 laptop screen, each with its scope
picture; when the UDP source goes black its tile turns to the alarm state
within the black hold time plus one figures interval and one page refresh.
The screenshots stay in the build folder for a person to look at."""

import os
import re
import socket
import subprocess
import sys
import tempfile
import time

from PIL import Image

from monitor_harness import HERE, Monitor, chromium, fail, file_uri, free_port, make_file, stop_all, wait_for

binary, out_dir = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="cudahist-monitor-page-")
STREAMS = 16
HOLD = 2       # black-hold of the config below
INTERVAL = 1   # figures message per stream
REFRESH = 1    # the page reads /status.json once a second
processes = []


def tiles(dom):
    """{stream: data-state} of the page's tiles."""
    found = {}
    for tag in re.findall(r'<section class="tile"[^>]*>', dom):
        stream = re.search(r'data-stream="([^"]*)"', tag)
        state = re.search(r'data-state="([^"]*)"', tag)
        if stream:
            found[stream.group(1)] = state.group(1) if state else None
    return found


def tile_borders(png, colours):
    """Tiles in a screenshot: their 3 px top and bottom borders are bands of rows
    holding long runs of a tile's border colour; each band counts its runs."""
    image = Image.open(png).convert("RGB")
    width, height = image.size
    pixels = image.load()
    bands, in_band, band_runs = 0, False, 0
    for y in range(height):
        runs, run = 0, 0
        for x in range(width):
            run = run + 1 if pixels[x, y] in colours else 0
            if run == 150:
                runs += 1
        if runs:
            band_runs = max(band_runs, runs)
            in_band = True
        elif in_band:
            bands += band_runs
            in_band, band_runs = False, 0
    return bands // 2


GREEN, RED = (0x2e, 0x7d, 0x32), (0xe5, 0x39, 0x35)

try:
    udp = free_port(socket.SOCK_DGRAM)
    sender = subprocess.Popen([sys.executable, os.path.join(HERE, "black_sender.py"), str(udp)],
                              stdout=subprocess.PIPE, text=True)
    processes.append(sender)
    looped = make_file(os.path.join(work, "bars.mp4"), frames=30)
    config = os.path.join(work, "page.conf")
    with open(config, "w") as f:
        f.write("[monitor]\nblack-hold=%d\ninterval=%d\n" % (HOLD, INTERVAL))
        f.write("[stream camera]\nuri=udp://127.0.0.1:%d\n" % udp)
        for i in range(1, STREAMS):
            f.write("[stream channel-%02d]\nuri=%s\nloop=true\n" % (i, file_uri(looped)))
    monitor = Monitor(binary, ["--config", config])
    processes.append(monitor.process)
    wait_for("16 streams up with scope pictures", lambda: sum(
        s["state"] == "up" and s["scope"] for s in monitor.status().values()) == STREAMS, 60)

    page = monitor.url("/")
    before = tiles(chromium(page, work, "--dump-dom"))
    if len(before) != STREAMS or set(before.values()) != {"ok"}:
        fail("before: %d tiles, states %s" % (len(before), before))
    calm_png = os.path.join(out_dir, "monitor-status-page.png")
    chromium(page, work, "--screenshot=" + calm_png)
    calm_tiles = tile_borders(calm_png, {GREEN})
    print("16 streams: %d tiles in the DOM, all ok; %d green tiles in %s" % (len(before), calm_tiles, calm_png))
    if calm_tiles != STREAMS:
        fail("the screenshot shows %d tiles, not %d" % (calm_tiles, STREAMS))

    sender.send_signal(__import__("signal").SIGUSR1)
    black_at = float(sender.stdout.readline().split()[1])
    deadline = HOLD + INTERVAL + REFRESH + 2  # + the decoder's latency and the first frame's arrival
    while True:
        started = time.monotonic()
        now = tiles(chromium(page, work, "--dump-dom"))
        if now.get("camera") == "alarm":
            break
        if started - black_at > deadline:
            fail("the camera tile is %s %.1f s after the source went black" % (now.get("camera"), started - black_at))
    print("the camera tile is in alarm in a page loaded %.1f s after the source went black (hold %d s)"
          % (started - black_at, HOLD))
    if started - black_at > deadline:
        fail("too late")
    others = {s: state for s, state in now.items() if s != "camera"}
    if set(others.values()) != {"ok"}:
        fail("other tiles changed: %s" % others)
    alarm_png = os.path.join(out_dir, "monitor-status-page-alarm.png")
    chromium(page, work, "--screenshot=" + alarm_png)
    red, green = tile_borders(alarm_png, {RED}), tile_borders(alarm_png, {GREEN})
    print("after: %d red and %d green tiles in %s" % (red, green, alarm_png))
    if (red, green) != (1, STREAMS - 1):
        fail("the screenshot shows %d red and %d green tiles" % (red, green))
    print("PASS")
finally:
    stop_all(processes)
