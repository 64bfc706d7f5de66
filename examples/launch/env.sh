# shellcheck shell=bash
# Sourced by the recipes: finds the build's plugin folder so gst-launch-1.0
# loads cudahistogram from it. BUILD_DIR overrides the default ./build.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_DIR="${BUILD_DIR:-$here/../../build}"
if [ ! -e "$BUILD_DIR/gst-plugin/libgstcudahistogram.so" ]; then
  echo "$(basename "$0"): no $BUILD_DIR/gst-plugin/libgstcudahistogram.so: build first (scripts/run.sh) or set BUILD_DIR" >&2
  exit 1
fi
plugin_dir="$(cd "$BUILD_DIR/gst-plugin" && pwd)"
export GST_PLUGIN_PATH="$plugin_dir${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
