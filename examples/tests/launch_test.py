#!/usr/bin/python3
"""The gst-launch recipes: the system-memory one runs here; the GPU ones check their arguments.

    launch_test.py LAUNCH_DIR   (BUILD_DIR in the environment names the build)
"""
import os
import re
import sys
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

    def test_missing_build_is_explained(self):
        env = dict(os.environ, BUILD_DIR="/nonexistent-build")
        result = support.run([recipe("system_memory.sh")], env=env)
        self.assertEqual(result.returncode, 1)
        self.assertIn("build first", result.stderr)


if __name__ == "__main__":
    support.main()
