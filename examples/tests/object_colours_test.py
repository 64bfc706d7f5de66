#!/usr/bin/python3
"""object_colours.py on the CPU backend: the colour of each SMPTE bar, found by a detector.

    object_colours_test.py OBJECT_COLOURS_PY

The detector is onnxinference with a model made here (tests/analytics/fixed_ssd.py:
fixed boxes, SSD's outputs) that puts one box inside each of the seven bars of
videotestsrc's smpte pattern (448 pixels wide: 64 a bar); every frame must
print each box with its label, a luma and the bar's colour. Needs GStreamer
1.26's onnx and tensordecoders plugins and python3-onnx (the Debian 13 root).
"""
import os
import re
import sys
import tempfile
import unittest

import example_support as support

# The model maker of the analytics tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "analytics"))
from fixed_ssd import make_model, write_labels  # noqa: E402

OBJECT_COLOURS = sys.argv.pop(1)
WIDTH, HEIGHT = 448, 128
BARS = ["white", "yellow", "cyan", "green", "magenta", "red", "blue"]  # smpte's top bars
LINE = re.compile(r"^frame (\d+)  t=([\d.]+)s  (\S+) ([\d.]+)  at (\d+),(\d+) (\d+)x(\d+)  luma ([\d.]+)  "
                  r"colour (\w+) \(hue (\d+), sat (\d+)\)$")


class ObjectColours(unittest.TestCase):
    def test_each_bar_has_its_colour(self):
        support.require_element_plugin(self)
        with tempfile.TemporaryDirectory() as d:
            model, labels = os.path.join(d, "bars.onnx"), os.path.join(d, "labels.txt")
            make_model(model, WIDTH, HEIGHT, [(64 * i + 8, 8, 64 * i + 56, 72) for i in range(len(BARS))])
            write_labels(labels, ["bar-%s" % c for c in BARS])
            result = support.run([sys.executable, OBJECT_COLOURS, "--cpu", "--model", model, "--labels", labels,
                                  "--frames", "3", "--width", str(WIDTH), "--height", str(HEIGHT)])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("counting on the CPU backend", result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(len(lines), 3 * len(BARS), result.stdout)
        for line in lines:
            m = LINE.match(line)
            self.assertIsNotNone(m, "not an object line: %r" % line)
            label, colour = m.group(3), m.group(10)
            self.assertEqual(colour, label[len("bar-"):], line)
            # ssdobjectdetector truncates its box to whole pixels: within the bar, whatever the rounding.
            bar = BARS.index(colour) if colour in BARS else -1
            x, width = int(m.group(5)), int(m.group(7))
            self.assertTrue(64 * bar <= x and x + width <= 64 * bar + 64, line)

    def test_no_detector_is_a_usage_error(self):
        result = support.run([sys.executable, OBJECT_COLOURS, "--cpu"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("give --model and --labels, or --detector", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
