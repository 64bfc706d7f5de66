#!/usr/bin/python3
"""The element's signalstats figures equal FFmpeg's (Debian's ffmpeg, signalstats
filter) on every figure of every frame, on clips made here with FFmpeg
(signalstats_clips.py: 8-bit 4:2:0 and 4:2:2, 10-bit 4:2:0, limited range with
out-of-range and saturated content, H.264 at 640x360 and FFV1 at 333x241).

    signalstats_ffmpeg_test.py MONITOR COMPARE_FFMPEG_PY [TEST ...]

SignalStatsOnCpu: system memory (CI). SignalStatsOnGpu: frames in CUDA memory
(nvh264dec for the 8-bit 4:2:0 H.264 clips, cudaupload for the others); every
test skips without a usable CUDA device (the file then exits 77).

QcGraphOnCpu / QcGraphOnGpu: QCTools' whole graph, run by ffprobe as qcli runs
it, against the element with signalstats, cropdetect and field-psnr, on the
QC clips (signalstats_clips.QC_CLIPS: 8-bit 4:2:0 H.264, 10-bit 4:2:2 FFV1,
woven and equal fields, letterbox and pillarbox bars that move, out-of-range
content, odd sizes): every signalstats figure, TOUT, VREP, cropdetect and the
field PSNR of every frame.
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
_qc_clips = {}
_tmp = None


def temporary_directory():
    global _tmp
    if _tmp is None:
        _tmp = tempfile.TemporaryDirectory()
    return _tmp.name


def clip_set():
    """The clips, made once for the whole file."""
    if not _clips:
        _clips.update(clips.make_clips(temporary_directory()))
    return _clips


def qc_clip_set():
    """The QC clips, made once for the whole file."""
    if not _qc_clips:
        _qc_clips.update(clips.make_qc_clips(temporary_directory()))
    return _qc_clips


def compare(test, name, *args):
    """Runs compare_ffmpeg.py on one clip; returns (exit code, output)."""
    support.require_element_plugin(test)
    path = qc_clip_set()[name] if "--qc" in args else clip_set()[name]
    result = support.run([sys.executable, COMPARE, "--monitor", MONITOR] + list(args) + [path])
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


class QcComparatorItself(unittest.TestCase):
    """ffprobe's QCTools graph on the QC clips is what the comparison needs it to be."""

    def setUp(self):
        if not shutil.which("ffprobe"):
            self.fail("ffprobe not found: scripts/install-deps.sh installs Debian's ffmpeg")

    def probe(self, name):
        return compare_ffmpeg.ffprobe_qc_graph(qc_clip_set()[name])

    def test_the_clips_exercise_every_figure(self):
        frames = self.probe("qc-h264-420-320x240-letterbox")
        self.assertEqual(len(frames), clips.QC_FRAMES)
        # cropdetect skips two frames, then reports every frame; its bars move.
        self.assertEqual([("cropdetect.y1" in f) for f in frames[:3]], [False, False, True])
        self.assertGreater(len({f["cropdetect.y1"] for f in frames[2:]}), 1)
        self.assertTrue(all(float(f["TOUT"]) > 0 and float(f["VREP"]) > 0 for f in frames))
        self.assertTrue(all(0 < float(f["psnr.mse.y"]) for f in frames))
        equal = self.probe("qc-ffv1-420-320x240-equal-fields")
        self.assertTrue(all(f["psnr.psnr_avg"] == "inf" and f["psnr.mse_avg"] == "0.000000" for f in equal))
        # Odd heights: QCTools' graph refuses them; the clip is compared without the PSNR.
        odd = self.probe("qc-ffv1-420-333x241-pillarbox")
        self.assertTrue(all("psnr.mse.y" not in f and "TOUT" in f for f in odd))

    def test_a_changed_figure_is_found(self):
        expected = self.probe("qc-ffv1-422p10-320x240-pillarbox")
        names = compare_ffmpeg.NAMES + compare_ffmpeg.QC_NAMES
        actual = [{k: (float(v) if k.startswith(compare_ffmpeg.PSNR_PREFIX) or k in compare_ffmpeg.DOUBLES
                       else int(v)) for k, v in f.items() if k in names} for f in expected]
        self.assertEqual(compare_ffmpeg.compare(expected, actual, names), [])
        actual[4]["psnr.psnr.u"] += 2e-6
        actual[5]["cropdetect.x"] += 2
        actual[6]["TOUT"] *= 1.001
        actual[0]["cropdetect.w"] = 288  # a figure FFmpeg skips on this frame
        found = [(frame, name) for frame, name, *_ in compare_ffmpeg.compare(expected, actual, names)]
        self.assertEqual(found, [(0, "cropdetect.w"), (4, "psnr.psnr.u"), (5, "cropdetect.x"), (6, "TOUT")])


class SignalStatsOnCpu(unittest.TestCase):
    """Every clip, frames in system memory: 0 differences, the same frame count."""


class SignalStatsOnGpu(unittest.TestCase):
    """Every clip, frames in CUDA memory."""


class QcGraphOnCpu(unittest.TestCase):
    """Every QC clip against QCTools' graph, frames in system memory."""


class QcGraphOnGpu(unittest.TestCase):
    """Every QC clip against QCTools' graph, frames in CUDA memory."""


def on_cpu_test(name, qc):
    frames, names = ((clips.QC_FRAMES, compare_ffmpeg.NAMES + compare_ffmpeg.QC_NAMES) if qc
                     else (clips.FRAMES, compare_ffmpeg.NAMES))

    def on_cpu(self):
        code, output = compare(self, name, "--cpu", *(["--qc"] if qc else []))
        print(output, end="")
        self.assertEqual(code, 0, output)
        self.assertIn("%d frames x %d figures compared, 0 differences" % (frames, len(names)), output)
    return on_cpu


def on_gpu_test(name, qc, nvdec):
    def on_gpu(self):
        support.require_element_plugin(self)
        probe = support.run([MONITOR, "--frames", "1", "--quiet"])
        if "using the GPU" not in probe.stderr:
            self.skipTest("no usable CUDA device: " + (probe.stderr.splitlines() or ["?"])[0])
        env_rank = {"GST_PLUGIN_FEATURE_RANK": "nvh264dec:MAX"} if nvdec else {}
        os.environ.update(env_rank)
        try:
            code, output = compare(self, name, "--require-gpu", *(["--qc"] if qc else []),
                                   *(["--require-decoder", "nvh264dec"] if nvdec else []))
        finally:
            for key in env_rank:
                os.environ.pop(key)
        print(output, end="")
        self.assertEqual(code, 0, output)
    return on_gpu


def add_clip_tests():
    for name, *_ in clips.CLIPS:
        test = "test_" + name.replace("-", "_")
        setattr(SignalStatsOnCpu, test, on_cpu_test(name, False))
        setattr(SignalStatsOnGpu, test, on_gpu_test(name, False, name in clips.NVDEC_CLIPS))
    for name, _, _, pix_fmt, codec, _ in clips.QC_CLIPS:
        test = "test_" + name.replace("-", "_")
        setattr(QcGraphOnCpu, test, on_cpu_test(name, True))
        setattr(QcGraphOnGpu, test, on_gpu_test(name, True, codec == "h264" and pix_fmt == "yuv420p"))


add_clip_tests()

if __name__ == "__main__":
    try:
        support.main()
    finally:
        if _tmp:
            _tmp.cleanup()
