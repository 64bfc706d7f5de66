"""A CUDA error in one stream (GPU only): the element of stream 'faulty' fails
a frame with a real CUDA error (CUDAHIST_CUDA_FAULT, an invalid
cudaMemsetAsync on its own stream). The monitor reports it (log line, the
stream down, a reconnect counted) and restarts that stream, which comes back
up on its own; stream 'steady', in the same process and the same CUDA
context, never stalls meanwhile."""

import os
import sys
import tempfile
import time

from monitor_harness import RATE, Monitor, fail, file_uri, make_file, stop_all, wait_for

FAULT_FRAME = 3 * RATE  # a few seconds in: both streams are up and counting

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-cuda-fault-")
clip = make_file(os.path.join(work, "clip.mp4"), frames=60)
config = os.path.join(work, "monitor.conf")
with open(config, "w") as f:
    f.write("[monitor]\nstall-timeout=3\n")
    for name in ("steady", "faulty"):
        f.write("[stream %s]\nuri=%s\nloop=true\n" % (name, file_uri(clip)))

os.environ["CUDAHIST_CUDA_FAULT"] = "faulty:%d" % FAULT_FRAME
monitor = Monitor(binary, ["--config", config])
try:
    if "CPU backend" in monitor.log():
        print("SKIP: no GPU (%s)" % monitor.log().splitlines()[0])
        monitor.stop()
        sys.exit(77)
    monitor.wait_up("steady", timeout=30)
    monitor.wait_up("faulty", timeout=30)
    print("both streams up:", monitor.log().strip().splitlines()[0])

    steady_frames = []
    def fault_reported():
        steady_frames.append((time.monotonic(), monitor.value("cudahist_frames_total", "steady")))
        return "injected by CUDAHIST_CUDA_FAULT" in monitor.log()
    wait_for("the CUDA error in faulty's log", fault_reported, timeout=30)
    error_lines = [l for l in monitor.log().splitlines() if "CUDA" in l and "faulty" in l]
    print("reported:", error_lines[0])
    if "down:" not in error_lines[0]:
        fail("the CUDA error did not take 'faulty' down: %r" % error_lines[0])

    wait_for("faulty restarted and up again",
             lambda: (steady_frames.append((time.monotonic(), monitor.value("cudahist_frames_total", "steady")))
                      or monitor.value("cudahist_reconnects_total", "faulty") >= 1
                      and monitor.value("cudahist_stream_up", "faulty") == 1), timeout=30)
    up_again = [l for l in monitor.log().splitlines() if l.startswith("faulty") or "faulty:" in l]
    print("faulty's log:", *up_again, sep="\n  ")
    if not any("up again" in l for l in up_again):
        fail("no 'up again' line for faulty")
    before = monitor.value("cudahist_frames_total", "faulty")
    time.sleep(3)
    after = monitor.value("cudahist_frames_total", "faulty")
    if after <= before:
        fail("faulty is up but counts no frames (%s -> %s)" % (before, after))

    # 'steady' counted throughout: its counter rose in every 3 s window from before the fault to now.
    steady_frames.append((time.monotonic(), monitor.value("cudahist_frames_total", "steady")))
    start_t, start_n = steady_frames[0]
    end_t, end_n = steady_frames[-1]
    last_rise = start_t
    for (t0, n0), (t1, n1) in zip(steady_frames, steady_frames[1:]):
        if n1 > n0:
            last_rise = t1
        elif t1 - last_rise > 3.0:
            fail("steady stalled for %.1f s while faulty failed" % (t1 - last_rise))
    rate = (end_n - start_n) / (end_t - start_t)
    print("steady: %.1f frames/s through the fault (source rate %d)" % (rate, RATE))
    if rate < 0.8 * RATE:
        fail("steady slowed to %.1f frames/s" % rate)
    if monitor.value("cudahist_stream_up", "steady") != 1:
        fail("steady went down")
    if monitor.stop() != 0:
        fail("exit status %s after SIGTERM" % monitor.process.returncode)
    print("ok")
finally:
    stop_all([monitor.process])
