#!/usr/bin/python3
"""The README's copy of `gst-inspect-1.0 cudahistogram` is what the element prints.

    readme_inspect.py README.md            check (a meson test)
    readme_inspect.py README.md --update   rewrite the README's copy from the element

The copy sits between the README's BEGIN and END markers. Compared without
blank lines, the Filename value and GStreamer 1.26's "Element Flags:" line
(1.22 and 1.26 differ there only). GST_PLUGIN_PATH must name the element.
"""
import re
import subprocess
import sys

BEGIN = "<!-- gst-inspect-1.0 cudahistogram: begin (tests/docs/readme_inspect.py --update writes it) -->"
END = "<!-- gst-inspect-1.0 cudahistogram: end -->"
FILENAME = re.compile(r"^(  Filename +).*$", re.M)
INSTALLED = r"\1/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstcudahistogram.so"


def inspect():
    result = subprocess.run(["gst-inspect-1.0", "cudahistogram"], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        sys.exit("readme_inspect: gst-inspect-1.0 cudahistogram failed (GST_PLUGIN_PATH?): " + result.stderr)
    return FILENAME.sub(INSTALLED, result.stdout)


def comparable(text):
    return [l.rstrip() for l in FILENAME.sub(INSTALLED, text).splitlines()
            if l.strip() and l.strip() != "Element Flags:"]


def main(argv):
    readme_path, update = argv[0], argv[1:] == ["--update"]
    with open(readme_path) as f:
        readme = f.read()
    pattern = re.compile(re.escape(BEGIN) + r"\n```\n(.*?)```\n" + re.escape(END), re.S)
    match = pattern.search(readme)
    if match is None:
        sys.exit("readme_inspect: %s has no block between\n%s\n%s" % (readme_path, BEGIN, END))
    printed = inspect()
    if update:
        with open(readme_path, "w") as f:
            f.write(readme[:match.start(1)] + printed + readme[match.end(1):])
        return
    if comparable(match.group(1)) != comparable(printed):
        sys.exit("readme_inspect: the README's gst-inspect-1.0 output differs from the element's; rewrite it with\n"
                 "  GST_PLUGIN_PATH=<builddir>/gst-plugin python3 tests/docs/readme_inspect.py README.md --update")
    print("readme_inspect: the README's copy matches gst-inspect-1.0 cudahistogram")


if __name__ == "__main__":
    main(sys.argv[1:])
