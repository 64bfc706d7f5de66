"""Audio in the monitor, from loopback UDP senders of MPEG-TS with moving
bars and AAC audio (monitor_harness.av_sender): a tone, digital silence, a
tone too loud, no audio at all (audio=required and audio=auto), and a tone
that stops while its picture goes on. Each stream's level (peak and RMS per
channel) and EBU R128 loudness reach /metrics and /status.json; silence,
loudness out of range and loss of audio raise their alarms (and nothing else
does), with their figure, value and threshold, on the page's data and in
Prometheus's alarm gauge; a stream without audio that is not required to have
any raises nothing."""

import math
import os
import socket
import sys
import tempfile
import time

from monitor_harness import Monitor, av_sender, fail, free_ports, stop_all, wait_for

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-audio-")
STREAMS = {  # name: (audio, audio seconds, audio= key)
    "tone": ("tone", None, "auto"),
    "silent": ("silence", None, "auto"),
    "loud": ("loud", None, "auto"),
    "mute": (None, None, "required"),
    "video-only": (None, None, "auto"),
    "drops": ("tone", 6, "auto"),
}
EXPECTED = {"silent": "silence", "loud": "loudness_out_of_range", "mute": "audio_loss", "drops": "audio_loss"}
ports = dict(zip(STREAMS, free_ports(len(STREAMS), socket.SOCK_DGRAM)))
processes = []

try:
    config = os.path.join(work, "audio.conf")
    with open(config, "w") as f:
        f.write("[monitor]\nsilence-hold=2\naudio-loss-hold=2\nloudness-out-of-range-hold=3\n")
        for name, (_, _, mode) in STREAMS.items():
            f.write("[stream %s]\nuri=udp://127.0.0.1:%d\naudio=%s\n" % (name, ports[name], mode))
    for name, (audio, seconds, _) in STREAMS.items():
        processes.append(av_sender(ports[name], audio, seconds, log_name="audio-" + name))
    monitor = Monitor(binary, ["--config", config])
    processes.append(monitor.process)
    for name in STREAMS:
        monitor.wait_up(name)

    # Levels and loudness of the tone: -26.0 dBFS peak, -29.0 RMS, about -26 LUFS (AAC keeps a tone within a dB).
    wait_for("the tone's loudness", lambda: monitor.value("cudahist_audio_short_term_lufs", "tone") is not None, 20)
    time.sleep(4)  # the short-term window (3 s) full of tone
    m = monitor.metrics()
    peaks = [m.get(("cudahist_audio_peak_dbfs", "tone"))]
    channels = m[("cudahist_audio_channels", "tone")]
    status = monitor.status()["tone"]["audio"]
    print("tone: %d channels, peak %s dBFS, RMS %s dBFS, momentary %.2f, short-term %.2f LUFS" % (
        channels, ["%.2f" % v for v in status["peak_dbfs"]], ["%.2f" % v for v in status["rms_dbfs"]],
        status["momentary_lufs"], status["short_term_lufs"]))
    if channels != 2 or len(status["peak_dbfs"]) != 2:
        fail("the tone's channels: %s, %s" % (channels, status))
    for c in range(2):
        if abs(status["peak_dbfs"][c] - 20 * math.log10(0.05)) > 1 or \
                abs(status["rms_dbfs"][c] - 20 * math.log10(0.05 / math.sqrt(2))) > 1:
            fail("the tone's channel %d: %s" % (c, status))
    for window in ("momentary_lufs", "short_term_lufs"):
        if abs(status[window] - -26.0) > 1:
            fail("the tone's %s is %s, not about -26" % (window, status[window]))
    metric_rms = [v for (name, key), v in m.items() if name == "cudahist_audio_rms_dbfs" and key == "tone"]
    if not metric_rms or abs(metric_rms[0] - status["rms_dbfs"][0]) > 1:
        fail("cudahist_audio_rms_dbfs of the tone: %s" % metric_rms)

    # Silence, loudness and loss raise their alarms; the tone and the video-only stream raise none.
    def raised():
        return {(x["stream"], x["alarm"]) for x in monitor.alarms() if x["state"] == "raised"}
    wanted = {(stream, alarm) for stream, alarm in EXPECTED.items()}
    wait_for("the audio alarms %s" % sorted(wanted), lambda: wanted <= raised(), 30)
    time.sleep(2)
    audio_alarms = {"silence", "loudness_out_of_range", "audio_loss"}
    extra = {r for r in raised() if r[1] in audio_alarms} - wanted
    if extra:
        fail("alarms nobody asked for: %s" % extra)
    lines = {(x["stream"], x["alarm"]): x for x in monitor.alarms() if x["state"] == "raised"}
    silence, loud = lines[("silent", "silence")], lines[("loud", "loudness_out_of_range")]
    if silence["figure"] != "rms-dbfs-max" or silence["value"] > -60 or silence["threshold"] != -60 or \
            silence["scale"] != "dBFS":
        fail("the silence line: %s" % silence)
    if loud["figure"] != "short-term-lufs" or loud["comparison"] != ">" or loud["value"] < -14 or loud["scale"] != "LUFS":
        fail("the loudness line: %s" % loud)
    print("raised:", sorted(wanted))
    print("silence: %s, loudness: %s" % ({k: silence[k] for k in ("figure", "value", "threshold")},
                                          {k: loud[k] for k in ("figure", "value", "comparison", "threshold")}))
    status = monitor.status()
    for stream, alarm in EXPECTED.items():
        shown = [a["alarm"] for a in status[stream]["alarms"]]
        if alarm not in shown or monitor.value("cudahist_alarm_active", (stream, alarm)) != 1:
            fail("%s's %s is not on the page's data (%s) or in cudahist_alarm_active" % (stream, alarm, shown))
    if status["video-only"]["audio"] is not None or monitor.value("cudahist_audio_channels", "video-only") != 0:
        fail("the stream without audio: %s" % status["video-only"])
    if status["drops"]["state"] != "up" or monitor.value("cudahist_alarm_active", ("drops", "no_signal")) != 0:
        fail("the stream whose audio stopped lost its picture too: %s" % status["drops"])
    print("video-only: no audio, no alarm; drops: picture up, audio_loss raised")
    code = monitor.stop()
    if code != 0:
        fail("SIGTERM: exit %s\n%s" % (code, monitor.log()))
    print("PASS")
finally:
    stop_all(processes)
