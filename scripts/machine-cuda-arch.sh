#!/usr/bin/env bash
# Prints the `cuda-arch` of a build whose kernels run on this machine alone:
# the compute capabilities of its GPUs (nvidia-smi); the whole default list
# of meson_options.txt for a GPU whose capability nvidia-smi does not tell
# (drivers before 510); without a GPU, the newest of that list (what the GPU
# host runs).
#   scripts/machine-cuda-arch.sh                  e.g. 90
#   scripts/machine-cuda-arch.sh --meson-args ARGS
#                                 ARGS, with -Dcuda-arch=that unless they name cuda-arch
#
# The suites that compile the same kernels again take it (scripts/sanitize.sh's
# builds, scripts/test-trixie.sh's GStreamer 1.26 build): the kernels are the
# same code whatever the sanitizer or GStreamer version, and the default list
# is compiled once, by scripts/test.sh's main build. On CI's 2-core machine
# the kernel library's .cu files take 598 s of compiling for the five
# architectures and 270 s for one (2026-11-30).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

has_gpu() {
  command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L 2> /dev/null | grep -q '^GPU '
}

gpu_archs() {  # "90" for a compute capability of 9.0, one per GPU kind, comma separated
  local caps
  caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null | tr -d ' .' | sort -u | paste -sd,) ||
    return 1
  [[ $caps =~ ^[0-9]+(,[0-9]+)*$ ]] || return 1
  echo "$caps"
}

default_archs() {
  sed -n "s/^option('cuda-arch', type: 'string', value: '\([0-9,]*\)'.*/\1/p" "$root/meson_options.txt"
}

if ! has_gpu; then
  arch=$(default_archs | tr ',' '\n' | sort -n | tail -n 1)
elif ! arch=$(gpu_archs); then
  arch=$(default_archs)
fi
[ -n "$arch" ] || { echo "machine-cuda-arch: no cuda-arch default in meson_options.txt" >&2; exit 1; }
if [ "${1:-}" = --meson-args ]; then
  args=${2:-}
  [[ $args == *cuda-arch* ]] || args="${args:+$args }-Dcuda-arch=$arch"
  echo "$args"
else
  echo "$arch"
fi
