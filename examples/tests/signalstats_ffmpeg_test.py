#!/usr/bin/python3
"""The element's signalstats figures equal FFmpeg's (Debian's ffmpeg, signalstats
filter) on every figure of every frame, on clips made here with FFmpeg
(signalstats_clips.py: 8-bit 4:2:0 and 4:2:2, 10-bit 4:2:0, limited range with
out-of-range and saturated content, H.264 at 640x360 and FFV1 at 333x241).

    signalstats_ffmpeg_test.py MONITOR COMPARE_FFMPEG_PY [TEST ...]

SignalStatsOnCpu: system memory (CI). SignalStatsOnGpu: frames in CUDA memory
(nvh264dec for the 8-bit 4:2:0 H.264 clip, cudaupload for the others); every
test skips without a usable CUDA device (the file then exits 77).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import example_support as support
import signalstats_clips as clips

MONITOR = sys.argv.pop(1)
COMPARE = sys.argv.pop(1)
sys.path.insert(0, os.path.dirname(os.path.abspath(COMPARE)))
import compare_ffmpeg  # noqa: E402  (examples/compare_ffmpeg.py, found through its path)

_clips = {}
_tmp = None


def clip_set():
    """The clips, made once for the whole file."""
    global _tmp
    if not _clips:
        _tmp = tempfile.TemporaryDirectory()
        _clips.update(clips.make_clips(_tmp.name))
    return _clips


def compare(test, name, *args):
    """Runs compare_ffmpeg.py on one clip; returns (exit code, output)."""
    support.require_element_plugin(test)
    result = support.run([sys.executable, COMPARE, "--monitor", MONITOR] + list(args) + [clip_set()[name]])
    return result.returncode, result.stdout + result.stderr


class ComparatorItself(unittest.TestCase):
    """compare_ffmpeg's parsing and comparison, on FFmpeg's own text."""

    @classmethod
    def setUpClass(cls):
        cls.frames = []
        if shutil.which("ffmpeg"):
            cls.frames = compare_ffmpeg.parse_ffmpeg_metadata(
                compare_ffmpeg.ffmpeg_signalstats(clip_set()["ffv1-420-333x241"]))

    def setUp(self):
        if not shutil.which("ffmpeg"):
            self.fail("ffmpeg not found: scripts/install-deps.sh installs Debian's ffmpeg")

    def as_numbers(self, frames):
        return [{k: (float(v) if k in compare_ffmpeg.DOUBLES else int(v)) for k, v in f.items()} for f in frames]

    def test_ffmpeg_prints_every_figure_of_every_frame(self):
        self.assertEqual(len(self.frames), clips.FRAMES)
        for frame in self.frames:
            self.assertEqual([n for n in compare_ffmpeg.NAMES if n not in frame], [])
        # The clip is what it claims: out-of-range luma and chroma, motion.
        self.assertTrue(any(int(f["YMIN"]) < 16 for f in self.frames))
        self.assertTrue(any(int(f["UMAX"]) > 240 or int(f["VMAX"]) > 240 for f in self.frames))
        self.assertTrue(all(0 < float(f["BRNG"]) < 1 for f in self.frames))
        self.assertEqual(self.frames[0]["YDIF"], "0")
        self.assertTrue(all(float(f["YDIF"]) > 0 for f in self.frames[1:]))

    def test_ffmpegs_own_figures_compare_equal(self):
        # %g of the value FFmpeg printed is that text again: the comparison can pass.
        self.assertEqual(compare_ffmpeg.compare(self.frames, self.as_numbers(self.frames)), [])

    def test_a_changed_figure_is_found(self):
        numbers = self.as_numbers(self.frames)
        numbers[7]["HUEAVG"] += 1e-3
        numbers[9]["SATLOW"] += 1
        del numbers[11]["BRNG"]
        found = [(frame, name) for frame, name, *_ in compare_ffmpeg.compare(self.frames, numbers)]
        self.assertEqual(found, [(7, "HUEAVG"), (9, "SATLOW"), (11, "BRNG")])


class SignalStatsOnCpu(unittest.TestCase):
    """Every clip, frames in system memory: 0 differences, the same frame count."""


class SignalStatsOnGpu(unittest.TestCase):
    """Every clip, frames in CUDA memory."""


def add_clip_tests():
    for name, *_ in clips.CLIPS:
        def on_cpu(self, name=name):
            code, output = compare(self, name, "--cpu")
            print(output, end="")
            self.assertEqual(code, 0, output)
            self.assertIn("%d frames x %d figures compared, 0 differences" % (clips.FRAMES, len(compare_ffmpeg.NAMES)),
                          output)

        def on_gpu(self, name=name):
            support.require_element_plugin(self)
            probe = support.run([MONITOR, "--frames", "1", "--quiet"])
            if "using the GPU" not in probe.stderr:
                self.skipTest("no usable CUDA device: " + (probe.stderr.splitlines() or ["?"])[0])
            nvdec = name in clips.NVDEC_CLIPS
            env_rank = {"GST_PLUGIN_FEATURE_RANK": "nvh264dec:MAX"} if nvdec else {}
            os.environ.update(env_rank)
            try:
                code, output = compare(self, name, "--require-gpu",
                                       *(["--require-decoder", "nvh264dec"] if nvdec else []))
            finally:
                for key in env_rank:
                    os.environ.pop(key)
            print(output, end="")
            self.assertEqual(code, 0, output)

        setattr(SignalStatsOnCpu, "test_" + name.replace("-", "_"), on_cpu)
        setattr(SignalStatsOnGpu, "test_" + name.replace("-", "_"), on_gpu)


add_clip_tests()

if __name__ == "__main__":
    try:
        support.main()
    finally:
        if _tmp:
            _tmp.cleanup()
