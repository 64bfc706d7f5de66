#!/usr/bin/env bash
# The sanitizer runs of the test suite; scripts/test.sh runs them after the
# main build's tests (on Debian 12: scripts/test-trixie.sh sets SANITIZE=0).
#   BUILD-asan  AddressSanitizer and UndefinedBehaviorSanitizer: the CPU suites
#               (the kernels' CPU backend and host tests, both elements, the
#               meta library, the refusal stress test, the tools)
#   BUILD-tsan  ThreadSanitizer: the element tests that start and stop pipelines
#               (GLib's locks made visible to it by tests/sanitizers/tsan_glib.c,
#               preloaded; what stays invisible in tests/sanitizers/tsan.supp)
# Each leaves meson's test log in its folder, for scripts/summarize_tests.py.
# Usage: scripts/sanitize.sh BUILD (the main build folder, for the names).
#
# The sanitizers instrument the C and C++ code (meson's c_args and cpp_args).
# The .cu files are compiled uninstrumented, for this machine's architecture
# alone (scripts/machine-cuda-arch.sh; the main build compiled the default
# list): their code runs only with a GPU, where compute-sanitizer checks them
# (scripts/gpuhost/sanitize.sh). meson's b_sanitize would hand -fsanitize to
# nvcc's host compiler as well; that builds and links (static cudart
# included), but instruments host code of the kernels that never runs here.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${1:?usage: scripts/sanitize.sh BUILD}
export PATH="/usr/local/cuda/bin:$PATH"

# setup DIR SANITIZER FLAGS: a build folder of the C and C++ code compiled
# with -fsanitize=SANITIZER and FLAGS, linked with -fsanitize=SANITIZER.
setup() {
  local dir=$1 sanitizer=$2 flags=$3
  [ -f "$dir/build.ninja" ] && return 0
  local args
  args=$(bash scripts/machine-cuda-arch.sh --meson-args "${MESON_ARGS:-}") || return 1
  meson setup "$dir" $args -Dbench=disabled -Dexamples=disabled -Dintrospection=disabled \
    -Db_lundef=false -Dc_args="-fsanitize=$sanitizer $flags" -Dcpp_args="-fsanitize=$sanitizer $flags" \
    -Dc_link_args="-fsanitize=$sanitizer" -Dcpp_link_args="-fsanitize=$sanitizer"
}

# run_tests DIR TEST...: runs those of the tests the build defines (the
# monitor's need its optional dependencies); meson test builds what they need.
# Each test's command runs behind $WRAPPER, when set.
run_tests() {
  local dir=$1; shift
  local defined=() t
  mapfile -t defined < <(meson test -C "$dir" --list --no-rebuild 2>/dev/null | sed 's/^[^:]*:[^ ]* \/ //; s/^[^ ]* \/ //')
  local chosen=()
  for t in "$@"; do
    printf '%s\n' "${defined[@]}" | grep -qxF "$t" && chosen+=("$t")
  done
  rm -f "$dir"/meson-logs/testlog.json
  meson test -C "$dir" ${WRAPPER:+--wrapper="$WRAPPER"} --print-errorlogs --num-processes "${TEST_JOBS:-2}" \
    --timeout-multiplier "${SANITIZE_TIMEOUT_MULTIPLIER:-3}" "${chosen[@]}"
  local rc=$?
  # meson names the log of a run behind a wrapper after it (testlog-env.json).
  if [ -n "${WRAPPER:-}" ]; then mv "$dir/meson-logs/testlog-${WRAPPER%% *}.json" "$dir/meson-logs/testlog.json"; fi
  return $rc
}

# scanner DIR OPTIONS RUNTIME...: DIR/gst-plugin-scanner, the system's
# gst-plugin-scanner with the sanitizer RUNTIMEs preloaded and OPTIONS in its
# environment. The scanner is not instrumented and cannot load an
# instrumented plugin otherwise; and what the system's plugins it loads do
# (a leak, a mutex misuse in libOpenNI2) is not ours to find, so OPTIONS turn
# the reports off there. Prints its path, for GST_PLUGIN_SCANNER.
scanner() {
  local dir=$1 options=$2 lib preload=""; shift 2
  for lib in "$@"; do preload="$preload $(cc -print-file-name="$lib")"; done
  cat > "$dir/gst-plugin-scanner" <<SCANNER
#!/bin/sh
LD_PRELOAD="${preload# }" $options exec "$(pkg-config --variable=pluginscannerdir gstreamer-1.0)/gst-plugin-scanner" "\$@"
SCANNER
  chmod +x "$dir/gst-plugin-scanner"
  realpath "$dir/gst-plugin-scanner"
}

status=0

# AddressSanitizer + UndefinedBehaviorSanitizer. The refusals through
# gst-launch-1.0 stay with the main build: gst-launch-1.0 is not instrumented
# either. -O1: the sanitizers' advice, and it compiles in a fraction of the time.
if [ "${SANITIZE_ASAN:-1}" = 1 ]; then
  setup "$build-asan" address,undefined "-O1 -fno-sanitize-recover=all -fno-omit-frame-pointer -g" || status=1
  # Whole stacks of every allocation (fast_unwind_on_malloc=0: GLib has no
  # frame pointers), so that lsan.supp can name where GLib's own blocks come from.
  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:fast_unwind_on_malloc=0 \
  LSAN_OPTIONS=suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  GST_PLUGIN_SCANNER=$(scanner "$build-asan" ASAN_OPTIONS=detect_leaks=0 libasan.so libubsan.so) \
  GTEST_FILTER='-*GstLaunch*' \
    run_tests "$build-asan" cpu kernels meta element scope_render scope_element refusal_stress \
      tools_analysis_pipeline monitor_rules "cudahist-qc vs ffprobe" || status=1
fi

# ThreadSanitizer over the tests that start and stop pipelines and set
# properties from other threads while frames flow.
if [ "${SANITIZE_TSAN:-1}" = 1 ]; then
  setup "$build-tsan" thread "-O1 -g" || status=1
  tsan_glib=$(realpath "$build-tsan")/tsan_glib.so
  cc -shared -fPIC -O1 -g -fsanitize=thread $(pkg-config --cflags glib-2.0) tests/sanitizers/tsan_glib.c \
    -o "$tsan_glib" -ldl || status=1
  WRAPPER="env LD_PRELOAD=$tsan_glib" \
  TSAN_OPTIONS="suppressions=$root/tests/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1" \
  GST_PLUGIN_SCANNER=$(scanner "$build-tsan" TSAN_OPTIONS=report_bugs=0 libtsan.so) \
  GTEST_FILTER='Pipeline.*:*StateCycles*:*Renegotiation*:Flow.*:System/Refusal.*' \
    run_tests "$build-tsan" element scope_element refusal_stress || status=1
fi

exit $status
