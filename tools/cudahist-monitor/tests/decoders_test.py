"""The monitor's decoders: /status.json names each stream's video decoder;
video-decoder= forces one; a name that is no video decoder stops the start
and is refused on reload, naming its line; a decoder that does not decode
its stream's video takes that stream down with a reason, the others run.
(Without a GPU the decoders are the CPU ones; which GPU decoder the choice
takes for which stream is tools_decoder_choice's test.)"""

import os
import subprocess
import sys
import tempfile
import time

from monitor_harness import Monitor, fail, file_uri, free_port, make_file, stop_all, wait_for

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-decoders-")
monitor = None
try:
    h264 = make_file(os.path.join(work, "h264.mp4"), frames=30)
    mpeg2 = os.path.join(work, "mpeg2.ts")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
                    "-frames:v", "30", "-c:v", "mpeg2video", "-flags", "+ildct+ilme", "-top", "1", mpeg2], check=True)
    config = os.path.join(work, "monitor.conf")

    def write(streams):
        with open(config, "w") as f:
            for name, uri, decoder in streams:
                f.write("[stream %s]\nuri=%s\nloop=true\n%s" % (name, uri, "video-decoder=%s\n" % decoder if decoder
                                                                  else ""))

    # A name that is no video decoder stops the start, naming its line.
    write([("h264", file_uri(h264), None), ("bad", file_uri(h264), "nosuchdecoder")])
    started = subprocess.run([binary, "--config", config, "--listen", "127.0.0.1:%d" % free_port()], capture_output=True, text=True,
                             timeout=30)
    if started.returncode != 2 or "monitor.conf:7: video-decoder=nosuchdecoder: there is no GStreamer element " \
                                  "named 'nosuchdecoder'" not in started.stderr:
        fail("an unknown video-decoder must stop the start with its line: exit %s, %s"
             % (started.returncode, started.stderr))
    print("ok   video-decoder=nosuchdecoder stops the start: exit 2, with its line")

    write([("h264", file_uri(h264), None), ("mpeg2", file_uri(mpeg2), None),
           ("forced", file_uri(h264), "avdec_h264"), ("wrong", file_uri(h264), "avdec_mpeg2video")])
    monitor = Monitor(binary, ["--config", config, "--web.enable-lifecycle"])
    wait_for("three streams up", lambda: all(monitor.status()[n]["state"] == "up" for n in ("h264", "mpeg2", "forced")),
             60)
    status = monitor.status()
    for name, decoder in (("h264", "avdec_h264"), ("mpeg2", "avdec_mpeg2video"), ("forced", "avdec_h264")):
        if status[name]["decoder"] != decoder or status[name]["decoder_why"] != "":
            fail("%s: /status.json says decoder %r (%r), expected %s" % (name, status[name]["decoder"],
                                                                         status[name]["decoder_why"], decoder))
    print("ok   /status.json names each stream's decoder: %s" % {n: status[n]["decoder"] for n in status})
    wait_for("the wrongly forced stream down with its reason",
             lambda: "the decoder avdec_mpeg2video does not decode this stream (H.264"
                     in monitor.status()["wrong"]["error"], 30)
    print("ok   a video-decoder that does not take the stream: down, saying so (%s)"
          % monitor.status()["wrong"]["error"])

    # A reload naming no decoder is refused; the running streams are kept.
    write([("h264", file_uri(h264), "avdec_nothing")])
    code, answer = monitor.post("/-/reload")
    if code == 200 or "video-decoder=avdec_nothing: there is no GStreamer element" not in answer:
        fail("a reload with an unknown video-decoder must be refused: %s %s" % (code, answer))
    time.sleep(1)
    if set(monitor.status()) != {"h264", "mpeg2", "forced", "wrong"} or monitor.status()["h264"]["state"] != "up":
        fail("the refused reload must keep the running streams: %s" % list(monitor.status()))
    print("ok   a reload with an unknown video-decoder: refused (%s), the streams kept" % code)
    print("PASS")
finally:
    stop_all([monitor.process] if monitor else [])
