#!/usr/bin/env python3
"""When a decoder's frames came out, and how long each element held a frame,
from a GStreamer debug log written with
GST_TRACERS="latency(flags=element)" GST_DEBUG=GST_TRACER:7.

    tracer_timeline.py LOG DECODER
    tracer_timeline.py --elements LOG

The first prints "FIRST SPAN RECORDS": seconds from gst_init to the decoder's
first frame (the process's start: plugins, CUDA, pipeline), seconds from its
first to its last frame (the decoding), and how many records there were, over
every element whose name starts with DECODER (one per file of the process).
The records are not a count of frames: a threaded decoder pushes some frames
the tracer does not pair with an input (avdec_prores with 16 threads: 2,985
records for 3,000 frames).

--elements prints, for each element name, how many records it has and the
median, 90th percentile and sum of their times: how long the element held a
frame, from the frame entering it to leaving it. An element that holds each
frame about as long as the decoder takes to make one sets the pace.
"""
import re
import statistics
import sys

RECORD = re.compile(r'element-latency, element-id=\(string\)\S+, element=\(string\)([^,]+), '
                    r'src=\(string\)[^,]+, time=\(guint64\)(\d+), ts=\(guint64\)(\d+)')


def records(log):
    """(element, held ns, ts ns) of every element-latency record in LOG."""
    with open(log, errors='replace') as lines:
        for line in lines:
            record = RECORD.search(line)
            if record:
                yield record.group(1), int(record.group(2)), int(record.group(3))


def decoder_span(log, decoder):
    times = [ts / 1e9 for element, _, ts in records(log) if element.startswith(decoder)]
    if not times:
        sys.exit(f'{log}: no element-latency record of {decoder} (is the coretracers plugin there?)')
    print(f'{min(times):.3f} {max(times) - min(times):.3f} {len(times)}')


def element_times(log):
    held = {}
    for element, ns, _ in records(log):
        held.setdefault(element, []).append(ns / 1e6)
    if not held:
        sys.exit(f'{log}: no element-latency record (is the coretracers plugin there?)')
    print('| element | records | median ms | p90 ms | sum s |')
    print('|---|---|---|---|---|')
    for element, ms in sorted(held.items()):
        ms.sort()
        p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
        print(f'| {element} | {len(ms)} | {statistics.median(ms):.3f} | {p90:.3f} | {sum(ms) / 1e3:.3f} |')


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--elements':
        element_times(sys.argv[2])
    elif len(sys.argv) == 3:
        decoder_span(*sys.argv[1:])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
