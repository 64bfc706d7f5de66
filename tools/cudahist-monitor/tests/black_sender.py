"""A UDP MPEG-TS sender for the monitor's tests whose picture goes black on
SIGUSR1 and back on SIGUSR2: moving 75% bars to 127.0.0.1:<argv[1]>, then
pattern=black from the moment it prints "black <CLOCK_MONOTONIC seconds>",
bars again from "bars <seconds>"."""
import signal
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

from monitor_harness import H264, MOVING, raw_video  # noqa: E402

Gst.init(None)
pipeline = Gst.parse_launch("%s ! %s ! mpegtsmux alignment=7 ! udpsink host=127.0.0.1 port=%s"
                            % (raw_video(**MOVING).replace("videotestsrc", "videotestsrc name=src", 1), H264,
                               sys.argv[1]))


def go_black():
    pipeline.get_by_name("src").set_property("pattern", "black")
    print("black %.3f" % time.monotonic(), flush=True)
    return GLib.SOURCE_CONTINUE


def back_to_bars():
    pipeline.get_by_name("src").set_property("pattern", MOVING["pattern"])
    print("bars %.3f" % time.monotonic(), flush=True)
    return GLib.SOURCE_CONTINUE


GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, go_black)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR2, back_to_bars)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: loop.quit() or GLib.SOURCE_REMOVE)
pipeline.set_state(Gst.State.PLAYING)
loop = GLib.MainLoop()
loop.run()
pipeline.set_state(Gst.State.NULL)
