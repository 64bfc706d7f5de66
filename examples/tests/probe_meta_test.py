#!/usr/bin/python3
"""probe_meta.py on the CPU backend: a readable line per frame, from the meta.

    probe_meta_test.py PROBE_META_PY
"""
import re
import sys
import unittest

import example_support as support

PROBE_META = sys.argv.pop(1)
FRAME_LINE = re.compile(r"^frame +(\d+)  t= +([\d.]+)s  (\w+) (\d+)x(\d+)  (\d+) bins((?:  \|  .*)+)$")
COMPONENT = re.compile(r"^(\w) mean +([\d.]+) p5 +([\d.]+) p50 +([\d.]+) p95 +([\d.]+)$")


def frames(stdout):
    """[(number, format, bins, {component: (mean, p5, p50, p95)})] of each frame line."""
    parsed = []
    for line in stdout.splitlines():
        m = FRAME_LINE.match(line)
        assert m, "not a frame line: %r" % line
        components = {}
        for part in m.group(7).split("  |  ")[1:]:
            c = COMPONENT.match(part)
            assert c, "not a component: %r" % part
            components[c.group(1)] = tuple(float(c.group(i)) for i in range(2, 6))
        parsed.append((int(m.group(1)), m.group(3), int(m.group(6)), components))
    return parsed


class ProbeMeta(unittest.TestCase):
    def run_probe(self, *args):
        result = support.run([sys.executable, PROBE_META, "--cpu"] + list(args))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("using the CPU backend", result.stderr)
        return result

    def test_a_line_per_frame_of_smpte_bars(self):
        support.require_element_plugin(self)
        result = self.run_probe("--frames", "4", "--pattern", "smpte")
        parsed = frames(result.stdout)
        self.assertEqual([p[0] for p in parsed], [0, 1, 2, 3])
        self.assertIn("4 frames, 0 without a meta", result.stderr)
        for _, fmt, bins, components in parsed:
            self.assertEqual((fmt, bins), ("NV12", 256))
            self.assertEqual(sorted(components), ["U", "V", "Y"])
            mean, p5, p50, p95 = components["Y"]
            self.assertLessEqual(p5, 16)     # the bars hold black (and PLUGE below it)...
            self.assertGreaterEqual(p95, 235)  # ...and white
            self.assertTrue(p5 <= p50 <= p95 and p5 < mean < p95)

    def test_flat_frames_have_every_statistic_at_their_value(self):
        support.require_element_plugin(self)
        # videotestsrc in limited range: black is Y 16, white Y 235, chroma 128.
        for pattern, luma in (("black", 16), ("white", 235)):
            (_, _, _, components), = frames(self.run_probe("--frames", "1", "--pattern", pattern).stdout)
            self.assertEqual(components["Y"], (luma,) * 4, pattern)
            self.assertEqual(components["U"], (128,) * 4, pattern)
            self.assertEqual(components["V"], (128,) * 4, pattern)

    def test_coarse_bins_report_bin_centres(self):
        support.require_element_plugin(self)
        # 16 bins of 16 values: black's 16 falls in bin 1 (16-31, centre 23.5).
        (_, _, bins, components), = frames(self.run_probe("--frames", "1", "--pattern", "black",
                                                          "--bins", "16").stdout)
        self.assertEqual(bins, 16)
        self.assertEqual(components["Y"], (23.5,) * 4)

    def test_bad_arguments(self):
        for args, text in ((["--frames", "0"], "--frames wants a count"), (["--bins", "0"], "--bins wants a count")):
            result = support.run([sys.executable, PROBE_META] + args)
            self.assertEqual(result.returncode, 2)
            self.assertIn(text, result.stderr)

    def test_missing_file_is_an_error(self):
        support.require_element_plugin(self)
        result = support.run([sys.executable, PROBE_META, "--cpu", "/nonexistent/clip.mp4"])
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("probe_meta:", result.stderr)

    def test_gpu_path_prints_what_the_cpu_path_prints(self):
        support.require_element_plugin(self)
        args = ["--frames", "3", "--pattern", "smpte"]
        gpu = support.run([sys.executable, PROBE_META] + args)
        self.assertEqual(gpu.returncode, 0, gpu.stderr)
        if "using the GPU" not in gpu.stderr:
            self.skipTest("no cudaupload here (no CUDA device): " + gpu.stderr.splitlines()[0])
        self.assertEqual(gpu.stdout, self.run_probe(*args).stdout)


if __name__ == "__main__":
    support.main()
