#!/usr/bin/python3
"""GstCudaHistogramMeta from Python, through the GstCudaHistogram-1.0 typelib.

Runs frames of videotestsrc's snow (every value) through cudahistogram on the
CPU path, pulls them from an appsink and checks what Python reads from the
meta against the frame itself, counted here with numpy; then the bad input:
a buffer without the meta, a component the frame lacks, an index out of range;
and signalstats' figures (get_signalstats), None when the meta has none.
Needs GST_PLUGIN_PATH (the element) and GI_TYPELIB_PATH / LD_LIBRARY_PATH (the
typelib and its library), which meson sets.
"""
import unittest

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
gi.require_version("GstCudaHistogram", "1.0")
from gi.repository import Gst, GstCudaHistogram, GstVideo  # noqa: E402

import numpy as np  # noqa: E402

Gst.init(None)


def pull_frames(caps, properties="", frames=2):
    """(buffer, GstVideo.VideoInfo) of each frame that left cudahistogram."""
    pipeline = Gst.parse_launch(
        "videotestsrc num-buffers=%d pattern=snow ! %s ! cudahistogram %s ! appsink name=sink sync=false"
        % (frames, caps, properties))
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)
    pulled = []
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:
            break
        pulled.append((sample.get_buffer(), GstVideo.VideoInfo.new_from_caps(sample.get_caps())))
    message = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if message is not None:
        raise AssertionError("pipeline error: %s" % message.parse_error()[0].message)
    return pulled


def component_samples(buffer, info, component):
    """The samples of one component as a 2-D numpy array (8-bit formats)."""
    finfo = info.finfo
    plane = finfo.plane[component]
    width = -(-info.width >> finfo.w_sub[component])  # GST_VIDEO_SUB_SCALE: rounded up
    height = -(-info.height >> finfo.h_sub[component])
    ok, mapping = buffer.map(Gst.MapFlags.READ)
    assert ok
    try:
        data = np.frombuffer(mapping.data, dtype=np.uint8)
        stride, offset = info.stride[plane], info.offset[plane]
        rows = data[offset:offset + stride * height].reshape(height, stride)
        pixel_stride, poffset = finfo.pixel_stride[component], finfo.poffset[component]
        return rows[:, poffset:poffset + pixel_stride * width:pixel_stride].copy()
    finally:
        buffer.unmap(mapping)


def expected_counts(samples, bins, depth=8):
    return np.bincount(((samples.astype(np.int64) * bins) >> depth).ravel(), minlength=bins).tolist()


class MetaFromPython(unittest.TestCase):
    def test_nv12_fields_names_and_counts_equal_the_frame(self):
        frames = pull_frames("video/x-raw,format=NV12,width=33,height=17")
        self.assertEqual(len(frames), 2)
        for buffer, info in frames:
            meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer)
            self.assertIsNotNone(meta)
            self.assertEqual(meta.format, GstVideo.VideoFormat.NV12)
            self.assertEqual((meta.width, meta.height), (33, 17))
            self.assertEqual((meta.roi_x, meta.roi_y, meta.roi_width, meta.roi_height), (0, 0, 33, 17))
            self.assertEqual((meta.bins, meta.n_components), (256, 3))
            self.assertEqual(meta.get_component_names(), ["Y", "U", "V"])
            for index, name in enumerate(["Y", "U", "V"]):
                self.assertEqual(meta.find_component(name), index)
                self.assertEqual(meta.get_component_name(index), name)
                self.assertEqual(meta.get_component_depth(index), 8)
                counts = meta.get_counts(index)
                self.assertIsInstance(counts, list)
                self.assertEqual(counts, expected_counts(component_samples(buffer, info, index), 256), name)

    def test_rgba_subset_in_coarse_bins(self):
        (buffer, info), = pull_frames("video/x-raw,format=RGBA,width=20,height=9", "components=G,A bins=16", 1)
        meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer)
        self.assertEqual(meta.format, GstVideo.VideoFormat.RGBA)
        self.assertEqual(meta.get_component_names(), ["G", "A"])
        self.assertEqual(meta.bins, 16)
        self.assertEqual(meta.get_counts(0), expected_counts(component_samples(buffer, info, 1), 16))
        self.assertEqual(meta.get_counts(1), expected_counts(component_samples(buffer, info, 3), 16))

    def test_roi_fields_and_counts(self):
        (buffer, info), = pull_frames("video/x-raw,format=GRAY8,width=40,height=30",
                                      "roi-x=4 roi-y=2 roi-width=10 roi-height=6", 1)
        meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer)
        self.assertEqual((meta.roi_x, meta.roi_y, meta.roi_width, meta.roi_height), (4, 2, 10, 6))
        region = component_samples(buffer, info, 0)[2:8, 4:14]
        self.assertEqual(meta.get_counts(0), expected_counts(region, 256))
        self.assertEqual(sum(meta.get_counts(0)), 60)

    def test_buffer_without_the_meta_is_none(self):
        self.assertIsNone(GstCudaHistogram.buffer_get_cuda_histogram_meta(Gst.Buffer.new_allocate(None, 64, None)))
        (buffer, _), = pull_frames("video/x-raw,format=I420,width=8,height=8", "attach-meta=false", 1)
        self.assertIsNone(GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer))

    def test_component_the_frame_lacks_is_minus_one(self):
        (buffer, _), = pull_frames("video/x-raw,format=NV12,width=8,height=8", "", 1)
        meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer)
        for name in ("R", "A", "y", ""):
            self.assertEqual(meta.find_component(name), -1, name)
        self.assertEqual(meta.find_component(None), -1)

    def test_index_out_of_range_is_none_empty_or_minus_one(self):
        (buffer, _), = pull_frames("video/x-raw,format=NV12,width=8,height=8", "", 1)
        meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer)
        for index in (3, 4, 2 ** 32 - 1):
            self.assertIsNone(meta.get_component_name(index))
            self.assertEqual(meta.get_component_depth(index), -1)
            # The C function returns NULL; PyGObject turns a NULL array into an empty list.
            self.assertEqual(meta.get_counts(index), [])
        # A negative index (find_component's -1 passed on) never reaches C.
        for call in (meta.get_counts, meta.get_component_name, meta.get_component_depth):
            with self.assertRaises((OverflowError, ValueError, TypeError)):
                call(-1)


class SignalStatsFromPython(unittest.TestCase):
    """m.get_signalstats(): None without figures, else signalstats' fields; the
    luma ones checked against the frames with numpy."""

    def test_figures_of_nv12_frames(self):
        frames = pull_frames("video/x-raw,format=NV12,width=33,height=17", "signalstats=true", 3)
        self.assertEqual(len(frames), 3)
        previous = None
        for buffer, info in frames:
            meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer)
            stats = meta.get_signalstats()
            self.assertIsNotNone(stats)
            y = component_samples(buffer, info, 0).astype(np.int64)
            self.assertIsInstance(stats.y_min, int)
            self.assertIsInstance(stats.y_avg, float)
            self.assertEqual((stats.y_min, stats.y_max), (int(y.min()), int(y.max())))
            self.assertAlmostEqual(stats.y_avg, float(y.mean()), places=9)
            u = component_samples(buffer, info, 1)
            self.assertEqual((stats.u_min, stats.u_max), (int(u.min()), int(u.max())))
            expected_dif = 0.0 if previous is None else float(np.abs(y - previous).mean())
            self.assertAlmostEqual(stats.y_dif, expected_dif, places=9)
            self.assertTrue(0.0 <= stats.brng <= 1.0)
            self.assertTrue(0 <= stats.hue_med < 360)
            previous = y

    def test_none_without_figures(self):
        (buffer, _), = pull_frames("video/x-raw,format=NV12,width=8,height=8", "", 1)
        self.assertIsNone(GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer).get_signalstats())
        # A format signalstats does not read: histograms, no figures.
        (buffer, _), = pull_frames("video/x-raw,format=RGBA,width=8,height=8", "signalstats=true", 1)
        meta = GstCudaHistogram.buffer_get_cuda_histogram_meta(buffer)
        self.assertEqual(meta.get_component_names(), ["R", "G", "B", "A"])
        self.assertIsNone(meta.get_signalstats())


if __name__ == "__main__":
    unittest.main(verbosity=2)
