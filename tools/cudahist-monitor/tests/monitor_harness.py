"""What the monitor's tests share: loopback sources started with gst-launch,
the monitor itself as a process, and its /metrics read with
prometheus_client's parser. Everything listens on 127.0.0.1 only."""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

HERE = os.path.dirname(os.path.abspath(__file__))
WIDTH, HEIGHT, RATE = 320, 180, 15


def free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(count, kind=socket.SOCK_STREAM, rtp=False):
    """`count` distinct free ports, each held while the next is chosen (ports
    chosen one after another, each released at once, may repeat); with `rtp`
    the last is even and the one after it (RTCP's) is free too."""
    held = []

    def bind(port=0):
        s = socket.socket(socket.AF_INET, kind)
        held.append(s)
        s.bind(("127.0.0.1", port))
        return s.getsockname()[1]

    try:
        ports = [bind() for _ in range(count - 1 if rtp else count)]
        while rtp:
            candidate = bind()
            even = candidate & ~1
            try:
                bind(even + 1 if candidate == even else even)
                return ports + [even]
            except OSError:
                continue
        return ports
    finally:
        for s in held:
            s.close()


def fail(text):
    print("FAIL: " + text, flush=True)
    sys.exit(1)


def wait_for(what, check, timeout, step=0.25):
    """Calls check() until it returns something true; fails the test after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            fail("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(step)


def raw_video(pattern="ball", width=WIDTH, height=HEIGHT, rate=RATE, live=True, extra="", fmt="I420"):
    return ("videotestsrc %s pattern=%s %s ! video/x-raw,format=%s,width=%d,height=%d,framerate=%d/1"
            % ("is-live=true" if live else "", pattern, extra, fmt, width, height, rate))


MOVING = dict(pattern="smpte75", extra="horizontal-speed=3")  # moving 75% bars: no alarm
H264 = "x264enc tune=zerolatency speed-preset=ultrafast key-int-max=%d bitrate=400" % RATE


def gst_launch(description, log_name):
    log = open(os.path.join(tempfile.gettempdir(), "cudahist-monitor-test-%s-%d.log" % (log_name, os.getpid())), "w")
    return subprocess.Popen(["gst-launch-1.0", "-q"] + description.split(), stdout=log, stderr=subprocess.STDOUT)


def udp_sender(port, source=None):
    """MPEG-TS over UDP to 127.0.0.1:port."""
    source = source or raw_video(**MOVING)
    return gst_launch("%s ! %s ! mpegtsmux alignment=7 ! udpsink host=127.0.0.1 port=%d" % (source, H264, port), "udp%d" % port)


# audiotestsrc settings of the audio senders: a 1 kHz tone at -26 dBFS peak
# (about -26 LUFS, inside the default loudness range), digital silence, and
# a tone at -1 dBFS peak (about -1 LUFS: too loud).
AUDIO = {"tone": "wave=sine freq=1000 volume=0.05", "silence": "wave=silence",
         "loud": "wave=sine freq=1000 volume=0.9"}


def av_sender(port, audio, audio_seconds=None, log_name=None):
    """MPEG-TS over UDP to 127.0.0.1:port: moving bars and, unless `audio` is
    None, stereo 48 kHz AAC of AUDIO[audio]; with `audio_seconds` the audio
    ends after that long while the picture goes on."""
    description = "%s ! %s ! mpegtsmux name=mux alignment=7 ! udpsink host=127.0.0.1 port=%d" % (
        raw_video(**MOVING), H264, port)
    if audio:
        buffers = " num-buffers=%d" % (audio_seconds * 48000 // 1024) if audio_seconds else ""
        description += (" audiotestsrc is-live=true samplesperbuffer=1024 %s%s ! audio/x-raw,rate=48000,channels=2"
                        " ! audioconvert ! avenc_aac ! aacparse ! queue ! mux." % (AUDIO[audio], buffers))
    return gst_launch(description, log_name or "av%d" % port)


def rtp_sender(port):
    """MPEG-TS in RTP (rtpmp2tpay) over UDP to 127.0.0.1:port."""
    return gst_launch("%s ! %s ! mpegtsmux ! rtpmp2tpay ! udpsink host=127.0.0.1 port=%d" % (raw_video(**MOVING), H264, port),
                      "rtp%d" % port)


def srt_sender(port):
    """MPEG-TS over SRT, listening on 127.0.0.1:port (the monitor calls it)."""
    return gst_launch("%s ! %s ! mpegtsmux ! srtsink uri=srt://127.0.0.1:%d?mode=listener wait-for-connection=false"
                      % (raw_video(**MOVING), H264, port), "srt%d" % port)


def make_file(path, pattern="smpte75", frames=45, width=WIDTH, height=HEIGHT, extra="horizontal-speed=3", mux="mp4mux",
              fmt="I420", rate=RATE):
    subprocess.run(["gst-launch-1.0", "-q"] + (
        "%s ! %s ! %s ! filesink location=%s"
        % (raw_video(pattern, width, height, rate=rate, live=False, extra="%s num-buffers=%d" % (extra, frames),
                     fmt=fmt), H264, mux, path)).split(), check=True)
    return path


def rtsp_server(port, user=None, password=None):
    """GstRtspServer (rtsp_server.py) serving /test on 127.0.0.1:port; with `user`, to that user alone."""
    return subprocess.Popen([sys.executable, os.path.join(HERE, "rtsp_server.py"), str(port),
                             "%s ! %s ! rtph264pay name=pay0 pt=96" % (raw_video(**MOVING), H264)] +
                            ([user, password] if user else []))


def hls_origin(directory, port):
    """hlssink2 writing segments into `directory`, python's http.server serving it: two processes."""
    sink = gst_launch("%s ! %s ! h264parse ! hlssink2 target-duration=1 playlist-length=4 max-files=8 "
                      "location=%s/segment%%05d.ts playlist-location=%s/playlist.m3u8"
                      % (raw_video(**MOVING), H264, directory, directory), "hls%d" % port)
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", directory,
                               str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return sink, server


def file_uri(path):
    return "file://" + os.path.abspath(path)


def chromium(url, work, *mode, size="1366,768"):
    """One headless Chromium run (as root: --no-sandbox) on a screen of `size`
    (a 1366x768 laptop's by default) with a fresh profile under `work`; its stdout."""
    import shutil
    profile = tempfile.mkdtemp(prefix="chromium-", dir=work)
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--user-data-dir=" + profile, "--window-size=" + size, "--hide-scrollbars",
               "--virtual-time-budget=2500"] + list(mode) + [url]
    result = subprocess.run(command, capture_output=True, text=True, timeout=90)
    shutil.rmtree(profile, ignore_errors=True)
    return result.stdout


class Monitor:
    """cudahist-monitor as a process on a free port; its stdout (alarm JSON
    lines) and stderr (log lines) go to files the test reads."""

    def __init__(self, binary, args, port=None, name="monitor", host="127.0.0.1"):
        self.port = port or free_port()
        self.dir = tempfile.mkdtemp(prefix="cudahist-monitor-")
        self.alerts_path = os.path.join(self.dir, "alerts.jsonl")
        self.log_path = os.path.join(self.dir, "monitor.log")
        self.name = name
        self.process = subprocess.Popen(
            [binary, "--listen", "%s:%d" % (host, self.port)] + args,
            stdout=open(self.alerts_path, "w"), stderr=open(self.log_path, "w"))
        wait_for("%s to listen" % name, lambda: "listening on" in self.log() or self.process.poll() is not None, 30)
        if self.process.poll() is not None:
            fail("%s exited with %s:\n%s" % (name, self.process.returncode, self.log()))

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def get(self, path):
        with urllib.request.urlopen(self.url(path), timeout=10) as r:
            return r.read()

    def post(self, path):
        req = urllib.request.Request(self.url(path), data=b"", method="POST")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def metrics(self):
        """{(metric name, stream): value} of one scrape."""
        values = {}
        for family in text_string_to_metric_families(self.get("/metrics").decode()):
            for s in family.samples:
                key = s.labels.get("stream")
                if "alarm" in s.labels:
                    key = (key, s.labels["alarm"])
                values[(s.name, key)] = s.value
        return values

    def value(self, name, stream):
        return self.metrics().get((name, stream))

    def status(self):
        return {s["name"]: s for s in json.loads(self.get("/status.json"))}

    def log(self):
        with open(self.log_path) as f:
            return f.read()

    def alarms(self):
        with open(self.alerts_path) as f:
            return [json.loads(line) for line in f if line.strip()]

    def rss_kib(self):
        with open("/proc/%d/status" % self.process.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def wait_up(self, stream, timeout=30):
        """Waits for the stream to be up; a timeout fails the test with the stream's log lines (why it is not)."""
        deadline = time.monotonic() + timeout
        while self.value("cudahist_stream_up", stream) != 1:
            if time.monotonic() > deadline:
                lines = [line for line in self.log().splitlines() if "stream %s:" % stream in line]
                fail("timed out after %d s waiting for %s up; its log lines:\n%s" % (timeout, stream, "\n".join(lines[-20:])))
            time.sleep(0.25)

    def stop(self, timeout=20):
        """SIGTERM; returns the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                fail("%s did not exit within %d s of SIGTERM:\n%s" % (self.name, timeout, self.log()))
        return self.process.returncode


def stop_all(processes):
    for p in processes:
        if p and p.poll() is None:
            p.terminate()
    for p in processes:
        if p:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


class Prometheus:
    """Debian's prometheus on a free port of 127.0.0.1 with `config` (its
    prometheus.yml text) and alerts.rules.yml beside it, storing under `work`."""

    def __init__(self, config, work):
        import shutil
        self.port = free_port()
        self.dir = os.path.join(work, "prometheus")
        os.mkdir(self.dir)
        shutil.copy(os.path.join(HERE, "..", "alerts.rules.yml"), self.dir)
        with open(os.path.join(self.dir, "prometheus.yml"), "w") as f:
            f.write(config)
        self.process = subprocess.Popen(
            ["prometheus", "--config.file=" + os.path.join(self.dir, "prometheus.yml"),
             "--storage.tsdb.path=" + os.path.join(self.dir, "data"),
             "--web.listen-address=127.0.0.1:%d" % self.port],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.dir, "prometheus.log"), "w"))

    def answer(self, path, **params):
        """The API's whole answer ({"status": ..., "data" or "error": ...}), None when it does not answer."""
        url = "http://127.0.0.1:%d/api/v1/%s?%s" % (self.port, path, urllib.parse.urlencode(params, doseq=True))
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            # The API's errors are JSON; while it starts, Prometheus answers
            # 503 with a line of text: not an answer yet.
            try:
                return json.load(e)
            except ValueError:
                return None
        except OSError:
            return None

    def api(self, path, **params):
        answer = self.answer(path, **params)
        return answer["data"] if answer and answer.get("status") == "success" else None

    def query(self, expr):
        data = self.api("query", query=expr)
        return data["result"] if data else []

    def firing(self, alertname):
        data = self.api("alerts")
        return [a["labels"] for a in (data or {}).get("alerts", [])
                if a["labels"]["alertname"] == alertname and a["state"] == "firing"]
