#!/usr/bin/env bash
# The whole test suite again against GStreamer 1.26: scripts/test.sh inside a
# Debian 13 root (scripts/in-trixie.sh), building into build-trixie (or
# $BUILD_DIR_TRIXIE) with the kernels for this machine's architecture alone
# (scripts/machine-cuda-arch.sh: they are the same code as 1.22's, whose
# build compiles the default list); the sanitizer runs are Debian 12's alone.
# Its last line is scripts/test.sh's:
#   N passed, N failed, N skipped
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
meson_args=$(bash scripts/machine-cuda-arch.sh --meson-args "${MESON_ARGS:-}") || {
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
}
bash scripts/in-trixie.sh env BUILD_DIR="${BUILD_DIR_TRIXIE:-build-trixie}" MESON_ARGS="$meson_args" \
  TEST_JOBS="${TEST_JOBS:-2}" TIMEOUT_MULTIPLIER="${TIMEOUT_MULTIPLIER:-1}" SANITIZE=0 bash scripts/test.sh
rc=$?
# A failure before scripts/test.sh ran (no root, no mirror) still ends with a count.
if [ "$rc" -ne 0 ] && [ ! -f "${BUILD_DIR_TRIXIE:-build-trixie}/meson-logs/testlog.json" ]; then
  echo "test-trixie: the Debian 13 root could not be made or entered (exit $rc)" >&2
  echo "0 passed, 1 failed, 0 skipped"
fi
exit "$rc"
