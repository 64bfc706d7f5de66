"""Files played as live sources (loop=true), as the GPU host's scale runs
play them: a 4 s H.264 file with a stereo AAC tone and a 4 s video-only
file. The tone's level and loudness reach /status.json from the first
seconds and stay through the loops (no gap as long as a pass: the audio
branch changes state with the pipeline, its sink never renders before it
has a clock); the video-only file loops (no audio branch is left waiting for an
EOS); SIGTERM drains both streams, though no one took their last
thumbnail or scope."""

import os
import subprocess
import sys
import tempfile
import time

from monitor_harness import Monitor, fail, file_uri, wait_for

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-files-")
SECONDS = 4
RATE = 30


def make(path, with_audio):
    """A SECONDS-long 320x180 H.264 file at RATE frames/s, with FFmpeg's 1 kHz sine (peaks at -18 dBFS) as a stereo AAC tone, or none."""
    inputs = ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=%d" % RATE]
    audio = []
    if with_audio:
        inputs += ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000"]
        audio = ["-c:a", "aac", "-ac", "2", "-b:a", "128k"]
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + inputs +
                   ["-t", str(SECONDS), "-c:v", "libx264", "-g", str(RATE), "-pix_fmt", "yuv420p"] + audio + [path],
                   check=True)
    return path


av = make(os.path.join(work, "tone.mp4"), True)
video = make(os.path.join(work, "video only.mp4"), False)
config = os.path.join(work, "monitor.conf")
with open(config, "w") as f:
    f.write("[stream tone]\nuri=%s\nloop=true\n[stream video-only]\nuri=%s\nloop=true\n" % (file_uri(av), file_uri(video)))

monitor = Monitor(binary, ["--config", config])
try:
    monitor.wait_up("tone")
    monitor.wait_up("video-only")
    up = time.monotonic()
    wait_for("the tone's level on /status.json", lambda: monitor.status()["tone"]["audio"] is not None, 5)
    print("audio %.1f s after the stream came up" % (time.monotonic() - up))

    # Three passes of each file. The fault this guards against held the
    # audio back from about 3 s after the start until the file looped: a gap
    # as long as a pass. A loaded machine may delay a level message by a
    # second or two, which is no gap of that length.
    deadline = up + 3 * SECONDS + 1
    last_audio = time.monotonic()
    longest_gap = 0.0
    while time.monotonic() < deadline:
        now = time.monotonic()
        if monitor.status()["tone"]["audio"] is not None:
            last_audio = now
        longest_gap = max(longest_gap, now - last_audio)
        if longest_gap >= SECONDS:
            fail("the tone's audio went away for %.1f s at %.1f s:\n%s" % (longest_gap, now - up, monitor.log()))
        time.sleep(0.5)
    print("the tone's audio: the longest gap %.1f s over %d s" % (longest_gap, 3 * SECONDS))
    status = monitor.status()
    for name in ("tone", "video-only"):
        s = status[name]
        if s["state"] != "up" or s["frames"] <= 2 * SECONDS * RATE:
            fail("%s: %s after %d frames: the file did not loop\n%s" % (name, s["state"], s["frames"], monitor.log()))
        print("%s: up, %d frames (%d a pass)" % (name, s["frames"], SECONDS * RATE))
    if status["video-only"]["audio"] is not None:
        fail("video-only has audio: %r" % status["video-only"]["audio"])
    lufs = status["tone"]["audio"]["short_term_lufs"] if status["tone"]["audio"] else None
    if lufs is None or not -25 < lufs < -17:
        fail("the tone's short-term loudness is %r LUFS, not about -21" % lufs)
    print("tone: %.2f LUFS short-term" % lufs)

    # Pictures were made and no one took them: SIGTERM still drains both streams.
    code = monitor.stop()
    if code != 0 or "did not drain" in monitor.log() or "stopped" not in monitor.log():
        fail("SIGTERM: exit code %s\n%s" % (code, monitor.log()))
    print("SIGTERM: both streams drained, exit 0")
    print("PASS")
finally:
    monitor.stop()
