#!/usr/bin/env bash
# The consumer programs on the GPU host (which has the NVIDIA driver, no CUDA
# toolkit, no GStreamer and no PyGObject), against a prefix staged here:
#   FOLDER/stage/   meson install --destdir of a -Dcuda-arch=90 build
#   FOLDER/bin/     count_frame, count_frame_cuda, meta_reader, built against
#                   that prefix as consumer_test.py builds them
#   FOLDER/gst/     a GStreamer 1.22 runtime (shared/tools/gst-bundle.sh)
#   FOLDER/media/   ball-1080p.mp4 (30 frames of H.264)
# Run there as:  bash FOLDER/gpuhost_consumer.sh OUTDIR
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:?usage: gpuhost_consumer.sh OUTDIR}
lib=$here/stage/usr/local/lib/x86_64-linux-gnu
# The device tool may not carry symbolic links: make the SONAME links again.
for f in "$lib"/*.so.*.*.*; do
  soname=$(basename "$f" | sed -E 's/(\.so\.[0-9]+)\..*/\1/'); [ -e "$lib/$soname" ] || ln -s "$(basename "$f")" "$lib/$soname"
done
source "$here/gst/env.sh"
export LD_LIBRARY_PATH="$lib:$LD_LIBRARY_PATH" GST_PLUGIN_PATH="$lib/gstreamer-1.0"
step() { echo "=== $*"; "$@" 2>&1; echo "=== exit $?"; }
{
  date -u '+date: %Y-%m-%d %H:%M UTC'
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "CUDA toolkit: $(command -v nvcc || echo none); python3: $(python3 --version 2>&1);" \
       "PyGObject: $(python3 -c 'import gi; print(gi.__version__)' 2>&1 | tail -1)"
  step ldd "$here/bin/count_frame_cuda"
  step "$here/bin/count_frame"
  step "$here/bin/count_frame_cuda"
  step "$here/bin/meta_reader" "videotestsrc num-buffers=3 pattern=white ! video/x-raw,format=NV12,width=64,height=48 ! cudaupload ! video/x-raw(memory:CUDAMemory) ! cudahistogram name=histogram ! fakesink"
  step "$here/bin/meta_reader" "filesrc location=$here/media/ball-1080p.mp4 ! qtdemux ! h264parse ! nvh264dec ! video/x-raw(memory:CUDAMemory) ! cudahistogram name=histogram ! fakesink"
} > "$out/gpuhost_consumer.log" 2>&1
cat "$out/gpuhost_consumer.log"
