#!/usr/bin/python3
"""The Quick start's main job on the CPU backend: readable per-frame lines, clear errors.

    quickstart_test.py QUICKSTART
"""
import re
import sys
import unittest

import example_support as support

QUICKSTART = sys.argv.pop(1)
COMPONENT_LINE = re.compile(r"^  (Y|U|V) +mean +([\d.]+) +min +(\d+) +max +(\d+) +\|(.{32})\|$")


class Quickstart(unittest.TestCase):
    def test_prints_every_frame_and_says_cpu(self):
        support.require_element_plugin(self)
        result = support.run([QUICKSTART, "--cpu", "--frames", "3", "--pattern", "smpte"])
        self.assertEqual(result.returncode, 0, result.stderr)
        out = result.stdout.splitlines()
        self.assertIn("using the CPU backend", out[0])
        self.assertEqual(len([l for l in out if l.startswith("frame ")]), 3)
        components = [COMPONENT_LINE.match(l) for l in out if COMPONENT_LINE.match(l)]
        self.assertEqual([m.group(1) for m in components], ["Y", "U", "V"] * 3)
        y = components[0]
        mean, low, high = float(y.group(2)), int(y.group(3)), int(y.group(4))
        self.assertLess(low, 20)      # SMPTE bars hold black (and PLUGE darker than black)...
        self.assertGreater(high, 200)  # ...and white
        self.assertTrue(low < mean < high)
        self.assertNotEqual(set(y.group(5)), {" "})  # the sketch shows something
        self.assertIn("3 frames counted on the CPU backend", out[-1])

    def test_black_pattern_has_one_narrow_peak(self):
        support.require_element_plugin(self)
        result = support.run([QUICKSTART, "--cpu", "--frames", "1", "--pattern", "black"])
        self.assertEqual(result.returncode, 0, result.stderr)
        y = next(COMPONENT_LINE.match(l) for l in result.stdout.splitlines() if COMPONENT_LINE.match(l))
        self.assertEqual((y.group(3), y.group(4)), ("16", "16"))
        self.assertEqual(y.group(5).strip(), "█")  # one full group, all else empty

    def test_gpu_path_counts_what_the_cpu_counts(self):
        support.require_element_plugin(self)
        args = ["--frames", "5", "--pattern", "smpte"]
        gpu = support.run([QUICKSTART] + args)
        self.assertEqual(gpu.returncode, 0, gpu.stderr)
        first = gpu.stdout.splitlines()[0]
        if not first.startswith("using the GPU"):
            self.skipTest(first)
        cpu = support.run([QUICKSTART, "--cpu"] + args)
        self.assertEqual(cpu.returncode, 0, cpu.stderr)
        # Same frames, same counts: every frame and component line is equal.
        frames = lambda out: [l for l in out.splitlines() if l.startswith("frame ") or COMPONENT_LINE.match(l)]
        self.assertEqual(len(frames(gpu.stdout)), 20)
        self.assertEqual(frames(gpu.stdout), frames(cpu.stdout))
        self.assertIn("5 frames counted on the GPU", gpu.stdout)

    def test_argument_errors(self):
        for args, words in ((["--frames", "0"], "--frames wants a count"),
                            (["--nope"], "unknown option or missing value: --nope"),
                            (["a", "b"], "one input file only")):
            result = support.run([QUICKSTART] + args)
            self.assertEqual(result.returncode, 2, args)
            self.assertIn(words, result.stderr)

    def test_missing_file(self):
        support.require_element_plugin(self)
        result = support.run([QUICKSTART, "--cpu", "/nonexistent/clip.mp4"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("quickstart:", result.stderr)


if __name__ == "__main__":
    support.main()
