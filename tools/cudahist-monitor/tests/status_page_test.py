"""The status page in headless Chromium on a 1920x1080 screen.

16 streams (12 looped files of bars, a looped 10-bit file, a UDP source that
goes black, a UDP source with a tone, and one whose sender dies): 16 tiles,
each showing its thumbnail beside its scope, the 10-bit tile naming its scale,
the tone's tile its audio meters and loudness. The thumbnails are the
pictures (bars, then black). When the camera goes black its tile turns red
with a BLACK chip that counts the seconds; the dead stream's tile is drawn
NO SIGNAL, the most severe state, and both events are in the page's list.
Then a reload to 64 streams: all 64 tiles fit on the screen.

The screenshots stay in the build folder (monitor-status-page-16.png,
-16-alarm.png, -64.png) for a person to look at."""

import io
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

from PIL import Image

from monitor_harness import (HERE, Monitor, av_sender, chromium, fail, file_uri, free_ports, make_file, stop_all,
                             wait_for)

binary, out_dir = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="cudahist-monitor-page-")
SCREEN = "1920,1080"
HOLD = 2  # black-hold and no-signal-hold of the config below
processes = []

GREEN, RED, AMBER, NO_SIGNAL = (0x2e, 0x7d, 0x32), (0xe5, 0x39, 0x35), (0xff, 0xb3, 0x00), (0xff, 0x17, 0x44)
GREY = (0x60, 0x7d, 0x8b)  # down or starting


def tiles(dom):
    """{stream: (data-state, the tile's HTML)} of the page's tiles."""
    found = {}
    for match in re.finditer(r'<section class="tile"([^>]*)>(.*?)</section>', dom, re.S):
        stream = re.search(r'data-stream="([^"]*)"', match.group(1))
        state = re.search(r'data-state="([^"]*)"', match.group(1))
        if stream:
            found[stream.group(1)] = (state.group(1) if state else None, match.group(2))
    return found


def tile_borders(png, colours):
    """Tiles in a screenshot: their top and bottom borders are bands of rows
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


def mean_brightness(jpeg):
    image = Image.open(io.BytesIO(jpeg)).convert("L")
    return image.size, sum(image.getdata()) / (image.size[0] * image.size[1])


def write_config(path, files, udp, count):
    """The 16 streams, and up to `count` with more channels of the light clip."""
    with open(path, "w") as f:
        f.write("[monitor]\nblack-hold=%d\nno-signal-hold=%d\n" % (HOLD, HOLD))
        f.write("[stream camera]\nuri=udp://127.0.0.1:%d\n" % udp["camera"])
        f.write("[stream tone]\nuri=udp://127.0.0.1:%d\n" % udp["tone"])
        f.write("[stream dead]\nuri=udp://127.0.0.1:%d\nstall-timeout=2\n" % udp["dead"])
        f.write("[stream deep-10bit]\nuri=%s\nloop=true\n" % file_uri(files["deep"]))
        for i in range(1, count - 3):
            clip = files["bars"] if i <= 12 else files["light"]
            f.write("[stream channel-%02d]\nuri=%s\nloop=true\n" % (i, file_uri(clip)))


def shoot(page, name):
    png = os.path.join(out_dir, name)
    chromium(page, work, "--screenshot=" + png, size=SCREEN)
    return png


try:
    udp = dict(zip(("camera", "tone", "dead"), free_ports(3, socket.SOCK_DGRAM)))
    camera = subprocess.Popen([sys.executable, os.path.join(HERE, "black_sender.py"), str(udp["camera"])],
                              stdout=subprocess.PIPE, text=True)
    processes += [camera, av_sender(udp["tone"], "tone"), av_sender(udp["dead"], "tone", log_name="dead")]
    # The 48 more streams of the 64 are 5 frames a second: 64 pipelines at 15 kept a 2-core machine too busy.
    files = {"bars": make_file(os.path.join(work, "bars.mp4"), frames=30),
             "deep": make_file(os.path.join(work, "deep.mp4"), frames=30, fmt="I420_10LE"),
             "light": make_file(os.path.join(work, "light.mp4"), frames=10, rate=5)}
    config = os.path.join(work, "page.conf")
    write_config(config, files, udp, 16)
    monitor = Monitor(binary, ["--config", config, "--web.enable-lifecycle"])
    processes.append(monitor.process)
    # Up with their pictures and calm: a stream that stalled while the pipelines started (a busy machine)
    # keeps its no_signal for its clear time.
    wait_for("16 streams up with their scope and thumbnail, no alarm", lambda: sum(
        s["state"] == "up" and s["scope"] and s["thumbnail"] and not s["alarms"]
        for s in monitor.status().values()) == 16, 90)
    wait_for("the tone's loudness", lambda: (monitor.status()["tone"]["audio"] or {}).get("short_term_lufs"), 20)

    page = monitor.url("/")

    # Every tile ok: on a busy machine a stream can stall and restart between the status above and
    # the browser's render, and the page then rightly shows it starting or without signal until it
    # recovers; a page that never shows all 16 ok within the deadline fails.
    deadline = time.monotonic() + 90
    while True:
        before = tiles(chromium(page, work, "--dump-dom", size=SCREEN))
        states = {name: state for name, (state, _) in before.items()}
        if len(before) == 16 and set(states.values()) == {"ok"}:
            break
        if time.monotonic() > deadline:
            fail("before: %d tiles, states %s" % (len(before), states))
        time.sleep(2)
    for name, (_, html) in before.items():
        if not re.search(r'class="thumbnail"[^>]* src="thumbnail\?stream=', html) or \
                not re.search(r'class="scope"[^>]* src="scope\?stream=', html):
            fail("tile %s shows no thumbnail or scope: %s" % (name, html))
        scale = "10-bit" if name == "deep-10bit" else "8-bit"
        if '<span class="scale">%s</span>' % scale not in html:
            fail("tile %s does not name its scale %s: %s" % (name, scale, html))
    tone = before["tone"][1]
    if tone.count('class="meter"') != 2 or "LUFS" not in tone:
        fail("the tone's tile shows no meters: %s" % tone)
    size, bars = mean_brightness(monitor.get("/thumbnail?stream=channel-01"))
    if size != (320, 180) or bars < 60:
        fail("channel-01's thumbnail is %s with mean brightness %.0f" % (size, bars))
    calm_png = shoot(page, "monitor-status-page-16.png")
    calm_tiles = tile_borders(calm_png, {GREEN})
    print("16 streams: 16 tiles, each with thumbnail and scope, scales named, the tone's meters; %d green tiles "
          "in %s; channel-01's thumbnail %dx%d, mean %.0f" % (calm_tiles, calm_png, size[0], size[1], bars))
    if calm_tiles != 16:
        fail("the screenshot shows %d green tiles, not 16" % calm_tiles)

    # The camera goes black, the dead stream's sender dies.
    camera.send_signal(signal.SIGUSR1)
    camera.stdout.readline()
    processes[2].kill()
    wait_for("camera in alarm and dead in no signal", lambda: (
        lambda t: t.get("camera", (None,))[0] == "alarm" and t.get("dead", (None,))[0] == "no-signal")(
            tiles(chromium(page, work, "--dump-dom", size=SCREEN))), 40, step=1)
    time.sleep(2)  # the chips count seconds
    dom = chromium(page, work, "--dump-dom", size=SCREEN)
    now = tiles(dom)
    others = {name: state for name, (state, _) in now.items() if name not in ("camera", "dead")}
    if set(others.values()) != {"ok"}:
        fail("other tiles changed: %s" % others)
    chip = re.search(r'data-alarm="black">BLACK (\d+)s<', now["camera"][1])
    if not chip or int(chip.group(1)) < 1:
        fail("the camera's tile has no BLACK chip counting seconds: %s" % now["camera"][1])
    if not re.search(r'class="nosignal">NO SIGNAL \d+s<', now["dead"][1]):
        fail("the dead tile does not say NO SIGNAL: %s" % now["dead"][1])
    events = re.search(r'<div id="event-list">(.*?)</div></aside>', dom, re.S)
    if not events or "camera</b> black raised" not in events.group(1) or "dead</b> no signal raised" not in \
            events.group(1):
        fail("the events list lacks the camera's black or the dead stream's no signal: %s" % events)
    _, black = mean_brightness(monitor.get("/thumbnail?stream=camera"))
    if black > 30:
        fail("the black camera's thumbnail has mean brightness %.0f" % black)
    alarm_png = shoot(page, "monitor-status-page-16-alarm.png")
    counted = {name: tile_borders(alarm_png, {colour}) for name, colour in
               (("green", GREEN), ("red", RED), ("no-signal", NO_SIGNAL))}
    print("camera black (chip BLACK %ss), dead NO SIGNAL, both in the events list; camera's thumbnail mean %.0f; "
          "tiles in %s: %s" % (chip.group(1), black, alarm_png, counted))
    if counted != {"green": 14, "red": 1, "no-signal": 1}:
        fail("the screenshot shows %s" % counted)

    # 64 streams on the same screen.
    write_config(config, files, udp, 64)
    status, text = monitor.post("/-/reload")
    if status != 200:
        fail("reload to 64 streams: %d %s" % (status, text))
    wait_for("64 streams with their pictures", lambda: sum(
        bool(s["scope"] and s["thumbnail"]) for s in monitor.status().values()) >= 63, 120, step=1)
    big = tiles(chromium(page, work, "--dump-dom", size=SCREEN))
    if len(big) != 64:
        fail("%d tiles for 64 streams" % len(big))
    big_png = shoot(page, "monitor-status-page-64.png")
    shown = sum(tile_borders(big_png, {colour}) for colour in (GREEN, RED, AMBER, NO_SIGNAL, GREY))
    print("64 streams: 64 tiles in the DOM, %d tiles drawn within the 1920x1080 screenshot %s" % (shown, big_png))
    if shown != 64:
        fail("only %d of 64 tiles are on the screen" % shown)
    print("PASS")
finally:
    stop_all(processes)
