#!/usr/bin/env bash
# The scope pictures of the README and docs/scopes.md, made by the project itself: examples/monitor
# draws a waveform, a parade and a vectorscope (cudavideoscope) of a
# photograph and writes them as PNGs under docs/images/.
#   scripts/make-scope-pictures.sh [PHOTO]
# PHOTO defaults to Grace Hopper's portrait (U.S. Navy photograph, public
# domain) as Debian ships it in python-matplotlib-data (a dependency of
# python3-matplotlib, see scripts/install-deps.sh). The GPU draws the same
# bytes as the CPU (tests/scope); the pictures are drawn on the CPU (--cpu)
# so that any machine remakes them identically.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
photo="${1:-/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg}"
[ -r "$photo" ] || { echo "$0: cannot read '$photo' (install python-matplotlib-data, or name a photograph)" >&2; exit 1; }
BUILD_DIR="${BUILD_DIR:-build}"
ninja -C "$BUILD_DIR" gst-plugin/libgstcudahistogram.so examples/monitor >/dev/null
export GST_PLUGIN_PATH="$(realpath "$BUILD_DIR/gst-plugin")${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
mkdir -p docs/images
for style in waveform parade vectorscope; do
  "$BUILD_DIR/examples/monitor" --quiet --cpu --scope "$style" --scope-png "docs/images/scope-$style.png" \
    --frame 0 "$photo" >/dev/null
done
ls -l docs/images/scope-*.png
