#!/usr/bin/python3
"""nvdec_histogram: argument and file errors everywhere; the decode itself only
with an NVIDIA GPU (skipped without one: run alone, the decode test then exits 77).

    nvdec_histogram_test.py NVDEC_HISTOGRAM MONITOR [TEST_NAME...]

MONITOR decodes the same stream through GStreamer (--cpu: the CPU backend);
its per-frame luma statistics are the oracle of the NVDEC + cudahist path.
"""
import json
import os
import sys
import tempfile
import unittest

import example_support as support

NVDEC = sys.argv.pop(1)
MONITOR = sys.argv.pop(1)
EXIT_NO_GPU = 77


class NvdecHistogram(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.stream = os.path.join(cls.tmp.name, "smpte.h264")
        support.make_annexb_stream(cls.stream, frames=10)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def expect(self, args, code, words):
        result = support.run([NVDEC] + args)
        self.assertEqual(result.returncode, code, result.stderr)
        self.assertIn(words, result.stderr)

    def test_usage_errors(self):
        self.expect([], 2, "no input file")
        self.expect(["--bins", "0", self.stream], 2, "--bins wants a count from 1 to 256")
        self.expect(["--bins", "300", self.stream], 2, "--bins wants a count from 1 to 256")
        self.expect([self.stream, self.stream], 2, "unexpected argument")

    def test_file_errors(self):
        self.expect(["/nonexistent.h264"], 1, "cannot open '/nonexistent.h264'")
        empty = os.path.join(self.tmp.name, "empty.h264")
        open(empty, "wb").close()
        self.expect([empty], 1, "is empty")
        mp4 = os.path.join(self.tmp.name, "not_annexb.h264")
        with open(mp4, "wb") as f:
            f.write(b"\x00\x00\x00\x18ftypisom")
        self.expect([mp4], 1, "is not an H.264 Annex B elementary stream")

    def test_decodes_every_frame(self):
        result = support.run([NVDEC, self.stream])
        if result.returncode == EXIT_NO_GPU:
            self.skipTest("no NVIDIA GPU here: " + result.stderr.strip())
        self.assertEqual(result.returncode, 0, result.stderr)
        frames = [json.loads(l) for l in result.stdout.splitlines()]
        self.assertEqual([f["frame"] for f in frames], list(range(10)))
        self.assertEqual((frames[0]["width"], frames[0]["height"]), (320, 240))
        self.assertLess(frames[0]["Y"]["min"], 20)
        self.assertGreater(frames[0]["Y"]["max"], 200)
        support.require_element_plugin(self)
        reference = support.run([MONITOR, "--cpu", "--quiet", "--summary", self.stream])
        self.assertEqual(reference.returncode, 0, reference.stderr)
        summary = [json.loads(l) for l in reference.stdout.splitlines()]
        summary = [e for e in summary if e["event"] == "frame"]
        self.assertEqual(len(summary), len(frames))
        for nvdec, cpu in zip(frames, summary):
            self.assertEqual((nvdec["Y"]["min"], nvdec["Y"]["max"]), (cpu["min"], cpu["max"]), nvdec)
            self.assertAlmostEqual(nvdec["Y"]["mean"], cpu["mean"], delta=1e-3, msg=nvdec)


if __name__ == "__main__":
    support.main()
