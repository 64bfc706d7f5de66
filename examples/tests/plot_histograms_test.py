#!/usr/bin/python3
"""plot_histograms.py on the CPU backend writes a real PNG.

    plot_histograms_test.py PLOT_HISTOGRAMS_PY
"""
import os
import struct
import sys
import tempfile
import unittest

import matplotlib.image
import numpy as np

import example_support as support

PLOTTER = sys.argv.pop(1)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PlotHistograms(unittest.TestCase):
    def test_writes_a_heat_map_png(self):
        support.require_element_plugin(self)
        with tempfile.TemporaryDirectory() as tmp:
            png = os.path.join(tmp, "out.png")
            result = support.run([sys.executable, PLOTTER, "--cpu", "--frames", "30", "--pattern", "ball",
                                  "-o", png])
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("30 frames", result.stderr)
            with open(png, "rb") as f:
                header = f.read(24)
            self.assertEqual(header[:8], PNG_SIGNATURE)
            width, height = struct.unpack(">II", header[16:24])  # IHDR
            self.assertEqual((width, height), (1000, 500))  # figsize 10 x 5 at 100 dpi
            pixels = matplotlib.image.imread(png)
            self.assertEqual(pixels.shape[:2], (500, 1000))
            self.assertGreater(len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)), 50)

    def test_bad_frames_argument(self):
        result = support.run([sys.executable, PLOTTER, "--frames", "0"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("--frames wants a count", result.stderr)

    def test_missing_file(self):
        support.require_element_plugin(self)
        with tempfile.TemporaryDirectory() as tmp:
            result = support.run([sys.executable, PLOTTER, "--cpu", "-o", os.path.join(tmp, "x.png"),
                                  "/nonexistent/clip.mp4"])
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("plot_histograms:", result.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "x.png")))


if __name__ == "__main__":
    support.main()
