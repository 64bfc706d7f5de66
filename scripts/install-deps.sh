#!/usr/bin/env bash
# Installs the Debian packages that building and testing cudahistogram needs.
# Idempotent: quiet and quick when everything is already there.
# nvcc is not a Debian package here (CUDA lives in /usr/local/cuda): we only
# check for it and say clearly what is missing.
set -euo pipefail

PACKAGES=(
  meson ninja-build pkg-config g++ python3
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
  libgtest-dev libffmpeg-nvenc-dev valgrind
  ffmpeg gstreamer1.0-libav
  python3-gi python3-gst-1.0 gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 python3-matplotlib python3-numpy
  gobject-introspection libgirepository1.0-dev
  shared-mime-info parallel jq
  prometheus-cpp-dev libsoup-3.0-dev libjson-glib-dev prometheus chromium
  libebur128-dev python3-yaml
  libgstrtspserver-1.0-dev gir1.2-gst-rtsp-server-1.0 python3-prometheus-client python3-pil
  qemu-user
  libyaml-dev libcrypt-dev libgnutls28-dev glib-networking apache2-utils python3-bcrypt curl openssl systemd
)

# Debian 13 only (GStreamer 1.26): the GstAnalytics typelib and python3-onnx,
# for tests/analytics (onnxinference, ssdobjectdetector and
# objectdetectionoverlay are in Debian 13's gstreamer1.0-plugins-bad).
if grep -qs '^VERSION_ID="13"' /etc/os-release; then
  PACKAGES+=(gir1.2-gst-plugins-bad-1.0 python3-onnx)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: nvcc not found (looked on PATH and in /usr/local/cuda/bin)." >&2
  echo "install-deps: install the CUDA toolkit (12.x or 13.x) and put its bin/ on PATH." >&2
  exit 3
fi
