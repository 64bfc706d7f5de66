"""What the cudahist-qc tests share: named checks that are all run and then
counted, clips made with Debian's ffmpeg, and runs with stderr or stdout on a
pseudo-terminal."""
import os
import pty
import select
import shutil
import subprocess
import sys

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def verdict():
    """The test's exit status: 0 when every check passed, 1 otherwise."""
    if failures:
        print(f"FAIL: {len(failures)} checks failed")
        return 1
    print("PASS")
    return 0


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y"] + list(args), check=True)


def run_on_terminal(args, terminal="stderr"):
    """Runs `args` with `terminal` (stderr or stdout) on a pseudo-terminal and the other a pipe;
    returns (what the terminal got, what the pipe got, exit status)."""
    master, slave = pty.openpty()
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, terminal: slave}
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, **streams)
    os.close(slave)
    screen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal's other end closed
                break
            if not chunk:
                break
            screen += chunk
        elif proc.poll() is not None:
            break
    os.close(master)
    piped = (proc.stderr if terminal == "stdout" else proc.stdout).read().decode()
    return screen.decode(errors="replace"), piped, proc.wait()


def program_with_ffmpeg(usage):
    """(cudahist-qc as argv names it, 0), or (None, the exit status to leave with): 2 when argv
    names no program (the usage is printed), 77 when there is no ffmpeg to make the clips."""
    if len(sys.argv) != 2:
        print(usage)
        return None, 2
    if not shutil.which("ffmpeg"):
        print("SKIP: ffmpeg not installed")
        return None, 77
    return sys.argv[1], 0
