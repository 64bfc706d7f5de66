"""No secret leaves the monitor. An RTSP server that wants a user and a
password (gst-rtsp-server's basic authentication), given a password with odd
characters percent-encoded in the URI ('@', ':', '/' and a space): the stream
comes up with it, and neither the password (as written or decoded), nor the
user, nor a token in a query appears in any output: the log on stderr, the
alarm lines, /status.json, the status page as Chromium renders it, /metrics'
labels, or a refused reload's answer. A stream given on the command line is
named from its redacted URI. Streams with a wrong password and with an
unreachable host whose URI carries a token fail with errors that say why
without them."""

import os
import signal
import socket
import sys
import tempfile
import time
import urllib.parse

from monitor_harness import Monitor, chromium, fail, free_port, rtsp_server, stop_all, wait_for

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-secrets-")
processes = []

USER = "operator7"
PASSWORD = "p@ss:w/rd S3cret"
TOKEN = "T0kenXyz123"
ENCODED = urllib.parse.quote(PASSWORD, safe="")  # p%40ss%3Aw%2Frd%20S3cret
# What no output may hold: the password in either form (both hold S3cret),
# its first part as written and encoded, the user, the token.
NEEDLES = ["S3cret", "p@ss", "p%40ss", USER, TOKEN]


def leaks(what, text):
    found = [n for n in NEEDLES if n in text]
    if found:
        at = min(text.find(n) for n in found)
        fail("%s shows %s: ...%s..." % (what, found, text[max(0, at - 120):at + 60]))


try:
    port = free_port()
    processes.append(rtsp_server(port, USER, PASSWORD))
    closed = free_port()  # nothing listens there
    secret_uri = "rtsp://%s:%s@127.0.0.1:%d/test" % (USER, ENCODED, port)
    shown_uri = "rtsp://REDACTED@127.0.0.1:%d/test" % port
    http_uri = "http://%s:%s@127.0.0.1:%d/live.m3u8?token=%s&x=1" % (USER, ENCODED, closed, TOKEN)
    http_shown = "http://REDACTED@127.0.0.1:%d/live.m3u8?token=REDACTED&x=1" % closed
    config = os.path.join(work, "monitor.conf")
    with open(config, "w") as f:
        f.write("[monitor]\nstall-timeout=2\nno-signal-hold=1\n"
                "[stream cam]\nuri=%s\n"
                "[stream wrong]\nuri=rtsp://%s:wrong%%20S3cret@127.0.0.1:%d/test\n" % (secret_uri, USER, port))
    time.sleep(1)  # the RTSP server starts
    monitor = Monitor(binary, ["--decoder", "cpu", "--config", config, "--web.enable-lifecycle", secret_uri, http_uri])
    processes.append(monitor.process)
    monitor.wait_up("cam", timeout=40)
    monitor.wait_up(shown_uri, timeout=40)
    print("the stream with the password is up, from the config (cam) and from the command line (%s)" % shown_uri)
    wait_for("the wrong password and the closed port down", lambda: all(
        monitor.status().get(n, {}).get("state") == "down" and monitor.status()[n]["reconnects"] >= 1
        for n in ("wrong", http_shown)), 40)
    status = monitor.status()
    for name in ("wrong", http_shown):
        print("%s: down: %s" % (name, status[name]["error"][:150]))
    if "Unauthorized" not in status["wrong"]["error"]:
        fail("the wrong password's error does not say so: %s" % status["wrong"]["error"])

    # The feed dies: no_signal with the source's error as its detail.
    stop_all(processes[:1])
    wait_for("cam's no_signal alarm line", lambda: any(
        a["stream"] == "cam" and a["alarm"] == "no_signal" and a["state"] == "raised" for a in monitor.alarms()), 30)
    time.sleep(3)  # a retry or two, with their errors

    # A reload with a broken config that quotes the URI.
    with open(config, "a") as f:
        f.write("[stream broken]\nuri %s\n" % secret_uri)
    code, answer = monitor.post("/-/reload")
    monitor.process.send_signal(signal.SIGHUP)
    if code != 400 or "monitor.conf:9:" not in answer:
        fail("the broken reload answered %d %r" % (code, answer))
    print("a reload with a broken config:", answer.strip())
    wait_for("SIGHUP's refusal in the log", lambda: monitor.log().count("reload refused") >= 2, 10)

    outputs = {"the log": monitor.log(), "the alarm lines": open(monitor.alerts_path).read(),
               "/status.json": monitor.get("/status.json").decode(), "/metrics": monitor.get("/metrics").decode(),
               "the reload's answer": answer,
               "the page": chromium(monitor.url("/"), work, "--dump-dom")}
    for what, text in outputs.items():
        leaks(what, text)
        print("%-20s %6d bytes, no secret" % (what, len(text)))
    if 'stream="%s"' % shown_uri not in outputs["/metrics"] or 'stream="%s"' % http_shown not in outputs["/metrics"]:
        fail("the command line's streams are not labelled by their redacted URIs:\n" + outputs["/metrics"][:2000])
    if shown_uri not in outputs["the page"] or "REDACTED" not in outputs["the alarm lines"] + outputs["the log"]:
        fail("the redacted names are missing from the page or the log")
    print("named from the redacted URI:", shown_uri, "and", http_shown)
    print("PASS")
finally:
    stop_all(processes)
