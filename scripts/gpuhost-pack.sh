#!/usr/bin/env bash
# Packs what the GPU host needs into .gpuhost/ (ignored by git, travels with
# the device tool's `carry`): a relocatable GStreamer 1.22 runtime (gst/),
# the plugin and meta library (gst-plugin/, lib/), test, benchmark and
# example binaries (bin/), the scripts that run them, and H.264 test clips
# made here with x264enc (media/). The GPU host has no GStreamer and no
# registry. All of it but the scripts and clips travels as gst122.tar.xz.
# For gpuhost-run.sh's signalstats_ffmpeg step: Debian's ffmpeg made relocatable
# (scripts/ffmpeg_bundle.py) with GStreamer's libav plugin, as ffmpeg.tar.xz,
# and the signalstats comparison clips with FFmpeg's figures of them
# (media/signalstats/); skipped, with a warning, where ffmpeg is missing.
#
# With --gst126 BUILD_TRIXIE (a build made in the Debian 13 root,
# scripts/in-trixie.sh) it also packs gst126.tar.xz: the same binaries built
# against GStreamer 1.26, a GStreamer 1.26 runtime from the trixie root and
# trixie's own C library and loader (its binaries ask for glibc 2.38 symbols,
# newer than some hosts have). Every executable in it is patched (patchelf)
# to start through that loader and find its libraries first, from the fixed
# path /tmp/cudahist-gst126, which gpuhost-run.sh links to the unpacked
# folder; nothing of it is put on LD_LIBRARY_PATH, so the host's own programs
# (python3) keep the host's libraries.
#
# With --baseline BUILD_BEFORE (a build of an earlier commit) it also packs
# that build's benchmarks as baseline.tar.xz, for gpuhost-run.sh's `baseline`
# step: both builds' benchmarks timed in turn in the same call.
# BUILD_DIR is made a test build (meson's test-hooks option): the GPU steps
# use the elements' test hooks (the monitor's CUDA-error test, the scope
# element's benchmark).
#   usage: scripts/gpuhost-pack.sh [BUILD_DIR] [--gst126 BUILD_DIR_TRIXIE] [--baseline BUILD_BEFORE]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=build
build126=""
baseline=""      # a build of an earlier commit whose benchmarks the `baseline` step times
while [ $# -gt 0 ]; do
  case $1 in
    --gst126) build126=${2:?--gst126 needs the trixie build folder}; shift 2 ;;
    --baseline) baseline=${2:?--baseline needs the earlier build folder}; shift 2 ;;
    *) build=$1; shift ;;
  esac
done
out=.gpuhost
bundle_tool=../shared/tools/gst-bundle.sh
gst126_prefix=/tmp/cudahist-gst126
for b in "$build" $build126; do
  [ -f "$b/build.ninja" ] || { echo "gpuhost-pack: build $b first" >&2; exit 2; }
done
export PATH="/usr/local/cuda/bin:$PATH"
meson setup --reconfigure "$build" -Dtest-hooks=true >/dev/null
ninja -C "$build" >/dev/null

copy_if_built() {  # copy_if_built DEST PATH...
  local dest=$1; shift
  for f in "$@"; do [ -e "$f" ] && cp -L "$f" "$dest/"; done
  return 0
}
# pack_binaries BUILD DEST: the plugin, the meta library and every test,
# benchmark and example executable of BUILD into DEST/{gst-plugin,lib,bin}
pack_binaries() {
  local from=$1 dest=$2
  rm -rf "$dest/bin" "$dest/gst-plugin" "$dest/lib"
  mkdir -p "$dest/bin" "$dest/gst-plugin" "$dest/lib"
  copy_if_built "$dest/gst-plugin" "$from"/gst-plugin/libgstcudahistogram.so
  copy_if_built "$dest/lib" $(ls -d "$from"/gst-plugin/meta/libgstcudahistogrammeta-1.0.so* | grep -v "\.p$")
  for exe in $(find "$from"/tests "$from"/bench "$from"/examples "$from"/tools -maxdepth 2 -type f -perm -u+x \
                 ! -name '*.so*' ! -name '*.p' 2>/dev/null); do
    head -c4 "$exe" | grep -q ELF && cp "$exe" "$dest/bin/"
  done
}

rm -rf "$out/scripts"
mkdir -p "$out/media" "$out/scripts"
pack_binaries "$build" "$out"
cp bench/*.sh bench/*/*.sh bench/*/*.py examples/*.py scripts/compare_cuda_branches.py tools/cudahist-qc/tests/*.py \
  "$out/scripts/" 2>/dev/null || true
cp -r examples/launch "$out/scripts/" 2>/dev/null || true
# The monitor's GPU test with its harness, and the Prometheus text parser it
# reads /metrics with (pure Python; the GPU host has no package registry).
cp tools/cudahist-monitor/tests/monitor_harness.py tools/cudahist-monitor/tests/cuda_fault_test.py "$out/scripts/"
if [ -d /usr/lib/python3/dist-packages/prometheus_client ]; then
  mkdir -p "$out/scripts/python"
  cp -r /usr/lib/python3/dist-packages/prometheus_client /usr/lib/python3/dist-packages/decorator.py \
    "$out/scripts/python/"
fi
cp scripts/gpuhost-run.sh "$out/"
rm -rf "$out/steps"; mkdir -p "$out/steps"
cp scripts/gpuhost/*.sh "$out/steps/" 2>/dev/null || true

# The probe of CUDA's start and end (bench/probes/cuda_start_probe.cu), for
# the qc_timeline step, for sm_90.
rm -rf "$out/probes"; mkdir -p "$out/probes"
nvcc -O3 -gencode=arch=compute_90,code=sm_90 -o "$out/probes/cuda_start_probe" bench/probes/cuda_start_probe.cu -lcuda
strip "$out/probes/cuda_start_probe"

# The test clip: 1080p 4:2:0 H.264 in MP4, moving content with a black
# stretch and a cut, so histograms differ frame to frame.
clip="$out/media/clip-1080p.mp4"
if [ ! -s "$clip" ]; then
  gst-launch-1.0 -q videotestsrc num-buffers=90 pattern=ball ! \
    video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
    x264enc speed-preset=ultrafast tune=zerolatency key-int-max=30 ! \
    video/x-h264,profile=high ! h264parse ! mp4mux ! filesink location="$clip"
fi
# The monitor's live stream: 10 s of 1080p30 H.264 at 6 Mbit/s (High
# profile, B-frames, a key frame every 2 s), moving and noisy so that it costs
# NVDEC what a broadcast channel does; bars alone compress to almost nothing.
live="$out/media/live-1080p30-6M.mp4"
if [ ! -s "$live" ] && command -v ffmpeg >/dev/null; then
  ffmpeg -nostdin -v error -f lavfi -i testsrc2=size=1920x1080:rate=30 -vf noise=alls=10:allf=t -frames:v 300 \
    -c:v libx264 -preset veryfast -b:v 6M -maxrate 6M -bufsize 6M -g 60 -bf 2 -profile:v high -pix_fmt yuv420p \
    -movflags +faststart "$live"
fi
# The same kind of content as an Annex B elementary stream, for nvdec_histogram.
es="$out/media/clip-1080p.h264"
if [ ! -s "$es" ]; then
  gst-launch-1.0 -q videotestsrc num-buffers=60 pattern=smpte ! \
    video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
    x264enc speed-preset=ultrafast key-int-max=30 ! h264parse ! \
    video/x-h264,stream-format=byte-stream ! filesink location="$es"
fi

# GStreamer plugins the project's recipes and tests use beyond the bundle's
# set (scope.sh: compositor, and Motion JPEG in AVI for its file output;
# cudahist-qc's comparison: the MPEG-TS demuxer; GST_TRACERS timelines of
# where a pipeline's time goes: coretracers; the tools' sink and decoding
# alone in the speed tables: fakevideosink of debugutilsbad; the monitor's
# audio: level and audioconvert). They go through the bundle
# as an ELF folder, so that the libraries they need are carried too, then
# join its plugins. stage_extra_plugins DIR, then
# join_extra_plugins DIR BUNDLE, in the runtime whose plugins they are.
extra_plugins="compositor avi mpegtsdemux coretracers debugutilsbad level audioconvert"
stage_extra_plugins() {
  local dir=$1 arch plugdir p
  arch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
  plugdir=/usr/lib/$arch/gstreamer-1.0
  rm -rf "$dir"; mkdir -p "$dir"
  for p in $extra_plugins; do cp -L "$plugdir/libgst$p.so" "$dir/"; done
}
join_extra_plugins() { mv "$1"/*.so "$2/lib/gstreamer-1.0/" && rmdir "$1"; }
stage_extra_plugins "$out/extra-plugins"
bash "$bundle_tool" "$out/gst" "$out/bin" "$out/gst-plugin" "$out/lib" "$out/extra-plugins" >/dev/null
join_extra_plugins "$out/extra-plugins" "$out/gst"

# signalstats: the reference ffmpeg, avdec_* for the clips nvh264dec cannot
# decode (10-bit, 4:2:2, FFV1), the clips (15 frames each: the CI test makes
# 30) and what the real ffmpeg prints for them (CLIP.signalstats.txt).
signalstats_media="$out/media/signalstats"
rm -rf "$out/ffmpeg"
if [ -x /usr/bin/ffmpeg ] && [ -e /usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstlibav.so ]; then
  python3 scripts/ffmpeg_bundle.py "$out/ffmpeg" --gst-plugins "$out/ffmpeg/gst-plugins" >/dev/null
  if [ ! -s "$signalstats_media/expected.done" ]; then
    rm -rf "$signalstats_media"
    python3 examples/tests/signalstats_clips.py "$signalstats_media" --frames 15 >/dev/null
    for c in "$signalstats_media"/*.mp4 "$signalstats_media"/*.mkv; do
      ffmpeg -nostdin -v error -i "$c" -map 0:v:0 \
        -vf "signalstats=stat=brng,metadata=mode=print:file=$c.signalstats.txt" -f null -
    done
    ffmpeg -version | head -n 1 > "$signalstats_media/expected.done"
  fi
  # gpuhost-run.sh cudahist_qc: the comparison's clips (its H.264 ones need x264,
  # which the bundle stubs); the speed table's clips are made there.
  qc_clips="$out/media/cudahist-qc"
  if [ ! -s "$qc_clips/clips.done" ]; then
    rm -rf "$qc_clips"
    python3 tools/cudahist-qc/tests/compare_qcli.py --make-clips "$qc_clips/clips with spaces"
    ffmpeg -version | head -n 1 > "$qc_clips/clips.done"
  fi
  # gpuhost-run.sh qc: the QC clips and ffprobe's JSON of QCTools' graph over each (CLIP.qc.json).
  qc_media="$out/media/qc"
  if [ ! -s "$qc_media/expected.done" ]; then
    rm -rf "$qc_media"
    python3 examples/tests/signalstats_clips.py "$qc_media" --qc >/dev/null
    for c in "$qc_media"/*.mp4 "$qc_media"/*.mkv; do
      python3 examples/compare_ffmpeg.py --qc --save-expected "$c.qc.json" "$c"
    done
    ffprobe -version | head -n 1 > "$qc_media/expected.done"
  fi
else
  echo "gpuhost-pack: no ffmpeg or gstreamer1.0-libav here (scripts/install-deps.sh): no signalstats step" >&2
fi
# Every binary carries the kernels' fatbin (about 6 MB each): xz -9's 64 MiB
# window stores each copy after the first in little (the 1.22 binaries and
# runtime: 16 MB against 29 MB at xz's default -6), so that they fit the
# device tool's 64 MiB. gpuhost-run.sh unpacks them there.
pack() {  # pack ARCHIVE DIR...: DIRs of $out into $out/ARCHIVE (xz -9), then removed
  local archive=$1; shift
  rm -f "$out/$archive"
  tar -C "$out" -cf - "$@" | xz -T0 -9 > "$out/$archive"
  (cd "$out" && rm -rf "$@")
}
pack gst122.tar.xz bin gst gst-plugin lib
# The tuning variants (bench/tuning/kernel_variants.sh, through bench/tuning/tune_privatized.sh,
# tune_signalstats.sh and tune_scopes.sh; KERNEL_VARIANTS_BUILD, default
# build-variants): one stripped benchmark each, some 6.8 MB that differ only
# in one module's kernels; xz -9's 64 MiB window stores each after the first
# of its benchmark in a few tens of KB (two scopebench variants: 1.8 MB together).
variants=${KERNEL_VARIANTS_BUILD:-build-variants}/kernel-variants
rm -rf "$out/kernel-variants" "$out/kernel_variants.tar.xz"
if [ -d "$variants" ]; then
  cp -r "$variants" "$out/kernel-variants"
  pack kernel_variants.tar.xz kernel-variants
fi
rm -f "$out/baseline.tar.xz"
if [ -n "$baseline" ]; then
  mkdir -p "$out/baseline/bin"
  for b in histbench scopebench signalstats_bench; do  # in bench/ or, since its rooms, in bench/SUBJECT/
    cp "$(find "$baseline/bench" -maxdepth 2 -type f -name "$b" | head -n 1)" "$out/baseline/bin/"
  done
  pack baseline.tar.xz baseline
fi
rm -f "$out/ffmpeg.tar.xz"
[ -d "$out/ffmpeg" ] && pack ffmpeg.tar.xz ffmpeg

rm -f "$out/gst126.tar.xz"  # an earlier pack's: a 1.22 pack alone must fit the carry
if [ -n "$build126" ]; then
  command -v patchelf >/dev/null || {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends patchelf >/dev/null
  }
  stage=$out/gst126
  rm -rf "$stage"
  mkdir -p "$stage/tools" "$stage/glibc"
  pack_binaries "$build126" "$stage"
  cp "$bundle_tool" "$stage/tools/"
  # Inside the trixie root: its GStreamer and, for every ELF file packed,
  # the C and C++ runtime libraries and loader it was linked against.
  bash scripts/in-trixie.sh bash -c '
    set -euo pipefail
    stage=$1
    eval "$2"
    stage_extra_plugins "$stage/extra-plugins"
    bash "$stage/tools/gst-bundle.sh" "$stage/gst" "$stage/bin" "$stage/gst-plugin" "$stage/lib" "$stage/extra-plugins" >/dev/null
    join_extra_plugins "$stage/extra-plugins" "$stage/gst"
    runtime="/(libc|libm|libmvec|libdl|libpthread|librt|libresolv|libstdc\+\+|libgcc_s)\.so"
    find "$stage" -type f \( -perm -u+x -o -name "*.so*" \) | while read -r f; do
      ldd "$f" 2>/dev/null || true
    done | awk "/=> \\//{print \$3}" | sort -u | { grep -E "$runtime" || true; } |
      xargs -r cp -L -t "$stage/glibc/"
    cp -L /lib64/ld-linux-x86-64.so.2 "$stage/glibc/"
  ' pack-gst126 "$stage" "extra_plugins='$extra_plugins'; $(declare -f stage_extra_plugins join_extra_plugins)"
  rpath=$gst126_prefix/glibc:$gst126_prefix/lib:$gst126_prefix/gst/lib
  # Executables start through trixie's loader; executables and the
  # project's own libraries look in the bundle first (DT_RPATH, which also
  # serves the libraries they load, unlike a RUNPATH).
  for f in "$stage"/bin/* "$stage"/gst/bin/* "$stage"/gst/libexec/*; do
    patchelf --set-interpreter "$gst126_prefix/glibc/ld-linux-x86-64.so.2" --force-rpath --set-rpath "$rpath" "$f"
  done
  for f in "$stage"/gst-plugin*/*.so "$stage"/lib/*.so*; do
    patchelf --force-rpath --set-rpath "$rpath" "$f"
  done
  cat > "$stage/env.sh" <<ENV
# GStreamer 1.26 from the trixie root; gpuhost-run.sh links $gst126_prefix here first.
export PATH="$gst126_prefix/gst/bin:\$PATH"
export GST_PLUGIN_SYSTEM_PATH_1_0="$gst126_prefix/gst/lib/gstreamer-1.0"
export GST_PLUGIN_SCANNER_1_0="$gst126_prefix/gst/libexec/gst-plugin-scanner"
export GST_REGISTRY_1_0="\${TMPDIR:-/tmp}/gst126-registry-\$\$.bin"
ENV
  rm -rf "$stage/tools"
  pack gst126.tar.xz gst126
fi
# What a subject's steps need beyond the binaries: each scripts/gpuhost/SUBJECT.sh
# may define prepare_SUBJECT OUT, run here.
for f in scripts/gpuhost/*.sh; do source "$f"; done
for prepare in $(declare -F | awk '$3 ~ /^prepare_/ {print $3}'); do "$prepare" "$out"; done
du -sh "$out"/*.tar.xz "$out"
