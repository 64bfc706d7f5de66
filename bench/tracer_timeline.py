#!/usr/bin/env python3
"""When a decoder's frames came out, from a GStreamer debug log written with
GST_TRACERS="latency(flags=element)" GST_DEBUG=GST_TRACER:7.

    tracer_timeline.py LOG DECODER

Prints "FIRST SPAN RECORDS": seconds from gst_init to the decoder's first
frame (the process's start: plugins, CUDA, pipeline), seconds from its first
to its last frame (the decoding), and how many records there were, over every
element whose name starts with DECODER (one per file of the process). The
records are not a count of frames: a threaded decoder pushes some frames the
tracer does not pair with an input (avdec_prores with 16 threads: 2,985
records for 3,000 frames).
"""
import re
import sys

RECORD = re.compile(r'element-latency, element-id=\(string\)\S+, element=\(string\)([^,]+), '
                    r'src=\(string\)[^,]+, time=\(guint64\)\d+, ts=\(guint64\)(\d+)')


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    log, decoder = sys.argv[1:]
    times = []
    with open(log, errors='replace') as lines:
        for line in lines:
            record = RECORD.search(line)
            if record and record.group(1).startswith(decoder):
                times.append(int(record.group(2)) / 1e9)
    if not times:
        sys.exit(f'{log}: no element-latency record of {decoder} (is the coretracers plugin there?)')
    print(f'{min(times):.3f} {max(times) - min(times):.3f} {len(times)}')


if __name__ == '__main__':
    main()
