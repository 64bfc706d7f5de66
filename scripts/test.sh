#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds ./build (or
# $BUILD_DIR), runs every meson test (GoogleTest suites, element tests,
# example tests, the valgrind run), then the sanitizer builds' runs
# (scripts/sanitize.sh; SANITIZE=0 leaves them out) and ends with one line:
#   N passed, N failed, N skipped
# counted per test case (GoogleTest cases one by one, other tests as one
# each). Exits non-zero when anything failed or did not build. GPU tests skip
# on a machine without a CUDA device and say why; nothing else skips.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${BUILD_DIR:-build}

fail_early() { echo "test.sh: $1" >&2; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

bash scripts/install-deps.sh || fail_early "installing dependencies failed"
export PATH="/usr/local/cuda/bin:$PATH"

# A test build: the elements read the test hooks (meson_options.txt's
# test-hooks) that the CUDA-error test needs.
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dtest-hooks=true ${MESON_ARGS:-} || fail_early "meson setup failed"
elif [ "$(meson introspect "$build" --buildoptions | python3 -c 'import json, sys
print(any(o["name"] == "test-hooks" and o["value"] for o in json.load(sys.stdin)))')" != True ]; then
  meson setup --reconfigure "$build" -Dtest-hooks=true || fail_early "meson setup -Dtest-hooks=true failed"
fi
ninja -C "$build" || fail_early "the build failed"

rm -f "$build"/meson-logs/testlog.json
meson test -C "$build" --print-errorlogs --num-processes "${TEST_JOBS:-2}" \
  --timeout-multiplier "${TIMEOUT_MULTIPLIER:-1}"
meson_rc=$?

builds=("$build")
if [ "${SANITIZE:-1}" = 1 ]; then
  bash scripts/sanitize.sh "$build"
  builds+=("$build-asan" "$build-tsan")
fi

python3 scripts/summarize_tests.py "${builds[@]}"
summary_rc=$?
[ "$meson_rc" -eq 0 ] && [ "$summary_rc" -eq 0 ]
