"""What the cudahist-qc tests share: named checks that are all run and then
counted, and clips made with Debian's ffmpeg."""
import subprocess

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
