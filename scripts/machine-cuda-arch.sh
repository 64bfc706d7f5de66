#!/usr/bin/env bash
# Prints the `cuda-arch` of a build whose kernels run on this machine alone:
# the compute capabilities of its GPUs (nvidia-smi), or, without a GPU, the
# newest of meson_options.txt's default list (what the GPU host runs).
#   scripts/machine-cuda-arch.sh                  e.g. 90
#   scripts/machine-cuda-arch.sh --meson-args ARGS
#                                 ARGS, with -Dcuda-arch=that unless they name cuda-arch
#
# The suites that compile the same kernels again take it (scripts/sanitize.sh's
# builds, scripts/test-trixie.sh's GStreamer 1.26 build): the kernels are the
# same code whatever the sanitizer or GStreamer version, and the default list
# is compiled once, by scripts/test.sh's main build. Five architectures
# compiled four times were most of CI's build time.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

gpu_archs() {  # "90" for a compute capability of 9.0, one per GPU kind, comma separated
  command -v nvidia-smi > /dev/null 2>&1 || return 1
  local caps
  caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null | tr -d ' .' | sort -u | paste -sd,) ||
    return 1
  [[ $caps =~ ^[0-9]+(,[0-9]+)*$ ]] || return 1
  echo "$caps"
}

newest_default_arch() {
  sed -n "s/^option('cuda-arch', type: 'string', value: '\([0-9,]*\)'.*/\1/p" "$root/meson_options.txt" | tr ',' '\n' |
    sort -n | tail -n 1
}

arch=$(gpu_archs) || arch=$(newest_default_arch)
[ -n "$arch" ] || { echo "machine-cuda-arch: no GPU, and no cuda-arch default in meson_options.txt" >&2; exit 1; }
if [ "${1:-}" = --meson-args ]; then
  args=${2:-}
  [[ $args == *cuda-arch* ]] || args="${args:+$args }-Dcuda-arch=$arch"
  echo "$args"
else
  echo "$arch"
fi
