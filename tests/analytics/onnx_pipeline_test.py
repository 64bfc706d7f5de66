#!/usr/bin/python3
"""cudahistogram objects=detections in a real analytics pipeline (GStreamer 1.26).

The test makes a tiny ONNX model with python3-onnx (fixed_ssd.py: SSD's
output layout, which ssdobjectdetector reads) whose boxes are fixed: two that
overlap, one touching the right edge, one reaching past the bottom right
corner (clipped), the whole frame and a single pixel. Frames of a moving ball run through

  videotestsrc ! RGB ! onnxinference ! ssdobjectdetector ! cudahistogram
  objects=detections ! objectdetectionoverlay ! appsink

and a reader walks each buffer's relation meta through GI after cudahistogram:
every detection has its GstCudaRegionMtd (related to it), whose box is the
detection's clipped to the frame and whose counts equal numpy's counts of the
same box of the same frame; the frame's Mtd equals the GstCudaHistogramMeta.
After the overlay every box is drawn (pixels along its outline changed): the
detections went through cudahistogram. Needs GST_PLUGIN_PATH, GI_TYPELIB_PATH
and LD_LIBRARY_PATH (meson sets them) and Debian 13's onnx, tensordecoders
and analyticsoverlay plugins with python3-onnx (scripts/install-deps.sh).
"""
import os
import tempfile
import unittest

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstAnalytics", "1.0")
gi.require_version("GstVideo", "1.0")
gi.require_version("GstCudaHistogram", "1.0")
from gi.repository import GLib, Gst, GstAnalytics, GstCudaHistogram, GstVideo  # noqa: E402

import numpy as np  # noqa: E402

from fixed_ssd import make_model, write_labels  # noqa: E402 (beside this file)

Gst.init(None)

# Exact binary fractions of a 256 x 128 frame, so that ssdobjectdetector's
# float-to-pixel conversion lands on whole pixels.
WIDTH, HEIGHT = 256, 128
BOXES = [  # label, (x1, y1, x2, y2) in pixels, and the box cudahistogram counts
    ("person", (16, 8, 112, 72), (16, 8, 96, 64)),
    ("car", (64, 32, 192, 120), (64, 32, 128, 88)),
    ("bus", (160, 0, 256, 64), (160, 0, 96, 64)),        # touches the right edge
    ("dog", (224, 96, 320, 192), (224, 96, 32, 32)),     # reaches past the corner: clipped
    ("frame", (0, 0, 256, 128), (0, 0, 256, 128)),        # the whole frame
    ("dot", (128, 64, 129, 65), (128, 64, 1, 1)),          # one pixel
]
OUTLINE = 0xFFFF00FF  # ARGB magenta


def frame_pixels(buffer, info):
    """The RGB frame of `buffer` (laid out as `info` says) as a HEIGHT x WIDTH x 3 numpy array (a copy)."""
    ok, mapping = buffer.map(Gst.MapFlags.READ)
    assert ok
    try:
        data = np.frombuffer(mapping.data, dtype=np.uint8)
        stride, offset = info.stride[0], info.offset[0]
        rows = data[offset:offset + stride * HEIGHT].reshape(HEIGHT, stride)
        return rows[:, :WIDTH * 3].reshape(HEIGHT, WIDTH, 3).copy()
    finally:
        buffer.unmap(mapping)


def region_counts(region):
    return [list(region.get_counts(c)) for c in range(region.get_n_components())]


class OnnxPipeline(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for factory in ("onnxinference", "ssdobjectdetector", "objectdetectionoverlay", "cudahistogram"):
            if Gst.ElementFactory.find(factory) is None:
                raise AssertionError("no %s element (Debian 13: gstreamer1.0-plugins-bad)" % factory)
        cls.dir = tempfile.TemporaryDirectory()
        cls.model = os.path.join(cls.dir.name, "fixed-ssd.onnx")
        cls.labels = os.path.join(cls.dir.name, "labels.txt")
        make_model(cls.model, WIDTH, HEIGHT, [box for _, box, _ in BOXES])
        write_labels(cls.labels, [label for label, _, _ in BOXES])

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def run_pipeline(self, frames=6):
        pipeline = Gst.parse_launch(
            "videotestsrc num-buffers=%d pattern=ball ! video/x-raw,format=RGB,width=%d,height=%d,framerate=30/1 ! "
            "onnxinference model-file=%s ! ssdobjectdetector label-file=%s size-threshold=1.0 score-threshold=0.3 ! "
            "cudahistogram name=h objects=detections ! objectdetectionoverlay object-detection-outline-color=%d "
            "draw-labels=false ! appsink name=sink sync=false"
            % (frames, WIDTH, HEIGHT, self.model, self.labels, OUTLINE))
        seen = {}  # pts -> (frame before the overlay, [(label, od box, region box, counts, numpy counts)], frame Mtd)

        def read(pad, info):
            buffer = info.get_buffer()
            video = GstVideo.VideoInfo.new_from_caps(pad.get_current_caps())
            pixels = frame_pixels(buffer, video)
            rmeta = GstAnalytics.buffer_get_analytics_relation_meta(buffer)
            objects, frame_counts = [], None
            for i in range(GstAnalytics.relation_get_length(rmeta)):
                ok, od = rmeta.get_od_mtd(i)
                if ok:
                    found, region = GstCudaHistogram.analytics_relation_meta_find_cuda_region_mtd(rmeta, od.id)
                    self.assertTrue(found, "detection %d has no region Mtd" % od.id)
                    self.assertEqual(rmeta.get_relation(od.id, region.id), GstAnalytics.RelTypes.CONTAIN)
                    self.assertEqual(rmeta.get_relation(region.id, od.id), GstAnalytics.RelTypes.IS_PART_OF)
                    _, x, y, w, h, _ = od.get_location()
                    _, rx, ry, rw, rh = region.get_box()
                    box = pixels[ry:ry + rh, rx:rx + rw]
                    want = [list(np.bincount(box[:, :, c].ravel(), minlength=256)) for c in range(3)]
                    objects.append((GLib.quark_to_string(od.get_obj_type()), (x, y, w, h), (rx, ry, rw, rh),
                                    region_counts(region), want, region.get_component_name(0)))
                ok, region = GstCudaHistogram.analytics_relation_meta_get_cuda_region_mtd(rmeta, i)
                if ok and region.get_kind() == GstCudaHistogram.CudaRegionKind.FRAME:
                    frame_counts = region_counts(region)
            meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer)
            seen[buffer.pts] = (pixels, objects, frame_counts, [list(meta.get_counts(c)) for c in range(3)])
            return Gst.PadProbeReturn.OK

        pipeline.get_by_name("h").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, read)
        sink = pipeline.get_by_name("sink")
        pipeline.set_state(Gst.State.PLAYING)
        drawn = {}
        while True:
            sample = sink.emit("pull-sample")
            if sample is None:
                break
            buffer = sample.get_buffer()
            drawn[buffer.pts] = frame_pixels(buffer, GstVideo.VideoInfo.new_from_caps(sample.get_caps()))
        error = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
        pipeline.set_state(Gst.State.NULL)
        self.assertIsNone(error, error.parse_error() if error else "")
        return seen, drawn

    def test_every_object_counts_its_box_and_the_overlay_still_draws(self):
        seen, drawn = self.run_pipeline()
        self.assertEqual(len(seen), 6)
        self.assertEqual(sorted(seen), sorted(drawn))
        for pts, (pixels, objects, frame_counts, meta_counts) in sorted(seen.items()):
            with self.subTest(pts=pts):
                self.assertEqual(len(objects), len(BOXES), "one region Mtd per detection")
                for (label, od_box, region_box, counts, want, first), (want_label, _, clipped) in zip(objects, BOXES):
                    self.assertEqual(label, want_label)
                    self.assertEqual(region_box, clipped, "%s: the detection %s clipped to the frame" % (label, od_box))
                    self.assertEqual(first, "R")
                    self.assertEqual(counts, want, "%s: counts of its box" % label)
                self.assertEqual(frame_counts, meta_counts, "the frame's Mtd holds the meta's counts")
                # The overlay drew each box's outline: along its top edge (or
                # its bottom for the box clipped at the corner) pixels changed.
                for label, _, (x, y, w, h), _, _, _ in objects:
                    if w < 4:
                        continue
                    rows = {y, min(y + h, HEIGHT) - 1}
                    changed = any((drawn[pts][r, x:x + w] != pixels[r, x:x + w]).any() for r in rows)
                    self.assertTrue(changed, "%s: no outline drawn at rows %s" % (label, sorted(rows)))

    def test_python_iterates_a_relation_meta_once_the_type_is_registered(self):
        seen_types = []

        def iterate(pad, info):
            rmeta = GstAnalytics.buffer_get_analytics_relation_meta(info.get_buffer())
            seen_types.append(sorted({type(m).__name__ for m in rmeta}))
            return Gst.PadProbeReturn.OK

        import gi.overrides.GstAnalytics as analytics_overrides  # what `for m in rmeta` looks types up in
        analytics_overrides.__mtd_types__[GstCudaHistogram.cuda_region_mtd_get_mtd_type()] = \
            GstCudaHistogram.analytics_relation_meta_get_cuda_region_mtd
        pipeline = Gst.parse_launch(
            "videotestsrc num-buffers=2 ! video/x-raw,format=RGB,width=%d,height=%d ! onnxinference model-file=%s ! "
            "ssdobjectdetector label-file=%s size-threshold=1.0 ! cudahistogram name=h objects=detections ! fakesink"
            % (WIDTH, HEIGHT, self.model, self.labels))
        pipeline.get_by_name("h").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, iterate)
        pipeline.set_state(Gst.State.PLAYING)
        message = pipeline.get_bus().timed_pop_filtered(30 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
        pipeline.set_state(Gst.State.NULL)
        self.assertEqual(message.type, Gst.MessageType.EOS)
        self.assertEqual(seen_types, [["CudaRegionMtd", "ODMtd"]] * 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
