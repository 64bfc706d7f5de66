#!/usr/bin/env bash
# Packs what the GPU host needs into .gpuhost/ (ignored by git, travels with
# the device tool's `carry`): a relocatable GStreamer runtime (gst/), the
# plugin and meta library (gst-plugin/, lib/), test, benchmark and example
# binaries (bin/), the scripts that run them, and an H.264 test clip made
# here with x264enc (media/). The GPU host has no GStreamer and no registry.
# bin/ travels as bin.tar.gz (see the end).
#   usage: scripts/gpuhost-pack.sh [BUILD_DIR]     (default: build)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${1:-build}
out=.gpuhost
[ -f "$build/build.ninja" ] || { echo "gpuhost-pack: build $build first (scripts/test.sh)" >&2; exit 2; }
ninja -C "$build" >/dev/null

rm -rf "$out/bin" "$out/gst-plugin" "$out/lib" "$out/scripts"
mkdir -p "$out/bin" "$out/gst-plugin" "$out/lib" "$out/media" "$out/scripts"
copy_if_built() {  # copy_if_built DEST PATH...
  local dest=$1; shift
  for f in "$@"; do [ -e "$f" ] && cp -L "$f" "$dest/"; done
  return 0
}
copy_if_built "$out/gst-plugin" "$build"/gst-plugin/libgstcudahistogram.so
copy_if_built "$out/lib" $(ls -d "$build"/gst-plugin/meta/libgstcudahistogrammeta-1.0.so* | grep -v "\.p$")
for exe in $(find "$build"/tests "$build"/bench "$build"/examples -maxdepth 2 -type f -perm -u+x \
               ! -name '*.so*' ! -name '*.p' 2>/dev/null); do
  head -c4 "$exe" | grep -q ELF && cp "$exe" "$out/bin/"
done
cp bench/*.sh bench/*.py examples/*.py "$out/scripts/" 2>/dev/null || true
cp -r examples/launch "$out/scripts/" 2>/dev/null || true
cp scripts/gpuhost-run.sh "$out/"

# The test clip: 1080p 4:2:0 H.264 in MP4, moving content with a black
# stretch and a cut, so histograms differ frame to frame.
clip="$out/media/clip-1080p.mp4"
if [ ! -s "$clip" ]; then
  gst-launch-1.0 -q videotestsrc num-buffers=90 pattern=ball ! \
    video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
    x264enc speed-preset=ultrafast tune=zerolatency key-int-max=30 ! \
    video/x-h264,profile=high ! h264parse ! mp4mux ! filesink location="$clip"
fi
# The same kind of content as an Annex B elementary stream, for nvdec_histogram.
es="$out/media/clip-1080p.h264"
if [ ! -s "$es" ]; then
  gst-launch-1.0 -q videotestsrc num-buffers=60 pattern=smpte ! \
    video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
    x264enc speed-preset=ultrafast key-int-max=30 ! h264parse ! \
    video/x-h264,stream-format=byte-stream ! filesink location="$es"
fi

bash ../shared/tools/gst-bundle.sh "$out/gst" "$out/bin" "$out/gst-plugin" "$out/lib" >/dev/null
# Every binary carries the kernels' fatbin (about 6 MB each); compressed they
# fit the device tool's 64 MiB. gpuhost-run.sh unpacks them there.
tar -C "$out" -czf "$out/bin.tar.gz" bin && rm -rf "$out/bin"
du -sh "$out"
