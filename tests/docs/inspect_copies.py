#!/usr/bin/python3
"""The element reference's copies of `gst-inspect-1.0 ELEMENT` are what the elements print.

    inspect_copies.py docs/element.md ELEMENT...            check (a meson test)
    inspect_copies.py docs/element.md ELEMENT... --update   rewrite the copies from the elements

Each copy sits in a ``` block between the page's markers
    <!-- gst-inspect-1.0 ELEMENT: begin (tests/docs/inspect_copies.py --update writes it) -->
    <!-- gst-inspect-1.0 ELEMENT: end -->
Every ELEMENT named must have one. Compared without blank lines, the Filename
value and GStreamer 1.26's "Element Flags:" line (1.22 and 1.26 differ there
only). GST_PLUGIN_PATH must name the plugin.
"""
import re
import subprocess
import sys

BEGIN = "<!-- gst-inspect-1.0 %s: begin (tests/docs/inspect_copies.py --update writes it) -->"
END = "<!-- gst-inspect-1.0 %s: end -->"
FILENAME = re.compile(r"^(  Filename +).*$", re.M)
INSTALLED = r"\1/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstcudahistogram.so"


def inspect(element):
    result = subprocess.run(["gst-inspect-1.0", element], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        sys.exit("inspect_copies: gst-inspect-1.0 %s failed (GST_PLUGIN_PATH?): %s" % (element, result.stderr))
    return FILENAME.sub(INSTALLED, result.stdout)


def comparable(text):
    return [l.rstrip() for l in FILENAME.sub(INSTALLED, text).splitlines()
            if l.strip() and l.strip() != "Element Flags:"]


def copy_of(page, path, element):
    """The match of ELEMENT's copy in the page; its group 1 is the copied text."""
    pattern = re.compile(re.escape(BEGIN % element) + r"\n```\n(.*?)```\n" + re.escape(END % element), re.S)
    match = pattern.search(page)
    if match is None:
        sys.exit("inspect_copies: %s has no block between\n%s\n%s" % (path, BEGIN % element, END % element))
    return match


def main(argv):
    update = argv[-1] == "--update"
    path, elements = argv[0], argv[1:-1] if update else argv[1:]
    if not elements:
        sys.exit(__doc__)
    with open(path) as f:
        page = f.read()
    stale = []
    for element in elements:
        match, printed = copy_of(page, path, element), inspect(element)
        if update:
            page = page[:match.start(1)] + printed + page[match.end(1):]
        elif comparable(match.group(1)) != comparable(printed):
            stale.append(element)
    if update:
        with open(path, "w") as f:
            f.write(page)
        return
    if stale:
        sys.exit("inspect_copies: %s's gst-inspect-1.0 output of %s differs from the element's; rewrite it with\n"
                 "  GST_PLUGIN_PATH=<builddir>/gst-plugin python3 tests/docs/inspect_copies.py %s %s --update"
                 % (path, ", ".join(stale), path, " ".join(elements)))
    print("inspect_copies: %s's copies match gst-inspect-1.0 %s" % (path, ", ".join(elements)))


if __name__ == "__main__":
    main(sys.argv[1:])
