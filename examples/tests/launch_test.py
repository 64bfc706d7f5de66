#!/usr/bin/python3
"""The gst-launch recipes: the system-memory one runs here; the GPU ones check their arguments.

    launch_test.py LAUNCH_DIR   (BUILD_DIR in the environment names the build)
"""
import os
import re
import sys
import tempfile
import unittest

import example_support as support

LAUNCH = sys.argv.pop(1)


def recipe(name):
    return os.path.join(LAUNCH, name)


class Recipes(unittest.TestCase):
    def test_system_memory_prints_a_message_per_frame(self):
        result = support.run([recipe("system_memory.sh"), "3", "bins=16"])
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        messages = re.findall(r"^Got message #\d+ from element \"cudahistogram0\" \(element\): cudahistogram, (.*)$",
                              result.stdout, re.M)
        self.assertEqual(len(messages), 3, result.stdout)
        self.assertIn("bins=(uint)16", messages[0])

    def test_decode_file_wants_a_readable_file(self):
        result = support.run([recipe("decode_file.sh")])
        self.assertEqual(result.returncode, 2)
        self.assertIn("usage:", result.stderr)
        result = support.run([recipe("decode_file.sh"), "/nonexistent.mp4"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("cannot read '/nonexistent.mp4'", result.stderr)

    def test_camera_names_a_missing_device(self):
        result = support.run([recipe("camera.sh"), "/dev/nonexistent-camera"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("no camera at /dev/nonexistent-camera", result.stderr)

    def test_scope_wants_a_file_and_a_known_style(self):
        result = support.run([recipe("scope.sh")])
        self.assertEqual(result.returncode, 2)
        self.assertIn("usage:", result.stderr)
        with tempfile.NamedTemporaryFile(suffix=".mp4") as clip:
            result = support.run([recipe("scope.sh"), clip.name, "oscilloscope"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("unknown style 'oscilloscope'", result.stderr)

    def test_missing_build_is_explained(self):
        env = dict(os.environ, BUILD_DIR="/nonexistent-build")
        result = support.run([recipe("system_memory.sh")], env=env)
        self.assertEqual(result.returncode, 1)
        self.assertIn("build first", result.stderr)


class ScopeRecipe(unittest.TestCase):
    """scope.sh writing to a file (SCOPE_OUT): the scope on the left, the picture on the right."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.clip = os.path.join(cls.tmp.name, "segments.mp4")
        support.make_segmented_clip(cls.clip)  # 320x240 SMPTE bars first

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def first_picture(self, style, cpu):
        support.require_element_plugin(self)
        out = os.path.join(self.tmp.name, "%s-%s.avi" % (style, "cpu" if cpu else "gpu"))
        env = dict(os.environ, SCOPE_OUT=out, SCOPE_FRAMES="5")
        if cpu:
            env["SCOPE_CPU"] = "1"
        result = support.run([recipe("scope.sh"), self.clip, style, "graticule=none"], env=env)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("drawing on the %s" % ("CPU" if cpu else "GPU"), result.stderr)
        pattern = os.path.join(self.tmp.name, "frame-%s-%%03d.png" % style)
        support.gst_launch("filesrc location=%s ! avidemux ! jpegdec ! videoconvert ! pngenc ! "
                           "multifilesink location=%s" % (out, pattern))
        frames = [f for f in os.listdir(self.tmp.name) if f.startswith("frame-%s-" % style)]
        # SCOPE_FRAMES stops the input early; compositor and muxer decide the
        # exact count (GStreamer 1.22 wrote 12 pictures here, 1.26 wrote 4).
        clip_frames = sum(n for _, n in support.CLIP_SEGMENTS)
        self.assertTrue(1 <= len(frames) < clip_frames, "%d pictures" % len(frames))
        return support.read_png(pattern % 0)

    def check_side_by_side(self, picture, scope_width):
        # 320x240 scaled to 512 rows is 683 columns wide.
        self.assertEqual(picture.shape[:2], (512, scope_width + 683))
        scope, video = picture[:, :scope_width].astype(int), picture[:, scope_width:].astype(int)
        lit = (scope.max(axis=2) > 40).sum()
        self.assertGreater(lit, 100, "the scope is black")
        self.assertLess(lit, scope_width * 512 // 4, "bars light a few rows, not the whole scope")
        # The SMPTE bars' second bar (yellow: red and green high, blue low) at the picture's top.
        r, g, b = video[100, 683 * 3 // 14]
        self.assertGreater(min(r, g), 150)
        self.assertLess(b, 80)

    def test_parade_on_the_cpu(self):
        self.check_side_by_side(self.first_picture("parade", cpu=True), 1024)

    def test_vectorscope_on_the_gpu(self):
        if not support.gpu_pipelines_available():
            self.skipTest("no cudaupload: no usable CUDA device")
        self.check_side_by_side(self.first_picture("vectorscope", cpu=False), 512)


if __name__ == "__main__":
    support.main()
