#!/usr/bin/python3
"""The monitor on system memory (--cpu): events at the right frames, clear argument errors.

    monitor_test.py MONITOR
"""
import json
import os
import sys
import tempfile
import unittest

import example_support as support

MONITOR = sys.argv.pop(1)


def events(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def frames_of(lines, event):
    return sorted(e["frame"] for e in lines if e["event"] == event)


class MonitorOnAClip(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.clip = os.path.join(cls.tmp.name, "segments.mp4")
        support.make_segmented_clip(cls.clip)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def monitor(self, *args, cpu=True):
        support.require_element_plugin(self)
        result = support.run([MONITOR, "--quiet"] + (["--cpu"] if cpu else []) + list(args) + [self.clip])
        self.assertEqual(result.returncode, 0, result.stderr)
        return events(result.stdout), result.stderr

    def test_black_frames_and_cuts(self):
        lines, _ = self.monitor()
        self.assertEqual(frames_of(lines, "black"), list(range(20, 30)))
        self.assertEqual(frames_of(lines, "cut"), [20, 30])
        first_black = next(e for e in lines if e["event"] == "black")
        self.assertAlmostEqual(first_black["pts"], 20 / 30, places=3)
        self.assertGreaterEqual(first_black["fraction"], 0.98)

    def test_summary_has_a_line_per_frame(self):
        lines, _ = self.monitor("--summary")
        summary = [e for e in lines if e["event"] == "frame"]
        self.assertEqual([e["frame"] for e in summary], list(range(50)))
        # videotestsrc's black is Y = 16 and survives H.264 exactly enough to stay black.
        for e in summary[20:30]:
            self.assertLess(e["max"], 32)
        self.assertGreater(summary[0]["max"], 200)  # SMPTE bars reach white

    def test_thresholds_are_options(self):
        # The black frames are Y = 16; with threshold 16 (values below 16) none of them is black.
        self.assertEqual(frames_of(self.monitor("--black-threshold", "16")[0], "black"), [])
        # A cut threshold of 1 is never exceeded.
        self.assertEqual(frames_of(self.monitor("--cut-threshold", "1")[0], "cut"), [])

    def scope_png(self, style, frame, cpu=True):
        path = os.path.join(self.tmp.name, "%s-%d-%s.png" % (style, frame, "cpu" if cpu else "gpu"))
        _, stderr = self.monitor("--scope", style, "--scope-png", path, "--frame", str(frame), cpu=cpu)
        self.assertIn("%s of frame %d written to %s" % (style, frame, path), stderr)
        return path, stderr

    def test_scope_png_of_one_frame(self):
        # Frame 25 is black (Y = 16, U = V = 128): one band on the waveform, one spot on the vectorscope.
        path, _ = self.scope_png("waveform", 25)
        picture = support.read_png(path)
        self.assertEqual(picture.shape, (512, 1024, 4))
        # 256 bins on 512 rows: Y = 16 (bin 16) on rows 32 and 33 from the bottom.
        trace = picture[:, :, :3].min(axis=2) > 200  # white trace; the amber graticule has no blue
        self.assertEqual(sorted(set(trace.nonzero()[0])), [511 - 33, 511 - 32])
        path, _ = self.scope_png("vectorscope", 25)
        self.assertEqual(support.read_png(path).shape, (512, 512, 4))

    def test_scope_png_past_the_end_is_an_error(self):
        support.require_element_plugin(self)
        path = os.path.join(self.tmp.name, "late.png")
        result = support.run([MONITOR, "--quiet", "--cpu", "--scope", "parade", "--scope-png", path,
                              "--frame", "50", self.clip])
        self.assertEqual(result.returncode, 1)
        self.assertIn("ended after 50 frames, before frame 50", result.stderr)
        self.assertFalse(os.path.exists(path))

    def test_gpu_scope_png_equals_the_cpu_one(self):
        gpu, stderr = self.scope_png("parade", 3, cpu=False)
        if "using the GPU" not in stderr:
            self.skipTest(stderr.splitlines()[0])
        cpu, _ = self.scope_png("parade", 3)
        self.assertTrue((support.read_png(gpu) == support.read_png(cpu)).all())

    def test_gpu_path_reports_what_the_cpu_path_reports(self):
        gpu, stderr = self.monitor("--summary", cpu=False)
        if "using the GPU" not in stderr:
            self.skipTest(stderr.splitlines()[0])
        cpu, _ = self.monitor("--summary")
        self.assertEqual(len(gpu), len(cpu))
        self.assertEqual(gpu, cpu)


class MonitorOnATestSource(unittest.TestCase):
    def test_still_pattern_is_frozen_after_the_first_frame(self):
        support.require_element_plugin(self)
        # (SMPTE bars would not do: videotestsrc draws noise in one of their corners.)
        result = support.run([MONITOR, "--cpu", "--pattern", "colors", "--frames", "5"])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(frames_of(events(result.stdout), "frozen"), [1, 2, 3, 4])
        self.assertIn("using the CPU backend", result.stderr)
        self.assertIn("monitor: 5 frames", result.stderr)  # the final progress line


class MonitorSignalStats(unittest.TestCase):
    """--signalstats: signalstats' names, a line per frame, JSON and CSV alike.
    (That the figures equal FFmpeg's is signalstats_ffmpeg_test.py's part.)"""

    NAMES = ("YMIN YLOW YAVG YHIGH YMAX UMIN ULOW UAVG UHIGH UMAX VMIN VLOW VAVG VHIGH VMAX "
             "SATMIN SATLOW SATAVG SATHIGH SATMAX HUEMED HUEAVG YDIF UDIF VDIF BRNG").split()

    def signalstats(self, *args):
        support.require_element_plugin(self)
        result = support.run([MONITOR, "--cpu", "--quiet", "--signalstats", "--pattern", "smpte",
                              "--frames", "4"] + list(args))
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout.splitlines()

    def test_json_lines_and_csv_carry_the_same_figures(self):
        lines = [json.loads(line) for line in self.signalstats()]
        self.assertEqual([e["frame"] for e in lines], [0, 1, 2, 3])
        # TOUT and VREP come with signalstats=true, in JSON lines only (CSV keeps its columns).
        self.assertEqual(list(lines[0])[2:], self.NAMES + ["TOUT", "VREP"])
        csv = self.signalstats("--format", "csv")
        self.assertEqual(csv[0].split(","), ["frame", "pts"] + self.NAMES)
        self.assertEqual(len(csv), 5)
        for row, line in zip(csv[1:], lines):
            values = row.split(",")[2:]
            self.assertEqual([float(v) for v in values], [float(line[n]) for n in self.NAMES])
        # SMPTE bars reach white and the first frame's DIF is against itself.
        self.assertGreater(lines[0]["YMAX"], 200)
        self.assertEqual((lines[0]["YDIF"], lines[0]["UDIF"], lines[0]["VDIF"]), (0, 0, 0))
        self.assertIsInstance(lines[0]["YMIN"], int)

    def test_qc_adds_cropdetect_and_the_field_psnr(self):
        lines = [json.loads(line) for line in self.signalstats("--qc")]
        crop = ["cropdetect." + n for n in "x1 x2 y1 y2 w h x y".split()]
        psnr = ["psnr.mse.y", "psnr.psnr.y", "psnr.mse.u", "psnr.psnr.u", "psnr.mse.v", "psnr.psnr.v",
                "psnr.mse_avg", "psnr.psnr_avg"]
        # cropdetect skips the first two frames, as FFmpeg's does; 320x240 has an even height.
        for frame, line in enumerate(lines):
            self.assertEqual(list(line)[2:], self.NAMES + ["TOUT", "VREP"] + (crop if frame >= 2 else []) + psnr)
        # SMPTE bars fill the frame: no border.
        self.assertEqual((lines[2]["cropdetect.x1"], lines[2]["cropdetect.y1"]), (0, 0))
        self.assertIsInstance(lines[2]["cropdetect.w"], int)

    def test_qc_without_signalstats_is_a_usage_error(self):
        result = support.run([MONITOR, "--qc"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("--qc goes with --signalstats", result.stderr)

    def test_bad_format_is_a_usage_error(self):
        result = support.run([MONITOR, "--signalstats", "--format", "xml"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("--format wants json or csv, got 'xml'", result.stderr)


class MonitorArguments(unittest.TestCase):
    def expect_usage_error(self, args, words):
        result = support.run([MONITOR] + args)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(words, result.stderr)
        self.assertIn("usage: monitor", result.stderr)

    def test_bad_values_are_named(self):
        self.expect_usage_error(["--black-amount", "1.5"], "--black-amount must be a fraction")
        self.expect_usage_error(["--cut-threshold", "x"], "--cut-threshold wants a number, got 'x'")
        self.expect_usage_error(["--frames", "0"], "--frames wants a count")
        self.expect_usage_error(["--bogus", "1"], "unknown option: --bogus")
        self.expect_usage_error(["a.mp4", "b.mp4"], "one input file only")
        self.expect_usage_error(["--clip-amount"], "missing value: --clip-amount")
        self.expect_usage_error(["--scope", "waveform"], "--scope and --scope-png go together")
        self.expect_usage_error(["--scope", "scatter", "--scope-png", "x.png"], "--scope wants waveform")
        self.expect_usage_error(["--frame", "-1"], "--frame wants a frame number")

    def test_missing_file_is_a_clear_error(self):
        support.require_element_plugin(self)
        result = support.run([MONITOR, "--cpu", "/nonexistent/clip.mp4"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("monitor:", result.stderr)
        self.assertRegex(result.stderr, "(?i)not found|could not|no such|does not exist")


if __name__ == "__main__":
    support.main()
