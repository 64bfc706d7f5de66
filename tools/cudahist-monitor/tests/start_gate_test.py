"""More streams than start at once (16): 18 that fail at once (missing
files, first in the config) and 24 looped files, all started together. Every
good stream comes up and none of them is marked down while it waits its
turn; the bad ones are down with their reason and retried. The bad ones
alone outnumber the start slots: had their failures kept their slots, no
good stream would ever start."""

import os
import sys
import tempfile

from monitor_harness import Monitor, fail, file_uri, make_file, stop_all, wait_for

GOOD, BAD = 24, 18

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-start-gate-")
clip = make_file(os.path.join(work, "clip.mp4"), frames=30, width=160, height=90)
config = os.path.join(work, "monitor.conf")
with open(config, "w") as f:
    f.write("[monitor]\nstart-timeout=20\n")
    for i in range(BAD):
        f.write("[stream bad-%02d]\nuri=%s\n" % (i, file_uri(os.path.join(work, "missing-%d.mp4" % i))))
    for i in range(GOOD):
        f.write("[stream good-%02d]\nuri=%s\nloop=true\n" % (i, file_uri(clip)))

monitor = Monitor(binary, ["--config", config])
try:
    good = ["good-%02d" % i for i in range(GOOD)]
    def all_up():
        m = monitor.metrics()
        return all(m.get(("cudahist_stream_up", name)) == 1 for name in good)
    wait_for("all %d good streams up" % GOOD, all_up, timeout=60)
    log = monitor.log()
    print("all %d good streams up" % GOOD)
    for name in good:
        if "stream %s: down" % name in log:
            fail("%s was marked down while it waited to start:\n%s" % (name, log))
    # A bad stream is "starting" again for the moment of each retry: read
    # the states until none is in a retry, rather than once.
    bad = ["bad-%02d" % i for i in range(BAD)]
    def bad_streams_down():
        status = monitor.status()
        down = all(status[name]["state"] == "down" and "not found" in (status[name].get("error") or "")
                   for name in bad)
        return status if down else None
    status = wait_for("the %d bad streams down with their reason" % BAD, bad_streams_down, timeout=20)
    print("the %d bad streams are down: %s" % (BAD, status["bad-00"]["error"]))
    if monitor.stop() != 0:
        fail("exit status %s after SIGTERM" % monitor.process.returncode)
    print("ok")
finally:
    stop_all([monitor.process])
