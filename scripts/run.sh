#!/usr/bin/env bash
# Quick start, command 1: installs what is missing, builds ./build, and runs
# the main job: frames through cudahistogram, per-frame histograms printed.
#
#   scripts/run.sh                    60 frames of videotestsrc's SMPTE bars
#   scripts/run.sh clip.mp4           a file of yours
#   scripts/run.sh --cpu --pattern ball --frames 30
#
# Arguments go to examples/quickstart (see its --help-less usage line). The
# GPU is used when the NVIDIA driver shows a device and GStreamer's nvcodec
# plugin offers cudaupload; otherwise the element's CPU backend counts, and
# the first line of output says which and why.
# Environment: BUILD_DIR (default ./build), MESON_SETUP_ARGS (first
# configure only, e.g. "-Dcuda-arch=90" for a quicker build on an H100/H200).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-deps.sh
export PATH="/usr/local/cuda/bin:$PATH"

BUILD_DIR="${BUILD_DIR:-build}"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # shellcheck disable=SC2086  # MESON_SETUP_ARGS is a list of options
  meson setup "$BUILD_DIR" ${MESON_SETUP_ARGS:-} >/dev/null
fi
# Only what the main job needs; scripts/test.sh builds the rest.
ninja -C "$BUILD_DIR" gst-plugin/libgstcudahistogram.so examples/quickstart

plugin_dir="$(realpath "$BUILD_DIR/gst-plugin")"
export GST_PLUGIN_PATH="$plugin_dir${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
exec "$BUILD_DIR/examples/quickstart" "$@"
