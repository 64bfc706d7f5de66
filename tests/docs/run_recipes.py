#!/usr/bin/python3
"""The documentation's gst-launch-1.0 recipes that need no GPU and no input file run.

    run_recipes.py SOURCE_DIR

Takes every `gst-launch-1.0 ...` command of the ```sh blocks of README.md and
docs/*.md (continuation lines joined), leaves out those that need a GPU
(CUDA memory, cudaupload, cudadownload, NVDEC), a file of the reader's
(filesrc, uridecodebin) or a display (autovideosink), and runs the rest, each
in an empty temporary folder, with the build's plugin (GST_PLUGIN_PATH). Every
one must exit 0. Exits 77 (skipped) when the pages hold none to run.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

NEEDS_MORE = re.compile(r"CUDAMemory|cudaupload|cudadownload|nv[a-z0-9]*dec|filesrc|uridecodebin|autovideosink|v4l2src")


def shell_blocks(text):
    return re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)


def commands(block):
    """The block's commands, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", block)
    return [line.strip() for line in joined.splitlines() if line.strip()]


def recipes(root):
    pages = ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
    for page in pages:
        with open(os.path.join(root, page)) as f:
            for block in shell_blocks(f.read()):
                for command in commands(block):
                    if command.startswith("gst-launch-1.0 ") and not NEEDS_MORE.search(command):
                        yield page, command


def main(root):
    found = list(recipes(root))
    if not found:
        print("run_recipes: no recipe without a GPU or an input file in the pages")
        return 77
    failed = 0
    for page, command in found:
        with tempfile.TemporaryDirectory() as folder:
            try:
                run = subprocess.run(["bash", "-c", command], cwd=folder, capture_output=True, text=True, timeout=120)
                ok, why = run.returncode == 0, "exit %d\n%s%s" % (run.returncode, run.stdout[-1500:], run.stderr[-1500:])
            except subprocess.TimeoutExpired:
                ok, why = False, "still running after 120 s"
        print("%s: %s: %s" % (page, "ok" if ok else "FAILED", command))
        if not ok:
            print("  " + why.replace("\n", "\n  "))
            failed += 1
    print("run_recipes: %d of %d recipes ran" % (len(found) - failed, len(found)))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(os.path.abspath(sys.argv[1])))
