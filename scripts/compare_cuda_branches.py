#!/usr/bin/env python3
"""On the GPU host: frames of FORMAT made in CUDA memory by CONVERTER (e.g.
cudaconvert) from an uploaded test pattern, counted twice by cudahistogram:
on the GPU (the CUDA frame) and on the CPU backend (the same frame after
cudadownload). Prints, per format, whether every frame's histograms agree;
exits 1 when any differ or a pipeline fails.

    compare_cuda_branches.py CONVERTER FORMAT [FORMAT ...]
"""
import re
import subprocess
import sys

PIPELINE = ("videotestsrc num-buffers=4 pattern=snow ! video/x-raw,format=NV12,width=333,height=67 ! "
            "cudaupload ! {converter} ! video/x-raw(memory:CUDAMemory),format={format} ! tee name=t "
            "t. ! queue ! cudahistogram name=gpu ! fakesink "
            "t. ! queue ! cudadownload ! video/x-raw ! cudahistogram name=cpu ! fakesink")


def histograms(output, name):
    pattern = r'^Got message #\d+ from element "%s" \(element\): cudahistogram, .*?histograms=(\(GValueArray\)< .*? > >)' % name
    return re.findall(pattern, output, re.M)


def main():
    converter, formats = sys.argv[1], sys.argv[2:]
    failed = False
    for fmt in formats:
        cmd = ["gst-launch-1.0", "-m"] + PIPELINE.format(converter=converter, format=fmt).split()
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        gpu, cpu = histograms(run.stdout, "gpu"), histograms(run.stdout, "cpu")
        ok = run.returncode == 0 and len(gpu) == 4 and gpu == cpu
        failed |= not ok
        print(f"{fmt}: exit {run.returncode}, {len(gpu)} GPU and {len(cpu)} CPU messages, "
              + ("every frame equal" if ok else "DIFFERENT or missing"))
        if run.returncode != 0:
            print(run.stderr[-2000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
